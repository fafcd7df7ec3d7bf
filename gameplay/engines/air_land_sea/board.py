"""The battle board: three theaters, each with one stack per seat, and everything computed from it.

``stacks[pos][seat]`` is a list of ``{"id": card id, "up": bool}``, bottom first; the last card is the only
uncovered one. Strengths are always recomputed from the stacks (never cached), so flips and moves can never
leave a stale value behind.
"""

from __future__ import annotations

from .cards import (
    BLOCKADE,
    BOOSTED_STRENGTH,
    CARDS,
    CONTAINMENT,
    COVER_FIRE,
    ESCALATION,
    FACE_DOWN_STRENGTH,
    SUPPORT,
    SUPPORT_BONUS,
    adjacent,
    neighbours,
)

Stacks = list[list[list[dict]]]


def empty_stacks() -> Stacks:
    return [[[], []] for _ in range(3)]


def face_up_map(stacks: Stacks) -> dict[str, tuple[int, int]]:
    """(pos, side) of every face-up card, covered or not (a covered card's Ongoing ability still works)."""
    return {c["id"]: (pos, side) for pos in range(3) for side in (0, 1) for c in stacks[pos][side] if c["up"]}


def face_up_anywhere(stacks: Stacks, card_id: str, seat: int | None = None, ups: dict | None = None) -> list[int]:
    """Theater positions holding ``card_id`` face up (on ``seat``'s side, or either side); ``ups`` is a
    precomputed face_up_map when the caller asks many times about one board."""
    where = (face_up_map(stacks) if ups is None else ups).get(card_id)
    if where is None or (seat is not None and where[1] != seat):
        return []
    return [where[0]]


def locate(stacks: Stacks, card_id: str) -> tuple[int, int, int] | None:
    """(pos, side, index) of a card on the board, or None."""
    for pos in range(3):
        for side in (0, 1):
            for index, card in enumerate(stacks[pos][side]):
                if card["id"] == card_id:
                    return pos, side, index
    return None


def card_strength(stacks: Stacks, pos: int, side: int, index: int, ups: dict | None = None) -> int:
    stack = stacks[pos][side]
    if any(c["id"] == COVER_FIRE and c["up"] for c in stack[index + 1:]):
        return BOOSTED_STRENGTH  # Cover Fire fixes every card it covers at 4, even a 5 or 6
    card = stack[index]
    if card["up"]:
        return CARDS[card["id"]].strength
    if face_up_anywhere(stacks, ESCALATION, side, ups):
        return BOOSTED_STRENGTH
    return FACE_DOWN_STRENGTH


def total(stacks: Stacks, pos: int, side: int, ups: dict | None = None) -> int:
    ups = face_up_map(stacks) if ups is None else ups
    cards = sum(card_strength(stacks, pos, side, i, ups) for i in range(len(stacks[pos][side])))
    support = sum(SUPPORT_BONUS for p in face_up_anywhere(stacks, SUPPORT, side, ups) if adjacent(p, pos))
    return cards + support


def controller(stacks: Stacks, pos: int, first: int, ups: dict | None = None) -> int:
    """Who controls a theater: the strictly higher total, ties (empty included) to the 1st Player."""
    mine, theirs = total(stacks, pos, first, ups), total(stacks, pos, 1 - first, ups)
    return first if mine >= theirs else 1 - first


def battle_winner(stacks: Stacks, first: int) -> int:
    held = [controller(stacks, pos, first) for pos in range(3)]
    return max((0, 1), key=held.count)


def uncovered(stacks: Stacks, positions, sides) -> list[tuple[int, int]]:
    """(pos, side) of every non-empty stack among these positions and sides: its top card is uncovered."""
    return [(pos, side) for pos in positions for side in sides if stacks[pos][side]]


def maneuver_targets(stacks: Stacks, pos: int) -> list[tuple[int, int]]:
    return uncovered(stacks, neighbours(pos), (0, 1))


def destroyed_on_play(stacks: Stacks, pos: int, face_up: bool) -> str | None:
    """Why a card just played to ``pos`` (not yet placed) is destroyed, or None: Containment destroys every
    face-down play; a face-up Blockade destroys a play into an adjacent theater already holding 3+ cards."""
    if not face_up and face_up_anywhere(stacks, CONTAINMENT):
        return "Containment"
    crowded = len(stacks[pos][0]) + len(stacks[pos][1]) >= 3
    if crowded and any(adjacent(p, pos) for p in face_up_anywhere(stacks, BLOCKADE)):
        return "Blockade"
    return None


