"""Per-client limits on what creates something (issue 37: "no visitor can slow, stall or spy on other people's
games"): starting a match, taking a seat through an invite link and answering a study's consent form are POSTs
counted per client address a minute (gameplay.web.rate_limits.limited_per_client). Over the limit the answer is 429
with Retry-After and a page saying why, and nothing is created; another address and staff are not held up, and
GETs are neither counted nor refused."""

from __future__ import annotations

import itertools

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from gameplay.models import Match, SeatClaim
from gameplay.studies.models import Participant
from gameplay.web import rate_limits
from tests.studies.journey_support import eager_celery, make_study  # noqa: F401 (eager_celery is an autouse fixture)

pytestmark = pytest.mark.django_db
ADDRESSES = (f"198.51.100.{n}" for n in itertools.count(1))  # one address per client: limits are per address
NEW_SANTORINI = "/games/santorini/new/"
AGAINST_AN_AGENT = {"seat_0": "you", "seat_1": "agent:random", "seed": "3"}


@pytest.fixture(autouse=True)
def one_minute(monkeypatch):
    """The limiter counts per clock minute, so posts that straddle a minute's end would start a new count and let
    one more through: its clock stands still here, 30 s into a minute."""
    monkeypatch.setattr(rate_limits, "_clock", lambda: 60.0 * 29_000_000 + 30)


def visitor(address: str | None = None) -> Client:
    return Client(REMOTE_ADDR=address or next(ADDRESSES))


def staff(address: str) -> Client:
    client = visitor(address)
    client.force_login(get_user_model().objects.create_user(f"admin-{address}", is_staff=True))
    return client


def assert_refused(response) -> None:
    assert response.status_code == 429
    assert 1 <= int(response["Retry-After"]) <= 60
    assert "from your address in the last minute" in response.content.decode()


def test_matches_started_from_one_address_are_limited(settings):
    settings.MATCHES_CREATED_PER_MINUTE_PER_CLIENT = 2
    address = next(ADDRESSES)
    client = visitor(address)
    assert client.get(NEW_SANTORINI).status_code == 200  # a GET is not counted
    answers = [client.post(NEW_SANTORINI, AGAINST_AN_AGENT) for _ in range(3)]
    assert [a.status_code for a in answers[:2]] == [302, 302]
    assert_refused(answers[2])
    assert Match.objects.count() == 2
    assert client.get(NEW_SANTORINI).status_code == 200  # the form still opens
    assert visitor().post(NEW_SANTORINI, AGAINST_AN_AGENT).status_code == 302  # another address
    assert staff(address).post(NEW_SANTORINI, AGAINST_AN_AGENT).status_code == 302  # staff at the same address
    assert Match.objects.count() == 4


def invite_paths(n: int) -> list[str]:
    """Invite links of ``n`` you-vs-invite matches, each made by a host at an address of its own."""
    for _ in range(n):
        visitor().post(NEW_SANTORINI, {"seat_0": "you", "seat_1": "invite", "seed": "3"})
    return [reverse("invite", args=[claim.token]) for claim in SeatClaim.objects.filter(seat__index=1)]


def taken_invites() -> int:
    return SeatClaim.objects.filter(seat__index=1, claimed_at__isnull=False).count()


def test_invites_taken_from_one_address_are_limited(settings):
    settings.INVITES_TAKEN_PER_MINUTE_PER_CLIENT = 2
    first, second, third, fourth, fifth = invite_paths(5)
    address = next(ADDRESSES)
    guest = visitor(address)
    assert guest.get(third).status_code == 200  # a GET is not counted
    assert [guest.post(path).status_code for path in (first, second)] == [302, 302]
    assert_refused(guest.post(third))
    assert guest.get(third).status_code == 200  # the invite is still open: nothing was taken
    assert taken_invites() == 2
    assert visitor().post(third).status_code == 302  # another address
    assert staff(address).post(fourth).status_code == 302  # staff at the same address
    assert_refused(visitor(address).post(fifth))  # another browser at the same address: the same client
    assert taken_invites() == 4


def test_study_consents_from_one_address_are_limited(settings):
    settings.ENROLMENTS_PER_MINUTE_PER_CLIENT = 2
    study = make_study()
    url = reverse("study:consent", args=[study.slug])
    address = next(ADDRESSES)
    answers = [visitor(address).post(url, {"agree": "1"}) for _ in range(3)]  # three browsers behind one address
    assert [a.status_code for a in answers[:2]] == [302, 302]
    assert_refused(answers[2])
    assert Participant.objects.count() == 2
    assert visitor(address).get(reverse("study:entry", args=[study.slug])).status_code == 200  # GET: not counted
    assert visitor().post(url, {"agree": "1"}).status_code == 302  # another address
    assert staff(address).post(url, {"agree": "1"}).status_code == 302  # staff at the same address
    assert Participant.objects.count() == 4


def test_a_refused_client_is_told_when_the_window_ends():
    assert rate_limits.seconds_to_next_window(60, now=120.0) == 60
    assert rate_limits.seconds_to_next_window(60, now=179.2) == 1
    assert rate_limits.seconds_to_next_window(60, now=179.99) == 1
