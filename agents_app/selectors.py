"""Reads: which agents exist, building one for a seat, and the transcripts of model calls.

An agent name is either a built-in class (``registry.AGENTS``) or a stored ``AgentConfig``. Built-ins win
(``AgentConfig.clean`` refuses their names) and resolving them never touches the database.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from agents_app.agents import registry
from agents_app.agents.base import Agent
from agents_app.key_policy import key_env_policy
from agents_app.models import AgentCall, AgentConfig
from gameplay.models import Match

# (action_id, text) -> None when the text is accepted, else why not; lets an LLM agent correct a bad text.
TextValidator = Callable[[str, str], "str | None"]


def agent_config(name: str) -> AgentConfig | None:
    """The stored configuration of that name (None for built-ins and unknown names)."""
    if not isinstance(name, str) or not name or name in registry.AGENTS:
        return None
    return AgentConfig.objects.filter(name=name).first()


def llm_settings(config: AgentConfig):
    """The pure agent's settings for a stored configuration, with the platform's key policy injected."""
    from agents_app.agents.llm import LLMAgentSettings  # late: the openai client only when a model is configured

    return LLMAgentSettings.from_config(config, key_env_policy=key_env_policy())


def agent_exists(name: str) -> bool:
    return name in registry.AGENTS or agent_config(name) is not None


def agent_choices(game_id: str | None = None) -> list[tuple[str, str]]:
    """(name, description) of every agent (that plays ``game_id``, when given): built-ins first, then
    configurations (described by their model; a language model plays any game)."""
    builtins = [
        (name, cls.description)
        for name, cls in sorted(registry.AGENTS.items(), key=lambda item: _in_number_order(item[0]))
        if _plays(cls, game_id)
    ]
    configs = [
        (c.name, c.description or _config_summary(c))
        for c in AgentConfig.objects.order_by("name")
        if c.plays_game(game_id)
    ]
    return builtins + configs


def _in_number_order(name: str) -> tuple:
    """A sort key reading the numbers in a name as numbers: search-2 before search-10, as people count levels."""
    return tuple((0, int(part), "") if part.isdigit() else (1, 0, part) for part in re.split(r"(\d+)", name) if part)


def agent_label(name: str) -> str | None:
    """What people read for agent ``name`` when it has a label of its own ("Search, level 3"), else None (its name
    is what they read). Only built-ins have one, so no configuration is looked up."""
    return registry.agent_label(name)


def _config_summary(config: AgentConfig) -> str:
    if config.dialogue_steering:
        return f"{config.model} ({config.get_dialogue_steering_display()})"
    return config.model


def agent_plays(name: str, game_id: str) -> bool:
    """Whether the agent ``name`` exists and knows how to play ``game_id`` (``Agent.games``)."""
    cls = registry.AGENTS.get(name)
    if cls is not None:
        return _plays(cls, game_id)
    config = agent_config(name)
    # A configuration dispatches on its own fields: a steered one plays dialogue games only (AgentConfig.plays_game).
    return config is not None and config.plays_game(game_id)


def agent_refuses_match(name: str, game_id: str, options: Mapping[str, Any]) -> str | None:
    """Why the agent ``name`` refuses a ``game_id`` match with ``options`` (AgentConfig.policy_problem), or None."""
    config = agent_config(name)
    return config.policy_problem(game_id, options) if config is not None else None


def _plays(cls, game_id: str | None) -> bool:
    return game_id is None or cls.plays(game_id)


def wants_next_actors(name: str) -> bool:
    """Whether the named agent asks who acts after each of its legal actions (RAP's world model does); an agent that
    cannot be built asks nothing (its turn falls back anyway)."""
    try:
        return bool(build_agent(name).wants_next_actors)
    except Exception:
        return False


def wants_search_root(name: str) -> bool:
    """Whether the named agent searches from a sample of its seat's information set (``Agent.wants_search_root``);
    only built-in agents do, so no configuration is looked up."""
    cls = registry.AGENTS.get(name)
    return cls is not None and bool(cls.wants_search_root)


def build_agent(name: str, *, text_validator: TextValidator | None = None) -> Agent:
    """A fresh agent for one decision; raises UnknownAgentError for a name that is neither kind."""
    cls = registry.AGENTS.get(name)
    if cls is not None:
        agent = cls()
        agent.text_validator = text_validator
        return agent
    try:
        config = agent_config(name)
    except Exception as err:
        # decide() turns any failure into a random fallback; name the cause of an unresolvable seat.
        raise registry.UnknownAgentError(f"agent {name!r} could not be looked up: {err}") from err
    if config is None:
        known = ", ".join(n for n, _ in agent_choices())
        raise registry.UnknownAgentError(f"unknown agent {name!r}; known: {known}")
    # Late import: the LLM package pulls in the openai client, which built-in seats never need.
    if config.dialogue_steering:
        from agents_app.agents.dialogue.agent import DialogueAgent

        return DialogueAgent(llm_settings(config), steering=config.dialogue_steering,
                             policy=config.dialogue_policy or None, text_validator=text_validator)
    from agents_app.agents.llm import LLMAgent

    return LLMAgent(llm_settings(config), text_validator=text_validator)


def chat_replies_per_turn(name: str) -> int:
    """How many chat lines the agent may send between two of its moves (``Agent.chat_replies_per_turn``), read
    without building the agent: most never answer between moves, and asking costs nothing then."""
    cls = registry.AGENTS.get(name)
    if cls is not None:
        return int(cls.chat_replies_per_turn)
    config = agent_config(name)
    if config is None or config.dialogue_steering:  # a steered agent speaks only with its moves (DialogueAgent)
        return 0
    return int(config.chat_replies)


def wants_images(name: str) -> bool:
    """Whether the agent's views should carry the board picture (drawing one costs time)."""
    cls = registry.AGENTS.get(name)
    if cls is not None:
        return bool(cls.accepts_images)
    config = agent_config(name)
    return bool(config and config.vision)


# --- transcripts ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ShownMessage:
    role: str
    content: str


def shown_messages(request_messages) -> list[ShownMessage]:
    """Messages as a person reads them: list content joined, images as the description stored for them."""
    shown = []
    for message in request_messages if isinstance(request_messages, list) else []:
        if not isinstance(message, dict):
            shown.append(ShownMessage("?", str(message)))
            continue
        content = message.get("content")
        if isinstance(content, list):
            content = "\n".join(_part_text(part) for part in content)
        shown.append(ShownMessage(str(message.get("role", "?")), "" if content is None else str(content)))
    return shown


def _part_text(part) -> str:
    if not isinstance(part, dict):
        return str(part)
    if part.get("type") == "text":
        return str(part.get("text", ""))
    # The agent already replaced image data by a description; show whatever describes it.
    description = part.get("description") or part.get("text") or json.dumps(part, sort_keys=True)
    return f"[{part.get('type', 'part')}: {description}]"


@dataclass(frozen=True)
class TranscriptEntry:
    call: AgentCall
    messages: list[ShownMessage]


def event_transcript(event_id: int | None) -> list[TranscriptEntry]:
    """The model calls behind one event, in the order they were made, ready to show."""
    if event_id is None:
        return []
    calls = AgentCall.objects.filter(event_id=event_id).order_by("seq", "pk")
    return [TranscriptEntry(call, shown_messages(call.request_messages)) for call in calls]


def match_calls(match: Match):
    """Every call of a match in the order made (rows are inserted as decisions end, so pk is chronological)."""
    return AgentCall.objects.filter(match=match).select_related("event").order_by("version", "pk")


def transcript_lines(match: Match) -> Iterator[str]:
    """The JSONL export: one JSON object per model call, newline-terminated."""
    for call in match_calls(match).iterator():
        row = {
            "match": match.pk,
            "event_seq": call.event.seq if call.event else None,
            "version": call.version,
            "seat": call.seat,
            "agent": call.agent_name,
            "seq": call.seq,
            "purpose": call.purpose,
            "request_messages": call.request_messages,
            "raw_reply": call.raw_reply,
            "parsed_action": call.parsed_action,
            "error": call.error,
            "fallback": call.fallback,
            "latency_ms": call.latency_ms,
            "prompt_tokens": call.prompt_tokens,
            "completion_tokens": call.completion_tokens,
            "details": call.details,
            # Why the platform played a random legal move instead of the agent's, when it did (the move's event).
            "fallback_reason": (call.event.payload.get("fallback_reason") if call.event else None) or "",
            "created_at": call.created_at.isoformat(),
        }
        yield json.dumps(row, ensure_ascii=False) + "\n"
