"""Which actions a prompt suggested: the ids its examples showed (issue 42).

A small model tends to return exactly the example a prompt shows; a benchmark of such a model then measures the
example, not the model. The agent's own prompts show no real id any more (prompts.reply_shape), but a decision
record still says, for every move reply, which of the view's actions the messages sent named as an example
(``{"action": "<id>"}``, in any system or user message: a prompt of a future change, an explanation, a correction)
and whether the model chose one of them; reports summarise that share per agent, so a model that copies is seen.
"""

from __future__ import annotations

import json
import re

_ACTION_VALUE = re.compile(r'"action"\s*:\s*"((?:[^"\\]|\\.)*)"')


def suggested_actions(messages: list[dict], ids: set[str]) -> list[str]:
    """The ids among ``ids`` that the non-assistant messages show as an action's value, in order of appearance."""
    found: list[str] = []
    for message in messages:
        if message.get("role") == "assistant":
            continue  # the model's own earlier replies are not suggestions
        for value in _values(_text_of(message.get("content"))):
            if value in ids and value not in found:
                found.append(value)
    return found


def _text_of(content) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # a multimodal message: its text parts
        return "\n".join(p.get("text", "") for p in content if isinstance(p, dict))
    return ""


def _values(text: str):
    for match in _ACTION_VALUE.finditer(text):
        try:
            yield json.loads(f'"{match.group(1)}"')
        except ValueError:
            continue
