"""Replays of ended matches, per seat for staff (issue 16.6): ``?seat=N`` shows seat N's own view at every step,
hidden information included, to staff only; everyone else gets the public view whatever the URL says. A match
that ended without a result (aborted, e.g. a partner left a study round) has a replay too."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from gameplay.writes import absent_players
from tests.gameplay.gnomes_play_support import SIDE_WALLS, drawn_walls, move, two_humans

pytestmark = pytest.mark.django_db


def staff_client() -> Client:
    client = Client()
    client.force_login(get_user_model().objects.create_user("researcher", password="pw", is_staff=True))
    return client


def ended_gnomes_match():
    match = two_humans(round=1)
    move(match, 0, "right")
    move(match, 1, "down")
    absent_players.abort_match(match.pk, "partner left the round")
    return match


def test_staff_see_each_seats_own_walls_and_others_the_public_view():
    match = ended_gnomes_match()
    url = f"/matches/{match.pk}/replay/"
    public = Client().get(url).content.decode()
    assert drawn_walls(public) == set()  # nobody's walls in public
    assert drawn_walls(Client().get(url + "?seat=1").content.decode()) == set()  # not for a URL alone
    staff = staff_client()
    for seat in (0, 1):
        html = staff.get(url + f"?step=1&seat={seat}").content.decode()
        assert drawn_walls(html) == set(SIDE_WALLS[seat])
        assert f"?step=2&amp;seat={seat}" in html  # stepping stays in that seat's view
        assert f'seat={seat}" aria-current="page"' in html
    assert drawn_walls(staff.get(url + "?seat=7").content.decode()) == set()  # no such seat: public


def test_an_aborted_match_has_a_replay_and_a_running_one_does_not():
    match = ended_gnomes_match()
    assert Client().get(f"/matches/{match.pk}/replay/").status_code == 200
    running = two_humans(round=1)
    assert Client().get(f"/matches/{running.pk}/replay/").status_code == 403
    assert staff_client().get(f"/matches/{running.pk}/replay/?seat=0").status_code == 403


def test_a_player_replays_the_match_as_their_own_seat_saw_it():
    match = ended_gnomes_match()
    for seat in (0, 1):
        token = match.seats.get(index=seat).token
        html = Client().get(f"/play/{token}/replay/?step=1").content.decode()
        assert drawn_walls(html) == set(SIDE_WALLS[seat])  # their own walls, never the partner's
        assert 'href="?step=2"' in html  # stepping stays in their view (the link carries no seat number)
        assert "Your view (Gnome " in html and f'href="/matches/{match.pk}/replay/?step=1"' in html
    running = two_humans(round=1)
    assert Client().get(f"/play/{running.seats.get(index=0).token}/replay/").status_code == 403
    assert Client().get("/play/not-a-seat-link/replay/").status_code == 404


def test_a_claimed_seats_replay_is_for_the_browser_that_holds_it():
    host = Client()
    response = host.post("/games/santorini/new/", {"seat_0": "you", "seat_1": "agent:random", "seed": "3"})
    token = response["Location"].split("/")[2]
    host.post(f"/play/{token}/abort/")
    page = host.get(f"/play/{token}/").content.decode()
    assert f'href="/play/{token}/replay/"' in page  # the match page links to the player's own replay
    assert host.get(f"/play/{token}/replay/").status_code == 200
    assert Client().get(f"/play/{token}/replay/").status_code == 403  # the link alone is not enough
