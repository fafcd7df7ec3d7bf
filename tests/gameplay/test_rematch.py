"""Issue 39, point 3: a rematch with the same players, sides swapped. The first player to ask starts it, every other
player finds it on their finished page and joins; each browser keeps its own seat; agents play again."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from gameplay.models import Match, SeatClaim
from gameplay.writes import follow_ups, match_endings, services
from gameplay.writes.services import SeatController

pytestmark = pytest.mark.django_db
HUMAN = SeatController("human")
RANDOM = SeatController("agent", agent_name="random")


def play_token(response) -> str:
    assert response.status_code == 302, response.status_code
    return re.fullmatch(r"/play/([^/]+)/", response["Location"]).group(1)


def test_against_an_agent_the_person_plays_the_other_side_and_asking_twice_lands_in_the_same_match(client):
    response = client.post("/games/santorini/new/", {"seat_0": "you", "seat_1": "agent:random", "seed": "4",
                                                     "opt_max_turns": "8"})
    first = Match.objects.get()
    match_endings.resign(first.pk, 0)
    page = client.get(f"/play/{play_token(response)}/").content.decode()
    assert "Rematch, sides swapped" in page and "Join the rematch" not in page
    token = play_token(client.post(f"/play/{play_token(response)}/rematch/"))
    rematch = Match.objects.get(rematch_of=first)
    mine = rematch.seats.get(token=token)
    assert mine.index == 1 and mine.controller == "human"  # sides swapped: the person now plays second
    assert rematch.seats.get(index=0).agent_name == "random"
    assert rematch.options == first.options and rematch.seed != first.seed
    assert SeatClaim.objects.get(seat=mine).claimed_at is not None  # held by this browser, as the first seat was
    assert client.get(f"/play/{token}/").status_code == 200
    assert play_token(client.post(f"/play/{play_token(response)}/rematch/")) == token  # the same rematch again
    assert Match.objects.filter(rematch_of=first).count() == 1


def test_two_people_each_land_in_their_own_swapped_seat():
    match = services.create_match("santorini", [HUMAN, HUMAN], seed=2)
    tokens = list(match.seats.order_by("index").values_list("token", flat=True))
    match_endings.resign(match.pk, 1)
    host, guest = Client(), Client()
    started = play_token(host.post(f"/play/{tokens[0]}/rematch/"))
    guest_page = guest.get(f"/play/{tokens[1]}/").content.decode()
    assert "A rematch has started" in guest_page and "Join the rematch" in guest_page
    joined = play_token(guest.post(f"/play/{tokens[1]}/rematch/"))
    rematch = Match.objects.get(rematch_of=match)
    assert rematch.seats.get(token=started).index == 1 and rematch.seats.get(token=joined).index == 0


def test_no_rematch_before_the_end_or_for_a_study_round(client):
    running = services.create_match("santorini", [HUMAN, HUMAN], seed=3)
    token = running.seats.get(index=0).token
    assert client.post(f"/play/{token}/rematch/").status_code == 400
    assert "Rematch" not in client.get(f"/play/{token}/").content.decode()
    private = services.create_match("santorini", [HUMAN, HUMAN], seed=3, private=True)
    with pytest.raises(services.ServiceError, match="study"):
        follow_ups.start_rematch(private.pk)
    assert not Match.objects.filter(rematch_of__isnull=False).exists()
