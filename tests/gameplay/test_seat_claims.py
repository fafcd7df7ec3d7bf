"""Single-use invites bound to the browser that accepts them (issue 13, Why 9: "Invite links are permanent bearer
links"; before, a third browser opening the link became Player 2 and read the chat)."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from gameplay.models import Event, Match, SeatClaim
from tests.gameplay.ws_support import ORIGIN, TIMEOUT, open_socket
from tests.studies.journey_support import make_study, participant_url, started
from tests.support.db_writes import writes_during

pytestmark = pytest.mark.django_db

NEW_SANTORINI = "/games/santorini/new/"


def new_invite_match() -> tuple[Client, str, Match]:
    """A host browser that made a you-vs-invite Santorini match: (host browser, host seat token, match)."""
    host = Client()
    response = host.post(NEW_SANTORINI, {"seat_0": "you", "seat_1": "invite", "seed": "3"})
    token = re.fullmatch(r"/play/([^/]+)/", response["Location"]).group(1)
    return host, token, Match.objects.get()


def invite_path(match: Match) -> str:
    return f"/invite/{match.seats.get(index=1).claim.token}/"


def test_the_invite_page_writes_nothing_and_the_post_takes_the_seat():
    _host, _token, match = new_invite_match()
    guest = Client()
    pages = []
    writes = writes_during(lambda: pages.append(guest.get(invite_path(match))))
    page = pages[0]
    assert page.status_code == 200 and writes == []
    assert "Join as Player 2" in page.content.decode()
    assert SeatClaim.objects.get(seat__index=1).claimed_at is None

    response = guest.post(invite_path(match))
    seat = match.seats.get(index=1)
    assert response["Location"] == f"/play/{seat.token}/"
    assert guest.get(f"/play/{seat.token}/").status_code == 200
    assert guest.get(invite_path(match))["Location"] == f"/play/{seat.token}/"  # accepted before: straight in


def test_a_second_browser_finds_the_seat_taken_and_cannot_open_it():
    _host, _token, match = new_invite_match()
    Client().post(invite_path(match))
    seat = match.seats.get(index=1)
    claimed_at = SeatClaim.objects.get(seat=seat).claimed_at

    third = Client()
    page = third.get(invite_path(match))
    assert page.status_code == 403 and "This seat is taken" in page.content.decode()
    again = third.post(invite_path(match))
    assert again.status_code == 403 and "This seat is taken" in again.content.decode()
    assert SeatClaim.objects.get(seat=seat).claimed_at == claimed_at
    # Even with the seat's own link, copied from the guest's address bar: not in this browser.
    for url in (f"/play/{seat.token}/", f"/play/{seat.token}/observation.json", f"/play/{seat.token}/board.png"):
        assert third.get(url).status_code == 403, url
    assert seat.token not in third.get(f"/play/{seat.token}/").content.decode()


def test_the_hosts_seat_opens_only_in_the_browser_that_made_the_match():
    host, token, _match = new_invite_match()
    assert host.get(f"/play/{token}/").status_code == 200
    assert Client().get(f"/play/{token}/").status_code == 403


def test_an_expired_invite_is_refused_and_claims_nothing(settings):
    settings.INVITE_TTL_HOURS = 1
    _host, _token, match = new_invite_match()
    SeatClaim.objects.filter(seat__index=1).update(created_at=dt.datetime(2020, 1, 1, tzinfo=dt.UTC))
    guest = Client()
    page = guest.post(invite_path(match))
    assert page.status_code == 410 and "expired" in page.content.decode()
    assert SeatClaim.objects.get(seat__index=1).claimed_at is None


def test_an_invite_to_a_match_that_ended_is_refused():
    _host, _token, match = new_invite_match()
    Match.objects.filter(pk=match.pk).update(status=Match.Status.ABORTED)
    page = Client().post(invite_path(match))
    assert page.status_code == 410 and "ended" in page.content.decode()


def test_unknown_invites_are_404_and_change_nothing():
    _host, _token, match = new_invite_match()
    events = Event.objects.count()
    for token in ("nope", "x" * 65, "%00"):
        assert Client().post(f"/invite/{token}/").status_code == 404, token
    assert Event.objects.count() == events and SeatClaim.objects.filter(claimed_at__isnull=True).count() == 1


def test_a_cookie_cannot_be_forged_or_moved_to_another_seat():
    host, host_token, match = new_invite_match()
    Client().post(invite_path(match))
    guest = match.seats.get(index=1)
    host_seat = match.seats.get(index=0)
    thief = Client()
    # The host's valid cookie, renamed for the guest's seat: the signature covers the name, so it is refused.
    thief.cookies[f"seat-{guest.pk}"] = host.cookies[f"seat-{host_seat.pk}"].value
    assert thief.get(f"/play/{guest.token}/").status_code == 403
    thief.cookies[f"seat-{guest.pk}"] = guest.claim.token  # the right value, unsigned
    assert thief.get(f"/play/{guest.token}/").status_code == 403
    assert host.get(f"/play/{host_token}/").status_code == 200


def _cookie_header(browser: Client) -> tuple[bytes, bytes]:
    return b"cookie", "; ".join(f"{k}={m.value}" for k, m in browser.cookies.items()).encode()


@pytest.mark.django_db(transaction=True)
async def test_the_websocket_of_a_held_seat_opens_only_for_its_browser(layer):
    def setup():
        _host, _token, match = new_invite_match()
        guest = Client()
        guest.post(invite_path(match))
        return guest, match.seats.get(index=1).token

    guest, seat_token = await sync_to_async(setup)()
    stranger, refused = await open_socket(seat_token)  # the seat's link, without the holder's cookie
    assert not refused
    await stranger.disconnect()
    mine, accepted = await open_socket(seat_token, headers=[*ORIGIN, _cookie_header(guest)])
    assert accepted
    assert 'id="board"' in await mine.receive_from(timeout=TIMEOUT)
    await mine.disconnect()


def test_the_next_rounds_seats_are_held_by_the_same_browsers():
    """Issue 37, point 4: after next-round, the round-2 seat page opened in any browser. Each seat of the next round
    is held by the browser that held it before; the next-round POST of a seat it does not hold is refused."""
    from gameplay.writes import services

    host = Client()
    response = host.post("/games/gnomes/new/", {"seat_0": "you", "seat_1": "invite", "seed": "3", "opt_turn_cap": "1",
                                                "opt_round": "1", "opt_first_seat": "0", "opt_chat": "on"})
    host_token = re.fullmatch(r"/play/([^/]+)/", response["Location"]).group(1)
    match = Match.objects.get()
    guest = Client()
    guest.post(invite_path(match))
    guest_token = match.seats.get(index=1).token
    services.submit_action(match.pk, 0, "stay", expected_version=0)  # the cap of one move ends round 1
    assert Match.objects.get(pk=match.pk).status == Match.Status.FINISHED

    stranger = Client()
    assert stranger.post(f"/play/{guest_token}/next-round/").status_code == 403  # not the guest's browser
    assert not Match.objects.filter(previous_round=match).exists()
    going_on = host.post(f"/play/{host_token}/next-round/")
    following = Match.objects.get(previous_round=match)
    mine, theirs = following.seats.get(index=0), following.seats.get(index=1)
    assert going_on["Location"] == f"/play/{mine.token}/"
    assert host.get(f"/play/{mine.token}/").status_code == 200
    assert stranger.get(f"/play/{mine.token}/").status_code == 403  # a copied round-2 link opens nothing
    assert stranger.get(f"/play/{theirs.token}/").status_code == 403
    page = guest.get(f"/play/{guest_token}/").content.decode()
    assert f'action="/play/{guest_token}/next-round/"' in page and theirs.token not in page  # a POST, no link
    assert guest.post(f"/play/{guest_token}/next-round/")["Location"] == f"/play/{theirs.token}/"
    assert guest.get(f"/play/{theirs.token}/").status_code == 200


@pytest.mark.django_db(transaction=True)
async def test_a_study_rounds_seat_opens_only_in_its_participants_browser(layer):
    """Issue 37, point 4: a study round's seat link was a bearer link (its page and socket opened in any browser).
    The seat is held by the participant's browser (bound by the study session), which its round page hands the
    seat's cookie."""
    def set_up():
        mine = Client()
        me = started(mine, make_study())
        token = me.rounds.get().match.seats.get(index=0).token
        page = mine.get(participant_url("round", me, n=1))
        return mine, token, page, Client().get(f"/play/{token}/"), mine.get(f"/play/{token}/")

    mine, token, page, stranger_page, my_page = await sync_to_async(set_up)()
    assert page.status_code == 200 and stranger_page.status_code == 403 and my_page.status_code == 200
    stranger, connected = await open_socket(token)  # the seat link alone
    assert not connected
    await stranger.disconnect()
    comm, connected = await open_socket(token, headers=[*ORIGIN, _cookie_header(mine)])
    assert connected
    assert 'id="board"' in await comm.receive_from(timeout=TIMEOUT)
    await comm.disconnect()
