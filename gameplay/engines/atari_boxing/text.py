"""Observation text an LLM boxer can act on: where both boxers are, relative to the reader, and the clock."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def _relative(dx: int, dy: int) -> str:
    horizontal = f"{abs(dx)} px to your {'right' if dx > 0 else 'left'}" if dx else "level with you horizontally"
    vertical = f"{abs(dy)} px {'below' if dy > 0 else 'above'} you" if dy else "level with you vertically"
    return f"{horizontal} and {vertical}"


def observation_text(data: Mapping[str, Any], seat: int | None) -> str:
    boxers = data["boxers"]
    lines = [f"Time left {data['clock']} (frame {data['frame']}; each choice is held for "
             f"{data['frames_per_decision']} frames). Decision point {data['decision'] + 1}."]
    if seat is None:
        for boxer in boxers:
            lines.append(f"{boxer['name']}: {boxer['score']} points at x={boxer['x']}, y={boxer['y']}; "
                         f"last held {boxer['last_action']}.")
    else:
        me, them = boxers[seat], boxers[1 - seat]
        lines.append(f"You are {me['name']}. Score: you {me['score']}, {them['name']} {them['score']}.")
        lines.append(f"You are at x={me['x']}, y={me['y']}; {them['name']} is at x={them['x']}, y={them['y']}, "
                     f"{_relative(them['x'] - me['x'], them['y'] - me['y'])}.")
        lines.append(f"At the last decision point you held {me['last_action']} and {them['name']} held "
                     f"{them['last_action']}.")
        if data["my_choice"]:
            lines.append(f"You chose {data['my_choice']} for this decision point; waiting for {them['name']}.")
        elif them["has_chosen"]:
            lines.append(f"{them['name']} has chosen (hidden until you choose).")
    if data["status"] != "playing":
        lines.append("The bout is over.")
    return "\n".join(lines)
