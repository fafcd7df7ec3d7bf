"""Template helpers for Two Rooms and a Boom's board (templates/games/two_rooms_and_a_boom/board.html).

They only regroup what the seat's page already has: its own card line from its observation, its log lines, and its
legal and text actions (ids as the engine gives them). Nothing here reads the game state.
"""

from __future__ import annotations

from django import template

register = template.Library()

# The engine words a seat's own card as "Your card: the <Name> card, <colour phrase>." (text.own_card_line); the
# GameBench variant tells the colour only: "You are on the <Team> team (you are not told more than your colour)."
CARD_NAMES = ("President", "Bomber", "Blue Team", "Red Team", "Gambler")


@register.filter
def tr_card(card_text: str) -> dict:
    """The seat's own card as {name, team, css}: its name (None when only the colour is told) and team word."""
    text = str(card_text or "")
    name = next((n for n in CARD_NAMES if f"the {n} card" in text), None)
    if "Blue team" in text:
        team, css = "Blue team", "blue"
    elif "Red team" in text:
        team, css = "Red team", "red"
    elif "grey" in text:
        team, css = "Grey: on neither team", "grey"
    else:
        team, css = "", "grey"
    return {"name": name, "team": team, "css": css}


@register.filter
def tr_line_kind(line: str) -> str:
    """How a log line (text.describe, as this seat reads it) is styled: say, whisper, parley, share or event.
    Only the words before a quoted message are looked at, so what somebody said never changes the style."""
    head = str(line).split(': "', 1)[0] if ': "' in str(line) else ""
    if head.endswith("said to the room"):
        return "say"
    if head.startswith("You whispered to ") or head.endswith(" whispered to you"):
        return "whisper"
    if head.endswith("(Leader, in the parley)"):
        return "parley"
    text = str(line)
    if "showed each other" in text or " share." in text or "revealed their card" in text or \
            text.startswith("You revealed your card"):
        return "share"
    if text.startswith("Hostage exchange"):
        return "exchange"
    return "event"


@register.filter
def tr_controls(view) -> dict:
    """The seat's legal and text actions grouped by kind for the board's forms (each keeps its engine id)."""
    groups: dict = {"say": None, "whisper": [], "parley_say": None, "accept": [], "offer": [], "offer_card": [],
                     "offer_color": [], "nominate": [], "vote": [], "abdicate": [], "reveal": None, "done": None,
                     "hostages": [], "parley_pass": None, "gamble": [], "any": False}
    if view is None or not hasattr(view, "legal_actions"):
        return groups
    for t in view.text_actions or ():
        kind = t.id.split(":", 1)[0]
        if kind == "whisper":
            groups["whisper"].append(t)
        elif kind in ("say", "parley_say"):
            groups[kind] = t
    lists = {"accept_share": "accept", "offer_share": "offer", "nominate_leader": "nominate", "vote_usurp": "vote",
             "abdicate": "abdicate", "hostages": "hostages", "gamble": "gamble"}
    singles = {"reveal_public": "reveal", "done": "done", "parley_pass": "parley_pass"}
    for a in view.legal_actions or ():
        kind = a.id.split(":", 1)[0]
        if kind in lists:
            groups[lists[kind]].append(a)
            if kind == "offer_share":  # "Offer <name> a card share (...)": by kind, each with the partner's name
                how = a.id.rsplit(":", 1)[1]
                partner = a.label.removeprefix("Offer ").split(" a card share")[0].split(" a colour share")[0]
                groups["offer_card" if how == "card" else "offer_color"].append({"id": a.id, "name": partner})
            elif kind == "vote_usurp":  # "Vote to make <name>|yourself Leader of <room> (usurp)"
                who = a.label.removeprefix("Vote to make ").split(" Leader of ")[0]
                groups["vote"][-1] = {"id": a.id, "name": who[:1].upper() + who[1:]}
            elif kind == "abdicate":  # "Abdicate: hand the leadership of <room> to <name>"
                groups["abdicate"][-1] = {"id": a.id, "name": a.label.rsplit(" to ", 1)[-1]}
        elif kind in singles:
            groups[singles[kind]] = a
    groups["any"] = bool(view.legal_actions or view.text_actions)
    return groups


@register.filter
def tr_after_colon(action_id: str) -> str:
    """What follows the kind in an action id ("whisper:4" -> "4", "gamble:red" -> "red")."""
    return str(action_id).split(":", 1)[1] if ":" in str(action_id) else ""
