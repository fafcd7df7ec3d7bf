"""Two Rooms and a Boom's board (templates/games/two_rooms_and_a_boom/board.html): the viewer's own card, its log
as styled rows and its actions grouped for the board's forms, all from one SeatView.

The card and the rows come from the observation's facts (``my_card``, ``log``); the controls from the view's legal
and text actions, whose ids name the seats they are about ("offer_share:4:card", "whisper:2"), so a partner's name
is the view's name of that seat. Labels are shown as the engine wrote them and never read back.
"""

from __future__ import annotations

from typing import Any

from gameplay.boards.base import BoardPresenter
from gameplay.engines.seat_view import SeatView

# How the card panel names a team colour (my_card.team); the colour itself is the panel's css class.
TEAM_WORDS = {"blue": "Blue team", "red": "Red team", "grey": "Grey: on neither team"}

# Legal action kinds shown as lists of buttons or options, and those shown as one button, by control group.
LISTS = {"accept_share": "accept", "nominate_leader": "nominate", "hostages": "hostages"}
SINGLES = {"reveal_public": "reveal", "done": "done", "parley_pass": "parley_pass"}
# Kinds whose options are named by the seat in their id: a share partner, the one voted for, the new Leader.
BY_SEAT = {"vote_usurp": "vote", "abdicate": "abdicate"}


def _kind(action_id: str) -> tuple[str, str]:
    """An action id's kind and the rest ("offer_share:4:card" -> ("offer_share", "4:card"))."""
    kind, _, rest = action_id.partition(":")
    return kind, rest


def card(view: SeatView) -> dict[str, Any] | None:
    """The viewer's own card: its name (None when the variant tells the colour only), team words and colour."""
    mine = view.facts.get("my_card")
    if not mine:
        return None
    return {"name": mine["name"], "team": TEAM_WORDS[mine["team"]], "css": mine["team"]}


def rows(view: SeatView) -> list[dict[str, Any]]:
    """The log as this viewer may read it, each line with its style (say, whisper, parley, share, exchange, event)."""
    return [{"kind": entry["kind"], "text": entry["text"], "seat": entry["seat"]} for entry in view.facts["log"]]


def controls(view: SeatView) -> dict[str, Any]:
    """The viewer's legal and text actions grouped by kind for the board's forms (each keeps its engine id)."""
    groups: dict[str, Any] = {"say": None, "whisper": [], "parley_say": None, "accept": [], "offer": [],
                              "offer_card": [], "offer_color": [], "nominate": [], "vote": [], "abdicate": [],
                              "reveal": None, "done": None, "hostages": [], "parley_pass": None, "gamble": [],
                              "any": bool(view.legal_actions or view.text_actions)}
    for t in view.text_actions:
        kind, rest = _kind(t.id)
        if kind == "whisper":
            groups["whisper"].append({"id": t.id, "name": view.seat_name(int(rest)), "max_length": t.max_length})
        elif kind in ("say", "parley_say"):
            groups[kind] = t
    for a in view.legal_actions:
        kind, rest = _kind(a.id)
        if kind in LISTS:
            groups[LISTS[kind]].append(a)
        elif kind in SINGLES:
            groups[SINGLES[kind]] = a
        elif kind == "offer_share":  # by share kind, each option named by its partner
            seat, _, how = rest.partition(":")
            groups["offer"].append(a)
            groups["offer_card" if how == "card" else "offer_color"].append(
                {"id": a.id, "name": view.seat_name(int(seat))})
        elif kind in BY_SEAT:
            seat = int(rest)
            name = "Yourself" if kind == "vote_usurp" and seat == view.seat else view.seat_name(seat)
            groups[BY_SEAT[kind]].append({"id": a.id, "name": name})
        elif kind == "gamble":  # "gamble:red": the button takes the team's colour
            groups["gamble"].append({"id": a.id, "label": a.label, "team": rest})
    return groups


class TwoRoomsBoard(BoardPresenter):
    template = "games/two_rooms_and_a_boom/board.html"
    rules_template = "games/two_rooms_and_a_boom/rules.html"
    css = ("css/two_rooms.css",)

    def context(self, view: SeatView) -> dict[str, Any]:
        return {"card": card(view), "rows": rows(view), "controls": controls(view)}
