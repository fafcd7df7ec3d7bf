"""Codenames declares team chat: an Operative's line reaches its own team (its Spymaster included) and nobody else,
a Spymaster may read but not write, and the page names the teams Red and Blue."""

from __future__ import annotations

import pytest

from gameplay.models import Event
from gameplay.reads.selectors import chat_page, seat_view
from gameplay.writes import services
from gameplay.writes.services import SeatController, ServiceError

NAMES = {i: f"Player {i + 1}" for i in range(4)}


def new_match():
    return services.create_match("codenames", [SeatController("human")] * 4, seed=3, host_seat=None)


@pytest.mark.django_db
def test_an_operatives_line_is_read_by_its_team_only():
    match = new_match()
    event = services.post_message(match.pk, 2, "I think TREE goes with it")  # Red Operative
    assert event.payload["audience"] == [0, 2]
    readers = {seat: [line.text for line in chat_page(match.pk, seat, NAMES).lines] for seat in (0, 1, 2, 3, None)}
    assert readers[0] == readers[2] == ["I think TREE goes with it"]
    assert readers[1] == readers[3] == readers[None] == []


@pytest.mark.django_db
def test_a_spymaster_may_not_write_and_nothing_is_stored():
    match = new_match()
    before = Event.objects.filter(match=match).count()
    for spymaster in (0, 1):
        with pytest.raises(ServiceError, match="may not write"):
            services.post_message(match.pk, spymaster, "pick the third one")
    assert Event.objects.filter(match=match).count() == before


@pytest.mark.django_db
def test_the_teams_are_named_red_and_blue_on_the_page():
    match = new_match()
    view = seat_view(match, match.seats.get(index=2))
    assert [(row.label, row.seats) for row in view.teams] == [("Red", (0, 2)), ("Blue", (1, 3))]
    assert view.team_chat and view.may_chat
    assert not seat_view(match, match.seats.get(index=0)).may_chat  # the Red Spymaster reads the team chat only
