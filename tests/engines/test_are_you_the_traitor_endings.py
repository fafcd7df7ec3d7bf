"""Are You the Traitor? endings: ties, round limit, GameBench options, random playouts, end_reason."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from gameplay.engines.api import InvalidOptionsError
from gameplay.engines.are_you_the_traitor import TraitorGame
from gameplay.engines.are_you_the_traitor.deck import characters_for, treasure_deck

from .conformance import check_playouts
from .traitor_support import FIVE, finish_ring_step, ids, state_with

# --- the end ------------------------------------------------------------------------------------------------


def test_equal_highest_totals_share_the_win():
    state2 = state_with(*FIVE, options={"max_rounds": 1}, actor=4)
    state2.hands = [["crown_jewels"], ["crown_jewels"], [], [], []]
    state2.deck += ["gilded_statue"] * 3
    state2.apply_action(4, "stop:0")
    finish_ring_step(state2)
    assert state2.is_terminal() and state2.ending == "max_rounds"
    assert state2.scores() == [0.5, 0.5, 0.0, 0.0, 0.0]
    assert state2.measures(0)["won"] is True and state2.measures(2)["won"] is False
    assert state2.result_text().startswith("Final points: Player 1 5, Player 2 5")


def test_max_rounds_ends_the_game_and_the_leader_wins():
    state = state_with(*FIVE, options={"max_rounds": 1}, actor=4)
    state.deck.append("chest_of_copper")
    state.deck.append("bag_of_gold")
    state.deck.append("silver_goblet")
    state.apply_action(4, "stop:0")
    finish_ring_step(state)
    # Cards are drawn from the caller on round the table: Player 5, then Player 3, then Player 4.
    assert state.is_terminal() and state.totals() == [0, 0, 3, 1, 2]
    assert state.scores() == [0, 0, 1, 0, 0]
    assert state.measures(2) == {"points": 3, "rounds_won": 1, "won": True}
    assert "Player 4 drew Chest of Copper (1)." in state.observation(None).text  # the end reveals everything
    assert state.secrets() == {s: [] for s in range(5)}


# --- GameBench options --------------------------------------------------------------------------------------


def test_gamebench_fixed_roles_keep_the_five_seat_table_every_round():
    game = TraitorGame({"gamebench_fixed_roles": True}, 5)
    state = game.new_initial_state(9)
    for _ in range(3):
        assert (state.characters, state.alignments) == FIVE
        seat = state.current_seats()[0]
        legal = ids(state, seat)
        state.apply_action(seat, legal[-1] if len(legal) > 1 else "pass")
        finish_ring_step(state)
    assert "You are a Traitor" in state.observation(0).text
    four = TraitorGame({"gamebench_fixed_roles": True}, 4).new_initial_state(3)
    first = (list(four.characters), list(four.alignments))
    four.apply_action(four.current_seats()[0], "pass")
    while four.round_no == 1:
        seat = four.current_seats()[0]
        four.apply_action(seat, ids(four, seat)[-1])
    assert (four.characters, four.alignments) == first
    assert TraitorGame({"gamebench_fixed_roles": True, "gamebench_team_win": True}, 5).teams() == [1, 1, 0, 0, 0]
    assert TraitorGame({"gamebench_team_win": True}, 5).teams() == [0, 1, 2, 3, 4]  # teams change every round


def test_gamebench_team_win_gives_the_leaders_team_the_game():
    state = state_with(*FIVE, options={"gamebench_team_win": True}, actor=4)
    state.hands = [[], [], ["crown_jewels", "crown_jewels"], [], []]
    state.deck.append("gilded_statue")
    state.deck.append("gilded_statue")
    state.deck.append("gilded_statue")
    state.apply_action(4, "stop:0")  # Good wins; Player 3 reaches 10 with a Gilded Statue
    finish_ring_step(state)
    assert state.is_terminal()
    assert state.scores() == pytest.approx([0, 0, 1 / 3, 1 / 3, 1 / 3])


def test_options_are_validated():
    for bad in ({"target_points": 0}, {"max_rounds": 0}, {"ticks_before_handoff": -1}, {"nope": 1}):
        with pytest.raises(InvalidOptionsError):
            TraitorGame(bad, 5)
    with pytest.raises(InvalidOptionsError):
        TraitorGame({}, 3)
    with pytest.raises(InvalidOptionsError):
        TraitorGame({}, 11)


# --- random play with invariants ----------------------------------------------------------------------------


def _conserved(state):
    cards = Counter(state.deck) + Counter(state.discard)
    for hand in state.hands:
        cards += Counter(hand)
    return cards == Counter(treasure_deck())


@pytest.mark.parametrize("seats", [4, 7, 10])
def test_random_games_conserve_treasure_score_validly_and_replay(seats):
    for seed in range(6):
        options = {"gamebench_fixed_roles": True, "gamebench_team_win": True} if seed % 3 == 2 else {}
        game = TraitorGame(options, seats)
        rng = random.Random(seed)
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            seat = state.current_seats()[0]
            legal = ids(state, seat)
            if state.text_actions(seat) and rng.random() < 0.3:
                state.apply_action(seat, "say", rng.choice(["hello", "I trust Player 2", "who has the Key?"]))
            else:
                state.apply_action(seat, rng.choice(legal))
            assert _conserved(state)
            assert sorted(state.characters) == sorted(characters_for(seats))
            assert len(state.log) < game.max_actions()
        assert state.ending in ("target", "max_rounds")
        if state.ending == "target":
            assert max(state.totals()) >= 10
        scores = state.scores()
        assert abs(sum(scores) - 1) < 1e-9 and all(0 <= s <= 1 for s in scores)
        assert game.replay(seed, state.log).to_json() == state.to_json()
        assert game.state_from_json(json.loads(json.dumps(state.to_json()))).to_json() == state.to_json()


@pytest.mark.parametrize("seats,options", [
    pytest.param(4, {}, id="4"),
    pytest.param(7, {}, id="7"),
    pytest.param(10, {}, id="10"),
    pytest.param(5, {"gamebench_fixed_roles": True, "gamebench_team_win": True}, id="5-gamebench"),
    pytest.param(8, {"ticks_before_handoff": 0, "target_points": 5}, id="8-no-talk"),
])
def test_conformance_at_more_seats_and_with_variants(seats, options):
    finals = check_playouts(lambda: TraitorGame(options, seats), n_playouts=12, base_seed=300)
    assert all(state.is_terminal() for state in finals)


# --- why the game ended (State.end_reason) and the wording of a draw ------------------------------------------


def _one_good_round(hands, options=None):
    """Player 5 (Guard) catches the Traitor at once: Players 5, 3 and 4 each draw a Gilded Statue (0 points)."""
    state = state_with(*FIVE, options=options, actor=4)
    state.hands = [list(h) for h in hands]
    state.deck += ["gilded_statue"] * 3
    assert state.end_reason() is None
    state.apply_action(4, "stop:0")
    finish_ring_step(state)
    assert state.is_terminal()
    return state


def test_end_reason_the_target_reached():
    state = _one_good_round([[], [], ["crown_jewels", "crown_jewels"], [], []])
    assert state.ending == "target"
    assert state.end_reason() == "Player 3 reached the 10-point target in round 1, with the most points (10)."


def test_end_reason_the_target_reached_by_two_tied_leaders():
    state = _one_good_round([[], [], ["crown_jewels", "crown_jewels"], ["crown_jewels", "crown_jewels"], []])
    assert state.scores() == [0.0, 0.0, 0.5, 0.5, 0.0]
    assert state.end_reason() == ("Player 3 and Player 4 reached the 10-point target in round 1, tied for the most "
                                  "points (10 each).")


def test_end_reason_the_target_with_gamebench_team_win():
    state = _one_good_round([[], [], ["crown_jewels", "crown_jewels"], [], []], {"gamebench_team_win": True})
    assert state.end_reason() == ("Player 3 reached the 10-point target in round 1, with the most points (10). Under "
                                  "GameBench's team result the leader's whole team of the last round (Good) shares "
                                  "the win.")


def test_end_reason_the_round_limit_with_one_leader():
    state = state_with(*FIVE, options={"max_rounds": 1}, actor=4)
    state.deck += ["chest_of_copper", "bag_of_gold", "silver_goblet"]
    state.apply_action(4, "stop:0")
    finish_ring_step(state)
    assert state.ending == "max_rounds" and state.totals() == [0, 0, 3, 1, 2]
    assert state.end_reason() == ("The 1-round limit was reached with nobody at the 10-point target; Player 3 "
                                  "finished with the most points (3).")
    assert state.result_text().endswith(". Winner(s): Player 3.")


def test_end_reason_the_round_limit_with_tied_leaders():
    state = _one_good_round([["crown_jewels"], ["crown_jewels"], [], [], []], {"max_rounds": 1})
    assert state.ending == "max_rounds"
    assert state.end_reason() == ("The 1-round limit was reached with nobody at the 10-point target; Player 1 and "
                                  "Player 2 finished tied for the most points (5 each).")


def test_everyone_on_equal_points_is_a_draw_in_the_engines_words_too():
    state = _one_good_round([[], [], [], [], []], {"max_rounds": 1})
    assert state.scores() == [0.2] * 5
    assert state.end_reason() == ("The 1-round limit was reached with nobody at the 10-point target; everyone "
                                  "finished with 0 points each.")
    assert state.result_text() == ("Final points: Player 1 0, Player 2 0, Player 3 0, Player 4 0, Player 5 0. The "
                                   "game is a draw: every player shares the result.")
    assert "The game is a draw: every player shares the result." in state.observation(0).text
    assert "Winner(s)" not in state.observation(None).text


def test_gamebench_team_win_with_leaders_on_both_teams_is_a_draw():
    state = _one_good_round([["crown_jewels"], [], ["crown_jewels"], [], []],
                            {"max_rounds": 1, "gamebench_team_win": True})
    assert state.scores() == [0.2] * 5
    assert state.end_reason() == ("The 1-round limit was reached with nobody at the 10-point target; Player 1 and "
                                  "Player 3 finished tied for the most points (5 each). The leaders are on both "
                                  "teams, so under GameBench's team result everyone shares the result.")
    assert "The game is a draw" in state.result_text()
    assert state.to_json()["payload"]["end_reason"] == "max_rounds" and state.clone().ending == "max_rounds"
