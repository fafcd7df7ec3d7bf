"""Shared helpers of the Arctic Scavengers engine tests: a new game, actions played by the seat to move, whole rounds
passed until a skirmish round, and hands given to seats (and kept whole in a skirmish)."""

from __future__ import annotations

from gameplay.engines.arctic_scavengers import ArcticGame, ArcticState


def new_state(seats: int = 2, seed: int = 0, **options) -> ArcticState:
    return ArcticGame(options, seats).new_initial_state(seed)


def act(state: ArcticState, *action_ids: str) -> None:
    for action_id in action_ids:
        state.apply_action(state.current_seats()[0], action_id)


def pass_round(state: ArcticState) -> None:
    """Every seat ends its turn at once (keeping its whole hand in a skirmish round) and uses no special."""
    start = state.round
    while state.round == start and not state.is_terminal():
        legal = {a.id for a in state.legal_actions(state.current_seats()[0])}
        act(state, next(a for a in ("end_turn", "keep", "skirmish_done") if a in legal))


def to_skirmish_round(state: ArcticState) -> None:
    while not state.skirmish_round():
        pass_round(state)


def set_hand(state: ArcticState, seat: int, cards: list[str]) -> None:
    state.hands[seat] = list(cards)


def keep_hands(state: ArcticState, hands: dict[int, list[str]]) -> None:
    """In a skirmish round, give each seat a hand and let every seat keep it all."""
    for seat, cards in hands.items():
        set_hand(state, seat, cards)
    for seat in state.order():
        act(state, "end_turn", "keep") if hands.get(seat, state.hands[seat]) else act(state, "end_turn")
