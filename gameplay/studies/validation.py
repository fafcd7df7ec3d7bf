"""The rules a study configuration must satisfy before any participant meets it.

One set of rules for every way a study is edited: ``load_study`` (presets) uses them now and the admin's forms
will too. Each function returns errors keyed by field name (field -> list of messages, ``validation_errors``), so
a form can show every message beside its field; an empty dict means valid. Condition fields are reported under
``conditions[<i>].<field>`` by ``study_errors`` and under the bare field name by ``condition_errors``. The rules for
the questionnaire and the payment are ``questionnaire_validation``'s; ``study_errors`` applies them with the rest.

Rounds are checked the way they will be played: each round's options merged with each condition's options
(``{**round, **condition.options}``) must create the study's game with as many seats as the condition names.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gameplay.engines.api import EngineError, GameSpec
from gameplay.engines.registry import UnknownGameError, create_game, game_class
from gameplay.reads.agent_directory import agent_exists, agent_plays, why_not_ready, why_refused
from gameplay.studies.models import AGENT, PARTICIPANT, Study
from gameplay.studies.questionnaire_validation import (
    comprehension_errors,
    likert_errors,
    payment_errors,
    questions_errors,
)
from gameplay.studies.validation_errors import SLUG, Errors, add_error


def game_spec(game_id: Any) -> GameSpec | None:
    try:
        return game_class(game_id).spec if isinstance(game_id, str) else None
    except UnknownGameError:
        return None


def rounds_shape_errors(rounds: Any) -> Errors:
    errors: Errors = {}
    if not isinstance(rounds, list) or not rounds:
        add_error(errors, "rounds", "Rounds must be a non-empty list of game-option objects (one per round).")
    elif not all(isinstance(r, dict) for r in rounds):
        add_error(errors, "rounds", "Every round must be an object of game options, e.g. {} or {\"round\": 1}.")
    return errors


def seats_errors(spec: GameSpec | None, seats: Any, allow_slow: bool = False) -> Errors:
    """Who plays each seat: the list's shape, its length for the game, and that every agent exists, plays the game
    and is ready to (``allow_slow``: even if measured slower than its decision deadline on it)."""
    errors: Errors = {}
    if not isinstance(seats, list) or not seats:
        add_error(errors, "seats", 'Seats must be a list with one entry per seat, e.g. [{"kind": "participant"}, …].')
        return errors
    participants = 0
    for number, seat in enumerate(seats, start=1):
        kind = seat.get("kind") if isinstance(seat, dict) else None
        if kind == PARTICIPANT:
            participants += 1
            if set(seat) - {"kind"}:
                add_error(errors, "seats", f"Seat {number}: a participant seat takes no other fields.")
        elif kind == AGENT:
            name = seat.get("agent")
            if set(seat) - {"kind", "agent"}:
                add_error(errors, "seats", f"Seat {number}: an agent seat has only kind and agent.")
            if not isinstance(name, str) or not name:
                add_error(errors, "seats", f"Seat {number}: name the agent (\"agent\": \"<name>\").")
            elif not agent_exists(name):
                add_error(errors, "seats", f"Seat {number}: unknown agent {name!r}.")
            elif spec is not None and not agent_plays(name, spec.id):
                add_error(errors, "seats", f"Seat {number}: agent {name!r} does not play {spec.name}.")
            elif problem := why_not_ready(name, spec.id if spec is not None else None, allow_slow=allow_slow):
                add_error(errors, "seats", f"Seat {number}: agent {name!r} cannot play: {problem}.")
        else:
            add_error(errors, "seats", f'Seat {number}: kind must be "{PARTICIPANT}" or "{AGENT}".')
    if not participants:
        add_error(errors, "seats", "At least one seat must be a participant's.")
    if spec is not None and not spec.min_seats <= len(seats) <= spec.max_seats:
        wanted = str(spec.min_seats) if spec.min_seats == spec.max_seats else f"{spec.min_seats} to {spec.max_seats}"
        add_error(errors, "seats", f"{spec.name} is played with {wanted} seats, not {len(seats)}.")
    return errors


def condition_errors(game_id: Any, rounds: Any, seats: Any, options: Any, allow_slow: bool = False) -> Errors:
    """A condition's ``seats`` and ``options`` against the study's game and rounds (``allow_slow``: the study's
    ``allow_slow_agents``).

    A round that is invalid on its own is the study's error (``rounds_errors``), not the condition's: only
    failures that the condition's options or seat count cause are reported here, under "options" or "seats".
    """
    spec = game_spec(game_id)
    errors = seats_errors(spec, seats, allow_slow)
    if not isinstance(options, dict):
        add_error(errors, "options", 'Options must be an object of game options, e.g. {"chat": false}.')
        return errors
    if spec is None or errors or rounds_shape_errors(rounds):
        return errors
    for number, round_options in enumerate(rounds, start=1):
        if _game_error(game_id, round_options, len(seats)) is not None:
            continue  # the round itself is wrong: reported once, on the study's rounds
        problem = _game_error(game_id, {**round_options, **options}, len(seats))
        if problem is not None:
            add_error(errors, "options", f"Round {number} with these options: {problem}")
            break  # one message is enough: the same option fails every round
        agents = [seat["agent"] for seat in seats if seat.get("kind") == AGENT]
        refused = _refusal(game_id, {**round_options, **options}, len(seats), agents)
        if refused is not None:
            add_error(errors, "seats", f"Round {number}: {refused}")
            break
    return errors


def _refusal(game_id: str, options: Mapping[str, Any], num_seats: int, agents: Sequence[str]) -> str | None:
    """Why one of ``agents`` refuses a match with these (valid) options, e.g. a policy solved under others."""
    played = create_game(game_id, options, num_seats=num_seats).options
    for name in agents:
        if refused := why_refused(name, game_id, played):
            return f"agent {name!r} cannot play it: {refused}."
    return None


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
            add_error(errors, "rounds", f"Round {number}: {problem}")
    return errors


def study_errors(data: Mapping[str, Any], conditions: Sequence[Mapping[str, Any]]) -> Errors:
    """Every rule for a whole study: its fields in ``data`` and its conditions (dicts with seats and options)."""
    errors: Errors = {}
    game_id = data.get("game_id")
    spec = game_spec(game_id)
    if spec is None:
        add_error(errors, "game_id", f"Unknown game {game_id!r}.")
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
    allow_slow = bool(data.get("allow_slow_agents", False))
    if action == Study.PairingTimeout.AGENT and needs_partner and not fallback:
        add_error(errors, "pairing_fallback_agent", "Name the agent that plays when pairing times out.")
    elif takes_over and needs_partner and not fallback:
        add_error(errors, "pairing_fallback_agent",
                  "Name the agent that takes over the seat of a participant who leaves.")
    elif uses_agent and fallback and not agent_exists(fallback):
        add_error(errors, "pairing_fallback_agent", f"Unknown agent {fallback!r}.")
    elif uses_agent and fallback and spec is not None and not agent_plays(fallback, spec.id):
        add_error(errors, "pairing_fallback_agent", f"Agent {fallback!r} does not play {spec.name}.")
    elif uses_agent and fallback and (problem := why_not_ready(fallback, spec.id if spec is not None else None,
                                                               allow_slow=allow_slow)):
        add_error(errors, "pairing_fallback_agent", f"Agent {fallback!r} cannot play: {problem}.")
    elif uses_agent and fallback and spec is not None and (problem := _fallback_refusal(game_id, rounds, conditions,
                                                                                        fallback)):
        add_error(errors, "pairing_fallback_agent", problem)
    errors.update(enrolment_errors(data, conditions))
    if not conditions:
        add_error(errors, "conditions", "Give at least one condition.")
    keys = [c.get("key") for c in conditions]
    for i, condition in enumerate(conditions):
        key = condition.get("key")
        if not isinstance(key, str) or not SLUG.match(key):
            add_error(errors, f"conditions[{i}].key", "The key must be a slug (letters, digits, - or _).")
        elif key in keys[:i]:
            add_error(errors, f"conditions[{i}].key", f"The key {key!r} is used twice.")
        found = condition_errors(game_id, rounds, condition.get("seats"), condition.get("options", {}), allow_slow)
        for field, messages in found.items():
            errors.setdefault(f"conditions[{i}].{field}", []).extend(messages)
    return errors


def enrolment_errors(data: Mapping[str, Any], conditions: Sequence[Mapping[str, Any]]) -> Errors:
    """Who may enrol: a required PROLIFIC_PID needs the ids read from the link, and a participant cap must be a
    whole number that leaves room for at least one round of every condition (all of its participant seats)."""
    errors: Errors = {}
    if data.get("require_pid", False) and not data.get("read_url_ids", True):
        add_error(errors, "require_pid",
                  "Requiring a PROLIFIC_PID needs the study link's ids to be read (read_url_ids).")
    cap = data.get("max_participants", 0)
    if isinstance(cap, bool) or not isinstance(cap, int) or cap < 0:
        add_error(errors, "max_participants", "The cap must be a whole number of participants (0 = no cap).")
    elif cap:
        seats = [
            sum(1 for s in c.get("seats") or [] if isinstance(s, dict) and s.get("kind") == PARTICIPANT)
            for c in conditions
        ]
        if seats and cap < max(seats):
            add_error(errors, "max_participants",
                      f"A cap of {cap} cannot fill a condition with {max(seats)} participant seats.")
    return errors


def _fallback_refusal(game_id: str, rounds: Any, conditions: Sequence[Mapping[str, Any]], agent: str) -> str | None:
    """Why the fallback agent refuses a round of some condition it may take a seat in (None: it plays them all).
    Rounds and conditions that are invalid on their own are reported elsewhere."""
    if rounds_shape_errors(rounds):
        return None
    for condition in conditions:
        seats, options = condition.get("seats"), condition.get("options", {})
        if not isinstance(seats, list) or not isinstance(options, dict):
            continue
        for number, round_options in enumerate(rounds, start=1):
            merged = {**round_options, **options}
            if _game_error(game_id, merged, len(seats)) is None and (
                refused := _refusal(game_id, merged, len(seats), [agent])
            ):
                return f"Round {number} of condition {condition.get('key')!r}: {refused}"
    return None


def _game_error(game_id: str, options: Mapping[str, Any], num_seats: int) -> str | None:
    try:
        create_game(game_id, options, num_seats=num_seats)
    except EngineError as err:
        return str(err)
    return None


def format_errors(errors: Errors) -> str:
    """All errors on one line each, "field: message", for command-line tools."""
    return "\n".join(f"{field}: {message}" for field, messages in errors.items() for message in messages)
