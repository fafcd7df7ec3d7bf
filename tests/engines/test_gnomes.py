"""Gnomes at Night engine: moves on known positions, rewards, observations, chat, plus hypothesis properties.

The layout loading itself (walls equal to fixtures/gnomes/mazes.txt, counts, treasures) is in
test_gnomes_layouts.py.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gameplay.engines.api import IllegalActionError, InvalidOptionsError
from gameplay.engines.gnomes import GnomesGame, GnomesState
from gameplay.engines.gnomes.layouts import default_layouts
from gameplay.engines.gnomes.maze import ACTIONS
from gameplay.engines.registry import GAMES, create_game

# Round 1 (treasure (4, 0), seen by side 0): Gnome A right, B right, A right, B right (blocked: side 1 has
# 3,0:right), A right onto the treasure.
ROUND1_PATH = ["right", "right", "right", "right", "right"]
OBSERVATION_KEYS = {
    "round", "size", "side", "token", "start", "to_move", "my_turn", "walls", "treasure", "treasure_visible",
    "turn", "turn_cap", "steps", "wall_hits", "reward", "history", "last_partner_move", "chat", "status",
    "show_hints", "partner_attempts",
}


def new_state(**options) -> GnomesState:
    return GnomesGame(options).new_initial_state(0)


def play(state: GnomesState, moves: list[str]) -> GnomesState:
    """Apply moves in order, each by whichever seat is to move."""
    for move in moves:
        state.apply_action(state.current_seats()[0], move)
    return state


def dump(state: GnomesState) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def exclusive_walls(side: int) -> set[str]:
    walls = default_layouts().walls
    return set(walls[side] - walls[1 - side])


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


# --- observations -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("round_number", [1, 2, 3, 4, 5])
def test_only_one_side_sees_the_treasure(round_number):
    state = new_state(round=round_number)
    spec = default_layouts().round(round_number)
    seer = (round_number - 1) % 2
    assert spec.seen_by == seer
    assert state.observation(seer).data["treasure"] == list(spec.treasure)
    assert state.observation(seer).data["treasure_visible"] is True
    blind = state.observation(1 - seer)
    assert blind.data["treasure"] is None and blind.data["treasure_visible"] is False
    assert "You cannot see the treasure; it is on your partner's side" in blind.text
    assert state.observation(None).data["treasure"] is None
    assert state.secrets()[seer][-1] == f'"treasure": [{spec.treasure[0]}, {spec.treasure[1]}]'
    assert state.secrets()[seer][-1] not in json.dumps(blind.to_json())
    assert state.secrets()[seer][-1] in json.dumps(state.observation(seer).to_json())


def test_observation_keys_and_own_walls():
    state = play(new_state(show_hints=True), ["right", "down"])
    layouts = default_layouts()
    for seat in (0, 1):
        data = state.observation(seat).data
        assert set(data) == OBSERVATION_KEYS
        assert data["walls"] == sorted(layouts.walls[seat])
        assert data["side"] == seat
        assert data["size"] == 9 and data["start"] == [0, 0]
        assert data["token"] == list(state.token)
        assert data["turn"] == data["steps"] == 2
        assert data["turn_cap"] == 200
        assert data["show_hints"] is True
        assert data["my_turn"] is (seat == 0)
        assert data["status"] == "playing"
        dumped = json.dumps(state.observation(seat).to_json())
        assert not [w for w in exclusive_walls(1 - seat) if w in dumped]
    public = state.observation(None).data
    assert set(public) == OBSERVATION_KEYS
    assert public["walls"] == [] and public["side"] is None and public["my_turn"] is False
    assert public["chat"] == [] and public["last_partner_move"] is None
    assert len(public["history"]) == 2


def test_last_partner_move():
    state = play(new_state(), ["right"])
    assert state.observation(0).data["last_partner_move"] is None
    assert state.observation(1).data["last_partner_move"] == {
        "seat": 0, "action": "right", "from": [0, 0], "to": [1, 0], "moved": True, "turn": 1}
    play(state, ["up"])  # Gnome B bumps the top edge: the token stays where it was
    # As in the testbed, Gnome A sees the token did not move, not which way Gnome B tried (issue 15, point 1).
    assert state.observation(0).data["last_partner_move"] == {
        "seat": 1, "action": None, "from": [1, 0], "to": [1, 0], "moved": False, "turn": 2}
    assert state.observation(1).data["last_partner_move"]["turn"] == 1
    # With the partner_attempts option (GameBench's observation) the attempt is shown.
    shown = play(new_state(partner_attempts=True), ["right", "up"])
    assert shown.observation(0).data["last_partner_move"]["action"] == "up"


def test_the_default_observation_never_reveals_the_partners_attempted_direction():
    """Issue 15's acceptance: a seat sees its own attempts and the token, never the direction of a partner's move
    that left the token where it was (a stay and a move into a wall read alike), in its observation data, its
    text, the labels of the partner's moves or the public view."""
    state = new_state(first_seat=1)
    labels = state.action_labels(1, "right")  # Gnome B: right from (0, 0) is open on side 1
    assert labels.by_seat == ("Right →", "Right →")
    play(state, ["right"])
    labels = state.action_labels(0, "right")  # Gnome A: right from (1, 0) is walled on side 0
    assert labels.by_seat == ("Right →", "Did not move the token") and labels.public == "Did not move the token"
    assert state.action_labels(0, "stay").by_seat == ("Stay", "Did not move the token")
    play(state, ["right"])
    for seat in (1, None):
        data = state.observation(seat).data
        assert [m["action"] for m in data["history"]] == ["right", None]
        assert "tried to move right" not in state.observation(seat).text
    assert "did not move the token" in state.observation(1).text
    assert state.observation(0).data["history"][-1]["action"] == "right"  # the mover knows what it tried


def test_observation_text_describes_own_walls_and_partner():
    # Gnome B first; after B goes right, Gnome A stands at (1, 0) where its side walls off the right.
    state = play(new_state(first_seat=1), ["right"])
    text = state.observation(0).text
    assert "round 1" in text
    assert "column 1, row 0" in text
    assert "It is your turn" in text
    assert "right blocked by a wall on your side" in text
    assert "up blocked by the edge of the board" in text
    assert "left open" in text
    assert "The treasure is at column 4, row 0." in text
    assert "moved right from column 0, row 0 to column 1, row 0" in text
    assert "Moves made: 1 of the 200-move turn cap" in text
    other = state.observation(1).text
    assert "right open" in other  # side 1 has no wall there
    assert "It is Gnome A's turn" in other


def test_observation_of_an_unknown_seat_is_refused():
    with pytest.raises(ValueError):
        new_state().observation(2)


# --- chat ------------------------------------------------------------------------------------------------------------


def test_chat_is_shared_survives_json_and_is_not_a_move():
    state = play(new_state(), ["right"])
    log_before, turn_before, to_move_before = list(state.log), state.turn, state.to_move
    state.record_message(0, "  The treasure is top row, column 4.  ")
    state.record_message(1, "I can go right from here")
    expected = [
        {"seat": 0, "text": "The treasure is top row, column 4.", "turn": 1},
        {"seat": 1, "text": "I can go right from here", "turn": 1},
    ]
    assert state.log == log_before and state.turn == turn_before and state.to_move == to_move_before
    for seat in (0, 1):
        assert state.observation(seat).data["chat"] == expected
        assert "I can go right from here" in state.observation(seat).text
    assert state.observation(None).data["chat"] == []
    restored = GnomesGame().state_from_json(json.loads(json.dumps(state.to_json())))
    assert restored.observation(0).data["chat"] == expected
    assert dump(restored) == dump(state)
    # replay rebuilds the moves only
    replayed = GnomesGame().replay(0, state.log)
    assert replayed.chat == [] and replayed.token == state.token


@pytest.mark.parametrize("seat,text", [(0, ""), (0, "   "), (0, "x" * 501), (0, 42), (0, None), (2, "hi"),
                                       (-1, "hi")])
def test_bad_messages_are_refused(seat, text):
    state = new_state()
    before = dump(state)
    with pytest.raises(IllegalActionError):
        state.record_message(seat, text)
    assert dump(state) == before


def test_message_length_limit_is_inclusive():
    state = new_state()
    assert GnomesState.MAX_MESSAGE_LENGTH == 500
    state.record_message(1, "y" * 500)
    assert state.chat[-1]["text"] == "y" * 500


def test_no_chat_after_the_round_ends():
    state = play(new_state(), ROUND1_PATH)
    with pytest.raises(IllegalActionError, match="over"):
        state.record_message(0, "well done")
    assert state.chat == []


# --- properties ------------------------------------------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(
    round_number=st.sampled_from([1, 2, 3, 4, 5]),
    first_seat=st.sampled_from([0, 1]),
    moves=st.lists(st.sampled_from(ACTIONS), max_size=60),
    seed=st.integers(0, 2**31),
)
def test_random_move_sequences(round_number, first_seat, moves, seed):
    game = GnomesGame({"round": round_number, "first_seat": first_seat, "turn_cap": 40})
    state = game.new_initial_state(seed)
    layouts = default_layouts()
    for move in moves:
        if state.is_terminal():
            break
        seat = state.current_seats()[0]
        before = state.token
        allowed = layouts.maze(seat).can_move(before, move)
        state.apply_action(seat, move)
        x, y = state.token
        assert 0 <= x < 9 and 0 <= y < 9
        assert (state.token != before) == (allowed and move != "stay")
        found = state.status == "found"
        assert state.reward == round(-0.1 * state.turn - 0.5 * state.wall_hits + 20 * found, 1)
        for viewer in (0, 1):
            dumped = json.dumps(state.observation(viewer).to_json())
            assert not [w for w in exclusive_walls(1 - viewer) if w in dumped]
    assert state.turn == len(state.log) <= 40
    assert state.wall_hits == sum(not m["moved"] and m["action"] != "stay" for m in state.history)
    assert dump(game.replay(seed, state.log)) == dump(state)
    assert dump(game.state_from_json(json.loads(dump(state)))) == dump(state)


def test_conformance_at_the_default_turn_cap():
    """The registry-wide conformance run caps rounds at 80 moves for speed; here the default 200."""
    from tests.engines.conformance import check_playouts

    finals = check_playouts(lambda: GnomesGame(), n_playouts=20, base_seed=77)
    assert all(state.is_terminal() for state in finals)
    assert any(state.turn == 200 for state in finals)


def test_chat_can_be_switched_off_for_a_mute_condition():
    state = GnomesGame({"chat": False}).new_initial_state(0)
    before = json.dumps(state.to_json(), sort_keys=True)
    with pytest.raises(IllegalActionError, match="chat is off"):
        state.record_message(0, "go down")
    assert json.dumps(state.to_json(), sort_keys=True) == before
