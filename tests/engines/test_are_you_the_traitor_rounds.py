"""Are You the Traitor? rounds: calling Stop, the Key hand-off and the talk cap, treasure and the Magic Ring step."""

from __future__ import annotations

import pytest

from gameplay.engines.api import IllegalActionError
from gameplay.engines.are_you_the_traitor import TraitorGame
from gameplay.engines.are_you_the_traitor.deck import RING

from .conformance import check_observation_leaks
from .traitor_support import FIVE, G, ids, state_with

# --- calling Stop, the Key and the talk cap ---------------------------------------------------------------


def test_the_keyholder_hands_the_key_only_to_a_wizard():
    state = state_with(*FIVE, actor=3)
    assert ids(state, 3) == ["pass", "stop:1", "stop:2"]
    for bad in ("stop:0", "stop:4", "stop:3"):
        with pytest.raises(IllegalActionError):
            state.apply_action(3, bad)
    guard = state_with(*FIVE, actor=4)
    assert ids(guard, 4) == ["pass", "stop:0", "stop:1", "stop:2", "stop:3"]  # anyone but itself


def test_the_tick_cap_forces_the_keyholder_to_hand_over_the_key():
    state = state_with(*FIVE, options={"ticks_before_handoff": 2}, actor=0)
    for _ in range(2 * 5):
        state.apply_action(state.current_seats()[0], "pass")
    assert state.phase == "handoff" and state.current_seats() == [3]
    assert ids(state, 3) == ["stop:1", "stop:2"] and state.text_actions(3) == []
    with pytest.raises(IllegalActionError):
        state.apply_action(3, "pass")
    assert "the Keyholder must now hand the Key to a Wizard" in state.observation(0).text
    state.apply_action(3, "stop:2")
    assert state.last["team"] == G
    at_once = state_with(*FIVE, options={"ticks_before_handoff": 0})
    assert at_once.phase == "handoff" and at_once.current_seats() == [3]
    assert TraitorGame({"ticks_before_handoff": 2, "max_rounds": 3}, 5).max_actions() == 3 * (10 + 1 + 5) + 1


def test_say_is_validated_and_public():
    state = state_with(*FIVE, actor=0)
    for bad in ("", "   ", "bell\x07", "x" * 201):
        with pytest.raises(IllegalActionError):
            state.apply_action(0, "say", bad)
    with pytest.raises(IllegalActionError):
        state.apply_action(0, "say")  # no text at all
    labels = state.action_labels(0, "say", "Player 4   looks\nshifty")
    state.apply_action(0, "say", "Player 4   looks\nshifty")
    assert state.talk[-1] == {"k": "say", "s": 0, "t": "Player 4 looks shifty"}
    assert labels.public == "Player 1 says: Player 4 looks shifty" and labels.by_seat[0].startswith("You say")
    assert "Player 1: \u201cPlayer 4 looks shifty\u201d" in state.observation(3).text


def test_the_starting_seat_rotates_every_round():
    state = TraitorGame({}, 6).new_initial_state(2)
    firsts = []
    while len(firsts) < 4:
        firsts.append(state.current_seats()[0])
        round_no = state.round_no
        while state.round_no == round_no:
            seat = state.current_seats()[0]
            legal = ids(state, seat)
            stops = [a for a in legal if a.startswith("stop")]
            state.apply_action(seat, stops[0] if stops else legal[-1])
    assert firsts == [0, 1, 2, 3]


# --- treasure and the Magic Ring ----------------------------------------------------------------------------


def test_ring_steal_takes_a_random_card_and_discards_the_ring():
    state = state_with(*FIVE, actor=4)
    state.hands = [[RING], ["bag_of_gold"], [], [], []]
    state.apply_action(4, "stop:0")  # Good wins; Player 5 (the winning caller) is protected
    order = state.ring_order
    assert order == [4, 0, 1, 2, 3]
    state.apply_action(4, "keep_ring")
    legal = ids(state, 0)
    assert "ring:4" not in legal and "ring:1" in legal and "ring:2" in legal and legal[-1] == "keep_ring"
    assert "ring:0" not in legal
    labels = state.action_labels(0, "ring:1")
    assert labels.by_seat[1] == "Player 1 uses a Magic Ring on you." and labels.public.startswith("Player 1 uses")
    state.apply_action(0, "ring:1")
    assert state.hands[0] == ["bag_of_gold"] and state.hands[1] == [] and state.discard == [RING]
    sentence = "Player 1 took Bag of Gold (3) from Player 2 with a Magic Ring"
    assert sentence in state.observation(0).text and sentence in state.observation(1).text
    assert sentence not in state.observation(2).text and sentence not in state.observation(None).text
    assert "Player 1 used a Magic Ring on Player 2 and took a card at random." in state.observation(2).text
    assert ids(state, 1) == ["keep_ring"]  # no ring: just go on
    check_observation_leaks(state)


def test_every_seat_is_asked_at_once_so_being_asked_does_not_reveal_ring_holders():
    state = state_with(*FIVE, actor=4)
    state.hands = [["bag_of_gold"], [], [], [], []]
    state.apply_action(4, "stop:0")
    assert state.current_seats() == [4, 0, 1, 2, 3]
    for seat in (2, 0, 4, 3, 1):  # any order: nobody waits for anybody
        labels = state.action_labels(seat, "keep_ring")
        assert labels.public == f"Player {seat + 1} does not use a Magic Ring."
        state.apply_action(seat, "keep_ring")
        assert state.phase != "ring" or seat not in state.current_seats()
    assert state.phase == "talk" and state.round_no == 2
    nobody = state_with(*FIVE, actor=0)
    nobody.deck = []  # nothing to draw and nothing held: no Ring step at all
    nobody.apply_action(0, "pass")
    nobody.apply_action(1, "stop:3")
    assert nobody.phase == "talk" and nobody.round_no == 2


def test_the_ring_step_ends_by_itself_for_whoever_does_not_act():
    """Issue 39: a player holding no Magic Ring has nothing to decide there, so the step must not wait for a click.
    Every seat of the step has the same clock (``ring_seconds``) whether it holds a ring or not, and running out of
    time keeps a ring or goes on; talk and the Key hand-off wait for their player as before."""
    state = state_with(*FIVE, actor=4)
    assert TraitorGame.spec.turn_timer
    assert [state.time_limit(s) for s in range(5)] == [0] * 5  # talk is not timed
    state.hands = [[RING], ["bag_of_gold"], [], [], []]
    state.apply_action(4, "stop:0")
    holder, others = 0, (4, 1, 2, 3)
    assert [state.time_limit(s) for s in range(5)] == [10] * 5
    assert {state.timeout_action(s) for s in range(5)} == {("keep_ring", None)}
    state.apply_action(holder, "ring:1")  # the holder acts; the step still has the others, who never must
    assert state.time_limit(holder) == 0 and state.timeout_action(holder) is None
    for seat in others:
        action_id, text = state.timeout_action(seat)
        state.apply_action(seat, action_id, text)
    assert state.phase == "talk" and state.round_no == 2 and state.hands[0] == ["bag_of_gold"]
    untimed = state_with(*FIVE, options={"ring_seconds": 0}, actor=4)
    untimed.apply_action(4, "stop:0")
    assert untimed.phase == "ring" and untimed.time_limit(0) == 0 and untimed.timeout_action(0) is None


def test_a_state_stored_while_the_ring_step_went_one_seat_at_a_time_loads():
    state = state_with(*FIVE, actor=4)
    state.apply_action(4, "stop:0")
    state.apply_action(4, "keep_ring")
    data = state.to_json()
    payload = data["payload"]
    assert payload.pop("ring_done") == [4]
    payload["ring_pos"] = 1  # the old field: how many seats of ring_order had acted
    loaded = TraitorGame({}, 5).state_from_json(data)
    assert loaded.current_seats() == [0, 1, 2, 3]


def test_an_empty_deck_reshuffles_the_discards_or_draws_nothing():
    state = state_with(*FIVE, actor=4)
    state.deck, state.discard = [], [RING, RING]
    state.apply_action(4, "stop:0")
    assert sorted(len(h) for h in state.hands) == [0, 0, 0, 1, 1] and state.deck == [] and state.discard == []
    assert [seat for seat, card in state.last["draws"] if card is None] == [3]  # Player 4 drew last, nothing left
    assert "Player 4 could not draw" in state.observation(None).text
