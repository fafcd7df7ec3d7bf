"""Replays and match lists say how a match ended in words, and list its moves (issue 16, point 6)."""

from __future__ import annotations

import random
import re

import pytest
from django.test import Client
from django.urls import reverse

from gameplay.models import Event, Match
from gameplay.reads.selectors import public_result, state_of
from gameplay.writes import services

pytestmark = pytest.mark.django_db

HUMAN = services.SeatController("human")


@pytest.fixture
def finished() -> Match:
    match = services.create_match("santorini", [HUMAN, HUMAN], seed=5, schedule_agents=False)
    rng = random.Random(1)
    while match.status == Match.Status.ACTIVE:
        state = state_of(match)
        seat = state.current_seats()[0]
        action = rng.choice(state.legal_actions(seat))
        match = services.submit_action(match.pk, seat, action.id, expected_version=match.version)
    return match


def test_the_replay_says_who_won_and_lists_every_move(finished):
    html = Client().get(reverse("replay", args=[finished.pk])).content.decode()
    winner = finished.seats.get(index=finished.winner).display_name
    assert public_result(finished) == f"{winner} won."
    assert f"Game over · {winner} won." in html and "scores [" not in html
    actions = Event.objects.filter(match=finished, kind=Event.Kind.ACTION).count()
    moves = re.findall(r'<li><a href="\?step=(\d+)"', html)
    assert len(moves) == actions and moves == sorted(moves, key=int)


def test_the_current_step_is_marked_in_the_move_list(finished):
    html = Client().get(reverse("replay", args=[finished.pk]), {"step": 3}).content.decode()
    assert html.count('aria-current="step"') == 1
    assert 'href="?step=3" hx-get="?step=3" hx-push-url="true" aria-current="step"' in html


def test_the_match_list_gives_the_result_in_words(finished):
    running = services.create_match("santorini", [HUMAN, HUMAN], seed=6, schedule_agents=False)
    html = Client().get(reverse("match_list")).content.decode()
    assert public_result(finished) in html
    assert public_result(running) is None


def test_the_match_list_names_each_seat_once(finished):
    html = Client().get(reverse("match_list")).content.decode()
    assert "Player 1 (a person) vs Player 2 (a person)" in html and "Player 1 (Player 1)" not in html
