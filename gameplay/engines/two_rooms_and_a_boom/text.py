"""How Two Rooms and a Boom's events read to each viewer.

Events are kept in the state as structured records holding everything (both cards of a share, a whisper's words);
this module is the one place that turns them into words. An event names the seats that witnessed it ("see"; None:
everybody); ``describe`` words it for a witness and ``outsider`` for anybody else, who learns at most that something
happened in the other room. Sentences carrying a card end right after it ("Player 4 holds the Bomber card"), so each
is a distinctive string the leak checks can look for (see views.SeatViews.secrets).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .cards import ROOM_NAMES, card_name, colour_phrase

Namer = Callable[[int], str]
SHARE_WORDS = {"card": "cards", "color": "colours"}


def card_fact(seat: int, card: str, name: Namer) -> str:
    return f"{name(seat)} holds the {card_name(card)} card"


def colour_fact(seat: int, card: str, name: Namer) -> str:
    return f"{name(seat)} is {colour_phrase(card)}"


def own_card_line(card: str, colour_only: bool) -> str:
    """The line a seat reads about its own card (one of its secrets, exactly as shown)."""
    if colour_only:
        return f"You are {colour_phrase(card)} (you are not told more than your colour)."
    return f"Your card: the {card_name(card)} card, {colour_phrase(card)}."


def seats_words(seats, name: Namer) -> str:
    names = [name(s) for s in seats]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def hostage_words(count: int) -> str:
    return " as a hostage" if count == 1 else " as hostages"


def _who(seat: int, viewer: int | None, name: Namer) -> str:
    return "You" if seat == viewer else name(seat)


def _whom(seat: int, viewer: int | None, name: Namer) -> str:
    return "you" if seat == viewer else name(seat)


def describe(event: Mapping[str, Any], viewer: int | None, name: Namer) -> str:
    """One event as a witness ``viewer`` (None: a spectator of a public event) reads it."""
    kind = event["k"]
    if kind in ("say", "whisper", "parley"):
        return _message(event, viewer, name)
    if kind == "offer":
        what = "card share" if event["how"] == "card" else "colour share"
        if event["s"] == viewer:
            return f"You offered {name(event['t'])} a {what}."
        return f"{name(event['s'])} offered you a {what}."
    if kind == "share":
        return _share(event, viewer, name)
    if kind == "reveal":
        if event["s"] == viewer:
            return f"You revealed your card to {ROOM_NAMES[event['room']]}."
        return f"{name(event['s'])} revealed their card to the room: {card_fact(event['s'], event['c'], name)}."
    if kind == "done":
        return f"{_who(event['s'], viewer, name)} finished talking for this round."
    if kind == "nominate":
        return (f"{_who(event['s'], viewer, name)} appointed {_whom(event['t'], viewer, name)} Leader of "
                f"{ROOM_NAMES[event['room']]}.")
    if kind == "vote":
        target = "themselves" if event["t"] == event["s"] != viewer else _whom(event["t"], viewer, name)
        target = "yourself" if event["t"] == event["s"] == viewer else target
        line = f"{_who(event['s'], viewer, name)} voted to make {target} Leader"
        if not event.get("won"):
            return line + "."
        verb = "take" if event["t"] == viewer else "takes"
        return line + f"; that is a majority, so {_whom(event['t'], viewer, name)} {verb} over as Leader."
    if kind == "abdicate":
        return (f"{_who(event['s'], viewer, name)} abdicated and handed the leadership of "
                f"{ROOM_NAMES[event['room']]} to {_whom(event['t'], viewer, name)}.")
    if kind == "auto_leader":
        who = "you were" if event["t"] == viewer else f"{name(event['t'])} was"
        return f"Nobody led {ROOM_NAMES[event['room']]}, so {who} made its Leader at random."
    if kind == "hostages":
        chosen = seats_words(event["seats"], name) + hostage_words(len(event["seats"]))
        if event["s"] == viewer:
            return f"You chose {chosen} to send from {ROOM_NAMES[event['room']]}."
        return f"{name(event['s'])}, our Leader, chose {chosen}."
    if kind == "parley_pass":
        return f"{_who(event['s'], viewer, name)} said nothing in the parley."
    if kind == "exchange":
        a, b = event["moves"]
        return (f"Hostage exchange after round {event['r']}: {seats_words(a, name)} went from Room A to Room B; "
                f"{seats_words(b, name)} went from Room B to Room A.")
    if kind == "gamble":
        return f"{_who(event['s'], viewer, name)} (the Gambler) bet that {event['guess'].title()} wins."
    raise ValueError(f"unknown event {kind!r}")


def outsider(event: Mapping[str, Any], name: Namer) -> str:
    """What somebody who did not witness an event may read about it (action labels only; never its content)."""
    kind = event["k"]
    if kind == "hostages":
        return f"The Leader of {ROOM_NAMES[event['room']]} chose hostages."
    if kind in ("parley", "parley_pass"):
        return "The two Leaders parley in private."
    return f"{name(event['s'])} acts in {ROOM_NAMES[event['room']]}."


def _message(event: Mapping[str, Any], viewer: int | None, name: Namer) -> str:
    seat, words = event["s"], event["text"]
    if event["k"] == "say":
        return f'{_who(seat, viewer, name)} said to the room: "{words}"'
    if event["k"] == "parley":
        return f'{_who(seat, viewer, name)} (Leader, in the parley): "{words}"'
    if seat == viewer:
        return f'You whispered to {name(event["t"])}: "{words}"'
    return f'{name(seat)} whispered to you: "{words}"'


def _share(event: Mapping[str, Any], viewer: int | None, name: Namer) -> str:
    a, b, how = event["a"], event["b"], event["how"]
    if viewer not in (a, b):
        return f"{name(a)} and {name(b)} privately showed each other their {SHARE_WORDS[how]}."
    other = b if viewer == a else a
    other_card = event["cb"] if viewer == a else event["ca"]
    fact = card_fact(other, other_card, name) if how == "card" else colour_fact(other, other_card, name)
    return f"You and {name(other)} showed each other your {SHARE_WORDS[how]}: {fact}."
