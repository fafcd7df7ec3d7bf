"""Air, Land & Sea's board presenter: what the board template draws (``layout``), computed from one seat view's
facts only (so it cannot show more than the seat may see): the viewer's side at the bottom of each theater column,
the VP track, the hand and the recent events."""

from __future__ import annotations

from gameplay.boards.base import BoardPresenter
from gameplay.engines.seat_view import SeatView

EVENTS_SHOWN = 6


def _card(card: dict) -> dict:
    if card["id"] is None:
        title, label = "", f"face-down card, strength {card['strength']}"
    else:
        # Face down, the strength shown is the card's current one (2 or 4): its printed value would mislead.
        title = f"{card['printed']} {card['name']}" if card["up"] else card["name"]
        face = "face up" if card["up"] else "face down"
        label = f"{card['id']} {card['name']}, {face}, strength {card['strength']}"
        if card["up"] and card["kind"] != "none":
            label += f". {card['kind'].capitalize()}: {card['effect']}"
    return {**card, "title": title, "label": label + (", covered" if card["covered"] else "")}


def layout_of(data: dict) -> dict:
    """The drawing of one observation's facts (``data``)."""
    viewer = data["you"]
    me = viewer if viewer in (0, 1) else 0
    them = 1 - me
    names = data["seat_names"]
    target = data["target_vp"]

    def who(seat: int) -> str:
        return "You" if seat == viewer else names[seat]

    columns = []
    for t in data["theaters"]:
        columns.append({
            "pos": t["pos"], "name": t["name"], "type": t["type"], "loc": f"theater:{t['pos']}",
            "top": [_card(c) for c in t["stacks"][them]][::-1],  # the opponent's stack reads downwards to the middle
            "bottom": [_card(c) for c in t["stacks"][me]],
            "top_total": t["totals"][them], "bottom_total": t["totals"][me],
            "holder": who(t["controller"]), "held_by_bottom": t["controller"] == me,
        })
    track = []
    for seat in (me, them):
        vp = data["vp"][seat]
        track.append({"seat": seat, "name": who(seat), "vp": vp, "first": data["first"] == seat,
                      "cells": [i < vp for i in range(target)], "hand": data["hand_sizes"][seat]})
    events = data["events"][-EVENTS_SHOWN:]
    last_other = next((e["text"] for e in reversed(data["events"]) if e["seat"] != viewer), None)
    return {
        "me": me, "them": them, "them_name": who(them), "columns": columns, "track": track, "target": target,
        "hand": [{**c, "loc": f"hand:{c['slot']}"} for c in data["hand"]],
        "events": [e["text"] for e in events], "last_other": last_other if viewer is not None else None,
    }


class AirLandSeaBoard(BoardPresenter):
    template = "games/air_land_sea/board.html"
    rules_template = "games/air_land_sea/rules.html"

    def layout(self, view: SeatView) -> dict:
        return layout_of(view.facts)
