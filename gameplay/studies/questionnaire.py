"""What questionnaire items are and how an answer is recorded and scored: pure, no database.

A study asks its Likert items (``Study.likert_items``, one shared scale) and then its questions
(``Study.questions``), each an object with a ``key``, a ``kind`` and a ``prompt``:

* ``single``: one of ``options`` (a radio group); recorded as the option's number, 1 for the first;
* ``multiple``: any of ``options`` (check boxes); recorded as the chosen options' numbers;
* ``number``: a number, within ``min`` and ``max`` when given, a whole one when ``integer`` is true;
* ``text``: free text of at most ``max_length`` characters (1000 unless given).

Every question is required unless ``"required": false``. A question with an ``expected`` answer is an attention
check (an option's label for single choice, the list of labels for multiple choice, a number, or a text compared
without case and surrounding spaces); whether it was given is recorded with the answer. The comprehension check
(``Study.comprehension_items``) is a list of single-choice questions with the right ``answer``; it is graded here
on the server, and the right answers never reach a page. The rules a study's items must follow are in
``gameplay.studies.questionnaire_validation``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

LIKERT, SINGLE, MULTIPLE, NUMBER, TEXT = "likert", "single", "multiple", "number", "text"
QUESTION_KINDS = (SINGLE, MULTIPLE, NUMBER, TEXT)
TEXT_MAX_LENGTH = 1000  # a text item's default limit
TEXT_LIMIT = 5000  # the most a study may allow


def is_required(item: Mapping) -> bool:
    return item.get("required", True) is not False


def is_attention_check(item: Mapping) -> bool:
    return "expected" in item


def text_limit(item: Mapping) -> int:
    return int(item.get("max_length") or TEXT_MAX_LENGTH)


def option_number(item: Mapping, label: str) -> int | None:
    """The 1-based number of the option labelled ``label``, or None."""
    options = list(item.get("options") or [])
    return options.index(label) + 1 if label in options else None


def option_label(item: Mapping, number: int | None) -> str:
    options = list(item.get("options") or [])
    return options[number - 1] if isinstance(number, int) and 1 <= number <= len(options) else ""


@dataclass
class Recorded:
    """One item's answer as stored (the fields of ``SurveyAnswer``)."""

    item_key: str
    kind: str
    value: int | None = None
    number: float | None = None
    choices: list[int] = field(default_factory=list)
    text: str = ""
    passed: bool | None = None


class AnswerError(ValueError):
    """An answer the item does not allow; the message names the item."""


def record(item: Mapping, answer: Any, *, kind: str | None = None, scale: int = 0) -> Recorded:
    """``answer`` to ``item`` checked and shaped for storage (``kind`` LIKERT for a Likert item, on ``scale``).

    The answer is what the survey form cleaned: an int for Likert and single choice, a list of ints for multiple
    choice, a number (or None) for number items, a string for text. Raises AnswerError when it is missing while
    required or outside what the item allows, so a form that was bypassed can store nothing wrong."""
    kind = kind or item.get("kind")
    key = item["key"]
    blank = answer is None or answer == "" or answer == []
    if blank:
        if kind == LIKERT or is_required(item):
            raise AnswerError(f"Please answer every question (missing: {key}).")
        return Recorded(key, kind)
    if kind in (LIKERT, SINGLE):
        top = scale if kind == LIKERT else len(item.get("options") or [])
        if isinstance(answer, bool) or not isinstance(answer, int) or not 1 <= answer <= top:
            raise AnswerError(f"The answer to {key} is not one of its choices.")
        passed = _passed(item, option_label(item, answer)) if kind == SINGLE else None
        return Recorded(key, kind, value=answer, passed=passed)
    if kind == MULTIPLE:
        count = len(item.get("options") or [])
        chosen = sorted(set(answer)) if isinstance(answer, list | tuple) else []
        if not chosen or any(isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= count for n in chosen):
            raise AnswerError(f"The answer to {key} is not among its choices.")
        return Recorded(key, kind, choices=chosen, passed=_passed(item, [option_label(item, n) for n in chosen]))
    if kind == NUMBER:
        if isinstance(answer, bool) or not isinstance(answer, int | float) or answer != answer:  # NaN
            raise AnswerError(f"The answer to {key} must be a number.")
        low, high = item.get("min"), item.get("max")
        if (low is not None and answer < low) or (high is not None and answer > high):
            raise AnswerError(f"The answer to {key} is outside its range.")
        if item.get("integer") and float(answer) != int(answer):
            raise AnswerError(f"The answer to {key} must be a whole number.")
        return Recorded(key, kind, number=float(answer), passed=_passed(item, float(answer)))
    if kind == TEXT:
        if not isinstance(answer, str) or len(answer) > text_limit(item):
            raise AnswerError(f"The answer to {key} is too long.")
        return Recorded(key, kind, text=answer, passed=_passed(item, answer))
    raise AnswerError(f"Item {key} has an unknown kind {kind!r}.")


def record_all(likert_items: Sequence[Mapping], scale: int, questions: Sequence[Mapping],
               answers: Mapping[str, Any]) -> list[Recorded]:
    """Every item of a study's survey, in page order (Likert items first); AnswerError on the first bad one."""
    recorded = [record(item, answers.get(item["key"]), kind=LIKERT, scale=scale) for item in likert_items]
    return recorded + [record(item, answers.get(item["key"])) for item in questions]


def _passed(item: Mapping, given: Any) -> bool | None:
    """Whether an attention check got its expected answer (None for an item that is not one)."""
    if not is_attention_check(item):
        return None
    expected = item["expected"]
    if isinstance(expected, list):
        return isinstance(given, list) and sorted(given) == sorted(expected)
    if isinstance(expected, str):
        return isinstance(given, str) and " ".join(given.split()).casefold() == " ".join(expected.split()).casefold()
    return isinstance(given, int | float) and float(given) == float(expected)


def words(kind: str, item: Mapping | None, value: int | None, choices: Sequence[int], text: str) -> str:
    """An answer in words for the exports: the chosen option(s)' labels, or what was written; "" otherwise."""
    if kind == SINGLE and item is not None:
        return option_label(item, value)
    if kind == MULTIPLE and item is not None:
        return " | ".join(option_label(item, n) for n in choices)
    return text if kind == TEXT else ""


# --- the comprehension check -------------------------------------------------------------------------------------


def wrong_keys(items: Sequence[Mapping], choices: Mapping[str, int | None]) -> list[str]:
    """The comprehension questions answered wrongly (or not at all), in the study's order."""
    return [item["key"] for item in items if choices.get(item["key"]) != option_number(item, item["answer"])]
