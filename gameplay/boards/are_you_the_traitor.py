"""Are You the Traitor?'s board (templates/games/are_you_the_traitor/board.html): one seat's table arranged from
its SeatView only. The engine's facts (gameplay/engines/are_you_the_traitor/facts.py) carry the viewer's own role
card, the talk, the last resolved round and the end by seat and field, so nothing here reads a sentence back; the
few sentences shown (the role's brief, what the eyes-closed steps showed, the draw and Magic Ring lines, the
history) are displayed as the engine worded them for this viewer.

The context can hold no more than the view: another seat's character reaches it only once the engine's facts
reveal it (the resolved round), and points only in the viewer's own row.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gameplay.boards.base import BoardPresenter
from gameplay.engines.api import Action
from gameplay.engines.seat_view import SeatView

# Whom a Stop aims at, by the caller's role: the Keyholder hands over the Key (to a Wizard), the Evil Wizard hunts
# the Keyholder, everyone else who may call hunts a Traitor. The board words its hint from this.
KEY, KEYHOLDER, TRAITOR = "key", "keyholder", "traitor"


class TraitorBoard(BoardPresenter):
    template = "games/are_you_the_traitor/board.html"
    rules_template = "games/are_you_the_traitor/rules.html"
    css = ("css/are_you_the_traitor.css",)

    def context(self, view: SeatView) -> dict[str, Any]:
        facts = view.facts
        role = own_role(facts)
        return {
            "phase": facts.get("phase", ""),
            "round": facts.get("round"),
            "max_rounds": facts.get("max_rounds"),
            "target_points": facts.get("target_points"),
            "tick": facts.get("tick"),
            "ticks_before_handoff": facts.get("ticks_before_handoff"),
            "my_turn": bool(facts.get("my_turn")),
            "to_act": [view.seat_name(s) for s in view.to_act],
            "talk_order": list(facts.get("talk_order") or ()),
            "history": list(facts.get("history") or ()),
            "treasure": list(facts.get("treasure") or ()),
            "rings": facts.get("rings", 0),
            # The Magic Ring step's clock (an option, public): with it, a player holding no ring need not click.
            "ring_seconds": int(view.options.get("ring_seconds") or 0),
            "role": role,
            "seats": seat_rows(view),
            "talk": talk_lines(facts),
            "last": last_round(view),
            "final": final_rows(view),
            "winners": [view.seat_name(s) for s in winner_seats(view)],
            "draw": shared_by_all(view),
            "moves": moves(view, role),
        }


def own_role(facts: Mapping[str, Any]) -> dict[str, Any] | None:
    """The viewer's own role card (only in its own view while the round's characters are hidden): character,
    team, the brief as worded for it, and the other seats' characters the eyes-closed steps showed it."""
    mine = facts.get("my_role")
    if not mine:
        return None
    return {"character": mine["character"], "team": mine["team"], "text": facts.get("role", ""),
            "others": list(mine["shown"]), "wizard": mine["wizard"], "keyholder": mine["keyholder"]}


def seat_rows(view: SeatView) -> list[dict[str, Any]]:
    """One row per seat of the public table: name, Wizard this round, to act, treasure card count, rounds won; the
    points only in the viewer's own row (its own treasure; the others' stays hidden)."""
    facts = view.facts
    wizards = set(facts.get("wizard_seats") or ())
    counts, won = list(facts.get("card_counts") or ()), list(facts.get("rounds_won") or ())
    rows = []
    for seat in range(view.num_seats):
        you = seat == view.seat
        rows.append({"seat": seat, "name": view.seat_name(seat), "you": you, "wizard": seat in wizards,
                     "to_act": seat in view.to_act, "cards": counts[seat] if seat < len(counts) else 0,
                     "rounds_won": won[seat] if seat < len(won) else 0,
                     "points": facts.get("points") if you else None})
    return rows


def talk_lines(facts: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The round's talk as chat lines: who (``You`` for the viewer), what was said, or that the seat passed."""
    return [{"seat": e["seat"], "who": "You" if e["you"] else e["name"], "mine": e["you"], "text": e["text"],
             "passed": e["passed"]} for e in facts.get("talk_entries") or ()]


def last_round(view: SeatView) -> dict[str, Any] | None:
    """The latest resolved round: who called Stop on (or gave the Key to) whom, the winning team, every seat's
    character and team that round with whether it won (and so drew treasure), and the draw and Magic Ring lines
    as worded for this viewer (``rest``)."""
    result = view.facts.get("round_result")
    if not result:
        return None
    caller, target, team = result["caller"], result["target"], result["team"]
    rows = [{"seat": c["seat"], "name": view.seat_name(c["seat"]), "you": c["seat"] == view.seat,
             "character": c["character"], "team": c["team"], "won": c["team"] == team,
             "caller": c["seat"] == caller, "target": c["seat"] == target} for c in result["characters"]]
    return {"round": result["round"], "team": team, "handoff": result["handoff"], "caller": view.seat_name(caller),
            "target": view.seat_name(target), "rows": rows, "rest": list(result["lines"])}


def shared_by_all(view: SeatView) -> bool:
    """Every seat shares the result (all tied for the most points, or GameBench's team result with leaders on both
    teams): the scores are all equal, which the status line calls a draw, so the board does too."""
    return len(set(view.facts.get("winner_seats") or ())) == view.num_seats


def winner_seats(view: SeatView) -> list[int]:
    """The seats the board names as winners: none in a draw (``shared_by_all``)."""
    return [] if shared_by_all(view) else list(view.facts.get("winner_seats") or ())


def final_rows(view: SeatView) -> list[dict[str, Any]]:
    """The end of the game: every seat's points and treasure (all public now), winners marked (none in a draw),
    most points first."""
    facts = view.facts
    treasure = list(facts.get("final_treasure") or ())
    winners = set(winner_seats(view))
    rows = [{"seat": s, "name": view.seat_name(s), "you": s == view.seat, "points": p,
             "treasure": treasure[s] if s < len(treasure) else [], "winner": s in winners}
            for s, p in enumerate(facts.get("final_points") or ())]
    return sorted(rows, key=lambda r: (-r["points"], r["seat"]))


def moves(view: SeatView, role: Mapping[str, Any] | None) -> dict[str, Any]:
    """The viewer's legal actions sorted for the board's controls by action id: the say box, pass, the Stop picker
    (``key``: the viewer is the Keyholder, so its Stop hands over the Key; ``aim``: whom a Stop hunts), and the
    Magic Ring step's choices."""
    wizards = set(view.facts.get("wizard_seats") or ())
    found: dict[str, Any] = {"say": None, "pass": None, "stops": [], "key": False, "aim": _aim(role), "rings": [],
                             "keep": None}
    for action in view.text_actions:
        if action.id == "say":
            found["say"] = action
    for action in view.legal_actions:
        kind, _, arg = action.id.partition(":")
        if kind == "pass":
            found["pass"] = action
        elif kind == "stop":
            found["stops"].append(_stop(view, action, int(arg), wizards))
        elif kind == "ring":
            found["rings"].append(action)
        elif kind == "keep_ring":
            found["keep"] = action
    found["key"] = bool(found["stops"]) and found["aim"] == KEY
    found["any"] = bool(view.legal_actions or view.text_actions)
    return found


def _aim(role: Mapping[str, Any] | None) -> str:
    if not role:
        return ""
    if role["keyholder"]:
        return KEY
    return KEYHOLDER if role["wizard"] and role["team"] == "Evil" else TRAITOR


def _stop(view: SeatView, action: Action, target: int, wizards: Sequence[int] | set[int]) -> dict[str, Any]:
    return {"id": action.id, "seat": target, "name": view.seat_name(target), "label": action.label,
            "wizard": target in wizards}
