"""Fitting a move prompt into the model's context before it is sent (issue 21).

The budget is the context length (``LLMAgentSettings.context_length``) less the reply's ``max_tokens`` and a small
reserve. A prompt over it is made smaller step by step, each step keeping what matters most longer: first the
history and chat log go, then the labels of the actions (their ids stay), then the observation text is shortened,
then the list of actions is cut to a sample (under a JSON schema the reply may still be any legal id: the schema,
not the prompt, carries them all), then the observation is shortened further. A prompt that still does not fit is
refused (``PromptTooLong``), and the platform checks a game's opening prompt before a match starts
(agents_app.services.preflight) so that this is said at once, not as a fallback on every move.

Later in a decision, corrections make the conversation grow: ``trim_conversation`` drops the earliest corrections
(with the replies they corrected) first.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .settings import LLMAgentSettings
from .tokens import count_tokens

RESERVE_TOKENS = 32


@dataclass(frozen=True)
class Shape:
    """How much of a turn a prompt shows."""

    history: bool = True  # the latest moves and the chat log
    labels: bool = True  # each action's label beside its id
    observation_chars: int | None = None  # the observation text cut to this many characters
    max_actions: int | None = None  # at most this many actions listed


# Each step applied on top of the ones before it, in this order.
STEPS: tuple[tuple[str, dict], ...] = (
    ("no history or chat log", {"history": False}),
    ("action ids without labels", {"labels": False}),
    ("observation cut to 4,000 characters", {"observation_chars": 4000}),
    ("at most 100 actions listed", {"max_actions": 100}),
    ("observation cut to 1,500 characters", {"observation_chars": 1500}),
    ("at most 30 actions listed", {"max_actions": 30}),
)


class PromptTooLong(Exception):
    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Fit:
    messages: list[dict]
    tokens: int | None  # None: the context is unknown, nothing was measured
    counted_by: str
    budget: int | None
    steps: tuple[str, ...] = ()  # what was cut

    def details(self) -> dict:
        """For the call's record (ModelCall.details)."""
        if self.budget is None:
            return {}
        return {"prompt_tokens_counted": self.tokens, "counted_by": self.counted_by, "prompt_budget": self.budget,
                "prompt_cuts": list(self.steps)}


def budget(settings: LLMAgentSettings) -> int | None:
    """Tokens a prompt may take (None: the model's context is unknown)."""
    context = settings.context_length()
    return context - settings.max_tokens - RESERVE_TOKENS if context else None


def fit(settings: LLMAgentSettings, build: Callable[[Shape], list[dict]]) -> Fit:
    """The first of the ever smaller prompts ``build`` makes that fits the budget."""
    limit = budget(settings)
    shape = Shape()
    if limit is None:
        return Fit(build(shape), None, "", None)
    if limit <= 0:
        raise PromptTooLong(f"max_tokens {settings.max_tokens} leaves no room for a prompt in a context of "
                            f"{settings.context_length()} tokens")
    cuts: list[str] = []
    for name, change in ((None, {}), *STEPS):
        if name is not None:
            shape = Shape(**{**shape.__dict__, **change})
            cuts.append(name)
        messages = build(shape)
        tokens, counted_by = count_tokens(settings, messages)
        if tokens <= limit:
            return Fit(messages, tokens, counted_by, limit, tuple(cuts))
    raise PromptTooLong(
        f"the prompt needs {tokens} tokens ({counted_by}) even cut down ({', '.join(cuts)}), but a context of "
        f"{settings.context_length()} tokens leaves {limit} after the reply's max_tokens: use a model with a longer "
        "context, or lower max_tokens"
    )


def trim_conversation(settings: LLMAgentSettings, messages: list[dict], keep: int) -> list[str]:
    """Drop the earliest exchanges after the first ``keep`` messages (a reply and the correction it got) until the
    conversation fits; returns what was dropped, for the record. Never drops the latest exchange."""
    limit = budget(settings)
    dropped: list[str] = []
    if limit is None:
        return dropped
    while len(messages) > keep + 2 and count_tokens(settings, messages)[0] > limit:
        del messages[keep:keep + 2]
        dropped.append("an earlier reply and its correction")
    return dropped


def shorten(text: str, limit: int | None) -> str:
    """``text`` in at most about ``limit`` characters: its start and its end, with what was left out said."""
    if limit is None or len(text) <= limit:
        return text
    head, tail = int(limit * 0.7), int(limit * 0.3)
    return f"{text[:head]}\n[… {len(text) - head - tail} characters left out …]\n{text[len(text) - tail:]}"
