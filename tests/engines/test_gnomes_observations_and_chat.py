"""Gnomes at Night engine: what each seat observes (the treasure on one side only, its own walls, its partner's last
move, the text), the shared chat and its limits, and properties over random move sequences (no wall of the other side
ever shown, rewards, replays, JSON round trips) and the default turn cap. Moves, turns and rewards on known positions
are tested in test_gnomes.py."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gameplay.engines.api import IllegalActionError
from gameplay.engines.gnomes import GnomesGame, GnomesState
from gameplay.engines.gnomes.layouts import default_layouts
from gameplay.engines.gnomes.maze import ACTIONS

from .gnomes_support import ROUND1_PATH, dump, exclusive_walls, new_state, play

OBSERVATION_KEYS = {
    "round", "size", "side", "token", "start", "to_move", "my_turn", "walls", "treasure", "treasure_visible",
    "turn", "turn_cap", "steps", "wall_hits", "reward", "history", "last_partner_move", "chat", "status",
    "show_hints", "partner_attempts",
}


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
