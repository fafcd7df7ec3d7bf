"""Issue 38, point 6: payments.csv pays the base payment and the bonus rule (a sum of turns with a cap, or the mean of
a yes/no measure) to the participants who completed, and nothing yet to those still playing; the file is among the
study's downloads and the README states the rule. On the study's exports directly (no browser, no running agents)."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from gameplay.studies import exports
from gameplay.studies.models import Participant
from tests.studies import factories
from tests.studies.journey_support import eager_celery  # noqa: F401 (an autouse fixture)
from tests.studies.questionnaire_support import parse

pytestmark = pytest.mark.django_db
Step = Participant.Step


@pytest.mark.parametrize("rule, bonus", [
    # Turns over both rounds: route 1 and route 2 plus a detour of two pairs of stays; 0.10 each, capped at 5.
    ({"measure": "turns", "per_unit": 0.1, "cap": 5}, lambda turns: min(Decimal("5"), Decimal("0.1") * turns)),
    # The mean of a yes/no measure: one round found (1), one out of turns (0): 0.5 x 1.2 = 0.60.
    ({"measure": "success", "per_unit": 1.2, "over": "mean"}, lambda turns: Decimal("0.60")),
])
def test_payments_pay_the_base_and_the_bonus_rule_to_those_who_completed(rule, bonus):
    study_ = factories.make_study("pay", rounds=2, turn_cap=12, base_payment=Decimal("2.50"), bonus_rule=rule)
    now = timezone.now()
    done = factories.make_participant(study_, "A-Mute", step=Step.COMPLETE, pid="done",
                                      consented_at=now - timedelta(minutes=12.5), completed_at=now)
    factories.play_round([done], 0, agent="gnomes-mute", detour=2)
    outcome = "found" if rule["measure"] == "turns" else "out_of_turns"
    factories.play_round([done], 1, agent="gnomes-mute", outcome=outcome)
    playing = factories.make_participant(study_, "A-Mute", step=Step.ROUNDS, pid="playing")
    factories.play_round([playing], 0, agent="gnomes-mute")
    rows = {r["prolific_pid"]: r for r in parse(exports.payments_csv(study_))}
    turns = len(factories.route(1)) + 4 + len(factories.route(2))
    expected_bonus = bonus(turns).quantize(Decimal("0.01"))
    assert rows["done"] == {
        "study": "pay", "participant": f"P{done.pk:04d}", "prolific_pid": "done", "condition": "A-Mute",
        "step": "complete", "completed": "1", "minutes": "12.5", "base": "2.50",
        "bonus_basis": rows["done"]["bonus_basis"], "bonus": str(expected_bonus),
        "total": str(Decimal("2.50") + expected_bonus), "currency": "GBP",
    }
    if rule["measure"] == "turns":
        assert float(rows["done"]["bonus_basis"]) == turns and expected_bonus < 5
    assert (rows["playing"]["completed"], rows["playing"]["base"], rows["playing"]["bonus"],
            rows["playing"]["total"]) == ("0", "0.00", "0.00", "0.00")
    assert "Payment (payments.csv): 2.50 GBP to every participant who completes; bonus: " in exports.readme(study_)
    assert exports.PAYMENTS in exports.DATA_FILES and exports.DOWNLOADS[exports.PAYMENTS] is exports.payments_csv
