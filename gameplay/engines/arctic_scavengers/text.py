"""Words for the engine: action labels per viewer, observation data per seat, and the observation text an LLM
player reads. Everything here reads the state; a seat's hidden cards go only into that seat's own view."""

from __future__ import annotations

from collections import Counter
from typing import Any

from .cards import MERCENARIES, action_total, describe, hire_cost_text, name, names, people, sort_keys
from .flow import OVER, SKIRMISH, hand_line

VERB_TOPICS = {
    "draw": ("Actions and combining cards",), "dig": ("Actions and combining cards",),
    "hunt": ("Actions and combining cards",), "add": ("Actions and combining cards", "Card list"),
    "go": ("Actions and combining cards",), "dig_keep": ("Actions and combining cards", "Card list"),
    "dig_none": ("Actions and combining cards",), "hire": ("Hiring costs", "Card list"),
    "pay": ("Hiring costs",), "trash": ("Actions and combining cards",), "trash_done": ("Actions and combining cards",),
    "end_turn": ("Round phases",), "drop": ("Round phases", "Skirmish and tie-breaks"),
    "keep": ("Round phases", "Skirmish and tie-breaks"), "sabotage": ("Snipers and saboteurs",),
    "snipe": ("Snipers and saboteurs",), "skirmish_done": ("Snipers and saboteurs", "Skirmish and tie-breaks"),
}
ACTION_WORD = {"DRAW": "cards drawn", "DIG": "junkyard cards to look at", "HUNT": "food"}


def topics_for(action_id: str) -> tuple[str, ...]:
    return VERB_TOPICS.get(action_id.partition(":")[0], ())


def action_label(state, seat: int, action_id: str, viewer: int | None = -1) -> str:
    """The label of ``seat``'s action as ``viewer`` reads it (-1: the actor, as on its buttons)."""
    verb, _, arg = action_id.partition(":")
    step = state.step
    if verb in ("draw", "dig", "hunt"):
        return f"{verb.upper()}: start a group of cards"
    if verb == "add":
        return f"Add {name(arg)} to {step['action']}"
    if verb == "go":
        total = action_total(step["action"], step["cards"])
        return f"{step['action']} with {names(step['cards'])}: {total} {ACTION_WORD[step['action']]}"
    if verb == "dig_keep":
        return f"Keep {name(arg)} from the dig"
    if verb == "dig_none":
        return "Keep nothing from the dig"
    if verb == "hire":
        return f"HIRE {name(arg)} ({hire_cost_text(arg)})"
    if verb == "pay":
        return f"Pay with {name(arg)} ({step['owed']} medicine owed for {name(step['merc'])})"
    if verb == "trash":
        return f"Trash {name(arg)}" if arg else "TRASH: choose cards to trash"
    if verb == "trash_done":
        return f"Finish trashing ({names(step['cards'])})"
    if verb == "end_turn":
        return "End actions, then choose skirmish cards" if state.skirmish_round() else "End turn"
    if verb == "drop":
        return f"Discard {name(arg)} (not for the skirmish)"
    if verb == "keep":
        hand = state.hands[seat]
        if viewer is None or (viewer != -1 and viewer != seat):
            return f"Keeps {len(hand)} card{'s' if len(hand) != 1 else ''} face down for the skirmish"
        return f"Keep {names(hand)} face down for the skirmish"
    if verb in ("sabotage", "snipe"):
        other, key = arg.split(":")
        unit = "Saboteur disarms" if verb == "sabotage" else "Sniper Team snipes"
        return f"{unit} {state.game.seat_name(int(other))}'s {name(key)}"
    if verb == "skirmish_done":
        return "Finish skirmish actions"
    return action_id


def _pile(keys) -> list[list[Any]]:
    """[key, name, count] per kind of card, in table order."""
    counts = Counter(keys)
    return [[k, name(k), counts[k]] for k in sort_keys(counts)]


def dig_view(cards) -> list[list[str]]:
    """The dug cards as the digger sees them: [key, name] each, top of the junkyard first."""
    return [[key, name(key)] for key in cards]


CARD_VERBS = {"build": "add", "pay": "pay", "trash": "trash", "commit": "drop"}


def hand_cards(state, seat: int) -> list[dict]:
    """The seat's hand for its own view: each kind once, with what clicking it does in the current step (the id
    of the legal action that plays that card, or None)."""
    legal = set(state.legal_ids(seat)) if seat == state.acting_seat() else set()
    verb = CARD_VERBS.get(state.step.get("mode"))
    counts = Counter(state.hands[seat])
    cards = []
    for key in sort_keys(counts):
        action_id = f"{verb}:{key}" if verb else None
        cards.append({"key": key, "name": name(key), "count": counts[key], "info": describe(key),
                      "action": action_id if action_id in legal else None})
    return cards


def _step_view(state, seat: int | None) -> dict | None:
    step = state.step
    mode = step.get("mode")
    if not mode:
        return None
    view: dict[str, Any] = {"mode": mode}
    if mode == "build":
        view.update(action=step["action"], cards=_pile(step["cards"]),
                    total=action_total(step["action"], step["cards"]))
    elif mode == "dig":
        view["dug_count"] = len(step["cards"])
        if seat == state.acting_seat():
            view["dig_view"] = dig_view(step["cards"])
    elif mode == "pay":
        view.update(merc=name(step["merc"]), owed=step["owed"], cards=_pile(step["cards"]))
    elif mode == "trash":
        view["cards"] = _pile(step["cards"])
    return view


def observation_data(state, seat: int | None) -> dict:
    game = state.game
    acting = state.acting_seat()
    over = state.phase == OVER
    tribes = []
    for s in range(game.num_seats):
        tribes.append({
            "seat": s, "name": game.seat_name(s), "deck": len(state.decks[s]), "discard": len(state.discards[s]),
            "discard_cards": _pile(state.discards[s]), "hand": len(state.hands[s]), "kept": len(state.kept[s]),
            "revealed": _pile(state.kept[s]) if state.revealed else None, "won": state.skirmishes_won[s],
            "last": state.last_public[s], "initiator": s == state.initiator, "acting": s == acting,
            "people": people(state.owned(s)) if over else None, "you": s == seat,
        })
    data: dict[str, Any] = {
        "seat": seat, "round": state.round, "rounds_total": game.total_rounds(), "phase": state.phase,
        "skirmish_round": state.skirmish_round(), "revealed": state.revealed, "acting": acting,
        "my_turn": seat is not None and seat == acting, "tribes": tribes, "step": _step_view(state, seat),
        "food": state.food, "used": list(state.used),
        "supply": [[m, name(m), state.supply[m], hire_cost_text(m)] for m in MERCENARIES],
        "junkyard": len(state.junkyard), "contested": len(state.contested), "removed": len(state.removed),
        "last_skirmish": _skirmish_view(state), "result": state.result_text(),
    }
    if seat is not None:
        data["my_hand"] = sort_keys(state.hands[seat])
        data["my_hand_cards"] = hand_cards(state, seat)
        data["buttons"] = [[aid, action_label(state, seat, aid)] for aid in state.legal_ids(seat)
                           if not any(c["action"] == aid for c in data["my_hand_cards"])] \
            if seat == state.acting_seat() else []
        if state.kept[seat] and not state.revealed:
            data["my_kept"] = sort_keys(state.kept[seat])
        if state.peek is not None and seat == state.initiator:
            data["contested_peek"] = [state.peek, name(state.peek)]
    return data


def _skirmish_view(state) -> dict | None:
    last = state.last_skirmish
    if last is None:
        return None
    game = state.game
    winner = last["winner"]
    rows = [{"name": game.seat_name(s), "strength": last["strength"][s], "people": last["people"][s],
             "cards": names(last["cards"][s])} for s in range(game.num_seats)]
    if winner is None:
        outcome = "No winner: the contested resource was shuffled into the junkyard."
    else:
        outcome = f"{game.seat_name(winner)} won {name(last['prize'])}."
    return {"round": last["round"], "rows": rows, "outcome": outcome}


def observation_text(state, data: dict, seat: int | None) -> str:
    game = state.game
    lines = [f"Arctic Scavengers, round {data['round']} of {data['rounds_total']} "
             f"({'skirmish round' if data['skirmish_round'] else 'no skirmish this round'}), phase: {data['phase']}."]
    lines.append(f"Initiator: {game.seat_name(state.initiator)}.")
    if data["acting"] is not None:
        lines.append(f"To act: {game.seat_name(data['acting'])}.")
    if seat is not None:
        lines.append(f"You are {game.seat_name(seat)}.")
        lines.append(hand_line(state.hands[seat]) if state.hands[seat] else "Your hand is empty.")
        if "my_kept" in data:
            lines.append(f"Your skirmish cards (face down): {names(data['my_kept'])}.")
        if "contested_peek" in data:
            lines.append(f"You peeked at the top contested resource: {data['contested_peek'][1]}.")
    step = data["step"]
    if step:
        if step["mode"] == "build":
            lines.append(f"In progress: {step['action']} with {names(state.step['cards']) or 'no cards yet'} "
                         f"(total {step['total']}).")
        elif step["mode"] == "dig":
            lines.append(f"Digging: {step['dug_count']} junkyard cards being looked at.")
            if "dig_view" in step:
                lines.append(f"You dug up: {names(state.step['cards'])}. Keep at most one.")
        elif step["mode"] == "pay":
            lines.append(f"Hiring {step['merc']}: {step['owed']} medicine still owed.")
        elif step["mode"] == "trash":
            lines.append(f"Trashing: {names(state.step['cards'])}.")
        elif step["mode"] == "commit":
            lines.append("Choose your skirmish cards: drop the ones you do not want, then keep the rest.")
    if data["phase"] != OVER and data["acting"] is not None and data["phase"] != SKIRMISH:
        used = ", ".join(data["used"]) or "none"
        lines.append(f"This turn: food {data['food']}, actions used: {used}.")
    for t in data["tribes"]:
        bits = [f"deck {t['deck']}", f"hand {t['hand']}", f"discard {t['discard']}"]
        if t["revealed"] is not None:
            bits.append("skirmish cards: " + (names(state.kept[t['seat']]) or "none"))
        elif t["kept"]:
            bits.append(f"{t['kept']} face-down skirmish cards")
        bits.append(f"skirmishes won {t['won']}")
        if t["people"] is not None:
            bits.append(f"people {t['people']}")
        line = f"{t['name']}{' (you)' if t['you'] else ''}: " + ", ".join(bits) + "."
        if t["discard"]:
            line += " Discard pile: " + ", ".join(f"{n} {label}" for _, label, n in t["discard_cards"]) + "."
        if t["last"] and not t["you"]:
            line += f" Last action: {t['last']}."
        lines.append(line)
    lines.append("Mercenaries: " + ", ".join(f"{label} {count} ({cost})" for _, label, count, cost in data["supply"])
                 + ".")
    lines.append(f"Junkyard: {data['junkyard']} cards. Contested resources left: {data['contested']}.")
    if data["last_skirmish"]:
        sk = data["last_skirmish"]
        rows = "; ".join(f"{r['name']} strength {r['strength']}, people {r['people']}" for r in sk["rows"])
        lines.append(f"Last skirmish (round {sk['round']}): {rows}. {sk['outcome']}")
    if data["result"]:
        lines.append(data["result"])
    return "\n".join(lines)
