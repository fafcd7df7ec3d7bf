"""Santorini engine contract: capabilities, illegal actions, options, observations, JSON, the turn cap, last-move
marks, plus hypothesis property tests."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gameplay.engines.api import IllegalActionError, InvalidOptionsError
from gameplay.engines.registry import create_game
from gameplay.engines.santorini import SantoriniGame
from tests.engines.conformance import check_playouts
from tests.engines.santorini_support import EMPTY, ids, position


def test_capabilities_and_measures():
    spec = SantoriniGame.spec
    assert spec.has_chat and not spec.chat_in_state  # people may chat; the chat stays in the match log
    assert not (spec.has_image or spec.typed_moves or spec.round_sequence)
    assert SantoriniGame().chat_enabled()
    assert [(m.name, m.kind) for m in spec.measures] == [("turns", "number")]
    state = create_game("santorini").new_initial_state(0)
    for action in ("place:a1", "place:b1", "place:d5", "place:e5", "move:a1-a2"):
        assert state.measures(0) == state.measures(1) == {"turns": 0}  # placements and a half turn: none yet
        state.apply_action(state.current_seats()[0], action)
    state.apply_action(0, "build:a3")
    assert state.measures(0) == state.measures(1) == {"turns": 1}


# --- contract details --------------------------------------------------------
def test_illegal_and_out_of_turn_actions_leave_state_unchanged():
    state = position(EMPTY.replace("0. 0. 0. 0. 0.\n", "0A 0B 0a 0b 0.\n", 1))
    before = json.dumps(state.to_json())
    for seat, action in ((1, "move:c5-c4"), (0, "move:a5-a3"), (0, "nonsense"), (0, "build:a4"),
                         (0, "place:e1"), (2, "move:a5-a4")):
        with pytest.raises(IllegalActionError):
            state.apply_action(seat, action)
        assert json.dumps(state.to_json()) == before


def test_options_validation():
    with pytest.raises(InvalidOptionsError):
        SantoriniGame({"god_powers": True})
    with pytest.raises(InvalidOptionsError):
        SantoriniGame(num_seats=3)
    game = create_game("santorini", {"alternate_workers": "true"})
    assert game.options == {"alternate_workers": True, "win_on_any_level3": False, "max_turns": 0}
    assert SantoriniGame().max_actions() == 204
    assert SantoriniGame.rules.topic("variant")


def test_observation_shape_and_text():
    state = position(EMPTY.replace("0. 0. 0. 0. 0.\n", "0A 1B 0a 0b ##\n", 1), to_move=1)
    data = state.observation(1).data
    assert [c["name"] for c in data["rows"][0]] == ["a5", "b5", "c5", "d5", "e5"]
    assert [r[0]["name"] for r in data["rows"]] == ["a5", "a4", "a3", "a2", "a1"]
    assert data["rows"][0][1]["level"] == 1 and data["rows"][0][4]["dome"]
    assert data["phase"] == "move" and data["you"] == 1 and data["required_worker"] is None
    text = state.observation(1).text
    assert "0A 1B 0a 0b ##" in text and "your turn" in text
    assert "Player 2's turn" in state.observation(None).text
    assert state.secrets() == {}
    json.dumps(state.observation(None).to_json())


def test_json_round_trip_mid_turn():
    state = SantoriniGame({"alternate_workers": True}).new_initial_state(5)
    for a in ("place:a1", "place:b2", "place:e5", "place:d4", "move:a1-a2"):
        state.apply_action(state.current_seats()[0], a)
    restored = state.game.state_from_json(json.loads(json.dumps(state.to_json())))
    assert restored.to_json() == state.to_json()
    assert ids(restored) == ids(state)
    assert restored.observation(0) == state.observation(0)


# --- the platform's turn cap (max_turns) -------------------------------------------
def test_max_turns_is_off_by_default_bounded_and_bounds_the_actions():
    assert SantoriniGame().options["max_turns"] == 0  # the published game: no cap, no draws
    for wrong in (-1, 101, "many"):
        with pytest.raises(InvalidOptionsError):
            SantoriniGame({"max_turns": wrong})
    # Four placements, then two actions a turn.
    assert SantoriniGame({"max_turns": 10}).max_actions() == 24
    assert SantoriniGame({"max_turns": 1}).max_actions() == 6


def test_the_turn_that_reaches_the_cap_ends_the_game_as_a_draw():
    state = position("""
    0. 0. 0. 0. 0.
    0. 0. 0. 0. 0.
    0. 0A 0. 0. 0.
    0. 0. 0. 0. 0.
    0a 0b 0. 0. 0B
    """, to_move=1, turns_taken=(2, 1), max_turns=4)
    assert "Turn 4 of 4" in state.observation(1).text and "draw once turn 4" in state.observation(1).text
    state.apply_action(1, "move:a1-a2")
    assert not state.is_terminal()  # the turn is played to its end: the build
    assert "turn_cap" in state.rule_topics(1, "build:a3")
    state.apply_action(1, "build:a3")
    assert state.is_terminal() and state.current_seats() == [] and state.legal_actions(0) == []
    assert state.scores() == [0.5, 0.5] and state.winner() is None
    assert state.measures(0) == {"turns": 4}
    text = "The turn cap (4 turns) was reached with no winner: a draw."
    assert state.result_text() == text
    assert state.end_reason() == "The turn cap of 4 turns was reached with no winner."
    data = state.observation(0).data
    assert (data["phase"], data["winner"], data["max_turns"], data["result"]) == ("over", None, 4, text)
    assert f"Game over after 4 turns. {text}" in state.observation(None).text
    with pytest.raises(IllegalActionError):
        state.apply_action(0, "move:b3-b4")


def test_a_win_on_the_last_turn_the_cap_allows_is_a_win():
    state = position("""
    0. 0. 0. 0. 0.
    0. 0. 0. 0. 0.
    0. 2A 3. 0. 0.
    0. 0. 0. 0. 0.
    0a 0b 0. 0. 0B
    """, turns_taken=(1, 1), max_turns=3)
    state.apply_action(0, "move:b3-c3")
    assert state.is_terminal() and state.scores() == [1.0, 0.0]
    text = "Player 1 wins. Player 1's worker A moved up from level 2 onto level 3 on C3."
    assert state.result_text() == text and state.observation(1).data["result"] == text


BOXED_IN_BY_THE_NEXT_DOME = """
0. 0. 0. 0. 0.
0. 0. 0. 0. 0.
0. 0. 0. 0. 0.
## ## 3. 0A 0.
0a 0b ## 0. 0B
"""


STUCK_REASON = "Player 2 had no legal move: both workers were blocked in."


@pytest.mark.parametrize("cap,scores,reason", [
    (0, [1.0, 0.0], STUCK_REASON),
    (2, [0.5, 0.5], "The turn cap of 2 turns was reached with no winner."),
    (3, [1.0, 0.0], STUCK_REASON),
])
def test_the_cap_ends_the_game_before_a_stuck_seat_would_lose(cap, scores, reason):
    """Seat 0's dome on c2 leaves both of seat 1's workers without a move: seat 1 loses at the start of its turn,
    unless that dome completed the last turn the cap allows (then no turn of seat 1's starts: a draw)."""
    state = position(BOXED_IN_BY_THE_NEXT_DOME, turns_taken=(1, 0), max_turns=cap)
    state.apply_action(0, "move:d2-d3")
    state.apply_action(0, "build:c2")
    assert state.is_terminal() and state.scores() == scores
    assert state.end_reason() == reason


def test_the_end_reason_survives_json_and_is_derived_for_states_saved_before_it():
    """The ending is saved with the state; a finished state saved before it was (no "ending" in its payload) gets
    the same reason from its last action: only a winning move ends the game right after a move."""
    win = position("""
    0. 0. 0. 0. 0.
    0. 0. 0. 0. 0.
    0. 2A 3. 0. 0.
    0. 0. 0. 0. 0.
    0a 0b 0. 0. 0B
    """)
    win.apply_action(0, "move:b3-c3")
    stuck = position(BOXED_IN_BY_THE_NEXT_DOME, turns_taken=(1, 0))
    stuck.apply_action(0, "move:d2-d3")
    stuck.apply_action(0, "build:c2")
    capped = position(BOXED_IN_BY_THE_NEXT_DOME, turns_taken=(1, 0), max_turns=2)
    capped.apply_action(0, "move:d2-d3")
    capped.apply_action(0, "build:c2")
    for state, ending in ((win, "climb"), (stuck, "stuck"), (capped, "cap")):
        data = json.loads(json.dumps(state.to_json()))
        assert data["payload"]["ending"] == ending
        assert state.game.state_from_json(data).end_reason() == state.end_reason()
        del data["payload"]["ending"]
        assert state.game.state_from_json(data).end_reason() == state.end_reason()


@pytest.mark.parametrize("options", [{"max_turns": 1}, {"max_turns": 10},
                                     {"max_turns": 25, "alternate_workers": True, "win_on_any_level3": True}])
def test_conformance_with_a_turn_cap(options):
    """The conformance suite (legal actions, JSON round trips, replays, scores, observations, topics) on capped
    games: every game ends by the cap at the latest, and random games reach it, as draws."""
    finals = check_playouts(lambda: SantoriniGame(options), n_playouts=20, base_seed=900)
    assert all(state.is_terminal() and state.turn <= options["max_turns"] for state in finals)
    draws = [state for state in finals if state.winner() is None]
    assert draws and all(state.turn == options["max_turns"] for state in draws)


# --- properties --------------------------------------------------------------
@settings(max_examples=150, deadline=None)
@given(choices=st.lists(st.integers(min_value=0, max_value=10_000), max_size=220),
       alternate=st.booleans(), any_level3=st.booleans())
def test_invariants_hold_in_any_playout(choices, alternate, any_level3):
    game = SantoriniGame({"alternate_workers": alternate, "win_on_any_level3": any_level3})
    state = game.new_initial_state(0)
    picks = iter(choices)
    while not state.is_terminal():
        assert len(state.log) < game.max_actions()
        seat = state.current_seats()[0]
        actions = state.legal_actions(seat)
        assert actions
        state.apply_action(seat, actions[next(picks, 0) % len(actions)].id)
        cells = state.workers[0] + state.workers[1]
        assert all(0 <= lv <= 4 for lv in state.levels)
        assert len(cells) == len(set(cells)), "two workers share a cell"
        assert all(state.levels[c] < 4 for c in cells), "a worker stands on a dome"
        if state.phase != "place":
            assert len(state.workers[0]) == len(state.workers[1]) == 2
    assert len(state.log) <= game.max_actions()
    assert sorted(state.scores()) == [0.0, 1.0]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**31))
def test_seeded_random_playouts_terminate_and_replay(seed):
    game = SantoriniGame()
    rng, state = random.Random(seed), game.new_initial_state(seed)
    while not state.is_terminal():
        seat = state.current_seats()[0]
        state.apply_action(seat, rng.choice(state.legal_actions(seat)).id)
    assert len(state.log) <= game.max_actions()
    assert game.replay(seed, state.log).to_json() == state.to_json()


def test_the_board_marks_the_newest_turn_and_the_marks_survive_json():
    """The last-move marks (issue 16.4): a turn's move (from, to) and build, replacing the turn before; the
    placements of a seat together. Perfect information: every seat's observation shows the same marks."""
    from gameplay.engines.registry import create_game

    game = create_game("santorini", {}, num_seats=2)
    state = game.new_initial_state(1)

    def marks(seat=0):
        return {c["name"]: c["last"] for row in state.observation(seat).data["rows"] for c in row if c["last"]}

    for seat, cell in ((0, "a1"), (0, "c3")):
        state.apply_action(seat, f"place:{cell}")
    assert marks() == {"a1": "place", "c3": "place"}
    for cell in ("e5", "e4"):
        state.apply_action(1, f"place:{cell}")
    assert marks() == marks(1) == {"e5": "place", "e4": "place"}
    state.apply_action(0, "move:a1-b2")
    assert marks() == {"a1": "from", "b2": "to"}
    state.apply_action(0, "build:a1")
    assert marks() == {"a1": "build", "b2": "to"}  # built where it came from
    restored = game.state_from_json(state.to_json())
    assert restored.observation(1).data["rows"] == state.observation(1).data["rows"]
    move = next(a.id for a in state.legal_actions(1) if a.id.startswith("move:"))
    state.apply_action(1, move)
    src, dst = move.split(":")[1].split("-")
    assert marks() == {src: "from", dst: "to"}  # the new turn replaces the old marks
