"""Gnomes at Night engine: the spec and options, moves on known positions, turns and illegal actions, rewards and the
end of a round.

What each seat observes, the chat and the hypothesis properties are in test_gnomes_observations_and_chat.py; the
layout loading itself (walls equal to fixtures/gnomes/mazes.txt, counts, treasures) is in test_gnomes_layouts.py.
"""

from __future__ import annotations

import pytest

from gameplay.engines.api import IllegalActionError, InvalidOptionsError
from gameplay.engines.gnomes import GnomesGame
from gameplay.engines.gnomes.layouts import default_layouts
from gameplay.engines.registry import GAMES, create_game

from .gnomes_support import ROUND1_PATH, dump, exclusive_walls, new_state, play

# --- spec, options, registry ---------------------------------------------------------------------------------


def test_spec_and_registry():
    assert GAMES["gnomes"] is GnomesGame
    spec = GnomesGame.spec
    assert (spec.id, spec.name, spec.min_seats, spec.max_seats) == ("gnomes", "Gnomes at Night", 2, 2)
    assert not spec.perfect_information and spec.has_chat and not spec.simultaneous and not spec.has_chance
    assert spec.seat_names == ("Gnome A", "Gnome B")
    game = create_game("gnomes")
    assert game.teams() == [0, 0]
    assert game.options == {"round": 1, "first_seat": 0, "turn_cap": 200, "chat": True, "show_hints": False,
                            "partner_attempts": False}
    assert game.max_actions() == 200
    assert set(GnomesGame.rules.topics) >= {"moves", "walls", "treasure", "chat", "scoring"}


@pytest.mark.parametrize("options", [{"turn_cap": 0}, {"turn_cap": 1001}, {"round": 6}, {"first_seat": 2},
                                     {"colour": "red"}])
def test_invalid_options_are_refused(options):
    with pytest.raises(InvalidOptionsError):
        GnomesGame(options)


def test_turn_cap_bounds_are_inclusive():
    assert GnomesGame({"turn_cap": 1}).max_actions() == 1
    assert GnomesGame({"turn_cap": 1000}).max_actions() == 1000


def test_next_round_options_walk_the_five_rounds():
    options = {"round": 1, "first_seat": 1, "turn_cap": 50, "show_hints": True}
    seen = []
    while options is not None:
        seen.append(options["round"])
        following = GnomesGame(options).next_round_options()
        if following is not None:
            assert {k: v for k, v in following.items() if k != "round"} == {
                "first_seat": 1, "turn_cap": 50, "chat": True, "show_hints": True, "partner_attempts": False}
        options = following
    assert seen == [1, 2, 3, 4, 5]
    assert GnomesGame({"round": 5}).next_round_options() is None


# --- moves on known positions --------------------------------------------------------------------------------


def test_all_five_actions_for_the_mover_and_none_for_the_other_seat():
    state = new_state()
    assert [a.id for a in state.legal_actions(0)] == ["stay", "right", "up", "left", "down"]
    assert [a.label for a in state.legal_actions(0)] == ["Stay", "Right →", "Up ↑", "Left ←", "Down ↓"]
    assert state.legal_actions(1) == []
    assert state.text_actions(0) == []


def test_side_zero_blocks_right_from_1_0_but_side_one_allows_it():
    # Gnome B moves first, so Gnome A (side 0) is the one trying to go right from (1, 0).
    state = play(new_state(first_seat=1), ["right", "right"])
    assert state.token == (1, 0)
    assert state.wall_hits == 1
    assert state.history[-1] == {"seat": 0, "action": "right", "from": [1, 0], "to": [1, 0], "moved": False,
                                 "turn": 2}
    # Gnome A first: now Gnome B (side 1) makes the same move, and side 1 has no wall there.
    state = play(new_state(), ["right", "right"])
    assert state.token == (2, 0)
    assert state.wall_hits == 0


def test_side_one_blocks_right_from_3_0():
    state = play(new_state(), ["right", "right", "right"])
    assert state.token == (3, 0) and state.to_move == 1
    play(state, ["right"])
    assert state.token == (3, 0)
    assert state.wall_hits == 1
    assert not state.history[-1]["moved"]


@pytest.mark.parametrize("seat", [0, 1])
def test_off_grid_moves_are_blocked_for_both_sides(seat):
    for move in ("up", "left"):
        state = new_state(first_seat=seat)
        state.apply_action(seat, move)
        assert state.token == (0, 0)
        assert state.wall_hits == 1


def test_stay_never_hits_a_wall():
    state = play(new_state(turn_cap=20), ["stay"] * 20)
    assert state.token == (0, 0)
    assert state.wall_hits == 0
    assert state.status == "out_of_turns"
    assert all(m["moved"] is False for m in state.history)


def test_the_movers_own_side_decides():
    # 1,0:right is a wall on side 0 only: Gnome B (side 1) crosses it, Gnome A cannot.
    layouts = default_layouts()
    assert "1,0:right" in layouts.walls[0] and "1,0:right" not in layouts.walls[1]
    state = play(new_state(), ["right"])
    assert state.token == (1, 0) and state.to_move == 1
    play(state, ["right"])
    assert state.token == (2, 0) and state.wall_hits == 0
    # And back: 3,0:right is on side 1 only, so Gnome A crosses it from (3, 0) in round 2 (no treasure there).
    state = play(new_state(round=2), ["right", "right", "right", "stay", "right"])
    assert state.token == (4, 0) and state.wall_hits == 0


# --- turns, alternation, illegal actions ------------------------------------------------------------------------


def test_first_seat_and_alternation():
    state = new_state(first_seat=1)
    assert state.current_seats() == [1]
    order = []
    for _ in range(6):
        seat = state.current_seats()[0]
        order.append(seat)
        state.apply_action(seat, "stay")
    assert order == [1, 0, 1, 0, 1, 0]
    assert new_state().current_seats() == [0]


def test_blocked_moves_also_pass_control():
    state = new_state()
    state.apply_action(0, "up")
    assert state.current_seats() == [1]


def test_illegal_actions_change_nothing():
    state = play(new_state(), ["right"])
    before = dump(state)
    with pytest.raises(IllegalActionError):
        state.apply_action(0, "right")  # out of turn
    with pytest.raises(IllegalActionError):
        state.apply_action(1, "jump")  # unknown action
    with pytest.raises(IllegalActionError):
        state.apply_action(1, "north")
    assert dump(state) == before


def test_no_moves_after_the_round_ends():
    state = play(new_state(), ROUND1_PATH)
    assert state.is_terminal() and state.current_seats() == []
    assert state.legal_actions(0) == [] and state.legal_actions(1) == []
    before = dump(state)
    with pytest.raises(IllegalActionError):
        state.apply_action(1, "stay")
    assert dump(state) == before


# --- rewards and the end of a round ------------------------------------------------------------------------------


def test_reward_of_a_sequence_with_blocked_moves():
    # right, right, right: all succeed; right by Gnome B from (3, 0) is blocked; up from row 0 is blocked; stay.
    state = play(new_state(), ["right", "right", "right", "right", "up", "stay"])
    assert state.turn == 6
    assert state.wall_hits == 2
    assert state.reward == -1.6
    assert state.observation(0).data["reward"] == -1.6
    assert state.result_text() == ""
    assert state.end_reason() is None


def test_round_one_treasure_found():
    state = play(new_state(), ROUND1_PATH)
    assert state.token == (4, 0)
    assert state.status == "found"
    assert state.turn == 5 and state.wall_hits == 1
    assert state.reward == 19.0  # 5 moves (-0.5), one wall hit (-0.5), treasure (+20)
    assert state.scores() == [0.5, 0.5]
    assert state.result_text() == "Treasure found in 5 turns (1 wall hit)."
    assert state.end_reason() == state.result_text()
    assert state.observation(None).text.endswith("The round is over. Treasure found in 5 turns (1 wall hit).")
    for seat in (0, 1, None):
        data = state.observation(seat).data
        assert data["treasure"] == [4, 0]
        assert data["treasure_visible"] is True
        assert data["status"] == "found"
        assert data["to_move"] is None
    assert state.secrets()[0] == sorted(exclusive_walls(0))  # no treasure secret once found


def test_capabilities_and_measures():
    spec = GnomesGame.spec
    assert spec.chat_in_state and spec.round_sequence
    assert not (spec.has_image or spec.typed_moves)
    assert [(m.name, m.kind) for m in spec.measures] == [("turns", "number"), ("wall_hits", "number"),
                                                         ("success", "bool")]
    assert GnomesGame().chat_enabled() and not GnomesGame({"chat": False}).chat_enabled()
    state = new_state()
    assert state.measures(0) == {"turns": 0, "wall_hits": 0, "success": False}
    state = play(state, ROUND1_PATH)
    for seat in (0, 1):  # cooperative: both seats share the outcome
        assert state.measures(seat) == {"turns": 5, "wall_hits": 1, "success": True}
    state = play(new_state(turn_cap=5), ["down", "up", "down", "up", "stay"])
    assert state.measures(1)["success"] is False and state.measures(1)["turns"] == 5


def test_turn_cap_ends_the_round_out_of_turns():
    state = play(new_state(turn_cap=5), ["down", "up", "down", "up", "stay"])
    assert state.status == "out_of_turns"
    assert state.is_terminal()
    assert state.turn == 5
    assert state.scores() == [0.5, 0.5]
    text = "Out of turns: the 5-move turn cap was reached without finding the treasure."
    assert state.result_text() == text and state.end_reason() == text
    assert state.observation(1).text.endswith(f"The round is over. {text}")
    assert state.observation(0).data["to_move"] is None
    assert state.observation(1).data["treasure"] is None
    # The reason names no cell: where the unfound treasure lay stays unsaid.
    treasure = state.game.round_spec.treasure
    assert "column" not in text and str(list(treasure)) not in text


def test_treasure_on_the_last_allowed_move_counts_as_found():
    state = play(new_state(turn_cap=5), ROUND1_PATH)
    assert state.status == "found"


