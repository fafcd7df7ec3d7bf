"""What seats learn of each other's cards: ``known[viewer][str(seat)]`` is "card" (a card share or a public reveal
showed the whole card) or "color" (a colour share showed its team). The game notes each share and reveal here as it
happens, and a sample of an information set (sampling.py) rebuilds the table from the events it keeps."""

from __future__ import annotations

from typing import Any

Known = list[dict[str, str]]
# Share levels: a card share shows everything a colour share does.
LEVEL = {"color": 1, "card": 2}


def note_share(known: Known, event: dict[str, Any]) -> None:
    """A share between ``a`` and ``b``: each sees the other's card or colour (never less than it knew)."""
    a, b, how = event["a"], event["b"], event["how"]
    for viewer, shown in ((a, b), (b, a)):
        if LEVEL[how] > LEVEL.get(known[viewer].get(str(shown), ""), 0):
            known[viewer][str(shown)] = how


def note_reveal(known: Known, event: dict[str, Any]) -> None:
    """A public reveal: everybody in the revealer's room then (the event's witnesses) sees its card."""
    for viewer in event["see"]:
        if viewer != event["s"]:
            known[viewer][str(event["s"])] = "card"


def known_from(events: list[dict[str, Any]], num_seats: int) -> Known:
    """The table as the shares and reveals among ``events`` leave it."""
    known: Known = [{} for _ in range(num_seats)]
    for event in events:
        if event["k"] == "share":
            note_share(known, event)
        elif event["k"] == "reveal":
            note_reveal(known, event)
    return known
