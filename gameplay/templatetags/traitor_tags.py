"""Are You the Traitor?'s board (templates/games/are_you_the_traitor/board.html): the seat's observation data
arranged for the page. Every filter reads only what it is given (the viewer's own observation, or its legal
actions), so the board can show nothing the observation does not; names are the engine's seat names.

The engine words the resolved round as lines (views.last_round_lines); ``traitor_round`` reads them back into a
row per seat. If that wording ever changes, the rows come back empty and the board shows the lines as they are.
"""

from __future__ import annotations

import re
from typing import Any

from django import template

register = template.Library()

TEAM_OF = {"Keyholder": "Good", "Guard": "Good", "Good Wizard": "Good", "Traitor": "Evil", "Evil Wizard": "Evil"}
ROLE_HEADS = (  # the start of obs.role -> (character, team)
    ("You are a Wizard and your secret alignment is Good", "Good Wizard", "Good"),
    ("You are a Wizard and your secret alignment is Evil", "Evil Wizard", "Evil"),
    ("You are the Keyholder", "Keyholder", "Good"),
    ("You are a Guard", "Guard", "Good"),
    ("You are a Traitor", "Traitor", "Evil"),
)
_SUMMARY = re.compile(r"^Round (\d+): (.+?) (handed the Key to|called Stop on) (.+?)\. (Good|Evil) won the round\.$")
_CHARACTERS = "Characters that round: "


def seat_name(seat: int) -> str:
    return f"Player {seat + 1}"  # the engine's seat names (its spec names none)


def _count(obs: dict) -> int:
    return len(obs.get("card_counts") or ())


@register.filter
def traitor_role(obs: dict) -> dict | None:
    """The seat's own role card: character, team, the goal sentence and what it was shown this round."""
    role = obs.get("role")
    if not role:
        return None
    character, team = "", ""
    for head, name, side in ROLE_HEADS:
        if role.startswith(head):
            character, team = name, side
            break
    known = list(obs.get("known") or ())
    return {"character": character, "team": team, "text": role, "others": known[1:],
            "wizard": character.endswith("Wizard")}


@register.filter
def traitor_seats(obs: dict) -> list[dict[str, Any]]:
    """One row per seat of the public table: name, Wizard this round, to act, treasure card count, rounds won; the
    points only in the viewer's own row (its own treasure; the others' stays hidden)."""
    wizards, to_act = set(obs.get("wizards") or ()), set(obs.get("to_act") or ())
    won = list(obs.get("rounds_won") or ())
    rows = []
    for seat, cards in enumerate(obs.get("card_counts") or ()):
        name = seat_name(seat)
        you = seat == obs.get("seat")
        rows.append({"seat": seat, "name": name, "you": you, "wizard": name in wizards, "to_act": name in to_act,
                     "cards": cards, "rounds_won": won[seat] if seat < len(won) else 0,
                     "points": obs.get("points") if you else None})
    return rows


@register.filter
def traitor_talk(obs: dict) -> list[dict[str, Any]]:
    """The round's talk as chat lines: who (``You`` for the viewer), what was said, or that the seat passed."""
    lines = []
    for line in obs.get("talk") or ():
        who, sep, said = line.partition(": \u201c")
        if sep:
            lines.append({"who": who, "mine": who == "You", "text": said.removesuffix("\u201d"), "passed": False})
        else:
            who = line.removesuffix(" passed.")
            lines.append({"who": who, "mine": who == "You", "text": "", "passed": True})
    return lines


@register.filter
def traitor_round(obs: dict) -> dict | None:
    """The latest resolved round: who called Stop on (or gave the Key to) whom, the winning team, every seat's
    character and team with whether it won (and so drew treasure), and the draw and Magic Ring lines as worded for
    this viewer. ``rows`` is empty when the lines do not read as expected (the board then shows the lines)."""
    lines = list(obs.get("last_round") or ())
    if not lines:
        return None
    result = {"lines": lines, "rows": [], "rest": lines, "round": None, "team": "", "handoff": False,
              "caller": "", "target": ""}
    summary = _SUMMARY.match(lines[0])
    if not summary or len(lines) < 2 or not lines[1].startswith(_CHARACTERS):
        return result
    number, caller, verb, target, team = summary.groups()
    characters = {}
    for part in lines[1].removeprefix(_CHARACTERS).removesuffix(".").split(", "):
        name, _, character = part.rpartition(": ")
        characters[name] = character
    rows = []
    for seat in range(_count(obs) or len(characters)):
        name = seat_name(seat)
        character = characters.get(name, "")
        side = TEAM_OF.get(character, "")
        rows.append({"seat": seat, "name": name, "you": seat == obs.get("seat"), "character": character,
                     "team": side, "won": side == team, "caller": name == caller, "target": name == target})
    if len(characters) != len(rows) or not all(r["team"] for r in rows):
        return result
    result.update(rows=rows, rest=lines[2:], round=int(number), team=team, handoff=verb.startswith("handed"),
                  caller=caller, target=target)
    return result


@register.filter
def traitor_final(obs: dict) -> list[dict[str, Any]]:
    """The end of the game: every seat's points and treasure (all public now), winners marked, most points first."""
    points = list(obs.get("final_points") or ())
    treasure = list(obs.get("final_treasure") or ())
    winners = set(obs.get("winners") or ())
    rows = [{"seat": s, "name": seat_name(s), "you": s == obs.get("seat"), "points": p,
             "treasure": treasure[s] if s < len(treasure) else [], "winner": seat_name(s) in winners}
            for s, p in enumerate(points)]
    return sorted(rows, key=lambda r: (-r["points"], r["seat"]))


@register.filter
def traitor_moves(actions) -> dict[str, Any]:
    """The viewer's legal actions sorted for the board's controls: pass, the Stop picker (whether it hands over
    the Key: the Keyholder's Stop), and the Magic Ring step's choices."""
    moves: dict[str, Any] = {"pass": None, "stops": [], "key": False, "rings": [], "keep": None}
    for action in actions or ():
        kind, _, arg = action.id.partition(":")
        if kind == "pass":
            moves["pass"] = action
        elif kind == "stop":
            moves["stops"].append({"id": action.id, "name": seat_name(int(arg)), "label": action.label})
            moves["key"] = moves["key"] or action.label.startswith("Hand the Key")
        elif kind == "ring":
            moves["rings"].append(action)
        elif kind == "keep_ring":
            moves["keep"] = action
    return moves
