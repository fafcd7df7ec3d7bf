"""A match started with invite links waits for everyone (issue 16.2): the host sees "Waiting for Player 2 to
join" and cannot move until the guest has accepted the invite; then every page redraws and play starts. The
new-match form's "Start before the others join" lets the host start at once."""

from __future__ import annotations

import json
import re

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from gameplay.models import Event, Match
from gameplay.reads.selectors import state_of
from gameplay.writes import seat_claims, services
from gameplay.writes.services import SeatController
from tests.gameplay.ws_support import FLASH_ERROR, ORIGIN, TIMEOUT, clickable, open_socket

NEW_SANTORINI = "/games/santorini/new/"


def host_a_match(**extra) -> tuple[Client, str, Match]:
    host = Client()
    response = host.post(NEW_SANTORINI, {"seat_0": "you", "seat_1": "invite", "seed": "3", **extra})
    token = re.fullmatch(r"/play/([^/]+)/", response["Location"]).group(1)
    return host, token, Match.objects.get()


def cookie_header(browser: Client) -> tuple[bytes, bytes]:
    return b"cookie", "; ".join(f"{k}={m.value}" for k, m in browser.cookies.items()).encode()


def first_move(match: Match) -> str:
    return state_of(match).legal_actions(0)[0].id


@pytest.mark.django_db
def test_the_host_cannot_move_before_the_guest_joins():
    host, token, match = host_a_match()
    assert match.wait_for_players
    page = host.get(f"/play/{token}/").content.decode()
    assert "Waiting for Player 2 to join." in page and "Your turn" not in page
    with pytest.raises(services.ActionRejected, match="not joined yet"):
        services.submit_action(match.pk, 0, first_move(match), expected_version=0)
    match.refresh_from_db()
    assert match.version == 0 and not Event.objects.filter(match=match, kind=Event.Kind.ACTION).exists()

    Client().post(f"/invite/{match.seats.get(index=1).claim.token}/")
    match.refresh_from_db()
    assert not match.wait_for_players
    assert "Your turn" in host.get(f"/play/{token}/").content.decode()
    services.submit_action(match.pk, 0, first_move(match), expected_version=0)


@pytest.mark.django_db
def test_the_host_may_choose_to_start_at_once():
    host, token, match = host_a_match(start_at_once="on")
    assert not match.wait_for_players
    assert "Your turn" in host.get(f"/play/{token}/").content.decode()
    services.submit_action(match.pk, 0, first_move(match), expected_version=0)


@pytest.mark.django_db
def test_an_agent_waits_too_and_moves_once_everyone_joined(settings, django_capture_on_commit_callbacks):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    match = services.create_match(
        "santorini", [SeatController("agent", agent_name="random"), SeatController("human")], seed=5,
        host_seat=None, wait_for_players=True,
    )
    (claim,) = seat_claims.create_claims(match, None)
    match.refresh_from_db()
    assert match.version == 0  # the agent (seat 0, first to move) was not asked
    with django_capture_on_commit_callbacks(execute=True):
        assert seat_claims.claim(claim.token) is not None
    match.refresh_from_db()
    assert match.version >= 1 and not match.wait_for_players  # the agent placed its first worker


@pytest.mark.django_db(transaction=True)
async def test_the_hosts_page_starts_live_when_the_guest_joins(layer):
    host, token, match = await sync_to_async(host_a_match)()
    socket, connected = await open_socket(token, headers=[*ORIGIN, cookie_header(host)])
    assert connected
    view = await socket.receive_from(timeout=TIMEOUT)
    assert "Waiting for Player 2 to join." in view and not clickable(view, "action")
    # A frame sent anyway (e.g. from a page drawn before) is refused and changes nothing.
    move = await sync_to_async(first_move)(match)
    await socket.send_to(text_data=json.dumps({"kind": "action", "action_id": move, "version": 0}))
    reply = await socket.receive_from(timeout=TIMEOUT)
    assert FLASH_ERROR in reply and "not joined yet" in reply
    claim_token = await sync_to_async(lambda: match.seats.get(index=1).claim.token)()
    await sync_to_async(Client().post)(f"/invite/{claim_token}/")
    redrawn = await socket.receive_from(timeout=TIMEOUT)
    assert "Your turn" in redrawn and clickable(redrawn, "action")
    await socket.disconnect()
