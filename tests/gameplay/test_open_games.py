"""The lobby's open games (issue 39, point 3): a host lists a match, any visitor joins it from the lobby with a POST
that takes a free seat for that browser; a full, finished, expired or private match is never offered, and a join
that comes too late changes nothing."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.test import Client

from gameplay.models import Match, SeatClaim
from gameplay.writes import match_endings, open_seats, services
from gameplay.writes.services import SeatController
from tests.support.db_writes import writes_during

pytestmark = pytest.mark.django_db


def host_listed_match(game: str = "santorini", seats=("you", "invite"), listed: bool = True) -> tuple[Client, Match]:
    """A host browser that started a match from the new-match form, listed in the lobby (or not)."""
    host = Client()
    post = {f"seat_{i}": who for i, who in enumerate(seats)} | {"seed": "3", "num_seats": str(len(seats))}
    if listed:
        post["in_lobby"] = "on"
    response = host.post(f"/games/{game}/new/", post)
    assert response.status_code == 302, response.content.decode()[:2000]
    return host, Match.objects.order_by("-pk").first()


def join_path(match: Match) -> str:
    return f"/open-games/{match.pk}/join/"


def lobby_lists(client: Client, match: Match) -> bool:
    return join_path(match) in client.get("/").content.decode()


def test_a_listed_match_is_offered_to_visitors_and_an_unlisted_one_is_not():
    _host, listed = host_listed_match()
    _other, unlisted = host_listed_match(listed=False)
    visitor = Client()
    assert listed.in_lobby and not unlisted.in_lobby
    assert lobby_lists(visitor, listed) and not lobby_lists(visitor, unlisted)
    fragment = visitor.get("/open-games/").content.decode()
    assert join_path(listed) in fragment and "Player 2: <strong>free</strong>" in fragment
    assert "started just now" in fragment
    # No invite token reaches the page: joining is the server's choice of seat.
    assert listed.seats.get(index=1).claim.token not in fragment


def test_reading_the_lobby_writes_nothing_and_join_needs_a_post():
    _host, match = host_listed_match()
    visitor = Client()
    assert writes_during(lambda: visitor.get("/")) == []
    assert writes_during(lambda: visitor.get("/open-games/")) == []
    assert visitor.get(join_path(match)).status_code == 405
    assert SeatClaim.objects.get(seat__match=match, seat__index=1).claimed_at is None


def test_joining_takes_the_free_seat_for_this_browser_and_starts_the_match():
    _host, match = host_listed_match()
    assert match.wait_for_players
    guest = Client()
    response = guest.post(join_path(match))
    seat = match.seats.get(index=1)
    assert response.status_code == 302 and response["Location"] == f"/play/{seat.token}/"
    assert guest.get(f"/play/{seat.token}/").status_code == 200
    match.refresh_from_db()
    assert not match.wait_for_players  # everyone is here: the game starts
    # The seat is bound to the guest's browser: its link alone opens nothing elsewhere.
    assert Client().get(f"/play/{seat.token}/").status_code == 403
    assert not lobby_lists(Client(), match)


def test_a_join_that_comes_too_late_says_so_and_changes_nothing():
    _host, match = host_listed_match()
    Client().post(join_path(match))
    claimed = list(SeatClaim.objects.filter(seat__match=match).values_list("pk", "claimed_at"))
    late = Client()
    response = late.post(join_path(match))
    assert response.status_code == 410
    assert "No seat left" in response.content.decode()
    assert list(SeatClaim.objects.filter(seat__match=match).values_list("pk", "claimed_at")) == claimed


def test_two_visitors_take_two_seats_and_a_second_click_reopens_the_first():
    _host, match = host_listed_match("pit", ("you", "invite", "invite"))
    first, second = Client(), Client()
    to_first = first.post(join_path(match))["Location"]
    again = first.post(join_path(match))["Location"]
    assert again == to_first  # the same browser does not take a second seat
    fragment = first.get("/open-games/").content.decode()
    assert "Open your seat" in fragment and "1 seat free" in fragment
    to_second = second.post(join_path(match))["Location"]
    assert to_second != to_first
    assert set(SeatClaim.objects.filter(seat__match=match, claimed_at__isnull=False).values_list(
        "seat__index", flat=True)) == {0, 1, 2}
    assert not lobby_lists(Client(), match)


def test_the_host_sees_its_own_game_as_its_seat_not_a_join_button():
    host, match = host_listed_match()
    page = host.get("/").content.decode()
    host_seat = match.seats.get(index=0)
    assert f'href="/play/{host_seat.token}/"' in page and "Open your seat" in page
    assert join_path(match) not in page
    assert "listed in the lobby" in host.get(f"/play/{host_seat.token}/").content.decode()


def test_finished_expired_and_private_matches_are_never_offered(settings):
    _host, finished = host_listed_match()
    match_endings.resign(finished.pk, 0)
    _host, expired = host_listed_match()
    SeatClaim.objects.filter(seat__match=expired).update(created_at=dt.datetime(2020, 1, 1, tzinfo=dt.UTC))
    private = services.create_match("santorini", [SeatController("human")] * 2, seed=1, private=True)
    assert not open_seats.list_in_lobby(private)
    visitor = Client()
    page = visitor.get("/").content.decode()
    assert join_path(finished) not in page and join_path(expired) not in page and join_path(private) not in page
    assert visitor.post(join_path(finished)).status_code == 410
    assert visitor.post(join_path(private)).status_code == 410


def test_only_a_match_with_a_seat_for_another_person_can_be_listed():
    response = Client().post("/games/santorini/new/", {"seat_0": "you", "seat_1": "agent:random", "in_lobby": "on"})
    assert response.status_code == 200
    assert "Only a match with a seat for another person" in response.content.decode()
    assert not Match.objects.exists()


def test_a_lobby_join_is_rate_limited_per_address(settings):
    settings.INVITES_TAKEN_PER_MINUTE_PER_CLIENT = 1
    _host, first = host_listed_match()
    _host, second = host_listed_match()
    visitor = Client()
    assert visitor.post(join_path(first)).status_code == 302
    refused = visitor.post(join_path(second))
    assert refused.status_code == 429
    assert SeatClaim.objects.get(seat__match=second, seat__index=1).claimed_at is None
    assert re.search("seats were taken from your address", refused.content.decode())
