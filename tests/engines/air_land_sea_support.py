"""Shared helpers of the Air, Land & Sea engine tests: a battle position built by hand, playing an action as the seat
to move, the legal action ids, and every card on the board."""

from __future__ import annotations

from gameplay.engines.air_land_sea import AirLandSeaGame, AirLandSeaState
from gameplay.engines.air_land_sea.cards import ALL_IDS


def position(theaters="ALS", first=0, hands=((), ()), stacks=None, deck=None, turn=None, **options):
    """A battle position built by hand. ``stacks`` maps (pos, seat) to card ids, bottom first; a lower-case id
    ("a3") is face down. Unlisted cards go to the deck (or ``deck`` gives it exactly, top first)."""
    state = AirLandSeaGame(options).new_initial_state(0)
    state.theaters = list(theaters)
    state.first = first
    state.hands = [list(hands[0]), list(hands[1])]
    state.stacks = [[[], []] for _ in range(3)]
    for (pos, seat), ids in (stacks or {}).items():
        state.stacks[pos][seat] = [{"id": c.upper(), "up": c.isupper()} for c in ids]
    used = {*state.hands[0], *state.hands[1], *(c["id"] for p in range(3) for s in (0, 1) for c in state.stacks[p][s])}
    state.deck = list(deck) if deck is not None else [c for c in ALL_IDS if c not in used]
    state.seen = [c["id"] for p in range(3) for s in (0, 1) for c in state.stacks[p][s] if c["up"]]
    state.turn_seat = first if turn is None else turn
    return state


def act(state: AirLandSeaState, action_id: str) -> None:
    state.apply_action(state.current_seats()[0], action_id)


def ids(state: AirLandSeaState, seat: int | None = None) -> set[str]:
    seat = state.current_seats()[0] if seat is None else seat
    return {a.id for a in state.legal_actions(seat)}


def board_cards(state) -> list[str]:
    return [c["id"] for p in range(3) for s in (0, 1) for c in state.stacks[p][s]]
