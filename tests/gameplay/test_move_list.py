"""Issue 39, point 3: a move list beside the board, newest first, each line worded for the seat that reads it (its
own labels: another seat's hidden cards never appear), on the seat's page and in every frame its socket sends; a
realtime game has none."""

from __future__ import annotations

import random
import re
from html import unescape

import pytest

from gameplay.capabilities.move_list import MOVE_LIST_LENGTH
from gameplay.models import Event, Match
from gameplay.reads import selectors
from gameplay.writes import services
from gameplay.writes.services import SeatController

pytestmark = pytest.mark.django_db
HUMAN = SeatController("human")


def move_lines(html: str) -> list[tuple[int, str, bool]]:
    section = re.search(r'<section id="moves".*?</section>', html, re.S)
    assert section, "no move list on the page"
    return [
        (int(number), " ".join(unescape(re.sub(r"<[^>]+>", "", text)).split()), "mine" in (attrs or ""))
        for number, attrs, text in re.findall(r'<li value="(\d+)"( class="mine")?>(.*?)</li>', section.group(0), re.S)
    ]


def play_random(match: Match, steps: int, seed: int = 0) -> None:
    """Random legal structured actions of the seats to move, through the match service."""
    rng = random.Random(seed)
    for _ in range(steps):
        match.refresh_from_db()
        state = selectors.state_of(match)
        if state.is_terminal():
            return
        seat = rng.choice(state.current_seats())
        actions = state.legal_actions(seat)
        if not actions:
            return
        services.submit_action(match.pk, seat, rng.choice(actions).id, expected_version=match.version)


def test_the_move_list_is_newest_first_and_marks_the_seats_own_moves(client):
    match = services.create_match("santorini", [HUMAN, HUMAN], seed=3)
    host = match.seats.get(index=0)
    html = client.get(f"/play/{host.token}/").content.decode()
    assert "No moves yet." in html and move_lines(html) == []
    play_random(match, 5)
    lines = move_lines(client.get(f"/play/{host.token}/").content.decode())
    events = list(match.events.filter(kind=Event.Kind.ACTION).order_by("-seq"))
    assert [n for n, _, _ in lines] == [e.version for e in events] == [5, 4, 3, 2, 1]
    assert [mine for _, _, mine in lines] == [e.seat == 0 for e in events]
    for (_, text, _), event in zip(lines, events, strict=True):
        assert text.endswith(event.payload["labels"][0]), (text, event.payload)


def test_each_seat_reads_the_moves_in_its_own_words_and_never_anothers_secret():
    """Pit: a trade's cards are worded for each seat (a trader learns what it got; the others only that cards
    changed hands); every seat's list equals its own labels, and some line differs between seats."""
    match = services.create_match("pit", [HUMAN, HUMAN, HUMAN], seed=2)
    play_random(match, 40, seed=2)
    events = list(match.events.filter(kind=Event.Kind.ACTION).order_by("-seq")[:MOVE_LIST_LENGTH])
    assert any(len(set(e.payload["labels"])) > 1 for e in events), "no move is worded differently per seat"
    for seat in match.seats.order_by("index"):
        view = selectors.seat_view(match, seat)
        assert [line.number for line in view.moves] == [e.version for e in events]
        for line, event in zip(view.moves, events, strict=True):
            assert line.text.endswith(event.payload["labels"][seat.index]), (seat.index, line, event.payload)
            for other, label in enumerate(event.payload["labels"]):
                if other != seat.index and label != event.payload["labels"][seat.index]:
                    assert label not in line.text or label in event.payload["labels"][seat.index]


def test_the_list_keeps_the_newest_moves_only():
    match = services.create_match("santorini", [HUMAN, HUMAN], seed=4)
    play_random(match, MOVE_LIST_LENGTH + 6, seed=4)
    match.refresh_from_db()
    view = selectors.seat_view(match, match.seats.get(index=1))
    assert len(view.moves) == min(MOVE_LIST_LENGTH, match.version)
    assert view.moves[0].number == match.version


def test_a_realtime_game_has_no_move_list(client):
    match = services.create_match("atari_boxing", [HUMAN, HUMAN], seed=1)
    view = selectors.seat_view(match, match.seats.get(index=0))
    assert view.moves is None
    html = client.get(f"/play/{match.seats.get(index=0).token}/").content.decode()
    assert 'id="moves"' not in html
