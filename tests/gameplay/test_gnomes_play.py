"""Gnomes at Night on the platform: chat kept in the engine state, rounds in sequence, per-seat HTML
that shows only the seat's own walls and a treasure only to the side that sees it, live play over the
websocket (in-memory and Redis layers)."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from gameplay.engines.gnomes.layouts import default_layouts
from gameplay.models import Event, Match
from gameplay.reads.selectors import seat_view, state_of
from gameplay.writes import follow_ups, services
from gameplay.writes.services import SeatController
from tests.gameplay.gnomes_play_support import HUMAN, SIDE_WALLS, drawn_walls, move, two_humans
from tests.gameplay.ws_support import ORIGIN, TIMEOUT, close_all, connect, receive_until


def treasure_of(round_number: int):
    spec = default_layouts().round(round_number)
    return spec.treasure, spec.seen_by


@pytest.mark.django_db
class TestChatAndRounds:
    def test_a_message_reaches_both_observations_without_taking_a_turn(self):
        match = two_humans()
        services.post_message(match.pk, 0, "  can you go down?  ")
        match.refresh_from_db()
        state = state_of(match)
        for seat in (0, 1):
            assert state.observation(seat).data["chat"] == [{"seat": 0, "text": "can you go down?", "turn": 0}]
        assert match.version == 0 and state.current_seats() == [0]
        assert Event.objects.filter(match=match, kind=Event.Kind.MESSAGE).count() == 1

    def test_an_overlong_message_is_refused_and_changes_nothing(self):
        match = two_humans()
        before = (match.state, Event.objects.filter(match=match).count())
        with pytest.raises(services.ServiceError, match="500"):
            services.post_message(match.pk, 1, "x" * 600)
        match.refresh_from_db()
        assert (match.state, Event.objects.filter(match=match).count()) == before

    @pytest.mark.django_db(transaction=True)  # real commits: agents answer once a move commits
    def test_next_round_continues_the_sequence_with_the_same_players(self):
        agent = SeatController("agent", agent_name="random")
        match = services.create_match("gnomes", [HUMAN, agent], seed=9, options={"turn_cap": 2})
        with pytest.raises(services.ServiceError, match="not over"):
            follow_ups.start_next_round(match.pk)
        move(match, 0, "stay")  # the random agent answers at once (eager Celery): the cap of 2 is reached
        match.refresh_from_db()
        assert match.status == Match.Status.FINISHED
        following = follow_ups.start_next_round(match.pk)
        assert follow_ups.start_next_round(match.pk).pk == following.pk  # both players land in the same match
        assert following.options["round"] == 2 and following.previous_round_id == match.pk
        assert [(s.controller, s.agent_name) for s in following.seats.order_by("index")] == [
            ("human", ""),
            ("agent", "random"),
        ]
        view = seat_view(match, match.seats.get(index=0))
        assert view.rounds.next_token == following.seats.get(index=0).token
        assert seat_view(following, following.seats.get(index=0)).rounds.number == 2

    def test_there_is_no_round_after_the_fifth(self):
        match = two_humans(round=5, turn_cap=1)
        move(match, 0, "stay")
        with pytest.raises(services.ServiceError, match="last round"):
            follow_ups.start_next_round(match.pk)

    def test_the_next_round_page_takes_a_post_and_redirects_to_my_seat(self):
        match = two_humans(turn_cap=1)
        client = Client()
        seat = match.seats.get(index=1)
        url = reverse("next_round", kwargs={"token": seat.token})
        assert client.get(url).status_code == 405
        assert client.post(url).status_code == 400  # not over yet
        move(match, 0, "right")
        response = client.post(url)
        following = Match.objects.get(previous_round=match)
        assert response.status_code == 302
        assert response["Location"] == reverse("play", kwargs={"token": following.seats.get(index=1).token})
        assert client.post(reverse("next_round", kwargs={"token": "nope"})).status_code == 404


@pytest.mark.django_db
@pytest.mark.parametrize("round_number", [1, 2, 3, 4, 5])
def test_each_seats_page_draws_only_its_own_walls_and_a_treasure_it_can_see(round_number):
    match = two_humans(round=round_number)
    treasure, seeing_side = treasure_of(round_number)
    client = Client()
    for seat in (0, 1):
        html = client.get(reverse("play", kwargs={"token": match.seats.get(index=seat).token})).content.decode()
        assert drawn_walls(html) == set(SIDE_WALLS[seat])
        other_only = set(SIDE_WALLS[1 - seat]) - set(SIDE_WALLS[seat])
        assert not drawn_walls(html) & other_only
        label = f"Treasure at column {treasure[0] + 1}, row {treasure[1] + 1}"
        assert (label in html) is (seat == seeing_side)
        assert ('class="treasure"' in html) is (seat == seeing_side)


@pytest.mark.django_db
def test_the_maze_is_numbered_as_the_agent_and_the_labels_count():
    """Columns 1-9 along the top and rows 1-9 down the left (issue 16.4: the agent says "column 7, row 3"), at
    the centres of the cells the token label counts from: the token's cell is where its numbers meet."""
    match = two_humans(round=1)
    html = Client().get(reverse("play", kwargs={"token": match.seats.get(index=0).token})).content.decode()
    coords = re.search(r'<g class="coords"[^>]*>(.*?)</g>', html).group(1)
    top = {n: float(x) for x, n in re.findall(r'<text x="([\d.]+)" y="-[\d.]+">(\d+)</text>', coords)}
    left = {n: float(y) for y, n in re.findall(r'<text x="-[\d.]+" y="([\d.]+)">(\d+)</text>', coords)}
    assert sorted(map(int, top)) == sorted(map(int, left)) == list(range(1, 10))
    token = re.search(r'<circle cx="([\d.]+)" cy="([\d.]+)" r="0.3" class="token"/>', html)
    column, row = re.search(r"Token at column (\d+), row (\d+)", html).groups()
    assert (top[column], left[row]) == (float(token.group(1)), float(token.group(2)))


@pytest.mark.django_db(transaction=True)
async def test_moves_and_chat_over_the_websocket(layer):
    from channels.db import database_sync_to_async

    match = await database_sync_to_async(two_humans)()
    tokens = await database_sync_to_async(lambda: list(match.seats.order_by("index").values_list("token", flat=True)))()
    (a, a_html), (b, b_html) = await connect(tokens[0]), await connect(tokens[1])
    try:
        assert "Your move" in a_html and "Your partner" in b_html
        await a.send_to(text_data=json.dumps({"kind": "chat", "text": "go down please"}))
        html = await receive_until(b, lambda h: "go down please" in h)
        assert "go down please" in html
        await a.send_to(text_data=json.dumps({"kind": "action", "action_id": "down", "version": 0}))
        html = await receive_until(b, lambda h: 'data-turn="1"' in h)
        assert "Your move" in html and "Your partner moved down." in html
        # Out of turn: a clear error, nothing changes.
        await a.send_to(text_data=json.dumps({"kind": "action", "action_id": "down", "version": 1}))
        html = await receive_until(a, lambda h: 'class="flash error"' in h)
        assert "not" in html.lower()
    finally:
        await close_all(a, b)
    assert ORIGIN and TIMEOUT


@pytest.mark.django_db
def test_with_chat_off_a_message_is_refused_and_nothing_is_stored():
    match = two_humans(chat=False)
    with pytest.raises(services.ServiceError, match="chat is off"):
        services.post_message(match.pk, 0, "go down")
    assert not Event.objects.filter(match=match, kind=Event.Kind.MESSAGE).exists()
