"""HTTP pages: lobby, new-match form, seat pages, match list/detail and replays."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from gameplay.models import Event, Match, Seat
from gameplay.writes import services
from gameplay.writes.services import SeatController

pytestmark = pytest.mark.django_db

NEW_SANTORINI = "/games/santorini/new/"
HUMAN = SeatController("human")
RANDOM = SeatController("agent", agent_name="random")


def all_tokens() -> set[str]:
    return set(Seat.objects.values_list("token", flat=True))


def assert_only_own_token(html: str, own: str | None) -> None:
    for token in all_tokens() - {own}:
        assert token not in html, "a page leaked another seat's token"


def finished_match(seed: int = 5) -> Match:
    match = services.create_match("santorini", [RANDOM, RANDOM], seed=seed, host_seat=None)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    return match


def token_from_redirect(response) -> str:
    assert response.status_code == 302
    found = re.fullmatch(r"/play/([^/]+)/", response["Location"])
    assert found, response["Location"]
    return found.group(1)


# --- lobby and new-match form -----------------------------------------------------


def test_lobby_lists_santorini_with_a_link_to_the_form(client):
    response = client.get("/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Santorini" in html
    assert f'href="{NEW_SANTORINI}"' in html
    assert reverse("new_match", args=["santorini"]) == NEW_SANTORINI


def test_new_match_form_renders_seat_selects_and_options(client):
    response = client.get(NEW_SANTORINI)
    assert response.status_code == 200
    html = response.content.decode()
    for seat in (0, 1):
        select = re.search(rf'<select name="seat_{seat}"[^>]*>(.*?)</select>', html, re.S)
        assert select, f"no select for seat {seat}"
        options = re.findall(r'<option value="([^"]*)"', select.group(1))
        assert {"you", "invite", "agent:random"} <= set(options)
    assert 'name="opt_alternate_workers"' in html
    assert 'name="opt_win_on_any_level3"' in html
    assert 'name="seed"' in html
    assert 'name="csrfmiddlewaretoken"' in html


def test_unknown_game_is_404(client):
    assert client.get("/games/chess/new/").status_code == 404
    assert client.post("/games/chess/new/", {"seat_0": "you", "seat_1": "agent:random"}).status_code == 404
    assert Match.objects.count() == 0


# --- creating matches -------------------------------------------------------------


def test_post_you_vs_agent_redirects_to_the_seat_page(client):
    response = client.post(
        NEW_SANTORINI, {"seat_0": "you", "seat_1": "agent:random", "seed": "12", "opt_alternate_workers": "on"}
    )
    token = token_from_redirect(response)
    match = Match.objects.get()
    host = match.seats.get(index=0)
    assert token == host.token
    assert host.is_host and host.controller == Seat.Controller.HUMAN
    assert match.seats.get(index=1).agent_name == "random"
    assert match.seed == 12
    assert match.options["alternate_workers"] is True

    page = client.get(response["Location"])
    assert page.status_code == 200
    html = page.content.decode()
    assert f'ws-connect="/ws/play/{token}/"' in html
    assert 'class="santorini phase-place"' in html
    assert html.count('role="gridcell"') == 25
    # Seat 0 is on turn in the placement phase: every empty cell is clickable.
    assert "Your turn." in html
    assert html.count('data-cell="') == 25 and html.count("<button type=\"button\" role=\"gridcell\"") == 25
    assert_only_own_token(html, token)


def test_post_you_vs_invite_shows_invite_link_to_host_only(client):
    response = client.post(NEW_SANTORINI, {"seat_0": "you", "seat_1": "invite", "seed": "3"})
    host_token = token_from_redirect(response)
    match = Match.objects.get()
    guest = match.seats.get(index=1)
    assert guest.controller == Seat.Controller.HUMAN and not guest.is_host

    host_html = client.get(f"/play/{host_token}/").content.decode()
    invite_url = f"http://testserver/invite/{guest.claim.token}/"
    assert invite_url in host_html and "Invite link" in host_html
    assert guest.token not in host_html  # the seat itself is only handed to whoever accepts the invite

    guest_browser = Client()
    assert guest_browser.get(f"/play/{guest.token}/").status_code == 403  # not before the invite is accepted
    joined = guest_browser.post(f"/invite/{guest.claim.token}/")
    assert joined["Location"] == f"/play/{guest.token}/"
    guest_page = guest_browser.get(f"/play/{guest.token}/")
    assert guest_page.status_code == 200
    guest_html = guest_page.content.decode()
    assert f'ws-connect="/ws/play/{guest.token}/"' in guest_html
    assert "Invite link" not in guest_html
    assert host_token not in guest_html
    assert_only_own_token(guest_html, guest.token)
    # The guest is not on turn: no clickable cells, no action list.
    assert "Waiting for" in guest_html
    assert 'ws-send data-cell=' not in guest_html
    assert "data-action-id" not in guest_html


def test_invite_link_disappears_once_the_guest_joined(client):
    response = client.post(NEW_SANTORINI, {"seat_0": "you", "seat_1": "invite"})
    host_token = token_from_redirect(response)
    guest = Match.objects.get().seats.get(index=1)
    Client().post(f"/invite/{guest.claim.token}/")
    assert guest.claim.token not in client.get(f"/play/{host_token}/").content.decode()


@pytest.mark.django_db(transaction=True)  # real commits: agents answer once a move commits
def test_post_all_agents_redirects_to_match_detail(client):
    response = client.post(NEW_SANTORINI, {"seat_0": "agent:random", "seat_1": "agent:random", "seed": "4"})
    assert response.status_code == 302
    match = Match.objects.get()
    assert response["Location"] == reverse("match_detail", args=[match.pk])
    assert not match.seats.filter(is_host=True).exists()
    # Eager Celery: the agents already played the whole match.
    assert match.status == Match.Status.FINISHED

    detail = client.get(response["Location"])
    assert detail.status_code == 200
    html = detail.content.decode()
    assert 'id="result"' in html and "won" in html
    assert reverse("replay", args=[match.pk]) in html
    assert_only_own_token(html, None)


def test_two_seats_for_you_is_a_form_error(client):
    response = client.post(NEW_SANTORINI, {"seat_0": "you", "seat_1": "you"})
    assert response.status_code == 200
    assert "Only one seat can be yours" in response.content.decode()
    assert Match.objects.count() == 0


def test_unknown_controller_is_a_form_error(client):
    response = client.post(NEW_SANTORINI, {"seat_0": "you", "seat_1": "agent:nobody"})
    assert response.status_code == 200
    assert Match.objects.count() == 0


# --- seat pages ---------------------------------------------------------------------


@pytest.mark.parametrize("token", ["no-such-token", "x" * 65, "%20"])
def test_unknown_token_is_404(client, token):
    services.create_match("santorini", [HUMAN, HUMAN], seed=1)
    assert client.get(f"/play/{token}/").status_code == 404


@pytest.mark.django_db(transaction=True)  # real commits: agents answer once a move commits
def test_seat_pages_never_show_another_seats_token(client):
    services.create_match("santorini", [HUMAN, HUMAN], seed=1)
    services.create_match("santorini", [HUMAN, RANDOM], seed=2)
    services.create_match("santorini", [RANDOM, HUMAN], seed=3, host_seat=1)
    finished_match(seed=4)
    for seat in Seat.objects.filter(controller=Seat.Controller.HUMAN).select_related("match"):
        html = client.get(f"/play/{seat.token}/").content.decode()
        # The host page of a two-human match legitimately carries the invite link of seat 1.
        allowed = {seat.token}
        if seat.is_host:
            allowed |= set(
                seat.match.seats.filter(controller=Seat.Controller.HUMAN).values_list("token", flat=True)
            )
        for token in all_tokens() - allowed:
            assert token not in html, f"seat {seat.index} of match {seat.match_id} leaked a token"
        assert f'ws-connect="/ws/play/{seat.token}/"' in html
    for page in ("/", "/matches/"):
        assert_only_own_token(client.get(page).content.decode(), None)


@pytest.mark.django_db(transaction=True)  # real commits: agents answer once a move commits
def test_seat_page_after_agent_opened_shows_agent_move(client):
    match = services.create_match("santorini", [RANDOM, HUMAN], seed=8, host_seat=1)
    seat = match.seats.get(index=1)
    html = client.get(f"/play/{seat.token}/").content.decode()
    assert "Your turn." in html
    last = match.events.filter(kind=Event.Kind.ACTION).order_by("-seq").first()
    assert last.payload["label"] in html


# --- match list, detail and replay ----------------------------------------------------------


@pytest.mark.django_db(transaction=True)  # real commits: agents answer once a move commits
def test_match_list_shows_results(client):
    done = finished_match(seed=5)
    running = services.create_match("santorini", [HUMAN, HUMAN], seed=6)
    html = client.get("/matches/").content.decode()
    winner_name = done.seats.get(index=done.winner).display_name
    assert f"{winner_name} won" in html
    assert "Finished" in html and "In progress" in html
    assert reverse("replay", args=[done.pk]) in html
    assert reverse("replay", args=[running.pk]) not in html
    assert reverse("match_detail", args=[running.pk]) in html


def test_match_detail_of_unknown_match_is_404(client):
    assert client.get("/matches/424242/").status_code == 404
    assert client.get("/matches/424242/replay/").status_code == 404


def test_replay_of_an_unfinished_match_is_forbidden(client):
    match = services.create_match("santorini", [HUMAN, RANDOM], seed=6)
    assert client.get(reverse("replay", args=[match.pk])).status_code == 403


def _worker_marks(html: str) -> int:
    # Workers on the board; the legend carries one more mark per seat.
    return html.count('class="worker seat') - 2


@pytest.mark.django_db(transaction=True)  # real commits: agents answer once a move commits
def test_replay_of_a_finished_match_steps_through_the_log(client):
    match = finished_match(seed=9)
    url = reverse("replay", args=[match.pk])
    n_events = match.events.count()

    full = client.get(url)
    assert full.status_code == 200
    html = full.content.decode()
    assert html.lstrip().lower().startswith("<!doctype html>")
    assert 'id="replay"' in html
    assert f"Step {n_events} of {n_events}" in html
    assert "Game over" in html

    start = client.get(url, {"step": 0}).content.decode()
    assert f"Step 0 of {n_events}" in start
    assert _worker_marks(start) == 0

    first_action = match.events.filter(kind=Event.Kind.ACTION).order_by("seq").first()
    step = client.get(url, {"step": 2}).content.decode()
    assert f"Step 2 of {n_events}" in step
    assert first_action.payload["label"] in step
    assert _worker_marks(step) == 1

    four = client.get(url, {"step": 5}).content.decode()
    assert _worker_marks(four) == 4

    # Out-of-range and junk steps are clamped to the ends.
    assert f"Step {n_events} of {n_events}" in client.get(url, {"step": 10_000}).content.decode()
    assert f"Step 0 of {n_events}" in client.get(url, {"step": -3}).content.decode()
    assert f"Step {n_events} of {n_events}" in client.get(url, {"step": "abc"}).content.decode()


@pytest.mark.django_db(transaction=True)  # real commits: agents answer once a move commits
def test_replay_hx_request_returns_the_partial_only(client):
    match = finished_match(seed=10)
    url = reverse("replay", args=[match.pk])
    response = client.get(url, {"step": 1}, headers={"HX-Request": "true"})
    assert response.status_code == 200
    html = response.content.decode()
    assert "<html" not in html.lower()
    assert "<header" not in html
    assert 'id="replay"' not in html
    assert 'class="replay-nav"' in html
    assert "Step 1 of" in html
    assert "Match started" in html
    assert 'class="santorini' in html
