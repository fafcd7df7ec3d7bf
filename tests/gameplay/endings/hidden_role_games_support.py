"""The endings of the hidden-role games, each way Two Rooms and a Boom, Are You the Traitor? and Who is Spy end by
their rules as an Ending from a position just before it: test_hidden_role_games.py plays them through the
platform, test_every_game_covered.py checks that they cover every game, and the builders of the Traitor and
Who is Spy positions serve the timeout endings too (timeout_endings_support.py)."""

from __future__ import annotations

import random
from functools import cache

from gameplay.engines.two_rooms_and_a_boom.cards import BOMBER, GAMBLER, PRESIDENT, RED, team_of
from tests.engines.traitor_support import FIVE
from tests.engines.traitor_support import state_with as traitor_state
from tests.engines.two_rooms_support import new_state as two_rooms_state
from tests.engines.two_rooms_support import play_random as two_rooms_random
from tests.engines.who_is_spy_support import describe_round, spy_and_villagers, to_speaker
from tests.engines.who_is_spy_support import new_state as spy_state
from tests.engines.who_is_spy_support import vote as spy_vote

from .support import Ending, moves_to_the_end

# --- Two Rooms and a Boom: where the President and the Bomber are after the last exchange, and the Gambler's bet -----


@cache
def two_rooms_game(seats: int, seed: int, until_gamble: bool) -> tuple[tuple, tuple]:
    """A seeded random game's moves, to its end (or to the Gambler's bet), and the rooms everyone ends in."""
    until = (lambda s: s.phase == "gamble") if until_gamble else (lambda s: s.is_terminal())
    state = two_rooms_random(two_rooms_state(seats, seed), random.Random(seed), until=until)
    return tuple((r.seat, r.action_id, r.text) for r in state.log), tuple(state.rooms)


def deal_for_the_end(state, rooms, together: bool) -> None:
    """Deal the cards again so that after the last exchange (``rooms``) the Bomber is, or is not, in the President's
    room (as tests/engines/test_two_rooms_and_a_boom.arrange does on a finished game)."""
    a = [s for s, r in enumerate(rooms) if r == 0]
    b = [s for s, r in enumerate(rooms) if r == 1]
    others = iter(c for c in state.cards if c not in (PRESIDENT, BOMBER))
    cards = {a[0]: PRESIDENT, (a[1] if together else b[0]): BOMBER}
    state.cards = [cards.get(s) or next(others) for s in range(len(state.cards))]


def two_rooms(ending_id, seats, seed, together, bet, reason):
    moves, rooms = two_rooms_game(seats, seed, bet is not None)
    played = moves if bet is not None else moves[:-1]

    def build():
        state = two_rooms_state(seats, seed)
        for move in played:
            state.apply_action(*move)
        deal_for_the_end(state, rooms, together)
        return state

    def final():
        if bet is None:
            return (moves[-1],)
        return ((build().cards.index(GAMBLER), f"gamble:{bet}"),)

    def winners(state):
        team = RED if together else "blue"
        camp = {s for s, card in enumerate(state.cards) if team_of(card) == team}
        return tuple(camp | ({state.cards.index(GAMBLER)} if bet == team else set()))

    return Ending(ending_id, "two_rooms_and_a_boom", build, final, winners, reason)


TWO_ROOMS = [
    two_rooms("two_rooms_and_a_boom-bomber-with-president", 8, 3, True, None,
              "After the last hostage exchange the Bomber (Player"),
    two_rooms("two_rooms_and_a_boom-president-away-from-bomber", 8, 3, False, None,
              "After the last hostage exchange the President (Player"),
    two_rooms("two_rooms_and_a_boom-gambler-right", 7, 11, True, "red", "bet on Red and was right."),
    two_rooms("two_rooms_and_a_boom-gambler-wrong", 7, 11, True, "blue", "bet on Blue and was wrong."),
    two_rooms("two_rooms_and_a_boom-gambler-right-on-blue", 7, 11, False, "blue", "bet on Blue and was right."),
]

# --- Are You the Traitor?: the target reached, or the round cap, with the most points (GameBench's team result) ----
# Five seats: Player 1 Traitor, Player 2 Evil Wizard, Player 3 Good Wizard, Player 4 Keyholder, Player 5 Guard. The
# Guard catches the Traitor at once: the Good players (3, 4 and 5) each draw the card put on top of the deck.

CJ = "crown_jewels"  # 5 points
GOOD = (2, 3, 4)


def traitor(ending_id, hands, winners, reason, draws=("gilded_statue",) * 3, **options):
    def build():
        state = traitor_state(*FIVE, options=options, actor=4)
        state.hands = [list(h) for h in hands]
        state.deck += list(draws)
        return state

    def choose(state, seat):
        return "stop:0" if state.phase != "ring" else "keep_ring"

    return Ending(ending_id, "are_you_the_traitor", build, lambda: moves_to_the_end(build, choose), winners, reason)


NOBODY = [[], [], [], [], []]
ONE_ROUND = {"max_rounds": 1}
TEAM = {"gamebench_team_win": True}
TRAITOR = [
    traitor("are_you_the_traitor-target-one-leader", [[], [], [CJ, CJ], [], []], (2,),
            "Player 3 reached the 10-point target in round 1, with the most points (10)."),
    traitor("are_you_the_traitor-target-tied-leaders", [[], [], [CJ, CJ], [CJ, CJ], []], (2, 3),
            "Player 3 and Player 4 reached the 10-point target in round 1, tied for the most points (10 each)."),
    traitor("are_you_the_traitor-target-everyone", [[CJ, CJ]] * 5, (),
            "Everyone reached the 10-point target in round 1, with 10 points each."),
    traitor("are_you_the_traitor-target-team-win", [[], [], [CJ, CJ], [], []], GOOD,
            "Under GameBench's team result the leader's whole team of the last round (Good) shares the win.", **TEAM),
    traitor("are_you_the_traitor-round-limit-one-leader", NOBODY, (2,),
            "The 1-round limit was reached with nobody at the 10-point target; Player 3 finished with the most "
            "points (3).", draws=("chest_of_copper", "bag_of_gold", "silver_goblet"), **ONE_ROUND),
    traitor("are_you_the_traitor-round-limit-tied-leaders", [[CJ], [CJ], [], [], []], (0, 1),
            "Player 1 and Player 2 finished tied for the most points (5 each).", **ONE_ROUND),
    traitor("are_you_the_traitor-round-limit-everyone-level", NOBODY, (),
            "everyone finished with 0 points each.", **ONE_ROUND),
    traitor("are_you_the_traitor-round-limit-team-win-one-team", [[], [], [CJ], [CJ], []], GOOD,
            "Under GameBench's team result the leaders' whole team of the last round (Good) shares the win.",
            **ONE_ROUND, **TEAM),
    traitor("are_you_the_traitor-round-limit-team-win-both-teams", [[CJ], [], [CJ], [], []], (),
            "The leaders are on both teams, so under GameBench's team result everyone shares the result.",
            **ONE_ROUND, **TEAM),
]

# --- Who is Spy: a spy names the word, the round limit, the last spy out, the spies no longer outnumbered -----------


def spy(ending_id, build, final, winners, reason):
    """``final``: the last moves, worked out from the position (the ballots of the deciding vote, or a guess)."""
    return Ending(ending_id, "who_is_spy", build, lambda: tuple(final(build())), winners, reason)


def ballots(table):
    return lambda state: [(voter, f"vote:{target}") for voter, target in table(state).items()]


def spies(state):
    return tuple(state.spies)


def villagers(state):
    return tuple(spy_and_villagers(state)[1])


def described(seed, rounds=(), **options):
    """A table of Pair 0 after ``rounds`` (each a ballot table applied after a described round), describing again."""
    def build():
        state = spy_state(seed=seed, **options)
        for table in rounds:
            describe_round(state)
            spy_vote(state, table(state))
        describe_round(state)
        return state

    return build


def at_speaker(seat, seed, **options):
    def build():
        state = spy_state(seed=seed, spy_guess=True, spy_seat=seat, **options)
        to_speaker(state, seat)
        return state

    return build


def out_first(pick):
    """Everyone votes out ``pick(state)``, who votes for a villager still in."""
    def table(state):
        target = pick(state)
        other = next(v for v in villagers(state) if v != target and v in state.alive_seats())
        return {s: target for s in state.alive_seats() if s != target} | {target: other}

    return table


def everyone_tied(state):
    alive = state.alive_seats()
    return {s: alive[(i + 1) % len(alive)] for i, s in enumerate(alive)}


SIX_TWO_SPIES = {"seats": 6, "spies": 2}
WHO_IS_SPY = [
    spy("who_is_spy-every-spy-voted-out", described(8, spy_seat=2), ballots(lambda s: {0: 2, 1: 2, 3: 2, 2: 0}),
        villagers, "Every spy is out: Player 3 was voted out in round 1."),
    spy("who_is_spy-last-spy-out-by-a-wrong-guess", at_speaker(2, 12), lambda s: [(2, "spy_guess", "lemonade")],
        villagers, "Every spy is out: Player 3 went out in round 1 with a wrong guess of the villagers' word."),
    spy("who_is_spy-spy-named-the-word", at_speaker(1, 12), lambda s: [(1, "spy_guess", s.villager_word.upper())],
        spies, "Player 2, a spy, named the villagers' word"),
    spy("who_is_spy-spies-as-many-as-villagers", described(5, [lambda s: {0: 1, 1: 0, 2: 0, 3: 0}], spy_seat=2),
        ballots(lambda s: {1: 3, 2: 3, 3: 1}), spies,
        "The spies still in are as many as the villagers (1 to 1) after Player 4 was voted out in round 2."),
    spy("who_is_spy-two-spies-as-many-as-villagers",
        described(9, [out_first(lambda s: villagers(s)[0])], **SIX_TWO_SPIES),
        ballots(out_first(lambda s: villagers(s)[1])), spies,
        "The spies still in are as many as the villagers (2 to 2)"),
    spy("who_is_spy-round-limit-the-spy-still-in", described(6, [everyone_tied], max_rounds=2, spy_seat=3),
        ballots(everyone_tied), spies, "The round limit of 2 rounds was reached with the spy, Player 4, still in."),
    spy("who_is_spy-round-limit-one-of-two-spies-still-in",
        described(9, [out_first(lambda s: spies(s)[0])], max_rounds=2, **SIX_TWO_SPIES), ballots(everyone_tied),
        spies, "The round limit of 2 rounds was reached with 1 of the 2 spies still in"),
]

ENDINGS = TWO_ROOMS + TRAITOR + WHO_IS_SPY
