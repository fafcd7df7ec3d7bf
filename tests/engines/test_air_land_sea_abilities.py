"""Air, Land & Sea engine: every ability and its follow-up decisions (Disrupt's flips, Reinforce's peek, Redeploy,
Transport, Air Drop, Aerodrome, Ambush, instants triggered together), with the GameBench and alternate-printing options
that change them, on positions built by hand."""

from __future__ import annotations

import json

from .air_land_sea_support import act, board_cards, ids, position


# --- abilities and their follow-up decisions ------------------------------------------------------------------
def test_disrupt_owner_flips_own_then_the_opponent_chooses_its_own_flip():
    state = position(theaters="LAS", hands=(["L5", "A6"], ["S6"]),
                     stacks={(2, 0): ["S2"], (1, 1): ["a3"], (2, 1): ["S1"]})
    act(state, "play:0:0:up")
    assert state.current_seats() == [0] and ids(state) == {"flip:0:0", "flip:2:0"}
    act(state, "flip:2:0")  # own Escalation face down
    assert state.current_seats() == [1] and ids(state, 1) == {"flip:1:1", "flip:2:1"}
    act(state, "flip:1:1")  # Red flips its own Maneuver up: its instant triggers for Red
    assert state.decision["kind"] == "maneuver" and state.current_seats() == [1]
    act(state, "flip:0:0")
    assert state.stacks[0][0][-1] == {"id": "L5", "up": False}
    assert state.turn_seat == 1 and state.decision is None


def test_gamebench_disrupt_lets_the_disrupt_owner_choose_both_flips():
    state = position(theaters="LAS", hands=(["L5", "A6"], ["S6"]), stacks={(1, 1): ["a3"], (2, 1): ["S1"]},
                     gamebench_disrupt_chooser=True)
    act(state, "play:0:0:up")
    act(state, "flip:0:0")
    assert state.current_seats() == [0] and ids(state) == {"flip:1:1", "flip:2:1"}


def test_alternate_printing_lets_the_opponent_flip_first():
    state = position(theaters="LAS", hands=(["L5", "A6"], ["S6"]), stacks={(1, 1): ["a3"], (2, 1): ["S1"]},
                     alt_disrupt_opponent_first=True)
    act(state, "play:0:0:up")
    assert state.current_seats() == [1] and ids(state, 1) == {"flip:1:1", "flip:2:1"}
    act(state, "flip:2:1")
    assert state.current_seats() == [0] and ids(state, 0) == {"flip:0:0"}
    act(state, "flip:0:0")
    assert state.stacks[0][0][-1] == {"id": "L5", "up": False} and state.turn_seat == 1


def test_disrupt_skips_a_side_without_uncovered_cards():
    state = position(theaters="LAS", hands=(["L5", "A6"], ["S6"]))
    act(state, "play:0:0:up")
    assert state.current_seats() == [0] and ids(state) == {"flip:0:0"}
    act(state, "flip:0:0")
    assert state.decision is None and state.turn_seat == 1


def test_instants_triggered_together_resolve_in_the_order_they_were_triggered():
    state = position(theaters="LAS", hands=(["L5", "A6"], ["S6"]), stacks={(1, 0): ["a3"], (2, 1): ["s1"]})
    act(state, "play:0:0:up")
    act(state, "flip:1:0")  # Blue's own Maneuver face up: triggered first
    act(state, "flip:2:1")  # Red's own Transport face up: triggered second
    assert state.decision["kind"] == "maneuver" and state.current_seats() == [0]
    assert ids(state) == {"flip:0:0", "flip:2:1"}
    act(state, "flip:0:0")
    assert state.decision["kind"] == "transport" and state.current_seats() == [1]
    act(state, "skip")
    assert state.decision is None and state.current_seats() == [1] and state.turn_seat == 1


def test_a_card_once_shown_face_up_stays_public_after_a_flip_down():
    state = position(theaters="ALS", hands=(["L2", "L6"], ["S6"]), stacks={(2, 1): ["S5"]})
    assert "S5" not in state.secrets()[1]
    act(state, "play:0:1:up")
    act(state, "flip:2:1")
    assert state.stacks[2][1][-1] == {"id": "S5", "up": False}
    assert "S5" not in state.secrets()[1]  # the event log already named it
    assert state.observation(0).data["theaters"][2]["stacks"][1][0]["id"] == "S5"


def test_reinforce_peek_is_private_and_its_card_is_a_checked_play():
    state = position(theaters="LAS", hands=(["L1", "A6"], ["S6"]), stacks={(2, 1): ["A5"]},
                     deck=["S4", "L2", "L3"])
    act(state, "play:0:0:up")
    assert state.decision["kind"] == "reinforce" and ids(state) == {"reinforce:1"}
    assert "S4" in state.observation(0).text
    assert "S4" not in json.dumps(state.observation(1).to_json())
    assert "S4" not in json.dumps(state.observation(None).to_json())
    assert "S4" in state.secrets()[0]
    labels = state.action_labels(0, "reinforce:1")
    assert "S4" in labels.by_seat[0] and "S4" not in labels.by_seat[1] and "S4" not in labels.public
    act(state, "reinforce:1")
    assert state.deck == ["L2", "L3", "S4"]  # Containment destroyed it: back to the bottom
    assert state.stacks[1][0] == []


def test_gamebench_reinforce_skips_containment():
    state = position(theaters="LAS", hands=(["L1", "A6"], ["S6"]), stacks={(2, 1): ["A5"]},
                     deck=["S4", "L2"], gamebench_reinforce_unchecked=True)
    act(state, "play:0:0:up")
    act(state, "reinforce:1")
    assert state.stacks[1][0] == [{"id": "S4", "up": False}]


def test_gamebench_destroyed_cards_vanish():
    state = position(hands=(["L6", "S3"], ["L2"]), stacks={(2, 1): ["A5"]}, deck=["S4"],
                     gamebench_destroyed_vanish=True)
    act(state, "play:0:0:down")
    assert state.deck == ["S4"] and "L6" not in board_cards(state)


def test_redeploy_returns_a_face_down_card_and_plays_again_in_the_same_turn():
    state = position(theaters="ALS", hands=(["S4", "L6"], ["L2", "S6"]), stacks={(0, 0): ["l3", "A5"]})
    act(state, "play:0:2:up")
    assert ids(state) == {"return:0:0", "skip"}  # covered face-down cards qualify too
    act(state, "return:0:0")
    assert sorted(state.hands[0]) == ["L3", "L6"] and state.decision["kind"] == "redeploy_play"
    assert "withdraw" not in ids(state)
    slot = state.hands[0].index("L3")
    act(state, f"play:{slot}:1:up")  # Maneuver into Land: flip next to Land
    assert state.decision["kind"] == "maneuver" and state.current_seats() == [0]


def test_transport_moves_a_card_and_may_be_skipped():
    state = position(theaters="ALS", hands=(["S1", "L6"], ["A6"]), stacks={(0, 0): ["a6"]})
    act(state, "play:0:2:up")
    assert "skip" in ids(state) and "move:0:0:1" in ids(state)
    act(state, "move:0:0:1")
    assert state.stacks[1][0] == [{"id": "A6", "up": False}] and state.current_seats() == [1]


def test_air_drop_allows_the_next_play_anywhere_then_expires():
    state = position(theaters="ALS", hands=(["A2", "S6", "L6"], ["L1", "L2"]))
    act(state, "play:0:0:up")
    act(state, "play:0:0:down")  # Red improvises
    assert "play:0:0:up" in ids(state)  # Super Battleship into Air
    act(state, "play:0:0:up")
    act(state, "play:0:0:down")
    assert "play:0:0:up" not in ids(state)  # Heavy Tanks: back to Land only


def test_aerodrome_lets_low_cards_anywhere():
    state = position(theaters="ALS", hands=(["L2", "L6"], ["S6"]), stacks={(0, 0): ["A4"]})
    assert {"play:0:0:up", "play:0:2:up"} <= ids(state)
    assert "play:1:0:up" not in ids(state)


def test_ambush_may_flip_any_uncovered_card():
    state = position(theaters="ALS", hands=(["L2", "L6"], ["S6"]), stacks={(0, 1): ["a6"], (2, 1): ["S5"]})
    act(state, "play:0:1:up")
    assert ids(state) == {"flip:0:1", "flip:2:1", "flip:1:0"}
    # An unknown card reads "Red's face-down card" (not "Red's a face-down card") to both seats.
    label = next(a.label for a in state.legal_actions(0) if a.id == "flip:0:1")
    assert label == "Flip Red's face-down card in Air face up"
    assert state.action_labels(0, "flip:0:1").public == "Blue flips Red's face-down card in Air face up"


def test_flipping_an_opponents_instant_gives_its_owner_the_choice():
    state = position(theaters="ALS", hands=(["L2", "L6"], ["S6"]), stacks={(2, 1): ["s1"]})
    act(state, "play:0:1:up")
    act(state, "flip:2:1")
    assert state.decision["kind"] == "transport" and state.current_seats() == [1]
    act(state, "skip")
    assert state.current_seats() == [1] and state.decision is None
