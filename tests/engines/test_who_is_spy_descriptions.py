"""Who is Spy's descriptions: empty or too long ones are refused, the word limit is an option and lines are joined,
the own word is refused even inside another word while the other word of the pair is not, a repeat is refused by
default (after normalising), struck with the strike rule and counted with allow, and descriptions are public in the
action labels and every observation."""

from __future__ import annotations

import pytest

from gameplay.engines.api import IllegalActionError

from .who_is_spy_support import new_state


@pytest.mark.parametrize("text,reason", [
    ("", "needs text"), ("   ", "needs text"), ("... !!", "empty"),
    ("one two three four five six seven eight nine ten eleven", "11 words"),
])
def test_descriptions_that_are_empty_or_too_long_are_refused(text, reason):
    state = new_state()
    seat = state.current_seats()[0]
    with pytest.raises(IllegalActionError, match=reason):
        state.apply_action(seat, "describe", text)
    assert state.current_seats() == [seat]


def test_the_word_limit_is_an_option_and_lines_are_joined():
    state = new_state(max_description_words=3)
    seat = state.current_seats()[0]
    with pytest.raises(IllegalActionError, match="at most 3"):
        state.apply_action(seat, "describe", "one two three four")
    state.apply_action(seat, "describe", "one\ntwo   three")
    assert state.round["talk"][-1]["text"] == "one two three"


def test_the_own_word_is_refused_inside_another_word_but_the_other_word_is_not():
    state = new_state()
    seat = state.current_seats()[0]
    other = state.spy_word if state.words[seat] == state.villager_word else state.villager_word
    with pytest.raises(IllegalActionError):
        state.apply_action(seat, "describe", f"decaf{state.words[seat]}")
    state.apply_action(seat, "describe", f"not {other} at all")


def test_a_repeat_is_refused_by_default_after_normalising():
    state = new_state()
    state.apply_action(state.current_seats()[0], "describe", "Hello there!")
    seat = state.current_seats()[0]
    for text in ("hello there", "  HELLO,   there. "):
        with pytest.raises(IllegalActionError, match="already given"):
            state.apply_action(seat, "describe", text)
    state.apply_action(seat, "describe", "hello over there")


def test_a_repeat_is_struck_with_the_strike_rule_and_counts_with_allow():
    state = new_state(repeat_rule="strike")
    first = state.current_seats()[0]
    state.apply_action(first, "describe", "Hello there!")
    second = state.current_seats()[0]
    labels = state.action_labels(second, "describe", "hello THERE")
    assert "struck" in labels.public
    state.apply_action(second, "describe", "hello THERE")
    assert [t["struck"] for t in state.round["talk"]] == [False, True]
    assert f"Player {second + 1} said: hello THERE (a repeat" in state.observation(None).text
    allowed = new_state(repeat_rule="allow")
    allowed.apply_action(allowed.current_seats()[0], "describe", "same")
    allowed.apply_action(allowed.current_seats()[0], "describe", "same")
    assert [t["struck"] for t in allowed.round["talk"]] == [False, False]


def test_descriptions_are_public_in_labels_and_observations():
    state = new_state()
    seat = state.current_seats()[0]
    labels = state.action_labels(seat, "describe", "a dark morning drink")
    assert labels.public == f"Player {seat + 1} describes their word: a dark morning drink"
    assert labels.for_viewer(seat) == "You describe your word: a dark morning drink"
    state.apply_action(seat, "describe", "a dark morning drink")
    for viewer in [*range(4), None]:
        assert "a dark morning drink" in state.observation(viewer).text
