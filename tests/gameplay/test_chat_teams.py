"""Team chat (GameSpec.team_chat) and public teams through the platform, on a throwaway four-seat team game
(tests/support/team_game.py, registered here only): the service refuses a seat the engine mutes and stores each
line's audience; the pages, the replays and each seat's websocket show a team's line to that team only (never to
the other team or to spectators); the page calls the box "Team chat", read-only for a muted seat, and shows the
teams. A game without team chat keeps its lines everyone's."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async

from gameplay.engines import registry
from gameplay.models import Event, Match
from gameplay.reads.selectors import chat_page, replay_frames, seat_view
from gameplay.writes import services
from gameplay.writes.services import SeatController, ServiceError
from tests.gameplay.ws_support import TIMEOUT, close_all, connect, receive_until
from tests.support.team_game import TeamRaceGame

HUMAN = SeatController("human")
NAMES = {0: "North", 1: "East", 2: "South", 3: "West"}
TEAM_LINE = "we go left, partner"


@pytest.fixture
def team_race(monkeypatch):
    monkeypatch.setitem(registry.GAMES, TeamRaceGame.spec.id, TeamRaceGame)
    return TeamRaceGame


def new_match() -> Match:
    return services.create_match(TeamRaceGame.spec.id, [HUMAN] * 4, seed=1, host_seat=None)


def token(match: Match, index: int) -> str:
    return match.seats.get(index=index).token


# --- the service -------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_muted_seat_is_refused_and_nothing_is_stored(team_race):
    match = new_match()
    before = Event.objects.filter(match=match).count()
    with pytest.raises(ServiceError, match="may not write in the team chat"):
        services.post_message(match.pk, 2, "can I say something?")
    assert Event.objects.filter(match=match).count() == before


@pytest.mark.django_db
def test_a_team_line_keeps_its_audience(team_race):
    match = new_match()
    event = services.post_message(match.pk, 0, TEAM_LINE)
    assert event.payload == {"text": TEAM_LINE, "audience": [0, 2]}
    assert services.post_message(match.pk, 1, "east here").payload["audience"] == [1, 3]


@pytest.mark.django_db
def test_a_game_without_team_chat_stores_no_audience():
    match = services.create_match("gnomes", [HUMAN, HUMAN], seed=1, host_seat=None)
    assert "audience" not in services.post_message(match.pk, 0, "hello").payload
    assert [line.text for line in chat_page(match.pk, None, {}).lines] == ["hello"]


# --- reading: chat pages, views, replays ---------------------------------------------------------------------


@pytest.mark.django_db
def test_a_team_line_is_read_by_its_team_only(team_race):
    match = new_match()
    services.post_message(match.pk, 0, TEAM_LINE)
    readers = {seat: [line.text for line in chat_page(match.pk, seat, NAMES).lines] for seat in (0, 1, 2, 3, None)}
    assert readers == {0: [TEAM_LINE], 1: [], 2: [TEAM_LINE], 3: [], None: []}


@pytest.mark.django_db
def test_pages_say_team_chat_and_a_muted_seat_reads_only(client, team_race):
    match = new_match()
    services.post_message(match.pk, 0, TEAM_LINE)
    view = seat_view(match, match.seats.get(index=2))
    assert view.team_chat and not view.may_chat
    assert seat_view(match, match.seats.get(index=0)).may_chat
    talker = client.get(f"/play/{token(match, 0)}/").content.decode()
    assert "Team chat" in talker and TEAM_LINE in talker and "chat-read-only" not in talker
    listener = client.get(f"/play/{token(match, 2)}/").content.decode()
    assert "Team chat" in listener and TEAM_LINE in listener
    assert "chat-read-only" in listener and 'id="chat-text"' in listener and "disabled" in listener
    assert 'value="chat"' not in listener and 'value="chat"' in talker  # the muted box sends no chat frame
    other_team = client.get(f"/play/{token(match, 1)}/").content.decode()
    assert TEAM_LINE not in other_team
    assert TEAM_LINE not in client.get(f"/matches/{match.pk}/").content.decode()


@pytest.mark.django_db
def test_the_page_shows_the_seats_team_and_spectators_see_the_teams(client, team_race):
    match = new_match()
    view = seat_view(match, match.seats.get(index=0))
    assert view.my_team.label == "Team 1" and view.teammates == ("South",)
    seat_page = client.get(f"/play/{token(match, 0)}/").content.decode()
    assert "You play in Team 1 with South." in seat_page
    public = client.get(f"/matches/{match.pk}/").content.decode()
    assert "Team 1: North, South" in public and "Team 2: East, West" in public


@pytest.mark.django_db
def test_games_without_teams_to_show_show_none(client):
    match = services.create_match("santorini", [HUMAN, HUMAN], seed=1, host_seat=None)
    assert seat_view(match, None).teams == [] and seat_view(match, match.seats.get(index=0)).my_team is None
    assert "You play in" not in client.get(f"/play/{token(match, 0)}/").content.decode()


@pytest.mark.django_db
def test_replays_show_a_team_line_to_its_team_only(client, team_race):
    match = new_match()
    services.post_message(match.pk, 0, TEAM_LINE)
    services.submit_action(match.pk, 0, "claim", expected_version=match.version)
    assert Match.objects.get(pk=match.pk).status == Match.Status.FINISHED
    match.refresh_from_db()

    def said(viewer):
        return [f.event.payload["text"] for f in replay_frames(match, viewer) if f.event and f.event.kind == "message"]

    assert said(0) == said(2) == [TEAM_LINE]
    assert said(1) == said(3) == said(None) == []
    step = next(n for n, f in enumerate(replay_frames(match, 2)) if f.event and f.event.kind == "message")
    assert TEAM_LINE in client.get(f"/play/{token(match, 2)}/replay/?step={step}").content.decode()
    other = client.get(f"/play/{token(match, 1)}/replay/").content.decode()
    public = client.get(f"/matches/{match.pk}/replay/").content.decode()
    assert TEAM_LINE not in other and TEAM_LINE not in public


# --- the websocket --------------------------------------------------------------------------------------------


@database_sync_to_async
def new_socket_match() -> tuple[int, list[str]]:
    match = new_match()
    return match.pk, list(match.seats.order_by("index").values_list("token", flat=True))


@pytest.mark.django_db(transaction=True)
async def test_each_socket_gets_only_the_lines_it_may_read(layer, team_race):
    match_id, tokens = await new_socket_match()
    sender, _ = await connect(tokens[0])
    other_team, _ = await connect(tokens[1])
    teammate, _ = await connect(tokens[2])
    try:
        await sender.send_to(text_data=json.dumps({"kind": "chat", "text": TEAM_LINE}))
        assert TEAM_LINE in await receive_until(sender, lambda html: TEAM_LINE in html)
        assert TEAM_LINE in await receive_until(teammate, lambda html: TEAM_LINE in html)
        assert await other_team.receive_nothing(timeout=1)
        await teammate.send_to(text_data=json.dumps({"kind": "chat", "text": "listener speaking"}))
        refused = await teammate.receive_from(timeout=TIMEOUT)
        assert "may not write in the team chat" in refused and "Nothing was sent" in refused
    finally:
        await close_all(sender, other_team, teammate)
