"""Reads for the researchers' live pages: the study list and a study's dashboard counts (participants per
condition and step, drop-outs, adherence per round), cheap on purpose (no engine states are read) as the
dashboard re-reads them every few seconds; and the outcome rates so far, read once per page load.
The per-round measures and exports are gameplay.studies.measures."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Count
from django.utils import timezone

from gameplay.models import Match
from gameplay.studies.analysis import report
from gameplay.studies.exports import flags
from gameplay.studies.measures import condition_keys, goal_column, round_count, round_rows
from gameplay.studies.models import Participant, ParticipantRound, Study
from gameplay.studies.participant_measures import participants_of
from gameplay.studies.selectors import FINAL_STEPS, is_dropped

Step = Participant.Step


@dataclass(frozen=True)
class Adherence:
    round: int
    completed: int  # participants of the condition who completed this round
    started: int  # participants of the condition who started round 1

    @property
    def percent(self) -> float | None:
        return 100 * self.completed / self.started if self.started else None


@dataclass(frozen=True)
class ConditionStats:
    key: str
    label: str
    partner: str  # who the condition's participants play with (Condition.partner_summary)
    by_step: list[int]  # in Dashboard.steps order
    total: int
    dropped: int
    dropped_by_step: list[int]  # in Dashboard.dropout_steps order
    adherence: list[Adherence]


@dataclass(frozen=True)
class Dashboard:
    study: Study
    steps: list[tuple[str, str]]
    dropout_steps: list[tuple[str, str]]  # steps where someone can drop out (not the final ones)
    conditions: list[ConditionStats]
    rounds: list[int]
    at: datetime

    @property
    def participants(self) -> int:
        return sum(c.total for c in self.conditions)

    @property
    def dropped(self) -> int:
        return sum(c.dropped for c in self.conditions)


def live_counts(study: Study, now: datetime | None = None) -> Dashboard:
    """Counts for the live page: cheap (no engine states), as it is re-read every few seconds."""
    now = now or timezone.now()
    steps = list(Step.choices)
    dropout_steps = [(v, label) for v, label in steps if v not in FINAL_STEPS]
    rounds = list(range(1, round_count(study) + 1))
    completed = defaultdict(set)  # round number -> participant ids
    started_first = set()
    for pid, index, status in ParticipantRound.objects.filter(participant__study=study).values_list(
        "participant_id", "round_index", "match__status"
    ):
        if index == 0:
            started_first.add(pid)
        if status == Match.Status.FINISHED:
            completed[index + 1].add(pid)
    people = defaultdict(list)
    for p in participants_of(study):
        people[p.condition_id].append(p)
    stats = []
    for condition in study.conditions.order_by("pk"):
        mine = people[condition.pk]
        ids = {p.pk for p in mine}
        dropped = [p for p in mine if is_dropped(p, now)]
        stats.append(
            ConditionStats(
                key=condition.key,
                label=condition.label,
                partner=condition.partner_summary,
                by_step=[sum(1 for p in mine if p.step == v) for v, _ in steps],
                total=len(mine),
                dropped=len(dropped),
                dropped_by_step=[sum(1 for p in dropped if p.step == v) for v, _ in dropout_steps],
                adherence=[Adherence(k, len(completed[k] & ids), len(started_first & ids)) for k in rounds],
            )
        )
    return Dashboard(study, steps, dropout_steps, stats, rounds, now)


@dataclass(frozen=True)
class RateCell:
    """One condition's yes/no outcome in one round (the analysis' counted rounds), as rates.csv has it."""

    count: int
    n: int
    percent: float | None
    ci_low: float | None
    ci_high: float | None
    censored: int | None  # the goal's rounds that ended without it; None for other yes/no outcomes


@dataclass(frozen=True)
class RateTable:
    column: str
    is_goal: bool
    rows: list[tuple[str, list[RateCell]]]  # (round label, one cell per condition in study order)


def outcome_rates(study: Study) -> list[RateTable]:
    """Yes/no outcomes so far, per round and condition, with their 95% intervals and, for the game's goal,
    the censored rounds: exactly rates.csv's numbers. Reads every round's engine state, so the dashboard shows
    it once per page load rather than in the polled tables."""
    rows, conditions, goal = round_rows(study), condition_keys(study), goal_column(study)
    tables = []
    for column in flags(study):
        by_round: dict[str, list[RateCell]] = defaultdict(list)
        for rate in report.rate_rows(rows, conditions, round_count(study), column):
            censored = rate["n"] - rate["count"] if column == goal else None
            by_round[rate["round"]].append(
                RateCell(rate["count"], rate["n"], rate["percent"], rate["ci_low"], rate["ci_high"], censored)
            )
        tables.append(RateTable(column, column == goal, list(by_round.items())))
    return tables


def studies_overview() -> list[Study]:
    return list(Study.objects.annotate(participant_count=Count("participants")).order_by("-created_at", "pk"))
