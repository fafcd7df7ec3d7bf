"""The dashboard's participant table (issue 16.7): one row per participant with condition, step, rounds and time,
and links to each round's match (a running one) or replay (an ended one); staff only, and the same number of
queries however many participants."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from gameplay.studies.participant_table import participant_rows
from tests.studies.admin_support import user_client
from tests.studies.factories import make_participant, make_study, play_round

pytestmark = pytest.mark.django_db


def test_rows_say_where_each_participant_is_and_link_their_rounds():
    study = make_study("table", rounds=2)
    done = make_participant(study, "A-Mute", step="survey")
    first = play_round([done], 0, agent="gnomes-mute", duration_s=30)
    second = play_round([done], 1, agent="gnomes-mute", outcome="playing")
    gone = make_participant(study, "A-Mute", step="instructions",
                            last_seen_at=timezone.now() - timedelta(seconds=study.dropout_after_s + 60))
    rows = {row.code: row for row in participant_rows(study)}
    mine, theirs = rows[f"P{done.pk:04d}"], rows[f"P{gone.pk:04d}"]
    assert (mine.condition, mine.step, mine.dropped, mine.rounds_done, mine.rounds_total) == (
        "A-Mute", "Survey", False, 1, 2
    )
    assert [(r.number, r.match_id, r.status) for r in mine.rounds] == [
        (1, first.pk, "finished"), (2, second.pk, "active")
    ]
    assert theirs.dropped and theirs.rounds == [] and theirs.step == "Instructions"

    page = user_client(is_staff=True).get(f"/studies/{study.slug}/").content.decode()
    assert f'data-participant="P{done.pk:04d}"' in page
    assert f'href="/matches/{first.pk}/replay/">round 1</a>' in page  # ended: its replay
    assert f'href="/matches/{second.pk}/">round 2</a>' in page  # running: the match
    assert "dropped out" in page
    live = user_client("other-staff", is_staff=True).get(f"/studies/{study.slug}/live/").content.decode()
    assert f'data-participant="P{gone.pk:04d}"' in live  # the table refreshes with the live counts


def test_researchers_only():
    study = make_study("table-access", rounds=1)
    make_participant(study, "A-Mute")
    client = user_client()  # signed in, not staff
    assert client.get(f"/studies/{study.slug}/").status_code == 403
    assert "data-participant" not in client.get(f"/studies/{study.slug}/live/").content.decode()


def test_the_query_count_does_not_grow_with_the_participants():
    study = make_study("table-queries", rounds=2)

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            participant_rows(study)
        return len(captured.captured_queries)

    p = make_participant(study, "A-Mute")
    play_round([p], 0, agent="gnomes-mute", duration_s=10)
    few = queries()
    for _ in range(5):
        p = make_participant(study, "A-Mute")
        play_round([p], 0, agent="gnomes-mute", duration_s=10)
        play_round([p], 1, agent="gnomes-mute", outcome="playing")
    assert queries() == few
