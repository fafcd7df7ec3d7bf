"""Shared pieces of the questionnaire tests (issue 38, points 6 and 7): survey questions of every kind, two of them
attention checks, a two-question comprehension check, and a reader of the exported CSV files."""

from __future__ import annotations

import csv
import io

QUESTIONS = [
    {"key": "tactics", "kind": "multiple", "prompt": "Which tactics did you use?",
     "options": ["Left", "Right", "Wait"]},
    {"key": "colour", "kind": "single", "prompt": "Please choose Blue.", "options": ["Red", "Blue"],
     "expected": "Blue"},
    {"key": "age", "kind": "number", "prompt": "How old are you?", "min": 18, "max": 99, "integer": True},
    {"key": "typed", "kind": "text", "prompt": "Please type the word maze.", "expected": "maze"},
    {"key": "notes", "kind": "text", "prompt": "Anything else?", "required": False},
]
CHECK = [
    {"key": "goal", "prompt": "What is the goal?", "options": ["Find the treasure", "Hide", "Run"],
     "answer": "Find the treasure"},
    {"key": "moves", "prompt": "Who moves?", "options": ["Only you", "You and your partner in turn"],
     "answer": "You and your partner in turn"},
]


def parse(data: bytes) -> list[dict]:
    return list(csv.DictReader(io.StringIO(data.decode("utf-8"))))
