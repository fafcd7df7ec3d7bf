"""The rules for what participants are asked and paid: the Likert items, the questions after them, the
comprehension check, and the payment with its bonus rule.

``validation.study_errors`` applies them with every other rule of a study; the admin's questionnaire fields
(gameplay.studies.admin_questionnaire) check with them directly. What the items mean and how answers are recorded
is gameplay.studies.questionnaire.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from typing import Any

from gameplay.engines.api import GameSpec
from gameplay.studies import payments
from gameplay.studies.models import Study
from gameplay.studies.questionnaire import MULTIPLE, NUMBER, QUESTION_KINDS, SINGLE, TEXT, TEXT_LIMIT, TEXT_MAX_LENGTH
from gameplay.studies.validation_errors import SLUG, Errors, add_error

LIKERT_KEYS = ("key", "prompt", "low", "high")
LIKERT_SCALE = (2, 11)
# The fields every question may have, and those of each kind (gameplay.studies.questionnaire says what they mean).
QUESTION_FIELDS = ("key", "kind", "prompt", "required", "expected")
KIND_FIELDS = {SINGLE: ("options",), MULTIPLE: ("options",), NUMBER: ("min", "max", "integer"), TEXT: ("max_length",)}
COMPREHENSION_FIELDS = ("key", "prompt", "options", "answer")
OPTIONS = (2, 20)  # how many options a choice item has
ATTEMPTS = (1, 10)


def likert_errors(items: Any, scale: Any) -> Errors:
    errors: Errors = {}
    if isinstance(scale, bool) or not isinstance(scale, int) or not LIKERT_SCALE[0] <= scale <= LIKERT_SCALE[1]:
        add_error(errors, "likert_scale",
                  f"The scale must be a whole number from {LIKERT_SCALE[0]} to {LIKERT_SCALE[1]}.")
    if not isinstance(items, list) or not items:
        add_error(errors, "likert_items", "Give at least one Likert item.")
        return errors
    seen: set[str] = set()
    for number, item in enumerate(items, start=1):
        if not isinstance(item, dict):
            add_error(errors, "likert_items", f"Item {number} must be an object with key, prompt, low and high.")
            continue
        missing = [k for k in LIKERT_KEYS if not isinstance(item.get(k), str) or not item.get(k).strip()]
        if missing:
            add_error(errors, "likert_items", f"Item {number} needs non-empty text for: {', '.join(missing)}.")
        unknown = sorted(set(item) - set(LIKERT_KEYS))
        if unknown:
            add_error(errors, "likert_items", f"Item {number} has unknown fields: {', '.join(unknown)}.")
        key = item.get("key")
        if isinstance(key, str) and key:
            if not SLUG.match(key) or len(key) > 40:
                message = f"Item {number}: the key {key!r} must be a slug (letters, digits, - or _)."
                add_error(errors, "likert_items", message)
            elif key in seen:
                add_error(errors, "likert_items", f"Item {number}: the key {key!r} is used twice.")
            seen.add(key)
    return errors


def questions_errors(questions: Any, likert_items: Any = ()) -> Errors:
    """The questions after the Likert items; every message names the item by number and key, then the field.
    Keys are shared with the Likert items (each becomes a survey_<key> column of participants.csv)."""
    errors: Errors = {}
    if not isinstance(questions, list):
        add_error(errors, "questions", "Questions must be a list of objects (or empty).")
        return errors
    taken = {i.get("key") for i in likert_items if isinstance(i, dict)} if isinstance(likert_items, list) else set()
    for number, item in enumerate(questions, start=1):
        if not isinstance(item, dict):
            add_error(errors, "questions", f"Item {number} must be an object with key, kind and prompt.")
            continue
        name = _item_name(number, item)
        for problem in _question_problems(item, taken):
            add_error(errors, "questions", f"{name}: {problem}")
        taken.add(item.get("key"))
    return errors


def _item_name(number: int, item: Mapping) -> str:
    key = item.get("key")
    return f"Item {number} ({key})" if isinstance(key, str) and key else f"Item {number}"


def _question_problems(item: Mapping, taken: set) -> list[str]:
    kind = item.get("kind")
    problems = _key_problems(item.get("key"), taken)
    if kind not in QUESTION_KINDS:
        return [*problems, f"kind must be one of {', '.join(QUESTION_KINDS)}, not {kind!r}."]
    if not _text(item.get("prompt")):
        problems.append("prompt needs text.")
    unknown = sorted(set(item) - set(QUESTION_FIELDS) - set(KIND_FIELDS[kind]))
    if unknown:
        problems.append(f"a {kind} item has no field {', '.join(unknown)}.")
    if not isinstance(item.get("required", True), bool):
        problems.append("required is true or false.")
    if kind in (SINGLE, MULTIPLE):
        problems += _options_problems(item.get("options"))
    elif kind == NUMBER:
        low, high = item.get("min"), item.get("max")
        for name, bound in (("min", low), ("max", high)):
            if bound is not None and not _number(bound):
                problems.append(f"{name} must be a number.")
        if _number(low) and _number(high) and low > high:
            problems.append("min must not be above max.")
        if not isinstance(item.get("integer", False), bool):
            problems.append("integer is true or false.")
    elif kind == TEXT:
        limit = item.get("max_length", TEXT_MAX_LENGTH)
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= TEXT_LIMIT:
            problems.append(f"max_length must be a whole number from 1 to {TEXT_LIMIT}.")
    if "expected" in item and not problems:
        problems += _expected_problems(item, kind)
    return problems


def _expected_problems(item: Mapping, kind: str) -> list[str]:
    """An attention check's expected answer must be one a participant can give, and the item must be required."""
    expected, options = item["expected"], item.get("options") or []
    problems = [] if item.get("required", True) else ["an attention check (expected) must be required."]
    if kind == SINGLE and expected not in options:
        problems.append(f"expected must be one of its options, not {expected!r}.")
    elif kind == MULTIPLE and (
        not isinstance(expected, list) or not expected or any(e not in options for e in expected)
        or len(set(expected)) != len(expected)
    ):
        problems.append("expected must be a non-empty list of its options, each once.")
    elif kind == NUMBER:
        low, high = item.get("min"), item.get("max")
        if not _number(expected) or (low is not None and expected < low) or (high is not None and expected > high):
            problems.append("expected must be a number within min and max.")
        elif item.get("integer") and float(expected) != int(expected):
            problems.append("expected must be a whole number (integer is true).")
    elif kind == TEXT and (not _text(expected) or len(expected) > item.get("max_length", TEXT_MAX_LENGTH)):
        problems.append("expected must be a text a participant can type (within max_length).")
    return problems


def comprehension_errors(items: Any, max_attempts: Any = 3, fail_action: Any = "end") -> Errors:
    """The comprehension check: single-choice questions, each with its right answer among its options."""
    errors: Errors = {}
    whole = isinstance(max_attempts, int) and not isinstance(max_attempts, bool)
    if not whole or not ATTEMPTS[0] <= max_attempts <= ATTEMPTS[1]:
        add_error(errors, "comprehension_max_attempts", f"Allow from {ATTEMPTS[0]} to {ATTEMPTS[1]} attempts.")
    if fail_action not in Study.ComprehensionFailed.values:
        add_error(errors, "comprehension_fail_action", f"Choose one of {', '.join(Study.ComprehensionFailed.values)}.")
    if not isinstance(items, list):
        add_error(errors, "comprehension_items", "The comprehension check must be a list of questions (or empty).")
        return errors
    taken: set = set()
    for number, item in enumerate(items, start=1):
        if not isinstance(item, dict):
            add_error(errors, "comprehension_items",
                      f"Item {number} must be an object with key, prompt, options, answer.")
            continue
        problems = _key_problems(item.get("key"), taken)
        if not _text(item.get("prompt")):
            problems.append("prompt needs text.")
        unknown = sorted(set(item) - set(COMPREHENSION_FIELDS))
        if unknown:
            problems.append(f"a comprehension question has no field {', '.join(unknown)}.")
        options = item.get("options")
        problems += _options_problems(options)
        if isinstance(options, list) and item.get("answer") not in options:
            problems.append(f"answer must be one of its options, not {item.get('answer')!r}.")
        for problem in problems:
            add_error(errors, "comprehension_items", f"{_item_name(number, item)}: {problem}")
        taken.add(item.get("key"))
    return errors


def payment_errors(spec: GameSpec | None, base: Any, currency: Any, rule: Any) -> Errors:
    """The base payment, its currency and the bonus rule on one of the game's declared measures."""
    errors: Errors = {}
    if _money(base) is None:
        add_error(errors, "base_payment", "The base payment is an amount of at least 0 with at most two decimals.")
    if not isinstance(currency, str) or not re.fullmatch(r"[A-Z]{3}", currency):
        add_error(errors, "payment_currency", "The currency is a three-letter ISO code, e.g. GBP or USD.")
    for problem in payments.rule_problems(rule, spec):
        add_error(errors, "bonus_rule", problem)
    return errors


def _money(value: Any) -> Decimal | None:
    if isinstance(value, bool) or not isinstance(value, int | float | str | Decimal):
        return None
    try:
        amount = Decimal(str(value))
    except InvalidOperation:
        return None
    return amount if amount.is_finite() and amount >= 0 and amount == amount.quantize(Decimal("0.01")) else None


def _key_problems(key: Any, taken: set) -> list[str]:
    if not isinstance(key, str) or not SLUG.match(key) or len(key) > 40:
        return [f"key must be a slug of at most 40 letters, digits, - or _ (not {key!r})."]
    return [f"the key {key!r} is used twice."] if key in taken else []


def _options_problems(options: Any) -> list[str]:
    if not isinstance(options, list) or not OPTIONS[0] <= len(options) <= OPTIONS[1]:
        return [f"options must be a list of {OPTIONS[0]} to {OPTIONS[1]} labels."]
    if not all(_text(o) and len(o) <= 200 for o in options):
        return ["every option needs text (at most 200 characters)."]
    return [] if len(set(options)) == len(options) else ["options must differ from each other."]


def _text(value: Any) -> bool:
    return isinstance(value, str) and bool(value.strip())


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
