"""The endings of the card games, each way Arctic Scavengers, Pit and Codenames end by their rules as an Ending from
a position just before it: test_card_games.py plays them through the platform, test_every_game_covered.py checks
that they cover every game."""

from __future__ import annotations

from gameplay.engines.arctic_scavengers.cards import people
from tests.engines.arctic_support import new_state as arctic_state
from tests.engines.arctic_support import set_hand, to_skirmish_round
from tests.engines.codenames_support import ASSASSIN_CELL, BLUE_CELL, KEY
from tests.engines.codenames_support import clue as codenames_clue
from tests.engines.codenames_support import guess as codenames_guess
from tests.engines.codenames_support import position as codenames_position
from tests.engines.pit_support import state_with as pit_state

from .support import Ending, moves_to_the_end

# --- Arctic Scavengers: the contested pile runs out (its only ending), then people, then skirmishes won ------------


def arctic_last_skirmish(wanted: list[int], skirmishes: list[int] | None = None, **options):
    """The skirmish round that takes the one contested resource (contested_count 1): every tribe is about to keep a
    lone Refugee (a tie: the resource goes to the junkyard), with Refugees in its discard so that it ends with
    ``wanted`` people, and ``skirmishes`` won so far."""
    state = arctic_state(len(wanted), contested_count=1, **options)
    to_skirmish_round(state)
    for seat, count in enumerate(wanted):
        set_hand(state, seat, ["refugee"])
        have = people(state.owned(seat))
        assert have <= count
        state.discards[seat].extend(["refugee"] * (count - have))
    if skirmishes is not None:
        state.skirmishes_won = list(skirmishes)
    return state


def keep_everything(state, seat):
    legal = {a.id for a in state.legal_actions(seat)}
    return next(a for a in ("keep", "end_turn", "skirmish_done") if a in legal)


def arctic(ending_id, wanted, winners, reason, skirmishes=None, **options):
    def build():
        return arctic_last_skirmish(wanted, skirmishes, **options)

    return Ending(ending_id, "arctic_scavengers", build, lambda: moves_to_the_end(build, keep_everything), winners,
                  reason)


TIEBREAK = {"tiebreak_skirmishes": True}
ARCTIC = [
    arctic("arctic_scavengers-most-people", [20, 15], (0,),
           "The contested pile ran out after round 3; North Tribe has the most people (North Tribe 20, "
           "East Tribe 15)."),
    arctic("arctic_scavengers-some-tribes-tied-share", [18, 16, 18], (0, 2),
           "with North Tribe and South Tribe tied on 18 people."),
    arctic("arctic_scavengers-every-tribe-tied-draw", [18, 18, 18], (),
           "The contested pile ran out after round 3 with every tribe on 18 people."),
    arctic("arctic_scavengers-skirmishes-break-the-tie", [18, 18], (0,),
           "most skirmishes won breaks the tie (North Tribe 2, East Tribe 1).", [2, 1], **TIEBREAK),
    arctic("arctic_scavengers-skirmishes-break-a-tie-of-some", [18, 16, 18], (2,),
           "with North Tribe and South Tribe tied on 18 people; most skirmishes won breaks the tie", [0, 3, 1],
           **TIEBREAK),
    arctic("arctic_scavengers-skirmishes-level-too", [18, 18], (),
           "with every tribe on 18 people and 1 skirmish won each.", [1, 1], **TIEBREAK),
]

# --- Pit: a corner reaching the target, or the hand limit (after a corner, or at the tick cap) -----------------------

FULL_HANDS = [["wheat"] * 9, ["barley"] * 9, ["corn"] * 9]


def pit_totals(totals, hands=FULL_HANDS, **options):
    state = pit_state(hands, options)
    state.totals = list(totals)
    return state


def pit_hand_limit_at_tick_cap(totals, **options):
    """The last tick of the last hand (tick cap 1, one hand), no corner made: every seat's pass ends the game."""
    def build():
        state = pit_totals(totals, **options, tick_cap=1, max_hands=1)
        state.corners_made = [False] * len(totals)
        return state

    return build


PASSES = ((0, "pass"), (1, "pass"), (2, "pass"))
SHARES = {"gamebench_share_scores": True}
PIT = [
    Ending("pit-corner-reaches-the-target", "pit", lambda: pit_totals([450, 0, 0]), ((0, "corner:wheat"),), (0,),
           "Player 1 cornered Wheat (+100) and reached the 500-point target (Player 1 550, Player 2 0, Player 3 0)."),
    Ending("pit-hand-limit-after-a-corner-one-leader", "pit", lambda: pit_totals([0, 50, -20], max_hands=1),
           ((0, "corner:wheat"),), (0,),
           "hand 1 ended with Player 1 cornering Wheat (+100); Player 1 has the most points"),
    Ending("pit-hand-limit-after-a-corner-shared-lead", "pit", lambda: pit_totals([0, 100, -20], max_hands=1),
           ((0, "corner:wheat"),), (0, 1), "Player 1 and Player 2 share the most points"),
    Ending("pit-hand-limit-at-tick-cap-leader", "pit", pit_hand_limit_at_tick_cap([0, 85, 0]), PASSES, (1,),
           "hand 1 ended without a corner at the 1-tick cap; Player 2 has the most points"),
    Ending("pit-hand-limit-at-tick-cap-nobody-cornered", "pit", pit_hand_limit_at_tick_cap([0, 0, 0]), PASSES, (),
           "nobody cornered a market, so every total is 0."),
    Ending("pit-hand-limit-every-total-equal", "pit", pit_hand_limit_at_tick_cap([60, 60, 60]), PASSES, (),
           "every total is 60."),
    Ending("pit-share-scores-leader", "pit", lambda: pit_totals([0, 40, 0], max_hands=1, **SHARES),
           ((0, "corner:wheat"),), (0,),
           "Player 1 has the most points (Player 1 100, Player 2 40, Player 3 0). Each player scores its share"),
    Ending("pit-share-scores-nobody-positive", "pit", pit_hand_limit_at_tick_cap([-20, -20, 0], **SHARES), PASSES,
           (), "nobody has positive points, so the shares are even"),
]

# --- Codenames: the assassin, a team's last agent revealed (a guess, or the penalty's cover), the turn cap ----------

RED, BLUE = (0, 2), (1, 3)  # at four seats: Spymasters 0 and 1, Operatives 2 and 3


def codenames_after(options=None, revealed=(), clue_text=None, guesses=(), seats=4):
    def build():
        state = codenames_position(seats=seats, options=options)
        for cell in revealed:
            state.revealed[cell] = True
        if clue_text is not None:
            codenames_clue(state, clue_text)
        for cell in guesses:
            codenames_guess(state, cell)
        return state

    return build


def codenames_capped(red_guesses, key=KEY, **options):
    """Ten team turns (max_turns 10) of a clue and End turn, Red guessing its first ``red_guesses`` agents first,
    all but the last End turn."""
    def build():
        state = codenames_position(options={"gamebench_end_turn_anytime": True, "max_turns": 10, **options})
        state.key = list(key)
        for turn in range(10):
            codenames_clue(state, "fruit,2")
            for cell in range(red_guesses if turn == 0 else 0):
                codenames_guess(state, cell)
            if turn < 9:
                state.apply_action(state.current_seats()[0], "end_turn")
        return state

    return build


EIGHT_EACH = ["red"] * 8 + ["bystander"] + KEY[9:]
CODENAMES = [
    Ending("codenames-assassin", "codenames", codenames_after(clue_text="fruit,3", guesses=(0,)),
           ((2, f"guess:{ASSASSIN_CELL}"),), BLUE, "Player 3 (Red Operative) picked the assassin, ZEBRA."),
    Ending("codenames-last-own-agent-guessed", "codenames",
           codenames_after(revealed=range(8), clue_text="fruit,1"), ((2, "guess:8"),), RED,
           "All 9 Red agents are revealed; Player 3 (Red Operative) guessed the last one, ISLAND."),
    Ending("codenames-last-other-agent-guessed", "codenames",
           codenames_after(revealed=range(BLUE_CELL, BLUE_CELL + 7), clue_text="fruit,2", guesses=(0,)),
           ((2, "guess:16"),), BLUE, "All 8 Blue agents are revealed; Player 3 (Red Operative) guessed the last one"),
    Ending("codenames-last-agent-covered-as-penalty", "codenames",
           codenames_after({"invalid_clue_penalty": True}, revealed=range(9, 16), clue_text="apple,2"),
           ((1, "cover:16"),), BLUE, "covered the last one, QUEEN, as the penalty for Red's invalid clue."),
    Ending("codenames-turn-cap-fewer-agents-left", "codenames", codenames_capped(2), ((3, "end_turn"),), RED,
           "The turn cap of 10 team turns was reached; Red has fewer agents left (7 to 8)."),
    Ending("codenames-turn-cap-level", "codenames", codenames_capped(0, key=EIGHT_EACH), ((3, "end_turn"),), (),
           "The turn cap of 10 team turns was reached with 8 agents left to each team."),
    Ending("codenames-turn-cap-gamebench-scores", "codenames", codenames_capped(1, gamebench_scores=True),
           ((3, "end_turn"),), RED, "by GameBench's scores Red found more (1 agent to 0)."),
]

ENDINGS = ARCTIC + PIT + CODENAMES
