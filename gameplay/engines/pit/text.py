"""How Pit's market events read to each viewer, and the observation text of a seat.

Events are kept in the state as structured records holding everything (the cards of both sides of a trade);
this module is the one place that turns them into words, per viewer, so a third seat only ever reads counts.
Sentences that carry a secret end with a full stop right after the cards ("you got 3 Corn."), which makes each
secret a distinctive string the leak checks can look for (see PitState.secrets).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .cards import NAMES, ordered, size, words

Namer = Callable[[int], str]


def cards_word(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def hand_sentence(hand: Mapping[str, int]) -> str:
    """'Your hand: 3 Wheat, 4 Barley, 2 Corn.' (a seat's secret, exactly as its observation text has it)."""
    return "Your hand: " + ", ".join(words({card: n}) for card, n in _in_order(hand)) + "."


def offer_sentence(bundle: Mapping[str, int]) -> str:
    return f"your standing offer is {words(bundle)}."


def got_sentence(bundle: Mapping[str, int], number: int) -> str:
    """What a trader received; the game-wide trade number makes the sentence unique to this trade."""
    return f"you got {words(bundle)} (trade {number})."


def _in_order(hand: Mapping[str, int]):
    return [(card, hand[card]) for card in ordered(hand)]


def describe(event: Mapping[str, Any], viewer: int | None, name: Namer, public_cards: bool) -> str:
    """One event as ``viewer`` (None: the public) may read it."""
    kind = event["k"]
    if kind == "offer":
        seat, bundle = event["s"], event["b"]
        if seat == viewer:
            return f"You offer {words(bundle)}."
        shown = words(bundle) if public_cards else cards_word(size(bundle))
        return f"{name(seat)} offers {shown}."
    if kind == "cancel":
        return "You withdraw your offer." if event["s"] == viewer else f"{name(event['s'])} withdraws their offer."
    if kind == "pass":
        return "You pass." if event["s"] == viewer else f"{name(event['s'])} passes."
    if kind == "trade":
        return _trade(event, viewer, name, public_cards)
    if kind == "corner":
        return _corner(event, viewer, name)
    if kind == "void":
        return f"Nobody cornered within {event['ticks']} ticks: the hand ends without scoring."
    raise ValueError(f"unknown event {kind!r}")


def _trade(event: Mapping[str, Any], viewer: int | None, name: Namer, public_cards: bool) -> str:
    offerer, taker = event["a"], event["b"]
    offered, answered = event["ga"], event["gb"]
    if viewer == offerer:
        return f"{name(taker)} took your offer: you gave {words(offered)} and {got_sentence(answered, event['n'])}"
    if viewer == taker:
        return f"You took {name(offerer)}'s offer: you gave {words(answered)} and {got_sentence(offered, event['n'])}"
    if public_cards:
        return f"{name(offerer)} and {name(taker)} traded {words(offered)} for {words(answered)}."
    if size(offered) == size(answered):
        return f"{name(offerer)} and {name(taker)} traded {cards_word(size(offered))}."
    return f"{name(offerer)} and {name(taker)} traded {cards_word(size(offered))} for {cards_word(size(answered))}."


def _corner(event: Mapping[str, Any], viewer: int | None, name: Namer) -> str:
    seat = event["s"]
    who = "You" if seat == viewer else name(seat)
    double = " (double Bull corner)" if event["double"] else ""
    text = f"{who} cornered {NAMES[event['c']]} with {words(event['cards'])}{double}: +{event['value']}"
    for penalised, points in sorted(event["penalties"].items(), key=lambda kv: int(kv[0])):
        p = int(penalised)
        held = " and ".join(NAMES[c] for c in event["held"][str(p)])
        text += f"; {'you' if p == viewer else name(p)} held the {held}: {points}"
    return text + "."


def observation_text(data: Mapping[str, Any], name: Namer, seat: int | None) -> str:
    lines = [
        f"Pit, hand {data['hand_number']} (at most {data['max_hands']}), tick {data['tick']} of {data['tick_cap']}."
        f" Corner size: {data['corner_size']} cards.",
        "Commodities in play: " + ", ".join(f"{c['name']} ({c['value']})" for c in data["commodities"]) + ".",
        "Scores: " + ", ".join(f"{name(i)} {t}" for i, t in enumerate(data["totals"])) + f" (target {data['target']}).",
    ]
    if seat is not None:
        lines.append(f"{data['hand_text']} ({cards_word(data['hand_size'])})")
        lines.append(f"Currently {data['my_offer_text']}" if data["my_offer_text"] else "You have no standing offer.")
    offers = [o["text"] for o in data["offers"] if o["seat"] != seat]
    lines.append("Standing offers: " + ("; ".join(offers) if offers else "none") + ".")
    lines.append("Hand sizes: " + ", ".join(f"{name(i)} {n}" for i, n in enumerate(data["hand_sizes"])) + ".")
    if data["status"] == "playing":
        waiting = [name(i) for i, acted in enumerate(data["acted"]) if not acted]
        lines.append("Still to act this tick: " + ", ".join(waiting) + ".")
    if data["log"]:
        lines.append("This hand so far: " + " ".join(data["log"]))
    if data["last_result"]:
        lines.append("Last hand: " + data["last_result"])
    return "\n".join(lines)


def actors(event: Mapping[str, Any]) -> list[int]:
    """The seats whose latest action ``event`` is: its maker (a trade is its taker's; the offerer's latest action
    stays the offer it made)."""
    if event["k"] == "trade":
        return [event["b"]]
    return [event["s"]] if "s" in event else []
