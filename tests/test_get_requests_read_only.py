"""No view that answers GET writes to the database.

Every route of the site (the admin aside) is requested with GET by an anonymous visitor, a participant in the
middle of a study and a staff member, over a database holding matches, study rounds, a tournament and stored
rating runs. A database wrapper records every statement; any INSERT, UPDATE or DELETE fails the test, and so
does a route the test never requested (a new view is covered the day it is added).
"""

from __future__ import annotations

import random
import re

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, resolve

from agents_app.models import Tournament
from gameplay.models import Match
from gameplay.reads.selectors import state_of
from gameplay.studies.models import Participant, Study
from gameplay.writes import seat_claims, services
from gameplay.writes.services import SeatController
from rating_app.services import leaderboard
from tests.support.db_writes import WriteRecorder
from tests.support.presets import load_gnomes_preset

pytestmark = pytest.mark.django_db

HUMAN = SeatController("human")
def route_names(resolver=None, prefix="") -> set[str]:
    """Every named route outside the admin, as "namespace:name"."""
    names = set()
    for entry in (resolver or get_resolver()).url_patterns:
        if isinstance(entry, URLResolver):
            if entry.namespace == "admin":
                continue
            space = f"{prefix}{entry.namespace}:" if entry.namespace else prefix
            names |= route_names(entry, space)
        elif isinstance(entry, URLPattern) and entry.name:
            names.add(prefix + entry.name)
    return names


def played_out(game_id: str, *, seed: int, private: bool = False, seats=(HUMAN, HUMAN)) -> Match:
    """A finished match, every move (agent seats' too) submitted here through the match service."""
    match = services.create_match(
        game_id, list(seats), seed=seed, host_seat=None, private=private, schedule_agents=False
    )
    rng = random.Random(seed)
    while match.status == Match.Status.ACTIVE:
        state = state_of(match)
        seat = state.current_seats()[0]
        match = services.submit_action(
            match.pk, seat, rng.choice(state.legal_actions(seat)).id, expected_version=match.version,
            schedule_agents=False,
        )
    return match


def links_on(html: str) -> list[str]:
    """Same-site links and htmx GET targets on a page."""
    found = re.findall(r'(?:href|hx-get|src)="(/[^"#]*)"', html)
    return [url.replace("&amp;", "&") for url in found if not url.startswith("/static/")]


@pytest.fixture
def world(client):
    """Matches, a study with a participant mid-round, a tournament and the clients that look at them."""
    public = played_out("santorini", seed=3)
    for seed in range(4):  # people against the random agent: something for the leaderboard to rate
        played_out("santorini", seed=10 + seed, seats=(HUMAN, SeatController("agent", agent_name="random")))
    live_hive = services.create_match("hive", [HUMAN, HUMAN], seed=1, host_seat=None)
    load_gnomes_preset("--open")
    Study.objects.filter(slug="gnomes-seeds003").update(assignment=Study.Assignment.URL)
    participant = Client()
    # Consent, instructions and the first round through the real pages (POSTs may write; GETs may not).
    response = participant.post(
        "/s/gnomes-seeds003/consent/", {"PROLIFIC_PID": "pid0001", "condition": "comm", "agree": "1"}
    )
    assert response.status_code == 302
    instructions = response["Location"]
    response = participant.post(instructions)
    assert response.status_code == 302
    participant.post(response["Location"])  # a "start round" form, where the round page has one
    staff = Client()
    staff.force_login(get_user_model().objects.create_user("researcher", password="x", is_staff=True))
    tournament = Tournament.objects.create(
        key="t" * 64, game_id="santorini", agents=["random", "gnomes-mute"], matches_per_pair=1, seed=1
    )
    leaderboard("platform", {})  # a stored run, so the rating pages link to its scopes, plots and downloads
    token = Participant.objects.get(prolific_pid="pid0001").token
    invited = services.create_match("santorini", [HUMAN, HUMAN], seed=2, host_seat=0)
    invite_token = seat_claims.create_claims(invited, host_seat=0)[1].token
    return {
        "public": public, "hive": live_hive, "tournament": tournament, "participant_token": token,
        "invite_token": invite_token, "invited": invited,
        "anonymous": client, "participant": participant, "staff": staff,
    }


def crawl(browser: Client, start: list[str], recorder: WriteRecorder, seen: set[str], limit: int = 400) -> None:
    """GET every page reachable by same-site links from ``start`` (once each), recording writes."""
    queue = list(start)
    while queue and len(seen) < limit:
        url = queue.pop(0)
        if url in seen or url.startswith("/admin/"):
            continue
        seen.add(url)
        recorder.label = f"GET {url}"
        with connection.execute_wrapper(recorder):
            response = browser.get(url)
        assert response.status_code < 500, (url, response.status_code)
        if response.status_code in (301, 302) and response["Location"].startswith("/"):
            queue.append(response["Location"])
        content_type = response.get("Content-Type", "")
        if "html" in content_type and not getattr(response, "streaming", False):
            queue.extend(links_on(response.content.decode()))


def test_no_get_request_writes_and_every_route_is_requested(world):
    recorder = WriteRecorder()
    seen: set[str] = set()
    public, hive = world["public"], world["hive"]
    seat = hive.seats.get(index=0)
    starts = [
        "/", "/matches/", f"/matches/{public.pk}/", f"/matches/{public.pk}/replay/?step=2",
        f"/matches/{public.pk}/transcripts.jsonl", f"/matches/{hive.pk}/board.png", f"/play/{seat.token}/",
        f"/play/{seat.token}/board.png", f"/play/{seat.token}/observation.json", f"/play/{seat.token}/next-round/",
        f"/play/{seat.token}/agent-way-out/", f"/play/{seat.token}/time-up/", f"/play/{seat.token}/resign/",
        f"/play/{seat.token}/abort/", f"/play/{seat.token}/rematch/",
        f"/play/{seat.token}/draw/", f"/play/{seat.token}/replay/",
        "/games/santorini/new/", "/ratings/", "/tournaments/", "/studies/", "/s/gnomes-seeds003/",
        "/s/gnomes-seeds003/consent/", "/s/gnomes-seeds003/declined/",
        f"/tournaments/{world['tournament'].pk}/progress/", f"/matches/{public.pk}/events/2/transcript/",
        f"/invite/{world['invite_token']}/", f"/open-games/{world['invited'].pk}/join/",
    ]
    # Every participant page, whatever step the participant is at (a wrong step redirects to the right one).
    mine = f"/s/gnomes-seeds003/p/{world['participant_token']}/"
    starts += [mine] + [
        mine + page for page in ("instructions/", "comprehension/", "survey/", "complete/", "ended/", "screened/",
                                 "round/1/", "round/1/status/", "round/1/continue/", "round/1/start/", "wait/1/",
                                 "wait/1/status/", "heartbeat/")
    ]
    for who in ("anonymous", "participant", "staff"):
        crawl(world[who], starts, recorder, seen_by := set())
        seen |= seen_by
    assert recorder.writes == [], f"GET requests wrote to the database: {recorder.writes[:5]}"
    requested = set()
    for url in seen:
        try:
            requested.add(resolve(url.split("?")[0]).view_name)
        except Exception:
            continue
    missing = route_names() - requested
    assert not missing, f"routes never requested by this test: {sorted(missing)}"


def test_the_recorder_catches_a_write():
    recorder = WriteRecorder()
    with connection.execute_wrapper(recorder):
        get_user_model().objects.create_user("someone", password="x")
    assert recorder.writes and "INSERT" in recorder.writes[0]
