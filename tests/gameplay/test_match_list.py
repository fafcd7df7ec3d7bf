"""Issue 39, point 7: the match list names games as people do and pages through the matches, newest first."""

from __future__ import annotations

import re

import pytest

from gameplay.reads.selectors import MATCHES_PER_PAGE
from gameplay.writes import services
from gameplay.writes.services import SeatController

pytestmark = pytest.mark.django_db
HUMAN = SeatController("human")


def listed_ids(html: str) -> list[int]:
    return [int(n) for n in re.findall(r"<tr>\s*<td>(\d+)</td>", html)]


def test_the_list_pages_through_every_match_newest_first_with_game_names(client):
    created = [services.create_match("air_land_sea", [HUMAN, HUMAN], seed=n, schedule_agents=False).pk
               for n in range(MATCHES_PER_PAGE + 3)]
    first = client.get("/matches/").content.decode()
    assert listed_ids(first) == created[::-1][:MATCHES_PER_PAGE]
    assert "<td>Air, Land &amp; Sea</td>" in first and "<td>air_land_sea</td>" not in first
    assert 'href="?page=2" rel="next"' in first and "Page 1 of 2" in first
    second = client.get("/matches/?page=2").content.decode()
    assert listed_ids(second) == created[::-1][MATCHES_PER_PAGE:]
    assert 'href="?page=1" rel="prev"' in second and 'rel="next"' not in second
    for wrong in ("99", "0", "x"):  # the nearest page, never an error
        assert client.get(f"/matches/?page={wrong}").status_code == 200


def test_a_short_list_has_no_page_links(client):
    services.create_match("santorini", [HUMAN, HUMAN], seed=1, schedule_agents=False)
    html = client.get("/matches/").content.decode()
    assert "<td>Santorini</td>" in html and "Page 1" not in html
