"""The shared contract of dialogue games (seed 004): each turn a seat writes a message and makes one structured move.

A dialogue game declares ``GameSpec.dialogue`` (a ``DialogueSpec``). Its turns are text actions: the action id is
the structured move (``propose:thursday``, ``accept``, ``walk_away``, ``talk``, an offer, an argument style) and the
text is the message, validated by the engine like any text action. Everything the platform and the solvers need is
read from the declaration and the ordinary engine API, never from the game's id:

- ``instruction_sets``: the "actions" of the game-theoretic layer (tones, days, argument styles). A solver or a
  person steering a language-model seat picks one per message; ``ANY`` is the uninformative control. An
  instruction is private to the seat it steers: it is not part of the engine state.
- ``payoff_measure``: the measure (``State.measures``) holding a seat's raw payoff, e.g. the change of basket value,
  in ``payoff_bounds``. Engine scores stay in [0, 1] summing to 1 (``scores_from_payoffs``); solvers use the raw
  payoff, as the seed's tables do.
- ``solver_sets``: which set a solver uses when none is named, as (solver, set name) pairs, e.g. the seed's CFR
  runs Meeting Scheduling over days; a solver not listed uses the first set (``default_set``), which is also the
  set a steered seat without a policy reads its control instruction from.
- ``judged``: the outcome is decided by a judge after the last message (a debate). Such a state reports
  ``State.awaiting_verdict()``; the platform then asks a judge model (or applies ``State.fallback_verdict()``, a
  deterministic rule) and applies the verdict with ``State.apply_verdict``.

This module is pure: no Django, no model calls.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from .api import IllegalActionError

ANY = "any"


@dataclass(frozen=True)
class InstructionSet:
    """A family of instructions for a message, e.g. tones. ``template`` words one instruction for a model's prompt
    ("Write your message in a {} tone."); ``ANY`` is always a member and reads ``any_text``."""

    name: str
    instructions: tuple[str, ...]
    template: str
    any_text: str = "Write your message as you think best."
    descriptions: tuple[tuple[str, str], ...] = ()  # (instruction, what it means), for prompts and pages

    def __post_init__(self):
        if ANY not in self.instructions:
            raise ValueError(f"instruction set {self.name!r} must include {ANY!r}")
        if len(set(self.instructions)) != len(self.instructions):
            raise ValueError(f"instruction set {self.name!r} repeats an instruction")

    def text(self, instruction: str) -> str:
        """The instruction as a model reads it. Instructions outside the set (PSRO invents new tones) are worded
        with the same template."""
        if instruction == ANY:
            return self.any_text
        described = dict(self.descriptions).get(instruction)
        sentence = self.template.format(instruction)
        return f"{sentence} ({described})" if described else sentence


@dataclass(frozen=True)
class DialogueSpec:
    instruction_sets: tuple[InstructionSet, ...]
    payoff_bounds: tuple[float, float]
    payoff_measure: str = "payoff"
    judged: bool = False
    max_message_length: int = 600
    solver_sets: tuple[tuple[str, str], ...] = ()  # (solver, instruction set name); unlisted: the first set

    def __post_init__(self):
        if not self.instruction_sets:
            raise ValueError("a dialogue game needs at least one instruction set")
        low, high = self.payoff_bounds
        if not low < high:
            raise ValueError("payoff_bounds must be (low, high) with low < high")
        for solver, name in self.solver_sets:
            if name not in {s.name for s in self.instruction_sets}:
                raise ValueError(f"solver {solver!r} defaults to {name!r}, which is not one of the instruction sets")
            if [s for s, _ in self.solver_sets].count(solver) > 1:
                raise ValueError(f"solver {solver!r} is given two default instruction sets")

    @property
    def default_set(self) -> InstructionSet:
        return self.instruction_sets[0]

    def solver_set(self, solver: str) -> InstructionSet:
        """The set ``solver`` ("cfr", "psro") uses when none is named."""
        name = dict(self.solver_sets).get(solver)
        return self.default_set if name is None else self.instruction_set(name)

    def instruction_set(self, name: str) -> InstructionSet:
        for candidate in self.instruction_sets:
            if candidate.name == name:
                return candidate
        known = ", ".join(s.name for s in self.instruction_sets)
        raise KeyError(f"no instruction set {name!r}; known: {known}")


def clean_message(text: str, max_length: int) -> str:
    """A message as the engine keeps it: trimmed, inner runs of whitespace kept as single spaces or line breaks,
    no control or unassigned characters, not empty and at most ``max_length`` characters. Raises
    IllegalActionError saying what is wrong."""
    if not isinstance(text, str):
        raise IllegalActionError("a message must be text")
    lines = [" ".join(line.split()) for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    cleaned = "\n".join(line for line in lines if line).strip()
    if not cleaned:
        raise IllegalActionError("write a message to go with your move")
    for char in cleaned:
        if char != "\n" and unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co", "Cn"):
            raise IllegalActionError("the message contains a control or unprintable character")
    if len(cleaned) > max_length:
        raise IllegalActionError(f"the message is longer than {max_length} characters")
    return cleaned


def scores_from_payoffs(payoffs: Sequence[float], bounds: tuple[float, float]) -> list[float]:
    """Platform scores (in [0, 1], summing to 1) from raw general-sum payoffs: each seat's payoff shifted to be
    non-negative (by the lower bound) as a share of the total, so the seat that gained more scores more and equal
    payoffs split evenly. Ratings read these; studies and solvers read the raw payoff measure."""
    low = bounds[0]
    shifted = [max(0.0, float(p) - low) for p in payoffs]
    total = sum(shifted)
    if total <= 0:
        return [1.0 / len(payoffs)] * len(payoffs)
    return [s / total for s in shifted]
