"""The words the LLM agent says to the model, for the base and Chain-of-Thought scaffolds.

Written for this project in the spirit of GameBench (seeds/001 appendix E): the rules summary, the list of rule
subtopics the model may ask about, the seat's observation between <state> tags, and the actions it may take.
"""

from __future__ import annotations

import json

from agents_app.agents.base import ChatLine, TurnView

from . import composing

# GameBench's Chain-of-Thought sentence, verbatim: a CoT prompt ends with it.
COT_SENTENCE = (
    "First, let's reason out loud about which action you should take to maximize your probability of winning."
)
# The same sentence for a cooperative game, where nobody wins against anybody: the team reaches the goal or not.
COT_SENTENCE_COOPERATIVE = (
    "First, let's reason out loud about which action best helps you and your partner reach the goal together."
)
# Correction messages list the valid ids; beyond this many they point back to the list instead.
_IDS_IN_CORRECTION = 60
# The longest chat message an agent may send with its move (longer ones are cut at a word boundary).
MAX_MESSAGE_CHARS = 300


def system_prompt(view: TurnView, explain_limit: int) -> str:
    parts = _game_intro(view)
    if view.rules is not None and view.rules.topics and explain_limit > 0:
        topics = list(view.rules.topics)
        parts.append(
            "If you would like to learn more about the rules, reply with a JSON object naming one topic, "
            f"for example {json.dumps({'explain': topics[0]})}. The topics are: {', '.join(topics)} "
            f"(at most {explain_limit} per move)."
        )
        needed = [t for t in view.move_topics if t in view.rules.topics]
        if needed:
            parts.append(f"The rules your available actions depend on now are under: {', '.join(needed)}.")
    parts.append(reply_format(view))
    return "\n\n".join(parts)


def _game_intro(view: TurnView) -> list[str]:
    parts = [f"You are playing a game called {view.game_id}."]
    if view.cooperative:
        parts.append(
            "It is a cooperative game: you and your partner win or lose together, nobody plays against you. "
            "Work with your partner towards the game's goal."
        )
    if view.rules is not None:
        parts.append(f"The rules are as follows: {view.rules.summary}")
    return parts


# The reply's shape, shown with placeholders instead of a real id: a model copies an example (SmolLM2-135M returned
# exactly the example's action in 73-100% of its decisions, issue 42), so an example that is one of this turn's
# actions would make the prompt, not the model, choose. Under a JSON schema a placeholder cannot be copied (the
# schema admits only legal ids); without one, a copied placeholder is an invalid reply that gets a correction.
ACTION_PLACEHOLDER = "<id of the action you choose>"
TEXT_PLACEHOLDER = "<your text>"
MESSAGE_PLACEHOLDER = "<your message>"


def reply_shape(view: TurnView, *, text: bool = False, message: bool = False) -> str:
    shape = {"action": ACTION_PLACEHOLDER}
    if text:
        shape["text"] = TEXT_PLACEHOLDER
    if message and view.chat:
        shape["message"] = MESSAGE_PLACEHOLDER
    return json.dumps(shape)


def reply_format(view: TurnView) -> str:
    lines = [
        f"When you choose your action, reply with a single JSON object and nothing else, shaped like "
        f"{reply_shape(view)}: the action must be the id of one of the available actions, exactly as listed.",
    ]
    if view.text_actions:
        lines.append(f"An open-ended action needs your text as well: {reply_shape(view, text=True)}.")
    if view.chat:
        who = "your team in its team chat (the other team never reads it)" if view.team_chat else (
            "the other players in the chat")
        lines.append(
            f"You can talk with {who}: add a \"message\" to the same object, {reply_shape(view, message=True)}. "
            f"One message per move, at most {MAX_MESSAGE_CHARS} characters; leave it out when you have nothing to "
            "say. Read the chat in your observation and answer questions addressed to you."
        )
    return "\n".join(lines)


def turn_prompt(view: TurnView, *, labels: bool = True, max_actions: int | None = None) -> str:
    """The observation and the actions; the caller appends the closing request. ``labels`` off lists the ids
    alone, ``max_actions`` lists only that many actions in all, structured and open-ended
    (agents_app.agents.llm.fitting: a prompt cut to fit the context)."""
    parts = _observation_parts(view)
    intro = composing.introduction(view)
    if intro:
        parts.append(intro)
    room = len(view.legal_actions) + len(view.text_actions) if max_actions is None else max_actions
    if view.legal_actions:
        shown = view.legal_actions[:room]
        if labels and any(a.label != a.id for a in shown):
            listing = "Available actions (id: label):\n" + "\n".join(_listed(a.id, a.label) for a in shown)
        elif labels:  # a composed step's parts: each says it all
            listing = "Available actions:\n" + "\n".join(a.id for a in shown)
        else:
            listing = "Available action ids:\n" + "\n".join(a.id for a in shown)
        if len(shown) < len(view.legal_actions):
            listing += (f"\n(and {len(view.legal_actions) - len(shown)} more legal actions not listed here, to keep "
                        "the prompt short)")
        parts.append(listing)
        room -= len(shown)
    else:
        parts.append("Available actions: none besides the open-ended ones below.")
    if view.text_actions:
        shown_texts = view.text_actions[:max(room, 1)]
        lines = []
        for spec in shown_texts:
            hint = f"; format: {spec.hint}" if spec.hint else ""
            lines.append(f"{_listed(spec.id, spec.label if labels else spec.id)}{hint}; at most {spec.max_length} "
                         "characters")
        if len(shown_texts) < len(view.text_actions):
            lines.append(f"(and {len(view.text_actions) - len(shown_texts)} more open-ended actions not listed here, "
                         "to keep the prompt short)")
        parts.append("Open-ended actions (reply with the id and your text):\n" + "\n".join(lines))
    return "\n\n".join(parts)


def _listed(action_id: str, label: str) -> str:
    """One line of the list: "id: label", or the id alone where it says it all (a composed step's parts)."""
    return action_id if label == action_id else f"{action_id}: {label}"


def _observation_parts(view: TurnView) -> list[str]:
    parts = [
        "Your observation of the game is between <state> and </state>:",
        f"<state>\n{view.observation.text}\n</state>",
    ]
    if view.history:
        parts.append("The latest moves, oldest first:\n" + "\n".join(view.history))
    if view.chat_log:
        parts.append("Recent chat, oldest first:\n" + "\n".join(_quoted(line) for line in view.chat_log))
    return parts


def _quoted(line: ChatLine) -> str:
    return f"{line.speaker}: {json.dumps(line.text, ensure_ascii=False)}"


# --- answering the chat between moves --------------------------------------------------------------------------

# What the examples say; concrete sentences, since a model copies an example's shape (and a placeholder literally).
_ANSWER_EXAMPLE = "I can see a wall on my left; try going up first."


def answer_system_prompt(view: TurnView) -> str:
    parts = _game_intro(view)
    parts.append(
        "It is not your turn now, but you can talk in the chat while you wait. When somebody writes to you, answer "
        "with a single JSON object and nothing else, for example "
        f"{json.dumps({'message': _ANSWER_EXAMPLE})}, at most {MAX_MESSAGE_CHARS} characters; reply "
        f"{json.dumps({'message': ''})} when there is nothing useful to say. Only say what your observation shows."
    )
    return "\n\n".join(parts)


def answer_request(view: TurnView, lines: tuple[ChatLine, ...]) -> str:
    parts = _observation_parts(view)
    parts.append("New in the chat, written to you:\n" + "\n".join(_quoted(line) for line in lines))
    parts.append("Answer in the chat. Reply with a single JSON object with your \"message\".")
    return "\n\n".join(parts)


def answer_correction(problem: str) -> str:
    example = json.dumps({"message": _ANSWER_EXAMPLE})
    return (
        f"Your reply was invalid: {problem}.\n"
        f"Reply with exactly one JSON object and nothing else, such as {example}."
    )


def move_request() -> str:
    return "Choose your action. Reply with a single JSON object."


def cot_prompt(view: TurnView, *, labels: bool = True, max_actions: int | None = None) -> str:
    turn = turn_prompt(view, labels=labels, max_actions=max_actions)
    return f"{turn}\n\n{COT_SENTENCE_COOPERATIVE if view.cooperative else COT_SENTENCE}"


def cot_answer_request(view: TurnView) -> str:
    return (f"Now give your final answer: a single JSON object shaped like {reply_shape(view)}, with the id of the "
            "action you chose, and nothing else.")


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
        f"Reply with exactly one JSON object and nothing else, shaped like {reply_shape(view)}; the action must be "
        f"{valid}.",
    ]
    if view.text_actions:
        names = ", ".join(repr(t.id) for t in view.text_actions[:_IDS_IN_CORRECTION])
        lines.append(f"For an open-ended action ({names}) reply {reply_shape(view, text=True)}.")
    return "\n".join(lines)
