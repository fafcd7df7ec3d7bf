"""The conformance checker itself: it must fail on leaky, forgetful or mis-declared engines.

The leaky and forgetful engines here are variants of the word duel
(tests/engines/word_duel_support.py), a tiny throwaway hidden-information game:
each seat is dealt a secret word by chance, then seats alternate guessing the
other's word, passing, re-dealing their own word or saying something.

A second one ("face down") checks the labels of actions: a seat plays the secret
word in its hand face down and draws a new one. Worded "Play the apple face down"
for everyone, the label leaks; worded per viewer (``State.action_labels``) it
does not. Neither game is registered.
"""

from __future__ import annotations

import dataclasses
import json

import pytest

from gameplay.engines.api import ActionLabels, IllegalActionError, MeasureSpec, Observation, OptionSpec
from tests.support.face_down import LeakyLabelsGame, PerSeatLabelsGame, PerSeatLabelsState

from .conformance import (
    check_label_leaks,
    check_observation_leaks,
    check_playouts,
    check_spec,
    random_playout,
)
from .word_duel_support import DuelGame, DuelState, duel_with


class LeakyDuelState(DuelState):
    def observation(self, seat):
        obs = super().observation(seat)
        if seat is None:
            return obs
        # The deliberate bug: the opponent's word ends up in the UI data.
        return Observation(seat, {**obs.data, "opponent_word": self.words[1 - seat]}, obs.text)


class LeakyDuelGame(DuelGame):
    state_class = LeakyDuelState


class PublicLeakDuelState(DuelState):
    def observation(self, seat):
        obs = super().observation(seat)
        if seat is None:
            return Observation(None, obs.data, f"Words: {', '.join(self.words)}")
        return obs


class PublicLeakDuelGame(DuelGame):
    state_class = PublicLeakDuelState


class ForgetfulDuelState(DuelState):
    def _payload(self):
        payload = super()._payload()
        del payload["words"]  # the deliberate bug: the dealt words are not saved
        return payload

    def _load_payload(self, payload):
        self.count = payload["count"]
        self.winner_seat = payload["winner"]
        self.said = list(payload["said"])


class ForgetfulDuelGame(DuelGame):
    state_class = ForgetfulDuelState


def _distinct_words_state(game_cls):
    """A fresh state whose two seats hold different words (so a leak is visible)."""
    for seed in range(100):
        state = game_cls().new_initial_state(seed)
        if state.words[0] != state.words[1]:
            return state
    raise AssertionError("no seed dealt two different words")


def test_leaking_observation_is_caught():
    with pytest.raises(AssertionError, match="leaks seat"):
        check_observation_leaks(_distinct_words_state(LeakyDuelGame))


def test_public_leak_is_caught():
    with pytest.raises(AssertionError, match="public observation leaks"):
        check_observation_leaks(_distinct_words_state(PublicLeakDuelGame))


def test_correct_observation_passes():
    check_observation_leaks(_distinct_words_state(DuelGame))


def test_playouts_fail_on_leaky_game_and_pass_on_correct_one():
    with pytest.raises(AssertionError, match="leaks seat"):
        check_playouts(LeakyDuelGame, n_playouts=20)
    finals = check_playouts(DuelGame, n_playouts=200)
    assert any(s.said for s in finals), "the text-only step was never exercised"
    assert any(s.winner_seat is not None for s in finals)
    reasons = {s.end_reason() for s in finals}
    assert reasons == {"Player 1 guessed the other word.", "Player 2 guessed the other word.",
                       "The 9-action limit was reached without a right guess."}


def test_an_end_reason_is_required_at_the_end_and_refused_before():
    with pytest.raises(AssertionError, match="gives no end_reason"):
        random_playout(duel_with(state_methods={"end_reason": lambda self: None})(), seed=1)
    with pytest.raises(AssertionError, match="end_reason before the end"):
        random_playout(duel_with(state_methods={"end_reason": lambda self: "Over."})(), seed=1)


def test_playouts_fail_when_payload_forgets_state():
    # The lost words change how the restored copy continues, so replay disagrees.
    with pytest.raises(AssertionError, match="replay"):
        check_playouts(ForgetfulDuelGame, n_playouts=20)


def test_chance_replays_identically_across_json_round_trip():
    game = DuelGame()
    for seed in range(30):
        state = game.new_initial_state(seed)
        state.apply_action(0, "redeal")
        restored = game.state_from_json(json.loads(json.dumps(state.to_json())))
        # The same later chance events must draw the same values on both copies.
        for copy in (state, restored):
            copy.apply_action(1, "redeal")
            copy.apply_action(0, "say", "hi")
            copy.apply_action(1, "pass")
            copy.apply_action(0, "redeal")
        assert restored.to_json() == state.to_json()
        assert game.replay(seed, state.log).to_json() == state.to_json()
    # Different seeds really do deal differently, so the check above is not vacuous.
    deals = {tuple(game.new_initial_state(seed).words) for seed in range(30)}
    assert len(deals) > 1


def test_random_playout_exercises_text_actions():
    state = random_playout(DuelGame(), seed=3)
    assert state.is_terminal()


# --- labels of actions: the "face down" game (tests/support/face_down.py) ---------------------------------

class PublicLeakLabelsState(PerSeatLabelsState):
    """Right for the seats, wrong for spectators: the public label is the mover's own."""

    def action_labels(self, seat, action_id, text=None):
        labels = super().action_labels(seat, action_id, text)
        return ActionLabels(labels.by_seat, labels.by_seat[seat])


class PublicLeakLabelsGame(LeakyLabelsGame):
    state_class = PublicLeakLabelsState


def test_labels_leaking_a_secret_word_are_caught():
    with pytest.raises(AssertionError, match=r"label for seat \d leaks seat \d's secret|public label leaks"):
        check_playouts(LeakyLabelsGame, n_playouts=20)


def test_a_public_label_leaking_a_secret_word_is_caught():
    with pytest.raises(AssertionError, match="public label leaks"):
        check_playouts(PublicLeakLabelsGame, n_playouts=20)


def test_labels_per_seat_pass_and_tell_each_seat_its_own_word():
    finals = check_playouts(PerSeatLabelsGame, n_playouts=100)
    assert any(state.face_down[0] or state.face_down[1] for state in finals), "no word was ever played"
    state = PerSeatLabelsGame().new_initial_state(0)
    labels = state.action_labels(0, "play")
    assert labels.for_viewer(0) == f"You play the {state.hands[0]} face down"
    assert labels.for_viewer(1) == labels.for_viewer(None) == labels.public == "Player 1 plays a word face down"


def _labels(*texts: str, public: str = "Someone acts") -> ActionLabels:
    return ActionLabels(tuple(texts), public)


def test_label_check_uses_the_secrets_before_and_after_the_action():
    state = PerSeatLabelsGame().new_initial_state(0)
    # A secret that exists only after the action (a word drawn by it) must not be named either.
    with pytest.raises(AssertionError, match="label for seat 1 leaks seat 0's secret 'river'"):
        check_label_leaks(state, _labels("You draw river", "Player 1 drew river"), {}, {0: ["river"]})
    with pytest.raises(AssertionError, match="public label leaks secret 'apple'"):
        check_label_leaks(state, _labels("x", "y", public="apple played"), {0: ["apple"]}, {})
    # A seat's own secret in its own label is fine, and so is a value both seats hold.
    check_label_leaks(state, _labels("You play apple", "Player 1 plays"), {0: ["apple"]}, {0: ["river"]})
    check_label_leaks(state, _labels("You play apple", "So do you: apple"), {0: ["apple"], 1: ["apple"]}, {})
    with pytest.raises(AssertionError, match="every|each of 2 seats"):
        check_label_leaks(state, _labels("only one"), {}, {})


# --- declared capabilities: a mis-declared engine fails ------------------------------------------------------

MEASURES = (MeasureSpec("guesses", "Actions so far."), MeasureSpec("won", "This seat won.", kind="bool"))


def _good_measures(self, seat):
    return {"guesses": self.count, "won": self.winner_seat == seat}


def test_declared_measures_pass_and_wrong_names_or_kinds_fail():
    check_playouts(duel_with({"measures": MEASURES}, {"measures": _good_measures}), n_playouts=20)
    with pytest.raises(AssertionError, match="the spec declares"):
        random_playout(duel_with({"measures": MEASURES})(), seed=1)  # declared, but the default returns {}
    wrong_kind = {"measures": lambda self, seat: {"guesses": str(self.count), "won": False}}
    with pytest.raises(AssertionError, match="must be a number"):
        random_playout(duel_with({"measures": MEASURES}, wrong_kind)(), seed=1)
    number_for_bool = {"measures": lambda self, seat: {"guesses": self.count, "won": 0}}
    with pytest.raises(AssertionError, match="must be a bool"):
        random_playout(duel_with({"measures": MEASURES}, number_for_bool)(), seed=1)


def test_undeclared_or_missing_pictures_fail():
    png = b"\x89PNG\r\n\x1a\n..."
    drawn = {"observation_image": lambda self, observation, *, coords=False: png}
    with pytest.raises(AssertionError, match="does not declare has_image"):
        random_playout(duel_with(game_methods=drawn)(), seed=1)
    with pytest.raises(AssertionError, match="must be PNG bytes"):
        random_playout(duel_with({"has_image": True})(), seed=1)
    random_playout(duel_with({"has_image": True}, game_methods=drawn)(), seed=1)
    # Asked for cell labels, a picture is still a PNG (a game without labels to draw ignores the request).
    unlabelled = {"observation_image": lambda self, observation, *, coords=False: None if coords else png}
    with pytest.raises(AssertionError, match=r"coords=True\) of seat .* must be PNG bytes"):
        random_playout(duel_with({"has_image": True}, game_methods=unlabelled)(), seed=1)


def test_chat_rounds_and_spec_consistency():
    with pytest.raises(AssertionError, match="chat_enabled"):
        check_spec(duel_with(game_methods={"chat_enabled": lambda self: True})())
    with pytest.raises(AssertionError, match="chat_in_state needs has_chat"):
        check_spec(duel_with({"chat_in_state": True})())
    with pytest.raises(AssertionError, match="does not declare round_sequence"):
        check_spec(duel_with(game_methods={"next_round_options": lambda self: {}})())
    with pytest.raises(AssertionError, match="not valid options"):
        check_spec(duel_with({"round_sequence": True},
                              game_methods={"next_round_options": lambda self: {"no_such_option": 1}})())


@pytest.mark.parametrize("label,problem", [("", "needs a label"), ("Max_guesses", "reads like an identifier"),
                                           ("max guesses", "must start with a capital")])
def test_an_option_without_a_readable_label_fails(label, problem):
    option = OptionSpec("max_guesses", 5, "Guesses before a draw.", int, bounds=(1, 9), label=label)
    with pytest.raises(AssertionError, match=problem):
        check_spec(duel_with({"options": (option,)})())
    check_spec(duel_with({"options": (dataclasses.replace(option, label="Guesses before a draw"),)})())


def _store_chat(self, seat, text):
    self.said.append(f"{seat}:{text}")


def test_chat_in_state_must_store_and_undeclared_storage_fails():
    chat = {"has_chat": True, "chat_in_state": True}
    random_playout(duel_with(chat, {"record_message": _store_chat})(), seed=1)
    with pytest.raises(AssertionError, match="did not store"):
        random_playout(duel_with(chat)(), seed=1)  # declared, but the default stores nothing
    with pytest.raises(AssertionError, match="does not declare chat_in_state"):
        random_playout(duel_with({"has_chat": True}, {"record_message": _store_chat})(), seed=1)


def _parse_guess(self, text):
    if text.startswith("guess:") and text in {a.id for s in self.current_seats() for a in self.legal_actions(s)}:
        return text
    raise IllegalActionError(f"{text!r} is not a guess")


def test_typed_moves_must_round_trip_and_refuse_garbage():
    typed = {"typed_moves": "guesses"}
    finals = check_playouts(duel_with(typed, {"parse_move": _parse_guess}), n_playouts=20,
                            text_of=lambda state, action: action.id if action.id.startswith("guess:") else None)
    assert len(finals) == 20
    with pytest.raises(AssertionError, match="refused the legal move"):  # declared; the default parses nothing
        random_playout(duel_with(typed)(), seed=1)
    lenient = {"parse_move": lambda self, text: "pass"}
    with pytest.raises(AssertionError, match="parse_move"):
        random_playout(duel_with(typed, lenient)(), seed=1)
    with pytest.raises(AssertionError, match="declares no typed_moves"):
        random_playout(duel_with(state_methods={"parse_move": _parse_guess})(), seed=1)
