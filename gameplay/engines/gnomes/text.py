"""Plain-English observation text for language-model agents.

Everything here is built from an observation's ``data`` dict alone (never from the state), so the text can
say no more than the seat may see: wall openings come from the seat's own ``walls`` list only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .maze import Maze, neighbour

DIRECTIONS = ("right", "up", "left", "down")
CHAT_LINES_SHOWN = 5


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def result_sentence(status: str, turns: int, wall_hits: int) -> str:
    """How a round ended and why ("" while it is still being played): the token reached the treasure, or the
    move cap ran out (the round ends on the move that reaches the cap, so ``turns`` is the cap then)."""
    if status == "found":
        return f"Treasure found in {plural(turns, 'turn')} ({plural(wall_hits, 'wall hit')})."
    if status == "out_of_turns":
        return f"Out of turns: the {turns}-move turn cap was reached without finding the treasure."
    return ""


def where(cell: Sequence[int]) -> str:
    return f"column {cell[0]}, row {cell[1]}"


def _surroundings(data: Mapping[str, Any]) -> str:
    """Which moves the seat's own side allows from the token, and why the others fail."""
    maze = Maze(data["size"], data["walls"])
    token = tuple(data["token"])
    parts = []
    for direction in DIRECTIONS:
        if maze.can_move(token, direction):
            parts.append(f"{direction} open")
        elif not maze.on_grid(neighbour(token, direction)):
            parts.append(f"{direction} blocked by the edge of the board")
        else:
            parts.append(f"{direction} blocked by a wall on your side")
    return "Around the token on your side of the board: " + "; ".join(parts) + "."


def _move_sentence(move: Mapping[str, Any], who: str) -> str:
    if move["action"] is None:  # not the viewer's move, and it left the token where it was
        return (f"{who} did not move the token (it stays at {where(move['to'])}): they stayed, or a wall on "
                f"their side blocked their move.")
    if move["action"] == "stay":
        return f"{who} stayed (the token stays at {where(move['to'])})."
    if move["moved"]:
        return f"{who} moved {move['action']} from {where(move['from'])} to {where(move['to'])}."
    return (f"{who} tried to move {move['action']} from {where(move['from'])} but a wall on their side "
            f"(or the edge of the board) blocked it; the token did not move.")


def _chat_lines(data: Mapping[str, Any], names: Sequence[str], seat: int) -> list[str]:
    chat = data["chat"]
    if not chat:
        return ["No chat messages yet."]
    lines = [f"Recent chat (last {min(len(chat), CHAT_LINES_SHOWN)} of {len(chat)} messages):"]
    for message in chat[-CHAT_LINES_SHOWN:]:
        speaker = "You" if message["seat"] == seat else f"{names[message['seat']]} (partner)"
        lines.append(f"  [after turn {message['turn']}] {speaker}: {message['text']}")
    return lines


def _progress(data: Mapping[str, Any]) -> str:
    return (f"Moves made: {data['turn']} of the {data['turn_cap']}-move turn cap; wall hits: {data['wall_hits']}; "
            f"team reward so far: {data['reward']:.1f}.")


def _seat_text(data: Mapping[str, Any], names: Sequence[str]) -> list[str]:
    seat = data["side"]
    partner = names[1 - seat]
    lines = [
        f"Gnomes at Night, round {data['round']} of 5. You are {names[seat]} (seat {seat}) and see side {seat} "
        f"of the board. Columns 0-{data['size'] - 1} run left to right, rows 0-{data['size'] - 1} top to "
        "bottom ('up' lowers the row).",
        f"The token is at {where(data['token'])} (it started at {where(data['start'])}).",
    ]
    if data["status"] == "playing":
        if data["my_turn"]:
            lines.append("It is your turn: choose stay, right, up, left or down.")
        else:
            lines.append(f"It is {partner}'s turn; you may chat while you wait.")
        lines.append(_surroundings(data))
    if data["treasure_visible"]:
        lines.append(f"The treasure is at {where(data['treasure'])}.")
    else:
        lines.append("You cannot see the treasure; it is on your partner's side.")
    last = data["last_partner_move"]
    if last is None:
        lines.append(f"{partner} has not moved yet.")
    else:
        lines.append(f"Partner's last move (turn {last['turn']}): " + _move_sentence(last, partner))
    lines.extend(_chat_lines(data, names, seat))
    return lines


def _public_text(data: Mapping[str, Any], names: Sequence[str]) -> list[str]:
    lines = [
        f"You are watching Gnomes at Night, round {data['round']} of 5 (a cooperative maze on a "
        f"{data['size']}x{data['size']} grid; each player sees only their own side's walls).",
        f"The token is at {where(data['token'])}.",
    ]
    if data["status"] == "playing":
        lines.append(f"It is {names[data['to_move']]}'s turn.")
    if data["history"]:
        last = data["history"][-1]
        lines.append("Last move: " + _move_sentence(last, names[last["seat"]]))
    return lines


def observation_text(data: Mapping[str, Any], names: Sequence[str]) -> str:
    """The text of an observation; ``names`` are the seat names, seat 0 first."""
    lines = _public_text(data, names) if data["side"] is None else _seat_text(data, names)
    lines.append(_progress(data))
    ended = result_sentence(data["status"], data["turn"], data["wall_hits"])
    if ended:
        lines.append("The round is over. " + ended)
    return "\n".join(lines)
