"""How one action event reads for one seat: its own label, or the public one for spectators.

Shared by the page's "Last:" line (selectors.seat_view) and the move list (move_list.py); here, below both, so the
capabilities package keeps importing nothing from selectors.
"""

from __future__ import annotations


def last_action_text(event: dict | None, names: dict[int, str], seat_index: int | None) -> str | None:
    """"Name: label" of the last action as ``seat_index`` may read it: its own wording (``labels[seat]``) for a
    seat, the public label for spectators (and for events logged before labels per seat existed)."""
    if event is None:
        return None
    payload = event["payload"]
    label = payload.get("label")
    labels = payload.get("labels")
    if seat_index is not None and isinstance(labels, list) and 0 <= seat_index < len(labels):
        label = labels[seat_index]
    name = names.get(event["seat"])
    if name is None or not isinstance(label, str):  # no seat's move: a judge's verdict (its label says so)
        return label
    if label.startswith((f"{name} ", "You ")):  # the engine's wording names the actor already
        return label
    return f"{name}: {label}"
