"""Loading a study preset (a JSON file in fixtures/studies/) into the database, idempotently by slug.

A preset is checked with the rules of gameplay.studies.validation before anything is written (the game
exists, every round merged with every condition's options is a valid configuration for the condition's seats,
every named agent exists, the Likert items, questions, comprehension check and bonus rule are well formed), so a
typo fails at load time, not in front of a participant. Reloading updates the study and its conditions in place;
it never touches participants, the declined count, or (without ``open_study``) whether the study is open.
"""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path
from typing import Any

from django.core.exceptions import ValidationError
from django.db import models, transaction

from gameplay.studies.models import Condition, Study
from gameplay.studies.validation import format_errors, study_errors

STUDY_FIELDS = (
    "title", "game_id", "rounds", "consent_text", "instructions", "likert_items", "likert_scale",
    "completion_message", "completion_code", "completion_redirect_url", "assignment", "read_url_ids",
    "pairing_timeout_s", "pairing_timeout_action", "pairing_after_timeout", "pairing_fallback_agent",
    "allow_slow_agents", "partner_left_action",
    "dropout_after_s", "require_pid",
    "max_participants",
    "questions", "comprehension_items", "comprehension_max_attempts", "comprehension_fail_action",
    "comprehension_fail_message", "comprehension_fail_code", "base_payment", "payment_currency", "bonus_rule",
)
CONDITION_FIELDS = ("label", "seats", "options")


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
    if not isinstance(conditions, list) or not all(isinstance(c, dict) for c in conditions):
        raise PresetError("conditions must be a list of objects")
    for spec in conditions:
        unknown_fields = set(spec) - {"key", *CONDITION_FIELDS}
        if unknown_fields:
            raise PresetError(f"condition {spec.get('key')!r}: unknown fields: {', '.join(sorted(unknown_fields))}")
    # Fields the preset leaves out keep their stored values (or get the model defaults): check what will be saved.
    existing = Study.objects.filter(slug=slug).first()
    base = {f: getattr(existing, f) if existing else Study._meta.get_field(f).get_default() for f in STUDY_FIELDS}
    errors = study_errors({**base, **data}, conditions)
    if errors:
        raise PresetError(format_errors(errors))
    with transaction.atomic():
        study = Study.objects.filter(slug=slug).first()
        created = study is None
        study = study or Study(slug=slug)
        for field in STUDY_FIELDS:
            if field in data:
                setattr(study, field, _stored(field, data[field]))
        if open_study:
            study.is_open = True
        _save(study, exclude=None)
        for spec in conditions:
            _load_condition(study, spec)
    return study, created


def _stored(field: str, value: Any) -> Any:
    """A JSON value as the model field stores it: an amount such as 2.55 becomes Decimal("2.55"), not the float's
    binary expansion (which a two-decimal field would refuse)."""
    if isinstance(Study._meta.get_field(field), models.DecimalField) and isinstance(value, int | float):
        return Decimal(str(value))
    return value


def _load_condition(study: Study, spec: dict[str, Any]) -> None:
    key = spec["key"]
    condition = Condition.objects.filter(study=study, key=key).first() or Condition(study=study, key=key)
    for field in CONDITION_FIELDS:
        if field in spec:
            setattr(condition, field, spec[field])
    _save(condition, exclude=["study"])


def _save(obj, exclude) -> None:
    try:
        obj.full_clean(exclude=exclude, validate_unique=False)
    except ValidationError as err:
        raise PresetError(f"{type(obj).__name__}: {err.message_dict}") from None
    obj.save()
