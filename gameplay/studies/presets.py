"""Loading a study preset (a JSON file in fixtures/studies/) into the database, idempotently by slug.

A preset is checked before anything is written: every round must be a valid game configuration for every
condition, and every named agent must exist, so a typo fails at load time, not in front of a participant.
Reloading updates the study and its conditions in place; it never touches participants, the declined count,
or (without ``open_study``) whether the study is open.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from agents_app.selectors import agent_exists
from gameplay.engines.api import EngineError
from gameplay.engines.registry import create_game
from gameplay.studies.models import Condition, Study

STUDY_FIELDS = (
    "title", "game_id", "rounds", "consent_text", "instructions", "likert_items", "likert_scale",
    "completion_message", "completion_code", "completion_redirect_url", "assignment", "read_url_ids",
    "pairing_timeout_s", "pairing_timeout_action", "pairing_fallback_agent", "dropout_after_s",
)
CONDITION_FIELDS = ("label", "partner", "agent_name", "show_chat", "show_hints", "participant_seat")


class PresetError(Exception):
    pass


def read_preset(path: str | Path) -> dict[str, Any]:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise PresetError(f"cannot read {path}: {err}") from None
    if not isinstance(data, dict):
        raise PresetError("a preset is a JSON object")
    return data


def load_preset(data: dict[str, Any], *, open_study: bool = False) -> tuple[Study, bool]:
    """Create or update the study described by ``data``; returns (study, created)."""
    slug = data.get("slug")
    if not isinstance(slug, str) or not slug:
        raise PresetError("the preset needs a slug")
    unknown = set(data) - {"slug", "conditions", *STUDY_FIELDS}
    if unknown:
        raise PresetError(f"unknown study fields: {', '.join(sorted(unknown))}")
    conditions = data.get("conditions") or []
    if not conditions:
        raise PresetError("the preset needs at least one condition")
    _check_game(data, conditions)
    with transaction.atomic():
        study = Study.objects.filter(slug=slug).first()
        created = study is None
        study = study or Study(slug=slug)
        for field in STUDY_FIELDS:
            if field in data:
                setattr(study, field, data[field])
        if open_study:
            study.is_open = True
        _save(study, exclude=None)
        for spec in conditions:
            _load_condition(study, spec)
    return study, created


def _load_condition(study: Study, spec: dict[str, Any]) -> None:
    key = spec.get("key")
    unknown = set(spec) - {"key", *CONDITION_FIELDS}
    if not key or unknown:
        raise PresetError(f"condition {key!r}: needs a key; unknown fields: {', '.join(sorted(unknown)) or '-'}")
    condition = Condition.objects.filter(study=study, key=key).first() or Condition(study=study, key=key)
    for field in CONDITION_FIELDS:
        if field in spec:
            setattr(condition, field, spec[field])
    if condition.partner == Condition.Partner.AGENT and not agent_exists(condition.agent_name):
        raise PresetError(f"condition {key!r}: unknown agent {condition.agent_name!r}")
    _save(condition, exclude=["study"])


def _check_game(data: dict[str, Any], conditions: list[dict[str, Any]]) -> None:
    game_id = data.get("game_id", "gnomes")
    rounds = data.get("rounds")
    if not isinstance(rounds, list) or not rounds or not all(isinstance(r, dict) for r in rounds):
        raise PresetError("rounds must be a non-empty list of option objects")
    hints = {bool(c.get("show_hints", False)) for c in conditions}
    for number, options in enumerate(rounds, start=1):
        for show_hints in hints:
            merged = {**options, "show_hints": show_hints} if game_id == "gnomes" else options
            try:
                create_game(game_id, merged, num_seats=2)
            except EngineError as err:  # unknown game or invalid options
                raise PresetError(f"round {number}: {err}") from None
    if data.get("pairing_timeout_action", "agent") == Study.PairingTimeout.AGENT:
        fallback = data.get("pairing_fallback_agent", "gnomes-comm")
        if fallback and not agent_exists(fallback):
            raise PresetError(f"unknown pairing_fallback_agent {fallback!r}")


def _save(obj, exclude) -> None:
    try:
        obj.full_clean(exclude=exclude, validate_unique=False)
    except ValidationError as err:
        raise PresetError(f"{type(obj).__name__}: {err.message_dict}") from None
    obj.save()
