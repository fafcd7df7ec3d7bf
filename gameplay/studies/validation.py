"""The rules a study configuration must satisfy before any participant meets it.

One set of rules for every way a study is edited: ``load_study`` (presets) uses them now and the admin's forms
will too. Each function returns errors keyed by field name (field -> list of messages), so a form can show
every message beside its field; an empty dict means valid. Condition fields are reported under
``conditions[<i>].<field>`` by ``study_errors`` and under the bare field name by ``condition_errors``.

Rounds are checked the way they will be played: each round's options merged with each condition's options
(``{**round, **condition.options}``) must create the study's game with as many seats as the condition names.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from decimal import Decimal, InvalidOperation
from typing import Any

from gameplay.engines.api import EngineError, GameSpec
from gameplay.engines.registry import UnknownGameError, create_game, game_class
from gameplay.reads.agent_directory import agent_exists, agent_plays, why_not_ready
from gameplay.studies import payments
from gameplay.studies.models import AGENT, PARTICIPANT, Study
from gameplay.studies.questionnaire import MULTIPLE, NUMBER, QUESTION_KINDS, SINGLE, TEXT, TEXT_LIMIT, TEXT_MAX_LENGTH

Errors = dict[str, list[str]]

_SLUG = re.compile(r"^[-a-zA-Z0-9_]+$")
LIKERT_KEYS = ("key", "prompt", "low", "high")
LIKERT_SCALE = (2, 11)
# The fields every question may have, and those of each kind (gameplay.studies.questionnaire says what they mean).
QUESTION_FIELDS = ("key", "kind", "prompt", "required", "expected")
KIND_FIELDS = {SINGLE: ("options",), MULTIPLE: ("options",), NUMBER: ("min", "max", "integer"), TEXT: ("max_length",)}
COMPREHENSION_FIELDS = ("key", "prompt", "options", "answer")
OPTIONS = (2, 20)  # how many options a choice item has
ATTEMPTS = (1, 10)


def _add(errors: Errors, field: str, message: str) -> None:
    errors.setdefault(field, []).append(message)


def game_spec(game_id: Any) -> GameSpec | None:
    try:
        return game_class(game_id).spec if isinstance(game_id, str) else None
    except UnknownGameError:
        return None


def rounds_shape_errors(rounds: Any) -> Errors:
    errors: Errors = {}
    if not isinstance(rounds, list) or not rounds:
        _add(errors, "rounds", "Rounds must be a non-empty list of game-option objects (one per round).")
    elif not all(isinstance(r, dict) for r in rounds):
        _add(errors, "rounds", "Every round must be an object of game options, e.g. {} or {\"round\": 1}.")
    return errors


def likert_errors(items: Any, scale: Any) -> Errors:
    errors: Errors = {}
    if isinstance(scale, bool) or not isinstance(scale, int) or not LIKERT_SCALE[0] <= scale <= LIKERT_SCALE[1]:
        _add(errors, "likert_scale", f"The scale must be a whole number from {LIKERT_SCALE[0]} to {LIKERT_SCALE[1]}.")
    if not isinstance(items, list) or not items:
        _add(errors, "likert_items", "Give at least one Likert item.")
        return errors
    seen: set[str] = set()
    for number, item in enumerate(items, start=1):
        if not isinstance(item, dict):
            _add(errors, "likert_items", f"Item {number} must be an object with key, prompt, low and high.")
            continue
        missing = [k for k in LIKERT_KEYS if not isinstance(item.get(k), str) or not item.get(k).strip()]
        if missing:
            _add(errors, "likert_items", f"Item {number} needs non-empty text for: {', '.join(missing)}.")
        unknown = sorted(set(item) - set(LIKERT_KEYS))
        if unknown:
            _add(errors, "likert_items", f"Item {number} has unknown fields: {', '.join(unknown)}.")
        key = item.get("key")
        if isinstance(key, str) and key:
            if not _SLUG.match(key) or len(key) > 40:
                message = f"Item {number}: the key {key!r} must be a slug (letters, digits, - or _)."
                _add(errors, "likert_items", message)
            elif key in seen:
                _add(errors, "likert_items", f"Item {number}: the key {key!r} is used twice.")
            seen.add(key)
    return errors


# --- questions, the comprehension check, payment ----------------------------------------------------------------


def questions_errors(questions: Any, likert_items: Any = ()) -> Errors:
    """The questions after the Likert items; every message names the item by number and key, then the field.
    Keys are shared with the Likert items (each becomes a survey_<key> column of participants.csv)."""
    errors: Errors = {}
    if not isinstance(questions, list):
        _add(errors, "questions", "Questions must be a list of objects (or empty).")
        return errors
    taken = {i.get("key") for i in likert_items if isinstance(i, dict)} if isinstance(likert_items, list) else set()
    for number, item in enumerate(questions, start=1):
        if not isinstance(item, dict):
            _add(errors, "questions", f"Item {number} must be an object with key, kind and prompt.")
            continue
        name = _item_name(number, item)
        for problem in _question_problems(item, taken):
            _add(errors, "questions", f"{name}: {problem}")
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
        _add(errors, "comprehension_max_attempts", f"Allow from {ATTEMPTS[0]} to {ATTEMPTS[1]} attempts.")
    if fail_action not in Study.ComprehensionFailed.values:
        _add(errors, "comprehension_fail_action", f"Choose one of {', '.join(Study.ComprehensionFailed.values)}.")
    if not isinstance(items, list):
        _add(errors, "comprehension_items", "The comprehension check must be a list of questions (or empty).")
        return errors
    taken: set = set()
    for number, item in enumerate(items, start=1):
        if not isinstance(item, dict):
            _add(errors, "comprehension_items", f"Item {number} must be an object with key, prompt, options, answer.")
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
            _add(errors, "comprehension_items", f"{_item_name(number, item)}: {problem}")
        taken.add(item.get("key"))
    return errors


def payment_errors(spec: GameSpec | None, base: Any, currency: Any, rule: Any) -> Errors:
    """The base payment, its currency and the bonus rule on one of the game's declared measures."""
    errors: Errors = {}
    if _money(base) is None:
        _add(errors, "base_payment", "The base payment is an amount of at least 0 with at most two decimals.")
    if not isinstance(currency, str) or not re.fullmatch(r"[A-Z]{3}", currency):
        _add(errors, "payment_currency", "The currency is a three-letter ISO code, e.g. GBP or USD.")
    for problem in payments.rule_problems(rule, spec):
        _add(errors, "bonus_rule", problem)
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
    if not isinstance(key, str) or not _SLUG.match(key) or len(key) > 40:
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


def seats_errors(spec: GameSpec | None, seats: Any) -> Errors:
    """Who plays each seat: the list's shape, its length for the game, and that every agent exists and plays
    the game."""
    errors: Errors = {}
    if not isinstance(seats, list) or not seats:
        _add(errors, "seats", 'Seats must be a list with one entry per seat, e.g. [{"kind": "participant"}, …].')
        return errors
    participants = 0
    for number, seat in enumerate(seats, start=1):
        kind = seat.get("kind") if isinstance(seat, dict) else None
        if kind == PARTICIPANT:
            participants += 1
            if set(seat) - {"kind"}:
                _add(errors, "seats", f"Seat {number}: a participant seat takes no other fields.")
        elif kind == AGENT:
            name = seat.get("agent")
            if set(seat) - {"kind", "agent"}:
                _add(errors, "seats", f"Seat {number}: an agent seat has only kind and agent.")
            if not isinstance(name, str) or not name:
                _add(errors, "seats", f"Seat {number}: name the agent (\"agent\": \"<name>\").")
            elif not agent_exists(name):
                _add(errors, "seats", f"Seat {number}: unknown agent {name!r}.")
            elif spec is not None and not agent_plays(name, spec.id):
                _add(errors, "seats", f"Seat {number}: agent {name!r} does not play {spec.name}.")
            elif problem := why_not_ready(name, spec.id if spec is not None else None):
                _add(errors, "seats", f"Seat {number}: agent {name!r} cannot play: {problem}.")
        else:
            _add(errors, "seats", f'Seat {number}: kind must be "{PARTICIPANT}" or "{AGENT}".')
    if not participants:
        _add(errors, "seats", "At least one seat must be a participant's.")
    if spec is not None and not spec.min_seats <= len(seats) <= spec.max_seats:
        wanted = str(spec.min_seats) if spec.min_seats == spec.max_seats else f"{spec.min_seats} to {spec.max_seats}"
        _add(errors, "seats", f"{spec.name} is played with {wanted} seats, not {len(seats)}.")
    return errors


def condition_errors(game_id: Any, rounds: Any, seats: Any, options: Any) -> Errors:
    """A condition's ``seats`` and ``options`` against the study's game and rounds.

    A round that is invalid on its own is the study's error (``rounds_errors``), not the condition's: only
    failures that the condition's options or seat count cause are reported here, under "options" or "seats".
    """
    spec = game_spec(game_id)
    errors = seats_errors(spec, seats)
    if not isinstance(options, dict):
        _add(errors, "options", 'Options must be an object of game options, e.g. {"chat": false}.')
        return errors
    if spec is None or errors or rounds_shape_errors(rounds):
        return errors
    for number, round_options in enumerate(rounds, start=1):
        if _game_error(game_id, round_options, len(seats)) is not None:
            continue  # the round itself is wrong: reported once, on the study's rounds
        problem = _game_error(game_id, {**round_options, **options}, len(seats))
        if problem is not None:
            _add(errors, "options", f"Round {number} with these options: {problem}")
            break  # one message is enough: the same option fails every round
    return errors


def rounds_errors(game_id: Any, rounds: Any, seat_counts: Sequence[int] = ()) -> Errors:
    """Each round's own options, with every seat count the conditions use (or the game's minimum)."""
    errors = rounds_shape_errors(rounds)
    spec = game_spec(game_id)
    if errors or spec is None:
        return errors
    counts = sorted({n for n in seat_counts if spec.min_seats <= n <= spec.max_seats}) or [spec.min_seats]
    for number, options in enumerate(rounds, start=1):
        problem = next((p for n in counts if (p := _game_error(game_id, options, n)) is not None), None)
        if problem is not None:
            _add(errors, "rounds", f"Round {number}: {problem}")
    return errors


def study_errors(data: Mapping[str, Any], conditions: Sequence[Mapping[str, Any]]) -> Errors:
    """Every rule for a whole study: its fields in ``data`` and its conditions (dicts with seats and options)."""
    errors: Errors = {}
    game_id = data.get("game_id")
    spec = game_spec(game_id)
    if spec is None:
        _add(errors, "game_id", f"Unknown game {game_id!r}.")
    rounds = data.get("rounds")
    seat_counts = [len(c.get("seats")) for c in conditions if isinstance(c.get("seats"), list)]
    errors.update(rounds_errors(game_id, rounds, seat_counts))
    errors.update(likert_errors(data.get("likert_items"), data.get("likert_scale", 5)))
    errors.update(questions_errors(data.get("questions", []), data.get("likert_items")))
    errors.update(comprehension_errors(
        data.get("comprehension_items", []), data.get("comprehension_max_attempts", 3),
        data.get("comprehension_fail_action", Study.ComprehensionFailed.END),
    ))
    errors.update(payment_errors(spec, data.get("base_payment", 0), data.get("payment_currency", "GBP"),
                                 data.get("bonus_rule", {})))
    action = data.get("pairing_timeout_action", Study.PairingTimeout.AGENT)
    fallback = data.get("pairing_fallback_agent", "")
    needs_partner = any(
        sum(1 for s in c.get("seats") or [] if isinstance(s, dict) and s.get("kind") == PARTICIPANT) > 1
        for c in conditions
    )
    # The fallback agent plays when pairing times out and, if the study says so, when a participant leaves a round.
    takes_over = data.get("partner_left_action", Study.PartnerLeft.END) == Study.PartnerLeft.AGENT
    uses_agent = action == Study.PairingTimeout.AGENT or takes_over
    if action == Study.PairingTimeout.AGENT and needs_partner and not fallback:
        _add(errors, "pairing_fallback_agent", "Name the agent that plays when pairing times out.")
    elif takes_over and needs_partner and not fallback:
        _add(errors, "pairing_fallback_agent", "Name the agent that takes over the seat of a participant who leaves.")
    elif uses_agent and fallback and not agent_exists(fallback):
        _add(errors, "pairing_fallback_agent", f"Unknown agent {fallback!r}.")
    elif uses_agent and fallback and spec is not None and not agent_plays(fallback, spec.id):
        _add(errors, "pairing_fallback_agent", f"Agent {fallback!r} does not play {spec.name}.")
    elif uses_agent and fallback and (problem := why_not_ready(fallback, spec.id if spec is not None else None)):
        _add(errors, "pairing_fallback_agent", f"Agent {fallback!r} cannot play: {problem}.")
    errors.update(enrolment_errors(data, conditions))
    if not conditions:
        _add(errors, "conditions", "Give at least one condition.")
    keys = [c.get("key") for c in conditions]
    for i, condition in enumerate(conditions):
        key = condition.get("key")
        if not isinstance(key, str) or not _SLUG.match(key):
            _add(errors, f"conditions[{i}].key", "The key must be a slug (letters, digits, - or _).")
        elif key in keys[:i]:
            _add(errors, f"conditions[{i}].key", f"The key {key!r} is used twice.")
        found = condition_errors(game_id, rounds, condition.get("seats"), condition.get("options", {}))
        for field, messages in found.items():
            errors.setdefault(f"conditions[{i}].{field}", []).extend(messages)
    return errors


def enrolment_errors(data: Mapping[str, Any], conditions: Sequence[Mapping[str, Any]]) -> Errors:
    """Who may enrol: a required PROLIFIC_PID needs the ids read from the link, and a participant cap must be a
    whole number that leaves room for at least one round of every condition (all of its participant seats)."""
    errors: Errors = {}
    if data.get("require_pid", False) and not data.get("read_url_ids", True):
        _add(errors, "require_pid", "Requiring a PROLIFIC_PID needs the study link's ids to be read (read_url_ids).")
    cap = data.get("max_participants", 0)
    if isinstance(cap, bool) or not isinstance(cap, int) or cap < 0:
        _add(errors, "max_participants", "The cap must be a whole number of participants (0 = no cap).")
    elif cap:
        seats = [
            sum(1 for s in c.get("seats") or [] if isinstance(s, dict) and s.get("kind") == PARTICIPANT)
            for c in conditions
        ]
        if seats and cap < max(seats):
            _add(errors, "max_participants", f"A cap of {cap} cannot fill a condition with {max(seats)} participant "
                                             "seats.")
    return errors


def _game_error(game_id: str, options: Mapping[str, Any], num_seats: int) -> str | None:
    try:
        create_game(game_id, options, num_seats=num_seats)
    except EngineError as err:
        return str(err)
    return None


def format_errors(errors: Errors) -> str:
    """All errors on one line each, "field: message", for command-line tools."""
    return "\n".join(f"{field}: {message}" for field, messages in errors.items() for message in messages)
