"""How Meeting Scheduling reads to each seat: observations (text for models, data for templates) and labels.

A seat's own schedule appears only in its own observation while the game runs; its phrases (``ooo_phrase``,
``prefs_phrase``) are also the state's declared secrets, so they end with a full stop: one seat's list of days is
then never a prefix of another's ("Tuesday, Wednesday." is not inside "Tuesday, Wednesday, Saturday.").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..api import Observation
from .rules import DAYS

if TYPE_CHECKING:
    from .game import MeetingState


def day_name(day: str | None) -> str:
    return day.title() if day else ""


def ooo_phrase(profile) -> str:
    return "Out of office: " + ", ".join(day_name(d) for d in profile["ooo"]) + "."


def prefs_phrase(profile) -> str:
    return "Values: " + ", ".join(f"{day_name(d)} {profile['prefs'][d]}" for d in DAYS) + "."


def opening_message(day: str) -> str:
    return f"Hello! We need to find a day for our meeting. Would {day_name(day)} work for you?"


def move_words(move: str, day: str | None) -> str:
    if move == "propose":
        return f"proposes {day_name(day)}"
    if move == "accept":
        return f"accepts {day_name(day)}"
    if move == "walk_away":
        return "walks away"
    return "talks"


def move_label(state: MeetingState, seat: int, action_id: str, message: str | None) -> str:
    """"Proposes Friday: “How about Friday?”" — the label of a move about to be made (public to everyone)."""
    if action_id.startswith("propose:"):
        words = move_words("propose", action_id.split(":", 1)[1])
    else:
        words = move_words(action_id, state.proposals[1 - seat] if action_id == "accept" else None)
    words = words[0].upper() + words[1:]
    return f"{words}: “{message}”" if message else words


def result_sentence(state: MeetingState, seat: int | None) -> str:
    names = [state.game.seat_name(s) for s in range(2)]
    if seat is not None:
        names[seat] = "you"
    payoffs = state.payoffs()
    if state.outcome == "agreement":
        return (f"Agreement on {day_name(state.agreed_day)}: {names[0]} get{'' if seat == 0 else 's'} "
                f"{payoffs[0]}, {names[1]} get{'' if seat == 1 else 's'} {payoffs[1]}.")
    if state.outcome == "walked_away":
        walker = state.thread[-1]["seat"]
        who = "You" if walker == seat else state.game.seat_name(walker)
        return f"No agreement: {who} walked away. Both get 0."
    return "No agreement: the players ran out of turns. Both get 0."


def end_reason(state: MeetingState) -> str | None:
    """Why the game ended, for every viewer: the acceptance, the walk-away or the turn limit (None before the end).
    Both schedules are public once it is over, so naming the agreed day tells nobody a secret."""
    if not state.is_terminal():
        return None
    names = [state.game.seat_name(s) for s in range(2)]
    if state.outcome == "agreement":
        acceptor = state.thread[-1]["seat"]
        return (f"{names[acceptor]} accepted {names[1 - acceptor]}'s proposal to meet on "
                f"{day_name(state.agreed_day)}.")
    if state.outcome == "walked_away":
        return f"{names[state.thread[-1]['seat']]} walked away without an agreement."
    turns = state.game.options["max_turns_per_seat"]
    return f"The limit of {turns} turn{'' if turns == 1 else 's'} per player was reached without an agreement."


def _schedule(profile) -> list[dict[str, Any]]:
    return [{"day": d, "name": day_name(d), "ooo": d in profile["ooo"], "value": profile["prefs"][d]} for d in DAYS]


def observation(state: MeetingState, seat: int | None) -> Observation:
    game = state.game
    over = state.is_terminal()
    names = [game.seat_name(s) for s in range(2)]

    def who(s: int) -> str:
        return "You" if s == seat else names[s]

    thread = [{"seat": m["seat"], "who": who(m["seat"]), "mine": m["seat"] == seat,
               "move": move_words(m["move"], m["day"]), "text": m["text"]} for m in state.thread]
    standing = [{"seat": s, "who": who(s), "day": d, "name": day_name(d)}
                for s, d in enumerate(state.proposals) if d is not None]
    data: dict[str, Any] = {
        "seat": seat,
        "names": names,
        "over": over,
        "to_move": None if over else state.to_move,
        "my_turn": not over and seat == state.to_move,
        "turns_left": [state.turns_left(s) for s in range(2)],
        "max_turns": game.options["max_turns_per_seat"],
        "thread": thread,
        "standing": standing,
        "outcome": state.outcome,
        "agreed_day": state.agreed_day,
        "agreed_name": day_name(state.agreed_day),
    }
    lines = [f"Meeting Scheduling. You are {names[seat]}." if seat is not None else "Meeting Scheduling."]
    if seat is not None and not over:
        profile = state.profiles[seat]
        data["schedule"] = _schedule(profile)
        data["ooo_text"] = ooo_phrase(profile)
        data["prefs_text"] = prefs_phrase(profile)
        lines += ["Your private schedule:", ooo_phrase(profile), prefs_phrase(profile)]
    lines.append("Messages so far:" if thread else "No messages yet.")
    for m in thread:
        lines.append(f"- {m['who']} ({m['move']}): {m['text']}")
    if over:
        data["result"] = result_sentence(state, seat)
        data["payoffs"] = state.payoffs()
        # Both schedules are revealed with the result (rules sheet §6).
        data["profiles"] = [{"seat": s, "who": who(s), "ooo_text": ooo_phrase(p), "prefs_text": prefs_phrase(p),
                             "schedule": _schedule(p), "payoff": state.payoffs()[s]}
                            for s, p in enumerate(state.profiles)]
        lines.append(f"The game is over. {data['result']}")
        for p in data["profiles"]:
            lines.append(f"{p['who']}: {p['ooo_text']} {p['prefs_text']}")
    else:
        for s in standing:
            lines.append(f"Standing proposal of {s['who']}: {s['name']}.")
        if not standing:
            lines.append("No proposal stands.")
        if seat is not None:
            lines.append(f"Turns left: you {state.turns_left(seat)}, {names[1 - seat]} {state.turns_left(1 - seat)}.")
            lines.append("It is your turn." if seat == state.to_move else f"It is {names[state.to_move]}'s turn.")
        else:
            lines.append(f"Turns left: {names[0]} {state.turns_left(0)}, {names[1]} {state.turns_left(1)}.")
    return Observation(seat=seat, data=data, text="\n".join(lines))
