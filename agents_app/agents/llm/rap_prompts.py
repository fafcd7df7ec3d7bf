"""Prompts of the RAP scaffold and the readers for their free-text replies.

Written for this project after GameBench's appendix E (seeds/001): every prompt starts from the same prefix (the
game, its rules summary and an observation between <state> tags); the model then writes an action and is asked
to judge it, to pick one by number, to predict what happens next, or to judge the position.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from agents_app.agents.base import TurnView
from gameplay.engines.api import TextAction

from .client import image_part
from .replies import TextValidator

TEXT_OPTIONS_PER_ACTION = 3
MAX_PREDICTED_ACTIONS = 8
_LIST_MARKER = re.compile(r"^\s*(?:[-*•]|\d+[.)]|\(\d+\))\s*")


def _opening(view: TurnView, observation: str, tail: str, image: bytes | None) -> list[dict]:
    system = f"You are now playing a game called {view.game_id}."
    if view.rules is not None:
        system += f" The rules are as follows: {view.rules.summary}"
    text = f"Your observation of the game is between <state> and </state>:\n<state>\n{observation}\n</state>\n\n{tail}"
    content: str | list = text if image is None else [{"type": "text", "text": text}, image_part(image)]
    return [{"role": "system", "content": system}, {"role": "user", "content": content}]


def _after_action(view: TurnView, observation: str, label: str, question: str, image: bytes | None) -> list[dict]:
    return [
        *_opening(view, observation, "Write your action below:", image),
        {"role": "assistant", "content": label},
        {"role": "user", "content": question},
    ]


def options_messages(view: TurnView, observation: str, spec: TextAction, image: bytes | None) -> list[dict]:
    hint = f"; format: {spec.hint}" if spec.hint else ""
    question = (
        f"This is an open-ended action{hint}. Write up to {TEXT_OPTIONS_PER_ACTION} different texts you could "
        f"submit for it, one per line, each at most {spec.max_length} characters, and nothing else."
    )
    return _after_action(view, observation, spec.label, question, image)


def choice_messages(view: TurnView, observation: str, labels: Sequence[str], image: bytes | None) -> list[dict]:
    listing = "\n".join(f"{number}. {label}" for number, label in enumerate(labels, 1))
    tail = (
        "These are your available actions in this position, between <actions> and </actions>:\n"
        f"<actions>\n{listing}\n</actions>\nChoose an action by writing only the associated number."
    )
    return _opening(view, observation, tail, image)


def evaluate_messages(view: TurnView, observation: str, label: str, image: bytes | None) -> list[dict]:
    return _after_action(view, observation, label, "Is this a good action? Answer yes or no.", image)


def predict_messages(
    view: TurnView, observation: str, label: str, image: bytes | None, next_actor: str | None = None
) -> list[dict]:
    """Ask for the position after ``label``. ``next_actor`` is who the engine says acts next (TurnView.next_actors:
    "you", seat names, or "nobody: the game ends"); None deeper in the tree, where only the model's guess exists."""
    rest = (
        "then your new observation of the game, between <state> and </state>; then the actions you will have "
        "available on your next turn, one per line, between <actions> and </actions>."
    )
    if next_actor == "you":
        question = (
            "After this action it is your turn again (the rules give you another step). To the best of your "
            "ability, predict your new observation of the game after this action, between <state> and </state>; "
            "then the actions you will have available then, one per line, between <actions> and </actions>."
        )
    elif next_actor is not None and next_actor.startswith("nobody"):
        question = (
            "This action ends the game. Predict your final observation of the game, between <state> and </state>."
        )
    elif next_actor is not None:
        question = (
            f"Next, {next_actor} will act. To the best of your ability, predict what {next_actor} will do, "
            f"between <others> and </others>; {rest}"
        )
    else:
        question = (
            "To the best of your ability, predict what happens next: whoever acts after this action (another "
            f"player, or you again if the rules give you another step), between <others> and </others>; {rest}"
        )
    return _after_action(view, observation, label, question, image)


def win_messages(view: TurnView, observation: str, image: bytes | None) -> list[dict]:
    return _opening(view, observation, "Will you eventually win from this position? Answer yes or no.", image)


def text_options(reply: str, spec: TextAction, validator: TextValidator | None) -> list[str]:
    """Distinct acceptable candidate texts from a one-per-line reply (list markers and quotes removed)."""
    found: list[str] = []
    for line in reply.splitlines():
        text = _LIST_MARKER.sub("", line).strip().strip("\"'`").strip()
        if not text or len(text) > spec.max_length or text in found:
            continue
        if validator is not None and validator(spec.id, text):
            continue
        found.append(text)
    return found[:TEXT_OPTIONS_PER_ACTION]


def prediction(reply: str) -> tuple[str, str, list[str]]:
    """(others' actions, next observation, next available actions) from a predict reply; lenient on tags,
    because a predicted state is only a guess: without <state> tags the whole reply stands for it."""
    others = _tagged(reply, "others") or ""
    state = _tagged(reply, "state")
    if state is None:
        state = re.sub(r"<others>.*?</others>", "", reply, flags=re.DOTALL | re.IGNORECASE).strip()
    listed = _tagged(reply, "actions") or ""
    actions = []
    for line in listed.splitlines():
        label = _LIST_MARKER.sub("", line).strip()
        if label and label not in actions:
            actions.append(label)
    return others, state, actions[:MAX_PREDICTED_ACTIONS]


def _tagged(text: str, tag: str) -> str | None:
    match = re.search(rf"<{tag}>(.*?)(?:</{tag}>|$)", text, re.DOTALL | re.IGNORECASE)
    return match.group(1).strip() if match else None
