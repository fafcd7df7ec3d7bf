"""Who is Spy's board (templates/games/who_is_spy/board.html): the seat's observation data arranged for the page.
Every filter reads only what it is given (the viewer's own observation, or its own legal actions), so the board
can show nothing the observation does not; names are the engine's seat names ("Player k", "You" for the viewer in
the engine's own lines).

The engine words each round's talk as lines (views.SeatViews._talk_line); ``spy_talk`` reads a description line back
into who and what. A line that does not read as a description (a spy guess) is shown as it is.
"""

from __future__ import annotations

import re
from typing import Any

from django import template

register = template.Library()

_STRUCK = " (a repeat of an earlier description: struck)"
_SKIP = " gave no description."
_SAID = re.compile(r"^(You|Player \d+) said: (.*)$", re.DOTALL)
_WHO = re.compile(r"^(You|Player \d+) ")


def _me(obs: dict) -> str | None:
    return next((p["name"] for p in obs.get("players") or () if p.get("you")), None)


@register.filter
def spy_talk(round_view: dict) -> list[dict[str, Any]]:
    """One round's talk as lines: who spoke (``You`` for the viewer), what they said, whether it was a pass or a
    struck repeat; any other line (a spy guess) keeps the engine's wording in ``text`` with ``other`` set."""
    lines = []
    for line in round_view.get("talk") or ():
        said = _SAID.match(line)
        if said:
            who, text = said.groups()
            struck = text.endswith(_STRUCK)
            lines.append({"who": who, "mine": who == "You", "text": text.removesuffix(_STRUCK), "struck": struck,
                          "skip": False, "other": False})
        elif line.endswith(_SKIP):
            who = line.removesuffix(_SKIP)
            lines.append({"who": who, "mine": who == "You", "text": "", "struck": False, "skip": True,
                          "other": False})
        else:
            who = _WHO.match(line)
            lines.append({"who": who.group(1) if who else "", "mine": bool(who) and who.group(1) == "You",
                          "text": line, "struck": False, "skip": False, "other": True})
    return lines


@register.filter
def spy_order(obs: dict) -> list[dict[str, Any]]:
    """The current round's speaking order: each speaker with whether they have spoken, are speaking now, or are to
    come. Everyone in the order has spoken once the vote has begun."""
    rounds = obs.get("rounds") or ()
    if not rounds:
        return []
    current = rounds[-1]
    spoken = len(current.get("talk") or ())
    describing = obs.get("phase") == "describe"
    me = _me(obs)
    rows = []
    for i, name in enumerate(current.get("order") or ()):
        state = "done" if (i < spoken or not describing) else ("now" if i == spoken else "next")
        rows.append({"position": i + 1, "name": name, "you": name == me, "state": state})
    return rows


@register.filter
def spy_players(obs: dict) -> list[dict[str, Any]]:
    """One row per player: name, in or out (and how), speaking now, and in the vote whether they are a candidate,
    a voter, and have voted (public: who has voted, never for whom)."""
    rounds = obs.get("rounds") or ()
    current = rounds[-1] if rounds else {}
    phase = obs.get("phase")
    waiting = set(obs.get("waiting") or ())
    voted = set(current.get("voted") or ())
    candidates = set(current.get("candidates") or ())
    voters = set(current.get("voters") or ())
    rows = []
    for p in obs.get("players") or ():
        name = p["name"]
        out = ""
        if not p.get("in"):
            how = "voted out" if p.get("out_how") == "vote" else "out after a wrong guess"
            out = f"{how} in round {p.get('out_round')}"
        rows.append({"seat": p["seat"], "name": name, "you": p.get("you", False), "in": p.get("in", True),
                     "out": out, "speaking": phase == "describe" and name in waiting,
                     "voting": phase == "vote" and name in voters, "voted": phase == "vote" and name in voted,
                     "candidate": phase == "vote" and name in candidates})
    return rows


@register.filter
def spy_vote(obs: dict) -> dict[str, Any]:
    """The viewer's part in the current vote: whether it votes, has voted (and its own vote line), or is only a
    candidate (a run-off's tied players do not vote); who is still to vote."""
    rounds = obs.get("rounds") or ()
    current = rounds[-1] if rounds else {}
    me = _me(obs)
    voters = current.get("voters") or ()
    mine = [line for line in current.get("votes") or () if line.startswith(f"In round {current.get('number')} you ")]
    me_in = any(p.get("you") and p.get("in") for p in obs.get("players") or ())
    return {"voter": me in voters, "in": me_in, "voted": me in (current.get("voted") or ()), "mine": mine,
            "candidates": current.get("candidates") or (), "waiting": obs.get("waiting") or ()}


@register.filter
def spy_ballot(actions) -> dict[str, Any]:
    """The viewer's legal actions for the board's controls, in the order the engine gives them (each voter's vote
    options are shuffled for it: never sorted here): the vote choices, abstaining and passing when offered."""
    ballot: dict[str, Any] = {"votes": [], "abstain": None, "skip": None}
    for action in actions or ():
        kind, _, arg = action.id.partition(":")
        if kind == "vote" and arg.isdigit():
            ballot["votes"].append({"id": action.id, "name": f"Player {int(arg) + 1}", "label": action.label})
        elif action.id == "vote:none":
            ballot["abstain"] = action
        elif action.id == "skip_describe":
            ballot["skip"] = action
    return ballot


@register.filter
def spy_final(obs: dict) -> dict[str, Any] | None:
    """The end, from the final observation's reveal: both words, the spies, the winning side and every player's camp
    and word (all public now)."""
    reveal = obs.get("reveal")
    if not reveal:
        return None
    spies = set(reveal.get("spies") or ())
    spies_won = reveal.get("winners") == "spies"
    rows = []
    for p in obs.get("players") or ():
        spy = p["name"] in spies
        rows.append({"seat": p["seat"], "name": p["name"], "you": p.get("you", False), "spy": spy,
                     "word": reveal["spy_word"] if spy else reveal["villager_word"], "winner": spy == spies_won,
                     "in": p.get("in", True)})
    return {"villager_word": reveal["villager_word"], "spy_word": reveal["spy_word"],
            "spies": reveal.get("spies") or [], "side": "spies" if spies_won else "villagers",
            "winners": [r["name"] for r in rows if r["winner"]], "rows": rows, "result": reveal.get("result") or ""}


@register.filter
def spy_last_outcome(obs: dict) -> dict[str, Any] | None:
    """The newest counted vote (number, run-off or not, the engine's outcome line): the previous round's while a new
    round is being described, the current one's once the game is over; None before the first count."""
    for r in reversed(obs.get("rounds") or ()):
        if r.get("outcome"):
            return {"number": r["number"], "runoff": r.get("runoff", False), "outcome": r["outcome"]}
    return None


@register.filter
def spy_earlier(obs: dict) -> list[dict]:
    """The rounds before the current one, oldest first (the whole game once it is over: the board then shows the
    last round as the current one too, so it is left out here)."""
    return list((obs.get("rounds") or ())[:-1])
