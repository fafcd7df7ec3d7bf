"""Santorini engine: rules on known positions, plus hypothesis property tests."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gameplay.engines.api import IllegalActionError, InvalidOptionsError
from gameplay.engines.registry import create_game
from gameplay.engines.santorini import SantoriniGame, SantoriniState
from tests.engines.conformance import check_playouts

EMPTY = """
0. 0. 0. 0. 0.
0. 0. 0. 0. 0.
0. 0. 0. 0. 0.
0. 0. 0. 0. 0.
0. 0. 0. 0. 0.
"""


def position(board: str, to_move: int = 0, phase: str = "move", turns_taken=(0, 0),
             moved: str | None = None, **options) -> SantoriniState:
    """Build a state from a picture: rows 5..1 top to bottom, columns a..e.

    Each cell is "<level><worker>": worker A/B for seat 0, a/b for seat 1, "."
    for none; "##" is a dome. Loaded through the public JSON path.
    """
    game = SantoriniGame(options)
    rows = [line.split() for line in board.strip().splitlines()]
    assert len(rows) == 5 and all(len(r) == 5 for r in rows)
    levels = [0] * 25
    workers: list[dict[str, str]] = [{}, {}]
    for r, row in enumerate(rows):
        for c, token in enumerate(row):
            name = "abcde"[c] + str(5 - r)
            index = (4 - r) * 5 + c
            if token == "##":
                levels[index] = 4
                continue
            levels[index] = int(token[0])
            mark = token[1]
            if mark != ".":
                workers[0 if mark.isupper() else 1][mark.upper()] = name
    data = {
        "game": "santorini", "options": game.options, "num_seats": 2, "seed": 0, "rng_draws": 0,
        "log": [],
        "payload": {
            "levels": levels,
            "workers": [[w[k] for k in sorted(w)] for w in workers],
            "phase": phase, "to_move": to_move, "moved": moved,
            "turns_taken": list(turns_taken), "turn": sum(turns_taken), "winner": None,
            "last_action": None,
        },
    }
    return game.state_from_json(data)


def ids(state, seat=None):
    seat = state.current_seats()[0] if seat is None else seat
    return [a.id for a in state.legal_actions(seat)]


def level(state, name):
    return state.levels["abcde".index(name[0]) + 5 * (int(name[1]) - 1)]


# --- setup -------------------------------------------------------------------
def test_placement_order_seat0_twice_then_seat1_twice():
    state = SantoriniGame().new_initial_state(1)
    assert state.current_seats() == [0]
    assert len(ids(state)) == 25 and ids(state)[0] == "place:a1"
    with pytest.raises(IllegalActionError):
        state.apply_action(1, "place:c3")
    state.apply_action(0, "place:c3")
    assert state.current_seats() == [0]
    with pytest.raises(IllegalActionError):
        state.apply_action(0, "place:c3")  # occupied
    state.apply_action(0, "place:d4")
    assert state.current_seats() == [1]
    assert "place:c3" not in ids(state) and len(ids(state)) == 23
    state.apply_action(1, "place:a1")
    state.apply_action(1, "place:e5")
    assert state.current_seats() == [0] and state.phase == "move"
    data = state.observation(None).data
    assert data["rows"][2][2]["worker"] == {"seat": 0, "id": "A"}  # c3
    assert data["rows"][1][3]["worker"] == {"seat": 0, "id": "B"}  # d4
    assert data["rows"][0][4]["worker"] == {"seat": 1, "id": "B"}  # e5
    assert data["rows"][4][0]["worker"] == {"seat": 1, "id": "A"}  # a1


def test_action_labels_and_paths():
    state = position("""
    0. 0. 0. 0. 0.
    0. 0. 0. 1. 0.
    0. 0. 0A 3. 0.
    0. 0. 0. 0. 0.
    0a 0. 0. 0b 0B
    """)
    move = {a.id: a for a in state.legal_actions(0)}["move:c3-d4"]
    assert move.label == "Move worker A from C3 to D4 (level 0 → 1)"  # the worker by its letter, then the cells
    assert {a.id: a for a in state.legal_actions(0)}["move:e1-d2"].label == "Move worker B from E1 to D2 (level 0 → 0)"
    assert move.path == ("c3", "d4")
    state.apply_action(0, "move:c3-d4")
    builds = {a.id: a for a in state.legal_actions(0)}
    assert builds["build:c3"].label == "Build on C3 (level 0 → 1)"
    assert builds["build:d3"].label == "Build a dome on D3"
    assert builds["build:d3"].path == ("d3",)
    assert ids(state) == sorted(ids(state))
    state.apply_action(0, "build:d3")
    assert level(state, "d3") == 4
    obs = state.observation(1).data
    assert obs["rows"][2][3]["dome"] is True and obs["last_action"] == "Build a dome on D3"
    assert obs["you"] == 1 and obs["to_move"] == 1 and obs["turn"] == 1


# --- moving ------------------------------------------------------------------
def test_move_up_at_most_one_level_down_any():
    state = position("""
    0. 0. 0. 0. 0.
    0. 2. 1. 0. 0.
    0. 0. 1A ## 0.
    0. 3. 0. 0. 0.
    0a 0b 0. 0. 0B
    """)
    moves = {i for i in ids(state) if i.startswith("move:c3")}
    assert "move:c3-b4" in moves  # 1 -> 2 is one up
    assert "move:c3-c2" in moves  # down is fine
    assert "move:c3-d3" not in moves  # dome
    state2 = position("""
    0. 0. 0. 0. 0.
    0. 2. 1. 0. 0.
    0. 0. 0A 0. 0.
    0. 3. 0. 0. 0.
    0a 0b 0. 0. 0B
    """)
    moves2 = set(ids(state2))
    assert "move:c3-b4" not in moves2  # 0 -> 2 is too high
    assert "move:c3-b2" not in moves2  # 0 -> 3 is too high
    assert "move:c3-c4" in moves2
    down = position("""
    0. 0. 0. 0. 0.
    0. 0. 0. 0. 0.
    0. 3A 0. 0. 0.
    0. 0. 0. 0. 0.
    0a 0b 0. 0. 0B
    """)
    assert "move:b3-b4" in ids(down)  # 3 -> 0


def test_cannot_move_onto_occupied_or_dome():
    state = position("""
    0. 0. 0. 0. 0.
    0. ## 0a 0. 0.
    0. 0b 0A 0B 0.
    0. 0. 0. 0. 0.
    0. 0. 0. 0. 0.
    """)
    moves = set(ids(state))
    for blocked in ("c3-b4", "c3-c4", "c3-b3", "c3-d3"):
        assert f"move:{blocked}" not in moves
    assert "move:c3-d4" in moves and "move:c3-c2" in moves


# --- building ----------------------------------------------------------------
def test_build_only_adjacent_to_moved_worker():
    state = position("""
    0. 0. 0. 0. 0.
    0. 0. 0. 0. 0.
    0. 0. 0. 0. 0.
    0a 0. 0. 0. 0.
    0A 0b 0. 0. 0B
    """)
    state.apply_action(0, "move:a1-b2")
    assert state.current_seats() == [0] and state.phase == "build"
    builds = set(ids(state))
    # b2's neighbours minus the occupied a2 and b1.
    assert builds == {f"build:{c}" for c in ("a1", "a3", "b3", "c1", "c2", "c3")}
    with pytest.raises(IllegalActionError):
        state.apply_action(0, "build:d1")  # next to the other worker only
    with pytest.raises(IllegalActionError):
        state.apply_action(0, "move:e1-d1")  # no second move
    state.apply_action(0, "build:a1")
    assert level(state, "a1") == 1 and state.current_seats() == [1]


def test_dome_at_level_four_blocks_build_and_move():
    state = position("""
    0. 0. 0. 0. 0.
    0. 0. 0. 0. 0.
    0. 0. 0. 0. 0.
    0a 3. ## 0. 0.
    0A 0b 0. 0. 0B
    """)
    state.apply_action(0, "move:e1-d2")
    assert "build:c2" not in ids(state)
    state.apply_action(0, "build:d1")
    state.apply_action(1, "move:b1-c1")
    state.apply_action(1, "build:b2")  # 3 -> dome
    assert level(state, "b2") == 4
    assert all("b2" not in i for i in ids(state))


# --- winning and losing ------------------------------------------------------
def test_moving_up_onto_level_three_wins_without_build():
    state = position("""
    0. 0. 0. 0. 0.
    0. 0. 0. 0. 0.
    0. 2A 3. 0. 0.
    0. 0. 0. 0. 0.
    0a 0b 0. 0. 0B
    """)
    state.apply_action(0, "move:b3-c3")
    assert state.is_terminal() and state.current_seats() == []
    assert state.scores() == [1.0, 0.0] and state.winner() == 0
    assert state.legal_actions(0) == [] and state.legal_actions(1) == []
    data = state.observation(0).data
    assert data["phase"] == "over" and data["winner"] == 0 and data["turn"] == 1
    reason = "Player 1's worker A moved up from level 2 onto level 3 on C3."
    assert state.end_reason() == reason
    assert state.result_text() == data["result"] == f"Player 1 wins. {reason}"
    with pytest.raises(IllegalActionError):
        state.apply_action(0, "build:b3")


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


THREE_TO_THREE = """
0. 0. 0. 0. 0.
0. 0. 0. 0. 0.
0. 3A 3. 0. 0.
0. 0. 0. 0. 0.
0a 0b 0. 0. 0B
"""


def test_three_to_three_does_not_win_officially():
    state = position(THREE_TO_THREE)
    state.apply_action(0, "move:b3-c3")
    assert not state.is_terminal() and state.phase == "build"


def test_three_to_three_wins_with_win_on_any_level3():
    state = position(THREE_TO_THREE, win_on_any_level3=True)
    assert state.end_reason() is None
    state.apply_action(0, "move:b3-c3")
    assert state.is_terminal() and state.winner() == 0
    assert state.end_reason() == (
        "Player 1's worker A moved from level 3 onto level 3 on C3, which wins in this variant.")


def test_player_without_legal_move_loses():
    state = position("""
    0. 0. 0. 0. 0B
    0. 0. 0. 0. 0.
    0. 0. 0. 0. 0.
    2. 2. 2. 0. 0.
    0a 0b 1. 0A 0.
    """)
    assert not state.is_terminal()
    state.apply_action(0, "move:d1-d2")
    assert state.end_reason() is None
    state.apply_action(0, "build:c1")  # seat 1's last way out closes
    assert state.is_terminal() and state.winner() == 0
    assert state.observation(None).data["winner"] == 0
    reason = "Player 2 had no legal move: both workers were blocked in."
    assert state.end_reason() == reason and state.result_text() == f"Player 1 wins. {reason}"


STUCK_A = """
0. 0. 0. 0. 0b
0. 0. 0. 0. 0.
## ## 0. 0. 0.
0a ## 0. 0. 0.
## ## 0. 0A 0B
"""


def test_alternate_workers_forces_the_worker():
    state = position(STUCK_A.replace("0a", "0.").replace("0. 0. 0. 0. 0b", "0a 0. 0. 0. 0b"),
                     alternate_workers=True)
    assert {i.split(":")[1][:2] for i in ids(state)} == {"d1"}  # worker A only
    assert state.observation(0).data["required_worker"] == "A"
    state.apply_action(0, "move:d1-d2")
    state.apply_action(0, "build:d1")
    assert state.observation(1).data["required_worker"] == "A"
    state.apply_action(1, "move:a5-a4")
    state.apply_action(1, "build:a5")
    assert {i.split(":")[1][:2] for i in ids(state)} == {"e1"}  # now worker B
    assert "Only worker B" in state.observation(0).text


def test_alternate_workers_loses_when_forced_worker_is_stuck():
    for alternate, expect_over in ((False, False), (True, True)):
        state = position(STUCK_A, alternate_workers=alternate, win_on_any_level3=alternate)
        state.apply_action(0, "move:d1-d2")
        state.apply_action(0, "build:d1")
        # Seat 1's worker A (a2) is walled in; worker B (e5) could still move.
        assert state.is_terminal() is expect_over
        if expect_over:
            assert state.winner() == 0
            assert state.end_reason() == (
                "Player 2 had no legal move: worker a on A2, the one due to move this turn, was blocked in.")
        else:
            assert state.end_reason() is None


def test_stuck_right_after_setup_loses_in_alternate_mode_only():
    # Seat 0's worker A on a1 is boxed in by its own B and both of seat 1's workers.
    for alternate in (False, True):
        state = SantoriniGame({"alternate_workers": alternate}).new_initial_state(0)
        for seat, action in ((0, "place:a1"), (0, "place:b2"), (1, "place:a2"), (1, "place:b1")):
            state.apply_action(seat, action)
        assert state.is_terminal() is alternate
        if alternate:
            assert state.winner() == 1 and state.scores() == [0.0, 1.0]
            assert state.end_reason() == (
                "Player 1 had no legal move: worker A on A1, the one due to move this turn, was blocked in.")
        else:
            assert all(i.startswith("move:b2-") for i in ids(state))


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
