"""What each seat of Pit knows of the other hands in the current deal: per observer and holder, a multiset of cards
the observer knows the holder still holds (a lower bound of that hand), kept in the state for the information-set
sampler (sampling.py).

Cards a seat gave in a trade are in the other trader's hand until that trader trades on; cards it received were
in the other's hand and left it. A trade a seat is not party to shows it only counts (unless commodities are
public), so it lowers what the seat knows of each trader by that count: the given cards are one commodity (plus
Bull or Bear), which may be any of the known ones. Public offers (``gamebench_public_commodities``) show cards the
offerer holds. A deal forgets everything. The bounds are sound (always true of the real hands), not tight: a trade
the seat only counted could have removed only one commodity, which the bound does not keep.

``known[observer][holder]`` is a card -> count dict without zero entries (the observer's own entry stays empty).
"""

from __future__ import annotations

from collections.abc import Mapping

from .cards import size


def fresh(num_seats: int) -> list[list[dict[str, int]]]:
    return [[{} for _ in range(num_seats)] for _ in range(num_seats)]


def _after(known: Mapping[str, int], gave: Mapping[str, int], got: Mapping[str, int]) -> dict[str, int]:
    """A holder known to hold ``known`` gave ``gave`` and got ``got`` (both seen by the observer)."""
    result = {card: n - gave.get(card, 0) for card, n in known.items() if n > gave.get(card, 0)}
    for card, n in got.items():
        result[card] = result.get(card, 0) + n
    return result


def _after_unseen(known: Mapping[str, int], count: int) -> dict[str, int]:
    """A holder known to hold ``known`` gave ``count`` cards the observer did not see (and got some it did not see
    either): any known card may be among them, up to ``count`` of it."""
    return {card: n - count for card, n in known.items() if n > count}


def note_trade(known: list[list[dict[str, int]]], offerer: int, taker: int, offered: Mapping[str, int],
               answered: Mapping[str, int], public: bool) -> None:
    """``offerer`` gave ``offered`` to ``taker`` for ``answered``."""
    for observer, row in enumerate(known):
        if observer != offerer:
            row[offerer] = (_after(row[offerer], offered, answered) if public or observer == taker
                            else _after_unseen(row[offerer], size(offered)))
        if observer != taker:
            row[taker] = (_after(row[taker], answered, offered) if public or observer == offerer
                          else _after_unseen(row[taker], size(answered)))


def note_public_offer(known: list[list[dict[str, int]]], seat: int, bundle: Mapping[str, int]) -> None:
    """Everyone read ``seat``'s offer of ``bundle`` (public commodities): it holds at least those cards."""
    for observer, row in enumerate(known):
        if observer != seat:
            mine = row[seat]
            row[seat] = {**mine, **{card: max(n, mine.get(card, 0)) for card, n in bundle.items()}}
