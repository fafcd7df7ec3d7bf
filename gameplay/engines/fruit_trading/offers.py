"""Fruit bundles and offers: the canonical offer ids, their enumeration, parsing and wording.

An offer id is ``propose:<give>:<get>`` from the proposer's side. A side is its fruits in the fixed fruit order, each
as the fruit's name and a count (``apple1+banana2``), or ``nothing`` for an empty side (a gift or a request). So one
offer has exactly one id, and ids are stable across states: they name fruit counts, never positions.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import product

from ..api import IllegalActionError

FRUITS = ("apple", "banana", "blueberry", "kiwi")
PLURALS = {"apple": "apples", "banana": "bananas", "blueberry": "blueberries", "kiwi": "kiwis"}
PROPOSE = "propose"
NOTHING = "nothing"

Bundle = tuple[int, ...]  # a count per fruit, in FRUITS order


def side_id(bundle: Bundle) -> str:
    parts = [f"{fruit}{n}" for fruit, n in zip(FRUITS, bundle, strict=True) if n]
    return "+".join(parts) if parts else NOTHING


def offer_id(give: Bundle, get: Bundle) -> str:
    return f"{PROPOSE}:{side_id(give)}:{side_id(get)}"


def words(bundle: Bundle) -> str:
    """'1 banana and 2 kiwis', or 'nothing'."""
    parts = [f"{n} {fruit if n == 1 else PLURALS[fruit]}" for fruit, n in zip(FRUITS, bundle, strict=True) if n]
    if not parts:
        return NOTHING
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def value(bundle: Sequence[int], valuations: Sequence[int]) -> int:
    return sum(n * v for n, v in zip(bundle, valuations, strict=True))


def _parse_side(text: str) -> Bundle:
    if text == NOTHING:
        return (0,) * len(FRUITS)
    counts = dict.fromkeys(FRUITS, 0)
    order = []
    for part in text.split("+"):
        fruit = part.rstrip("0123456789")
        digits = part[len(fruit):]
        if fruit not in counts:
            raise IllegalActionError(f"unknown fruit {fruit!r} in an offer (fruits: {', '.join(FRUITS)})")
        if not digits or digits.startswith("0") or len(digits) > 2:
            raise IllegalActionError(f"{part!r}: write a fruit with a count from 1, e.g. {fruit}1")
        if counts[fruit]:
            raise IllegalActionError(f"{fruit} is named twice on one side of the offer")
        counts[fruit] = int(digits)
        order.append(FRUITS.index(fruit))
    if order != sorted(order):
        raise IllegalActionError(f"name the fruits in the order {', '.join(FRUITS)}")
    return tuple(counts[f] for f in FRUITS)


def parse_offer(action_id: str) -> tuple[Bundle, Bundle]:
    """The (give, get) bundles of an offer id; IllegalActionError saying what is malformed."""
    parts = action_id.split(":")
    if len(parts) != 3 or parts[0] != PROPOSE:
        raise IllegalActionError(f"{action_id!r} is not an offer: write propose:<give>:<get>, e.g. "
                                 "propose:banana1:kiwi2 or propose:nothing:apple1")
    return _parse_side(parts[1]), _parse_side(parts[2])


def offer_problem(give: Bundle, get: Bundle, endowment: Sequence[int], max_units: int) -> str | None:
    """Why an offer is not allowed for a proposer holding ``endowment`` (None: it is allowed)."""
    if not any(give) and not any(get):
        return "an offer needs fruit on at least one side"
    for side, bundle in (("give", give), ("get", get)):
        if sum(bundle) > max_units:
            return f"one side of an offer holds at most {max_units} fruits; the {side} side has {sum(bundle)}"
    for fruit, g, r in zip(FRUITS, give, get, strict=True):
        if g and r:
            return f"{fruit} is on both sides of the offer; offer a swap of different fruits"
    for fruit, g, have in zip(FRUITS, give, endowment, strict=True):
        if g > have:
            return f"you can only offer fruit you own: you have {have} {fruit if have == 1 else PLURALS[fruit]}, " \
                   f"not {g}"
    return None


def _bundles(limits: Sequence[int], max_units: int) -> list[Bundle]:
    """Every bundle with at most limits[i] of fruit i and at most max_units fruits in all, empty included."""
    ranges = [range(min(limit, max_units) + 1) for limit in limits]
    return [b for b in product(*ranges) if sum(b) <= max_units]


@lru_cache(maxsize=512)
def legal_offers(endowment: Bundle, max_units: int) -> tuple[tuple[Bundle, Bundle], ...]:
    """Every offer a proposer holding ``endowment`` may make, in a stable order: fewer fruits first, then by what
    is given and what is asked in the fruit order (so a list of them reads from the simple swaps to the bundles).

    It depends only on the proposer's basket and the option, so it is computed once per basket, not per state."""
    result = []
    gets_all = _bundles((max_units,) * len(FRUITS), max_units)
    for give in _bundles(endowment, max_units):
        for get in gets_all:
            if not any(give) and not any(get):
                continue
            if any(g and r for g, r in zip(give, get, strict=True)):
                continue
            result.append((give, get))
    result.sort(key=lambda o: (sum(o[0]) + sum(o[1]), [-n for n in o[0]], [-n for n in o[1]]))
    return tuple(result)


