"""payments.csv: what each participant is owed, from the study's base payment and its bonus rule.

The bonus rule (``Study.bonus_rule``) pays ``per_unit`` for every unit of one measure over the participant's
completed rounds, added up (``"over": "sum"``, the default) or averaged (``"mean"``), never below 0 and at most
``cap`` when one is given: ``{"measure": "agents_found", "per_unit": 0.05, "cap": 1.0}``. The measure is one the
study's game declares (``GameSpec.measures``: its ``m_<name>`` column of rounds.csv; a yes/no measure counts 1 for
yes) or the platform's ``score`` or ``won``; the rule never names a game. The values come from the very rows
written to rounds.csv, so anyone can recompute a bonus from the export.

Only participants who completed the study are paid here (base and bonus); everyone else is listed with 0 and the
step they reached, for the researcher to settle by hand (e.g. a screen-out or a partner who never came).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from gameplay.engines.api import GameSpec
from gameplay.studies import measures, participant_measures
from gameplay.studies.models import Participant, Study

PLATFORM_MEASURES = ("score", "won")  # rounds.csv columns a rule may use besides the game's m_<name> ones
RULE_FIELDS = ("measure", "per_unit", "cap", "over")
OVER = ("sum", "mean")
CENT = Decimal("0.01")


def rule_measures(spec: GameSpec | None) -> list[str]:
    """The measures a bonus rule may name for this game: its declared number and yes/no measures, then the
    platform's."""
    declared = [m.name for m in spec.measures if m.kind in ("number", "bool")] if spec is not None else []
    return declared + [m for m in PLATFORM_MEASURES if m not in declared]


def rule_problems(rule: Any, spec: GameSpec | None) -> list[str]:
    """What is wrong with a bonus rule, each message naming its field; [] for a valid rule or {} (no bonus)."""
    if not isinstance(rule, dict):
        return ['The bonus rule is an object, e.g. {"measure": "won", "per_unit": 0.5}, or {} for no bonus.']
    if not rule:
        return []
    problems = []
    unknown = sorted(set(rule) - set(RULE_FIELDS))
    if unknown:
        problems.append(f"The bonus rule has no field {', '.join(unknown)} (its fields: {', '.join(RULE_FIELDS)}).")
    allowed = rule_measures(spec)
    if rule.get("measure") not in allowed:
        name = spec.name if spec is not None else "this game"
        problems.append(f"measure: {rule.get('measure')!r} is not a measure of {name}; choose one of "
                        f"{', '.join(allowed)}.")
    if not _amount(rule.get("per_unit")):
        problems.append("per_unit: an amount of at least 0 per unit of the measure.")
    if rule.get("cap") is not None and not _amount(rule.get("cap")):
        problems.append("cap: an amount of at least 0, or leave it out for no cap.")
    if rule.get("over", "sum") not in OVER:
        problems.append(f"over: {' or '.join(OVER)} of the participant's completed rounds.")
    return problems


def _amount(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value) and value >= 0


def basis(rule: Mapping, rounds: Sequence[Mapping], column: str) -> float | None:
    """The rule's measure over one participant's completed rounds (sum or mean); None without such rounds."""
    values = [float(r[column]) for r in rounds if r["completed"] and r.get(column) is not None]
    if not values:
        return None
    return sum(values) if rule.get("over", "sum") == "sum" else sum(values) / len(values)


def bonus(rule: Mapping, value: float | None) -> Decimal:
    """per_unit x value, at least 0, at most the cap, to the cent (half up)."""
    if not rule or value is None:
        return Decimal("0.00")
    amount = max(Decimal("0"), Decimal(str(rule["per_unit"])) * Decimal(str(value)))
    if rule.get("cap") is not None:
        amount = min(amount, Decimal(str(rule["cap"])))
    return amount.quantize(CENT, rounding=ROUND_HALF_UP)


def payment_rows(study: Study, rounds: Sequence[Mapping] | None = None) -> list[dict]:
    """One row per participant; ``rounds`` reuses rounds.csv's rows when the caller has them."""
    rounds = measures.round_rows(study) if rounds is None else rounds
    rule = study.bonus_rule or {}
    column = ""
    if rule:  # the game's own measure of that name (its m_ column) before the platform's column
        declared = {m.name for m in measures.declared_measures(study)}
        column = measures.measure_column(rule["measure"]) if rule["measure"] in declared else rule["measure"]
    by_participant: dict[str, list[Mapping]] = defaultdict(list)
    for row in rounds:
        by_participant[row["participant"]].append(row)
    rows = []
    for p in participant_measures.participants_of(study):
        code = measures.participant_code(p.pk)
        completed = p.step == Participant.Step.COMPLETE
        value = basis(rule, by_participant[code], column) if rule else None
        base = Decimal(study.base_payment).quantize(CENT) if completed else Decimal("0.00")
        extra = bonus(rule, value) if completed else Decimal("0.00")
        rows.append({
            "study": study.slug,
            "participant": code,
            "prolific_pid": p.prolific_pid,
            "condition": p.condition.key,
            "step": p.step,
            "completed": completed,
            "minutes": _minutes(p),
            "base": base,
            "bonus_basis": None if value is None else round(value, 6),
            "bonus": extra,
            "total": base + extra,
            "currency": study.payment_currency,
        })
    return rows


def _minutes(p: Participant) -> float | None:
    """Minutes from consent to completion (or to the last request, for someone who did not complete)."""
    end = p.completed_at or p.last_seen_at
    if p.consented_at is None or end is None:
        return None
    return round((end - p.consented_at).total_seconds() / 60, 2)
