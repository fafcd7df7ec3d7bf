"""Uniformly random legal play: the baseline every other agent is measured against."""

from __future__ import annotations

import random

from .base import Agent, Decision, TurnView

# Short, harmless texts for open-ended actions; engines validate and may reject them.
_SHORT_TEXTS = ("I agree.", "Let's see.", "Pass.", "Sounds good.", "Not sure yet.")


class RandomAgent(Agent):
    name = "random"
    description = "Chooses uniformly among the legal actions."

    def decide(self, view: TurnView) -> Decision:
        rng = random.Random(view.seed)
        choices: list[tuple[str, str | None]] = [(a.id, None) for a in view.legal_actions]
        for spec in view.text_actions:
            choices.append((spec.id, short_text_for(spec.hint, rng)[: spec.max_length]))
        if not choices:
            raise ValueError("no legal action to choose from")
        action_id, text = rng.choice(choices)
        # A text the engine refuses (Who is Spy refuses a description said before) is replaced by another.
        if text is not None and self.text_validator is not None and self.text_validator(action_id, text):
            spec = next(spec for spec in view.text_actions if spec.id == action_id)
            # The engine's own example last (TextAction.example): a clue when every stock word is on the board.
            replacements = (*_other_texts(text, spec.max_length), *([spec.example] if spec.example else []))
            text = next((t for t in replacements if self.text_validator(action_id, t) is None), text)
        return Decision(action_id=action_id, text=text)


def _other_texts(refused: str, limit: int):
    """Replacements for a refused text, in a fixed order: the stock texts, then numbered ones."""
    stock = [t for t in _SHORT_TEXTS if t != refused]
    yield from stock
    for n in range(2, 41):
        for text in (refused, *stock):
            yield f"{text.rstrip('.')} ({n}).".strip()[:limit]


def short_text_for(hint: str, rng: random.Random) -> str:
    """A plausible short text; honours the common 'word,number' clue format."""
    if "word,number" in hint.replace(" ", ""):
        return f"{rng.choice(['river', 'stone', 'light', 'paper'])},{rng.randint(1, 2)}"
    return rng.choice(_SHORT_TEXTS)
