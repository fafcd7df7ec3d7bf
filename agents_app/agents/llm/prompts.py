"""The words the LLM agent says to the model, for the base and Chain-of-Thought scaffolds.

Written for this project in the spirit of GameBench (seeds/001 appendix E): the rules summary, the list of rule
subtopics the model may ask about, the seat's observation between <state> tags, and the actions it may take.
"""

from __future__ import annotations

import json

from agents_app.agents.base import TurnView

# GameBench's Chain-of-Thought sentence, verbatim: a CoT prompt ends with it.
COT_SENTENCE = (
    "First, let's reason out loud about which action you should take to maximize your probability of winning."
)
# Correction messages list the valid ids; beyond this many they point back to the list instead.
_IDS_IN_CORRECTION = 60


def system_prompt(view: TurnView, explain_limit: int) -> str:
    parts = [f"You are playing a game called {view.game_id}."]
    if view.rules is not None:
        parts.append(f"The rules are as follows: {view.rules.summary}")
        if view.rules.topics and explain_limit > 0:
            topics = ", ".join(view.rules.topics)
            parts.append(
                "If you would like to learn more about the rules, reply with "
                '{"explain": "<topic>"} where <topic> is one of: '
                f"{topics} (at most {explain_limit} per move)."
            )
    parts.append(reply_format(view))
    return "\n\n".join(parts)


def reply_format(view: TurnView) -> str:
    lines = [
        "When you choose your action, reply with a single JSON object and nothing else:",
        '{"action": "<id>"} where <id> is the id of one of the available actions.',
    ]
    if view.text_actions:
        lines.append(
            'For an open-ended action reply {"action": "<id>", "text": "<your text>"}; the text is required there.'
        )
    return "\n".join(lines)


def turn_prompt(view: TurnView) -> str:
    """The observation and the actions; the caller appends the closing request."""
    parts = [
        "Your observation of the game is between <state> and </state>:",
        f"<state>\n{view.observation.text}\n</state>",
    ]
    if view.legal_actions:
        parts.append("Available actions (id: label):\n" + "\n".join(f"{a.id}: {a.label}" for a in view.legal_actions))
    else:
        parts.append("Available actions: none besides the open-ended ones below.")
    if view.text_actions:
        lines = []
        for spec in view.text_actions:
            hint = f"; format: {spec.hint}" if spec.hint else ""
            lines.append(f"{spec.id}: {spec.label}{hint}; at most {spec.max_length} characters")
        parts.append("Open-ended actions (reply with the id and your text):\n" + "\n".join(lines))
    return "\n\n".join(parts)


def move_request() -> str:
    return "Choose your action. Reply with a single JSON object."


def cot_prompt(view: TurnView) -> str:
    return f"{turn_prompt(view)}\n\n{COT_SENTENCE}"


def cot_answer_request() -> str:
    return 'Now give your final answer: a single JSON object such as {"action": "<id>"}, and nothing else.'


def explanation(view: TurnView, topic: str) -> str:
    topics = view.rules.topics if view.rules is not None else {}
    name = _find_topic(topics, topic)
    if name is None:
        known = ", ".join(topics) or "(none)"
        return f"Unknown topic {topic!r}, known: {known}. Now choose your action as a single JSON object."
    return f"Rules on {name!r}: {topics[name]}\n\nNow choose your action. Reply with a single JSON object."


def _find_topic(topics, wanted: str) -> str | None:
    if wanted in topics:
        return wanted
    folded = wanted.strip().casefold()
    return next((name for name in topics if name.casefold() == folded), None)


def correction(view: TurnView, problem: str) -> str:
    """Says exactly what was wrong and what a valid reply looks like."""
    ids = [a.id for a in view.legal_actions]
    if len(ids) > _IDS_IN_CORRECTION:
        valid = f"the id of one of the {len(ids)} available actions listed above"
    else:
        valid = "one of: " + ", ".join(ids) if ids else "an open-ended action id"
    lines = [
        f"Your reply was invalid: {problem}.",
        f'Reply with exactly one JSON object and nothing else: {{"action": "<id>"}} where <id> is {valid}.',
    ]
    for spec in view.text_actions:
        example = json.dumps({"action": spec.id, "text": f"<{spec.hint or 'your text'}>"})
        lines.append(f"For the open-ended action {spec.id!r} reply {example} (at most {spec.max_length} characters).")
    return "\n".join(lines)
