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
        return Decision(action_id=action_id, text=text)


def short_text_for(hint: str, rng: random.Random) -> str:
    """A plausible short text; honours the common 'word,number' clue format."""
    if "word,number" in hint.replace(" ", ""):
        return f"{rng.choice(['river', 'stone', 'light', 'paper'])},{rng.randint(1, 2)}"
    return rng.choice(_SHORT_TEXTS)
