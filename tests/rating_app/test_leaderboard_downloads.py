"""Leaderboard downloads (CSV, JSON) and the platform source's filters, pinned runs and one-game numbers."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest
from django.urls import reverse

from rating_app.models import RatingRun
from tests.rating_app.factories import finished, small_league
from tests.rating_app.leaderboard_support import GAMEBENCH_AGENTS, assert_png, html_of, image_urls, row_agents, tables

# small_bootstrap, compute and gamebench: tests/rating_app/conftest.py
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("small_bootstrap")]


# --- downloads -----------------------------------------------------------------------------


def test_csv_download_has_one_row_per_scope_and_agent(gamebench, client):
    response = client.get(reverse("ratings:csv") + "?source=gamebench")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert response["Content-Disposition"].startswith('attachment; filename="ratings-gamebench-')
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    run = RatingRun.objects.get(source="gamebench")
    assert list(rows[0]) == [
        "scope", "agent", "rating", "low", "high", "rank", "rank_low", "rank_high", "average_score", "matches",
    ]
    assert len(rows) == sum(len(s["ratings"]) for s in run.result["scopes"].values())
    overall = [r for r in rows if r["scope"] == "overall"]
    assert {r["agent"] for r in overall} == GAMEBENCH_AGENTS
    first = overall[0]
    assert first["rank"] == "1" and float(first["low"]) <= float(first["rating"]) <= float(first["high"])
    assert {r["scope"] for r in rows} == {"overall", *run.result["games"]}


def test_json_download_is_the_result_with_provenance(gamebench, client):
    response = client.get(reverse("ratings:json") + "?source=gamebench")
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment;")
    data = json.loads(response.content)
    run = RatingRun.objects.get(source="gamebench")
    assert data["result"] == run.result
    p = data["provenance"]
    assert p["run"] == run.pk and p["source"] == "gamebench" and p["n_matches"] == 277
    assert p["bootstrap"] == 200 and p["seed"] == 0 and p["ties"] == "skip"
    assert p["match_fingerprint"] == run.match_fingerprint and p["library_version"] == run.library_version
    assert p["data_license"].startswith("CC-BY")


def test_downloads_of_an_empty_selection(compute, client):
    assert client.get(reverse("ratings:csv")).status_code == 404  # nothing stored yet: nothing to download
    compute()
    rows = list(csv.reader(io.StringIO(client.get(reverse("ratings:csv")).content.decode())))
    assert len(rows) == 1  # header only
    data = json.loads(client.get(reverse("ratings:json")).content)
    assert data["result"] is None and "no finished matches" in data["provenance"]["error"]


# --- platform source and filters ------------------------------------------------------------


def test_platform_leaderboard_with_filters(compute, client):
    small_league()
    html = compute()
    assert set(row_agents(tables(html)[0])) == {"human", "random", "greedy"}
    assert 'data-game="hex"' in html and ">Hex</th>" in html and 'data-game="santorini"' in html

    html = compute("/ratings/?source=platform&games=hex")
    assert set(row_agents(tables(html)[0])) == {"human", "random"}
    assert "games: Hex" in html  # provenance states the selection
    assert "checked" in re.search(r'<input[^>]*value="hex"[^>]*>', html).group(0)
    assert "checked" not in re.search(r'<input[^>]*value="santorini"[^>]*>', html).group(0)

    html = compute("/ratings/?source=platform&agents=random&agents=greedy")
    assert set(row_agents(tables(html)[0])) == {"random", "greedy"}
    for url in image_urls(html):
        assert_png(client.get(url))


def test_links_carry_the_selection(compute, client):
    small_league()
    html = compute("/ratings/?source=platform&games=santorini&since=2000-01-01")
    run = RatingRun.objects.get()
    assert run.filters == {"games": ["santorini"], "agents": [], "since": "2000-01-01", "until": None}
    for url in image_urls(html):
        assert "games=santorini" in url and "since=2000-01-01" in url and f"run={run.pk}" in url
    csv_url = re.search(r'href="(/ratings/ratings\.csv\?[^"]+)"', html).group(1).replace("&amp;", "&")
    rows = list(csv.DictReader(io.StringIO(client.get(csv_url).content.decode())))
    assert {r["scope"] for r in rows} == {"overall", "santorini"}


def test_pinned_run_keeps_figures_and_downloads_consistent(compute, client):
    small_league()
    compute()
    first = RatingRun.objects.get()
    finished(["human", "random"], [1.0, 0.0])  # a match finishes after the page was rendered
    compute()  # and someone has the ratings recomputed
    data = json.loads(client.get(reverse("ratings:json") + f"?source=platform&run={first.pk}").content)
    assert data["provenance"]["run"] == first.pk and data["provenance"]["n_matches"] == 9
    # Without the pin, the newest stored run.
    data = json.loads(client.get(reverse("ratings:json") + "?source=platform").content)
    assert data["provenance"]["n_matches"] == 10
    # A pin for another selection is not used.
    compute("/ratings/?source=platform&games=hex")
    data = json.loads(client.get(reverse("ratings:json") + f"?source=platform&games=hex&run={first.pk}").content)
    assert data["provenance"]["run"] != first.pk and data["provenance"]["n_matches"] == 2


def test_invalid_filters_are_reported_and_ignored(compute, client):
    small_league()
    html = compute("/ratings/?source=platform&since=yesterday&games=nope")
    assert "Some filters were not valid" in html
    assert "Enter a valid date." in html
    assert set(row_agents(tables(html)[0])) == {"human", "random", "greedy"}
    html = html_of(client.get("/ratings/?source=platform&since=2030-01-02&until=2030-01-01"))
    assert "The end date is before the start date." in html


def test_platform_scope_page(compute, client):
    small_league()
    html = compute("/ratings/scope/santorini/?source=platform")  # the button of a game's page
    assert "<h1>Santorini" in html
    for url in image_urls(html):
        assert_png(client.get(url))


GAMEBENCH_FILE = __import__("pathlib").Path(__file__).resolve().parents[2] / "fixtures" / "gamebench_matches.json"


@pytest.mark.parametrize(
    "game",
    [
        "air_land_sea",
        "arctic_scavengers",
        "are_you_the_traitor",
        "codenames",
        "hive",
        "pit",
        "santorini",
        "sea_battle",
        "two_rooms_and_a_boom",
    ],
)
def test_one_game_only_numbers_land_under_that_game(compute, client, game):
    """Platform data holding one game only: the average-score table has that game's column (and
    Overall) and nothing else, each cell is that agent's mean score in that game, and the only per-game
    section is that game's."""
    records = [r for r in json.loads(GAMEBENCH_FILE.read_text()) if r["game"] == game]
    for r in records:
        agents = [k for k in r if k != "game"]
        finished(agents, [r[a] for a in agents], game=game)
    html = compute("/ratings/?source=platform")
    scores = next(t for t in tables(html) if "Average score by agent and game" in t)
    headers = re.findall(r'<th scope="col" class="num" data-game="([^"]+)"', scores)
    assert headers == [game, "overall"]
    for agent in {a for r in records for a in r if a != "game"}:
        played = [r[agent] for r in records if agent in r]
        row = re.search(rf'<th scope="row" class="agent">{re.escape(agent)}</th>(.*?)</tr>', scores, flags=re.S)
        cells = re.findall(r'<td class="num">(.*?)</td>', row.group(1))
        assert cells[0] == cells[1], (agent, cells)  # the game's column and Overall: the same matches
        assert float(cells[0]) == pytest.approx(sum(played) / len(played), abs=0.0006), (agent, cells)
    assert re.findall(r'<h3 id="game-([^"]+)"', html) == [game]
