"""Which instruction set a solver uses when none is named (issue 40): the game declares it per solver
(``DialogueSpec.solver_sets``). Meeting Scheduling's CFR solves over the days, the seed's actions in that domain;
its PSRO keeps the tones the seed's PSRO runs grew; the tone set stays available by name and stays the set a
steered seat's control reads."""

from __future__ import annotations

import json

import pytest

from agents_app.agents.dialogue import pipeline
from agents_app.agents.dialogue.generation import CachedModel, DictCache
from agents_app.agents.dialogue.tree import TreeOptions
from gameplay.engines.dialogue import ANY, DialogueSpec, InstructionSet
from gameplay.engines.meeting_scheduling.rules import DAYS
from gameplay.engines.registry import create_game

GAME = "meeting_scheduling"
TONES = ("calm", "assertive", "submissive", ANY)


def talking(messages, purpose, seed=None):
    return json.dumps({"move": "talk", "message": "Which day suits you?"}), []


def solve(instruction_set: str = "") -> dict:
    return pipeline.solve(create_game(GAME), CachedModel("m", talking, DictCache()), solver="cfr",
                          instruction_set=instruction_set, options=TreeOptions(depth=1, llm_seeds=1), iterations=5)


def test_meeting_scheduling_declares_days_for_cfr_and_keeps_tones_for_psro_and_the_control():
    dialogue = create_game(GAME).spec.dialogue
    assert dialogue.solver_set("cfr").instructions == (*DAYS, ANY)
    assert dialogue.solver_set("psro").instructions == TONES
    assert dialogue.default_set.instructions == TONES


def test_cfr_on_meeting_scheduling_solves_over_the_days_unless_the_tone_set_is_named():
    by_default = solve()
    assert by_default["instruction_set"] == "day" and by_default["instructions"] == [*DAYS, ANY]
    assert by_default["policy"]["instruction_set"] == "day"
    assert set(by_default["equilibrium"]["0:0"]) == {*DAYS, ANY}
    by_name = solve("tone")
    assert by_name["instruction_set"] == "tone" and by_name["instructions"] == list(TONES)


def test_a_solver_default_must_name_one_of_the_sets_once():
    tones = InstructionSet("tone", TONES, "Write your message in a {} tone.")
    assert DialogueSpec((tones,), (0, 1)).solver_set("cfr") is tones  # undeclared: the first set
    with pytest.raises(ValueError, match="not one of the instruction sets"):
        DialogueSpec((tones,), (0, 1), solver_sets=(("cfr", "day"),))
    with pytest.raises(ValueError, match="two default"):
        DialogueSpec((tones,), (0, 1), solver_sets=(("cfr", "tone"), ("cfr", "tone")))
