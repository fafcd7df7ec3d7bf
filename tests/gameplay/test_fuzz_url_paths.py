"""Fuzz (issue 13, "Deliver" point 3): 500 generated URL paths through Django's test client get an answer, never a
server error, and change nothing stored. Seat, participant, study, match and replay URLs are built with tokens and
parameters made of random bytes (%00, broken UTF-8, surrogate encodings, ...) and real tokens with junk around them;
the requests are GETs, and POSTs only with tokens that are not real. Every page shown is valid UTF-8. Runs in phase 1
(SQLite) and phase 2 (PostgreSQL: .ci/test runs tests/gameplay there).
"""

from __future__ import annotations

import pytest
from django.test import Client
from hypothesis import given, settings
from hypothesis import strategies as st

from gameplay.models import Event, Match, Seat
from gameplay.studies.models import Participant, ParticipantRound, Study
from tests.gameplay.fuzz_support import HEALTH, junk_bytes, segment
from tests.studies.factories import make_participant, make_study, play_round

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

URLS = 500


PLAY_SUFFIXES = ["", "board.png", "observation.json", "board.png?step=%00"]
PARTICIPANT_SUFFIXES = ["", "instructions/", "round/1/", "round/1/status/", "wait/1/", "wait/1/status/",
                        "survey/", "complete/", "ended/", "round/99999999999999999999/"]
QUERY_NAMES = ["PROLIFIC_PID", "STUDY_ID", "SESSION_ID", "condition", "step", "since", "%00", "a"]


@st.composite
def url_requests(draw, world: dict) -> tuple[str, str]:
    """(method, path): GETs of every kind; POSTs only where the token is not a real one."""
    junk = segment(draw(junk_bytes))
    real_seat = draw(st.sampled_from(world["seat_tokens"]))
    real_participant = draw(st.sampled_from(world["participant_tokens"]))
    use_real = draw(st.booleans())
    seat = draw(st.sampled_from([real_seat, real_seat + junk, junk + real_seat])) if use_real else junk
    person = draw(st.sampled_from([real_participant, real_participant + junk])) if use_real else junk
    slug = draw(st.sampled_from([world["slug"], world["slug"], junk, world["slug"] + junk]))
    if not use_real and draw(st.booleans()):  # writes are only tried with tokens that are not real
        posts = [f"/play/{seat}/next-round/", f"/s/{slug}/p/{person}/heartbeat/",
                 f"/s/{slug}/p/{person}/round/1/start/", f"/s/{slug}/p/{person}/survey/"]
        return "POST", draw(st.sampled_from(posts))
    number = draw(st.sampled_from([str(world["match_id"]), "0", "99999999999999999999", junk]))
    path = draw(
        st.sampled_from([
            f"/play/{seat}/{draw(st.sampled_from(PLAY_SUFFIXES))}",
            f"/s/{slug}/p/{person}/{draw(st.sampled_from(PARTICIPANT_SUFFIXES))}",
            f"/s/{slug}/",
            f"/s/{slug}/declined/",
            f"/matches/{number}/",
            f"/matches/{number}/replay/",
            f"/matches/{number}/board.png",
            f"/matches/{number}/transcripts.jsonl",
            f"/games/{junk}/new/",
            f"/{junk}/",
            f"/ws/play/{seat}/",
        ])
    )
    query = "&".join(
        f"{draw(st.sampled_from(QUERY_NAMES))}={segment(draw(junk_bytes))}" for _ in range(draw(st.integers(0, 3)))
    )
    if query:
        path += ("&" if "?" in path else "?") + query
    return "GET", path


def _stored() -> tuple:
    """Everything a request could change: matches, events, seats, participants and their rounds, studies."""
    return (
        list(Match.objects.order_by("pk").values_list("pk", "version", "status", "state")),
        Event.objects.count(),
        list(Seat.objects.order_by("pk").values_list("pk", "joined_at")),
        list(Participant.objects.order_by("pk").values_list("pk", "step", "round_index", "last_seen_at")),
        ParticipantRound.objects.count(),
        list(Study.objects.order_by("pk").values_list("pk", "declined_count")),
    )


def test_fuzz_url_paths():
    study = make_study("fuzz")
    participants = [make_participant(study, "A-Comm"), make_participant(study, "H", step=Participant.Step.SURVEY)]
    match = play_round(participants[:1], 0, agent="gnomes-comm", outcome="playing",
                       messages=[(1, 0, "hello\tthere")])
    world = {
        "slug": study.slug,
        "match_id": match.pk,
        "seat_tokens": list(Seat.objects.values_list("token", flat=True)),
        "participant_tokens": [p.token for p in participants],
    }
    client = Client()
    before = _stored()
    statuses: dict[int, int] = {}

    @settings(max_examples=URLS, deadline=None, suppress_health_check=HEALTH)
    @given(request=url_requests(world))
    def request_one(request):
        method, path = request
        response = client.post(path) if method == "POST" else client.get(path)
        statuses[response.status_code] = statuses.get(response.status_code, 0) + 1
        assert response.status_code < 500, (method, path, response.status_code)
        if response.get("Content-Type", "").startswith("text/") and not response.streaming:
            response.content.decode("utf-8")  # whatever a page shows, it is valid UTF-8
        assert _stored() == before, (method, path)

    request_one()
    print(f"URL answers by status: {dict(sorted(statuses.items()))}")
    assert sum(statuses.values()) >= URLS and statuses.get(404, 0) > 0 and statuses.get(200, 0) > 0, statuses
