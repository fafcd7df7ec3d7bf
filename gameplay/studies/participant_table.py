"""The dashboard's participant table (issue 16.7): one row per participant, newest first, with their condition,
step, rounds and time, and a link to each of their rounds' matches (staff may open private matches and their
replays). Reads only; a fixed number of queries however many rows (tests/studies/test_participant_table.py)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Prefetch
from django.utils import timezone

from gameplay.models import Match
from gameplay.studies.measures import participant_code
from gameplay.studies.models import Participant, ParticipantRound, Study
from gameplay.studies.selectors import FINAL_STEPS, is_dropped, round_count

# The newest participants shown; the CSV exports hold everyone.
ROWS_SHOWN = 200


@dataclass(frozen=True)
class RoundLink:
    number: int  # 1-based
    match_id: int
    status: str  # the match's: active, finished or aborted
    departure: str  # ParticipantRound.departure: who left, if anyone


@dataclass(frozen=True)
class ParticipantRow:
    code: str
    condition: str
    step: str  # the step's label
    dropped: bool
    rounds_done: int  # rounds whose match finished
    rounds_total: int
    rounds: list[RoundLink]
    started_at: datetime | None  # consent
    minutes: float | None  # consent to completion, or to the last visit while not complete
    last_seen_at: datetime | None


def participant_rows(study: Study, now: datetime | None = None, limit: int = ROWS_SHOWN) -> list[ParticipantRow]:
    now = now or timezone.now()
    total = round_count(study)
    rounds = ParticipantRound.objects.select_related("match").only(
        "participant_id", "round_index", "departure", "match__id", "match__status"
    ).order_by("round_index")
    people = (
        Participant.objects.filter(study=study)
        .select_related("condition")
        .defer("token")
        .prefetch_related(Prefetch("rounds", queryset=rounds))
        .order_by("-pk")[:limit]
    )
    rows = []
    for p in people:
        p.study = study  # is_dropped reads dropout_after_s: no query per row
        links = [RoundLink(r.round_index + 1, r.match_id, r.match.status, r.departure) for r in p.rounds.all()]
        end = p.completed_at if p.step in FINAL_STEPS else p.last_seen_at
        start = p.consented_at or p.created_at
        rows.append(
            ParticipantRow(
                code=participant_code(p.pk),
                condition=p.condition.key if p.condition_id else "",
                step=p.get_step_display(),
                dropped=is_dropped(p, now),
                rounds_done=sum(1 for r in links if r.status == Match.Status.FINISHED),
                rounds_total=total,
                rounds=links,
                started_at=start,
                minutes=round((end - start).total_seconds() / 60, 1) if start and end else None,
                last_seen_at=p.last_seen_at,
            )
        )
    return rows
