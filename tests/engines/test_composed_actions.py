"""Composed actions (GameSpec.composed_actions): the conformance check catches parts that cannot be chosen step by
step, and the games that declare them stay within a small list per step."""

from __future__ import annotations

import random
from collections import Counter
from types import SimpleNamespace

import pytest

from gameplay.engines.api import Action, TextAction
from gameplay.engines.registry import create_game

from .composed_actions import check_composed_actions


def fake_state(actions, declared=True):
    spec = SimpleNamespace(id="fake", composed_actions=declared)
    return SimpleNamespace(game=SimpleNamespace(spec=spec), current_seats=lambda: [0],
                           legal_actions=lambda seat: list(actions), text_actions=lambda seat: [])


def test_well_formed_parts_pass():
    check_composed_actions(fake_state([Action("a", "A", parts=("x", "1")), Action("b", "B", parts=("x", "2")),
                                       Action("c", "C", parts=("y",))]))


@pytest.mark.parametrize("actions, problem", [
    ([Action("a", "A", parts=("x", "1")), Action("b", "B")], "has no parts"),
    ([Action("a", "A", parts=("x", "1")), Action("b", "B", parts=("x", "1"))], "same parts"),
    ([Action("a", "A", parts=("x", "1")), Action("b", "B", parts=("x",))], "begin those"),
    ([Action("a", "A", parts=("x", " "))], "empty part"),
])
def test_parts_that_cannot_be_chosen_step_by_step_are_caught(actions, problem):
    with pytest.raises(AssertionError, match=problem):
        check_composed_actions(fake_state(actions))


def test_parts_without_the_declaration_are_caught():
    with pytest.raises(AssertionError, match="does not declare"):
        check_composed_actions(fake_state([Action("a", "A", parts=("x",))], declared=False))


def widest_step(actions) -> int:
    """The most options any step offers: distinct next parts after any chosen prefix."""
    after: dict[tuple, set] = {}
    for a in actions:
        for cut in range(len(a.parts)):
            after.setdefault(a.parts[:cut], set()).add(a.parts[cut])
    return max(len(options) for options in after.values())


def test_a_fruit_trading_offer_is_three_short_choices():
    state = create_game("fruit_trading").new_initial_state(3)
    seat = state.current_seats()[0]
    moves = state.text_actions(seat)
    assert len(moves) > 100
    offer = next(m for m in moves if m.id.startswith("propose:"))
    assert offer.parts[0].startswith("Propose an offer") and offer.parts[1].startswith("you give ")
    assert offer.parts[2].startswith("you get ")
    assert widest_step(moves) <= 40, widest_step(moves)
    assert isinstance(moves[0], TextAction) and moves[0].parts == (moves[0].label,)


def test_hive_moves_are_a_piece_then_a_destination_and_each_step_stays_short():
    rng, widest, total = random.Random(5), Counter(), 0
    game = create_game("hive")
    for seed in range(3):
        state = game.new_initial_state(seed)
        while not state.is_terminal() and len(state.log) < 120:
            seat = state.current_seats()[0]
            actions = state.legal_actions(seat)
            total = max(total, len(actions))
            widest[widest_step(actions)] += 1
            state.apply_action(seat, rng.choice(actions).id)
    label = next(a for a in actions if a.id != "pass")
    assert " ".join(label.parts) == label.label
    assert total > 60 and max(widest) < total / 2, (total, max(widest))
