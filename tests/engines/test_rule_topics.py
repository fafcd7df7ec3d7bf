"""What each engine says a move depends on (``State.rule_topics``, issue 22 point 2), checked on known positions;
the conformance suite checks every legal move of random playouts against the offered topics."""

from __future__ import annotations

import pytest

from gameplay.engines.registry import create_game
from tests.engines.conformance import check_rule_topics


def play_until(state, wanted_prefix: str):
    while not any(a.id.startswith(wanted_prefix) for a in state.legal_actions(state.current_seats()[0])):
        seat = state.current_seats()[0]
        state.apply_action(seat, state.legal_actions(seat)[0].id)
    return state


def test_santorini_moves_need_moving_and_winning_and_the_variant_when_it_is_on():
    state = play_until(create_game("santorini").new_initial_state(3), "move")
    seat = state.current_seats()[0]
    move = next(a.id for a in state.legal_actions(seat) if a.id.startswith("move"))
    assert state.rule_topics(seat, move) == ("moving", "winning")
    assert state.rule_topics(1 - seat, move) == ("moving", "winning")  # by the kind of move, whoever asks
    variant = play_until(create_game("santorini", {"alternate_workers": True}).new_initial_state(3), "move")
    seat = variant.current_seats()[0]
    move = next(a.id for a in variant.legal_actions(seat) if a.id.startswith("move"))
    assert variant.rule_topics(seat, move) == ("moving", "winning", "variant")
    assert create_game("santorini").new_initial_state(3).rule_topics(0, "place:a1") == ("setup",)


def test_santorini_summary_holds_the_climb_limit_and_domes():
    summary = create_game("santorini").rules.summary
    assert "climbing at most one level up" in summary and "dome" in summary


def test_hive_placements_moves_and_passes_name_their_topics():
    state = create_game("hive").new_initial_state(1)
    first = state.legal_actions(0)[0].id
    assert state.rule_topics(0, first) == ("placement", "notation")
    assert state.rule_topics(1, first) == ()  # not seat 1's move
    for _ in range(12):  # play on until a piece on the board can move
        seat = state.current_seats()[0]
        moves = [a for a in state.legal_actions(seat) if not a.path or not a.path[0].startswith("hand:")]
        if moves:
            topics = state.rule_topics(seat, moves[0].id)
            assert topics[1:3] == ("one_hive", "freedom_to_move") and topics[0] in create_game("hive").rules.topics
            return
        state.apply_action(seat, state.legal_actions(seat)[0].id)
    pytest.fail("no piece could move in 12 plies")


def test_gnomes_moves_need_the_moves_and_walls_topics():
    state = create_game("gnomes", {"first_seat": 0}).new_initial_state(2)
    assert {state.rule_topics(0, a.id) for a in state.legal_actions(0)} == {("moves", "walls")}


def test_the_check_refuses_a_move_without_topics_or_with_a_topic_nobody_offers():
    state = create_game("gnomes", {"first_seat": 0}).new_initial_state(2)
    check_rule_topics(state)

    class Silent(type(state)):
        def rule_topics(self, seat, action_id):
            return ()

    class Unknown(type(state)):
        def rule_topics(self, seat, action_id):
            return ("teleporting",)

    for cls, message in ((Silent, "names no rule topic"), (Unknown, "neither offered")):
        odd = cls.from_json(state.game, state.to_json())
        with pytest.raises(AssertionError, match=message):
            check_rule_topics(odd)
