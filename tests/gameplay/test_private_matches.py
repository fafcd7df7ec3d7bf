"""Private matches (study rounds) are not listed or viewable publicly; staff and their own participants see them."""

from __future__ import annotations

import random

import pytest
from django.contrib.auth import get_user_model

from gameplay.models import Match
from gameplay.reads.selectors import state_of
from gameplay.writes import services
from gameplay.writes.services import SeatController

pytestmark = pytest.mark.django_db

HUMAN = SeatController("human")


def played_out(game_id: str = "santorini", *, private: bool, seed: int = 3) -> Match:
    """A finished human-vs-human match, every move submitted through the match service."""
    match = services.create_match(game_id, [HUMAN, HUMAN], seed=seed, host_seat=None, private=private)
    rng = random.Random(seed)
    while match.status == Match.Status.ACTIVE:
        state = state_of(match)
        seat = state.current_seats()[0]
        action = rng.choice(state.legal_actions(seat)).id
        match = services.submit_action(match.pk, seat, action, expected_version=match.version)
    assert match.status == Match.Status.FINISHED
    return match


def urls_of(match: Match) -> list[str]:
    return [
        f"/matches/{match.pk}/",
        f"/matches/{match.pk}/replay/",
        f"/matches/{match.pk}/replay/?step=1",
        f"/matches/{match.pk}/transcripts.jsonl",
    ]


@pytest.fixture
def staff_client(client):
    user = get_user_model().objects.create_user("researcher", password="x", is_staff=True)
    client.force_login(user)
    return client


def test_anonymous_visitors_see_public_matches_but_not_private_ones(client):
    public, private = played_out(private=False, seed=3), played_out(private=True, seed=4)
    for page in ("/matches/", "/"):
        html = client.get(page).content.decode()
        assert f"/matches/{public.pk}/" in html
        assert f"/matches/{private.pk}/" not in html, page
    for url in urls_of(public):
        assert client.get(url).status_code == 200, url
    for url in urls_of(private):
        assert client.get(url).status_code in (403, 404), url


def test_a_private_matchs_board_picture_is_not_public(client):
    public = services.create_match("hive", [HUMAN, HUMAN], seed=1, host_seat=None)
    private = services.create_match("hive", [HUMAN, HUMAN], seed=1, host_seat=None, private=True)
    assert client.get(f"/matches/{public.pk}/board.png").status_code == 200
    assert client.get(f"/matches/{private.pk}/board.png").status_code == 404
    # Its seats still reach their own picture through their seat link (the token is their credential).
    seat = private.seats.get(index=0)
    assert client.get(f"/play/{seat.token}/board.png").status_code == 200


def test_staff_see_private_matches(staff_client):
    private = played_out(private=True, seed=4)
    assert f"/matches/{private.pk}/" in staff_client.get("/matches/").content.decode()
    for url in urls_of(private):
        assert staff_client.get(url).status_code == 200, url


def test_a_participant_sees_their_own_study_match_and_not_another_participants(client):
    from django.test import Client

    from tests.studies.factories import make_participant, make_study, play_round

    study = make_study("private-pilot", rounds=1)
    mine, theirs = make_participant(study, "H"), make_participant(study, "H")
    other = make_participant(study, "H")
    match = play_round([mine, theirs], 0)
    # A fresh browser opening a participant's own link is bound to that participant (their link is their secret).
    client.get(f"/s/{study.slug}/p/{mine.token}/")
    stranger = Client()
    stranger.get(f"/s/{study.slug}/p/{other.token}/")
    assert f"/matches/{match.pk}/" not in client.get("/matches/").content.decode()  # never listed publicly
    *pages, transcripts = urls_of(match)
    for url in pages:
        assert client.get(url).status_code == 200, url
        assert stranger.get(url).status_code == 404, url
    # The agents' transcripts of a study round are the research team's, its participants' included (issue 37.2).
    assert client.get(transcripts).status_code == 404 and stranger.get(transcripts).status_code == 404


def test_a_study_rounds_seat_link_cannot_start_a_match_outside_the_study(client):
    """Issue 13, "Why" point 9: "a study seat token can POST next-round and create a match outside the study"."""
    match = services.create_match(
        "gnomes", [HUMAN, HUMAN], seed=5, options={"turn_cap": 1}, host_seat=None, private=True
    )
    match = services.submit_action(match.pk, 0, "stay", expected_version=0)
    assert match.status == Match.Status.FINISHED
    token = match.seats.get(index=0).token
    before = Match.objects.count()

    response = client.post(f"/play/{token}/next-round/")

    assert response.status_code == 400
    assert "belongs to a study" in response.content.decode()
    assert Match.objects.count() == before
    assert "Start the next round" not in client.get(f"/play/{token}/").content.decode()
