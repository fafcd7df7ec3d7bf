"""Leaderboard pages, figures and downloads over HTTP.

Pages only read stored runs; a run is computed when someone presses the page's button (a POST to the same
URL), which queues the Celery task: eager here, so it is stored by the time the page is shown again.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from PIL import Image

from rating_app import selectors, services, tasks
from rating_app.models import RatingRun, RefreshRequest
from rating_app.ratings import RatingInputError
from tests.rating_app.factories import finished, small_league
from tests.support.db_writes import writes_during

pytestmark = pytest.mark.django_db

GAMEBENCH_AGENTS = {"gpt-3", "gpt-3-cot", "gpt-4", "gpt-4-cot", "gpt-4-rap", "human", "random"}
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(autouse=True)
def small_bootstrap(settings):
    settings.RATING_BOOTSTRAP = 200


def html_of(response) -> str:
    assert response.status_code == 200
    return response.content.decode()


@pytest.fixture
def compute(client, django_capture_on_commit_callbacks):
    """Press a page's compute button (a POST to the page itself); returns the page shown after it.

    The request's commit runs the on-commit callbacks (the test's own transaction never commits): the task is
    queued then, and eager Celery computes the run in-process.
    """

    def press(url: str = "/ratings/") -> str:
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post(url)
        assert response.status_code == 302 and response["Location"] == url
        return html_of(client.get(url))

    return press


@pytest.fixture
def gamebench(compute):
    """The GameBench data rated through the leaderboard's button."""
    compute("/ratings/?source=gamebench")


def tables(html: str) -> list[str]:
    return re.findall(r"<table class=\"matches ratings[^\"]*\">.*?</table>", html, flags=re.S)


def row_agents(table: str) -> list[str]:
    return re.findall(r'<th scope="row" class="agent">([^<]+)</th>', table)


def image_urls(html: str) -> list[str]:
    return [u.replace("&amp;", "&") for u in re.findall(r'<img src="([^"]+)"', html)]


def assert_png(response, min_width: int = 600) -> Image.Image:
    assert response.status_code == 200
    assert response["Content-Type"] == "image/png"
    assert response.content.startswith(PNG_MAGIC)
    image = Image.open(io.BytesIO(response.content))
    image.verify()
    image = Image.open(io.BytesIO(response.content))
    assert image.width >= min_width and image.height >= 100
    return image


# --- pages ---------------------------------------------------------------------------------


def test_ratings_link_in_the_site_navigation(client):
    assert f'href="{reverse("ratings:leaderboard")}"' in html_of(client.get("/"))
    assert reverse("ratings:leaderboard") == "/ratings/"


def test_empty_platform_shows_an_empty_state(compute, client):
    html = html_of(client.get("/ratings/"))
    assert "Not computed yet" in html and "Compute ratings" in html
    html = compute()
    assert "No ratings yet" in html and "Compute ratings" not in html
    assert "no finished matches yet" in html
    assert "<img" not in html
    assert 'href="?source=gamebench"' in html


def test_gamebench_overall_table_lists_the_seven_agents(gamebench, client):
    html = html_of(client.get("/ratings/?source=gamebench"))
    overall = tables(html)[0]
    assert "Overall ratings, best first" in overall
    agents = row_agents(overall)
    assert set(agents) == GAMEBENCH_AGENTS and len(agents) == 7
    assert agents[0] == "human"  # the paper's result: people first
    headers = re.findall(r'<th scope="col"[^>]*>([^<]+)</th>', overall)
    assert headers == ["Rank", "Agent", "Rating", "90% interval", "Rank interval", "Average score", "Matches", "Notes"]
    assert "277" in html and "CC-BY 4.0" in html
    # Provenance: fingerprint prefix, B, seed, tie rule, library version.
    run = RatingRun.objects.get(source="gamebench")
    assert run.match_fingerprint[:12] in html
    assert "<dd>200</dd>" in html and "skip (a tie is no comparison)" in html
    assert run.library_version in html


def test_average_score_columns_are_labelled_with_their_games(gamebench, client):
    html = html_of(client.get("/ratings/?source=gamebench"))
    scores = next(t for t in tables(html) if "Average score by agent and game" in t)
    headers = re.findall(r'<th scope="col" class="num" data-game="([^"]+)"[^>]*>([^<]+)</th>', scores)
    run = RatingRun.objects.get(source="gamebench")
    assert [g for g, _ in headers] == [*run.result["games"], "overall"]
    names = dict(headers)
    assert names["two_rooms_and_a_boom"] == "Two Rooms and a Boom"
    assert names["sea_battle"] == "Sea Battle"
    assert names["overall"] == "Overall"
    # Each cell is the agent's mean score in its column's game.
    row = re.search(r'<th scope="row" class="agent">human</th>(.*?)</tr>', scores, flags=re.S).group(1)
    cells = re.findall(r'<td class="num">(.*?)</td>', row)
    expected = run.result["average_scores"]["human"]
    for (game, _), cell in zip(headers, cells, strict=True):
        if game in expected:
            assert cell == f"{expected[game]:.3f}"
        else:
            assert "did not play" in cell


def test_leaderboard_has_a_section_per_game_and_downloads(gamebench, client):
    html = html_of(client.get("/ratings/?source=gamebench"))
    run = RatingRun.objects.get(source="gamebench")
    for game in run.result["games"]:
        assert f'id="game-{game}"' in html
        assert reverse("ratings:scope", args=[game]) in html
    # Hive's comparisons are disconnected: the page says who is not rated and why.
    assert "Not rated in Hive" in html
    assert f"{reverse('ratings:csv')}?source=gamebench" in html
    assert f"{reverse('ratings:json')}?source=gamebench" in html


def test_every_image_on_the_pages_is_a_png(gamebench, client):
    html = html_of(client.get("/ratings/?source=gamebench"))
    urls = image_urls(html)
    assert len(urls) == 1 + 9  # overall + one per game
    for url in urls:
        assert_png(client.get(url))
    scope_html = html_of(client.get("/ratings/scope/santorini/?source=gamebench"))
    scope_urls = image_urls(scope_html)
    assert [u.split("?")[0].rsplit("/", 1)[1] for u in scope_urls] == [
        "whisker.png", "win-probability.png", "match-counts.png",
    ]
    for url in scope_urls:
        assert_png(client.get(url))
    assert RatingRun.objects.count() == 1  # the page and its figures share one run


def test_images_have_alt_text(gamebench, client):
    html = html_of(client.get("/ratings/?source=gamebench"))
    imgs = re.findall(r"<img[^>]*>", html, flags=re.S)
    assert imgs and all(re.search(r'alt="[^"]{20,}"', tag) for tag in imgs)


def test_png_download_variant_is_an_attachment(gamebench, client):
    url = reverse("ratings:plot", args=["overall", "win-probability"])
    inline = client.get(url + "?source=gamebench")
    assert_png(inline)
    assert "Content-Disposition" not in inline
    attached = client.get(url + "?source=gamebench&download=1")
    assert_png(attached)
    assert attached["Content-Disposition"] == 'attachment; filename="ratings-gamebench-overall-win-probability.png"'


def test_unknown_plot_or_scope_is_404(gamebench, client):
    assert client.get("/ratings/scope/overall/pie.png?source=gamebench").status_code == 404
    assert client.get("/ratings/scope/chess/?source=gamebench").status_code == 404
    assert client.get("/ratings/scope/chess/whisker.png?source=gamebench").status_code == 404
    assert client.get("/ratings/scope/overall/whisker.png").status_code == 404  # nothing rated on the platform


def test_scope_page_reports_excluded_agents_and_components(gamebench, client):
    html = html_of(client.get("/ratings/scope/hive/?source=gamebench"))
    assert "Not rated in Hive" in html
    for agent in ("gpt-3", "gpt-3-cot", "gpt-4-cot", "random"):
        assert f"<strong>{agent}</strong>: no counted comparison links it to gpt-4, human" in html
    assert "Connected groups" in html
    assert set(row_agents(tables(html)[0])) == {"human", "gpt-4"}


def test_scope_page_matrix_table(gamebench, client):
    html = html_of(client.get("/ratings/scope/overall/?source=gamebench"))
    matrix = next(t for t in tables(html) if "P(row beats column) / matches" in t)
    assert len(row_agents(matrix)) == 7
    assert "Every agent that played is connected" in html


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


def test_leaderboard_is_computed_once_and_then_served_from_the_stored_run(compute, gamebench, client):
    run = RatingRun.objects.get()
    html = html_of(client.get("/ratings/?source=gamebench"))
    assert RatingRun.objects.get().pk == run.pk
    assert f"(run {run.pk})" in html
    assert "Recompute" not in html  # the run is current: no button
    compute("/ratings/?source=gamebench")  # pressing it anyway finds the stored run current
    assert RatingRun.objects.get().pk == run.pk


def test_narrow_figures_for_phones(gamebench, client):
    html = html_of(client.get("/ratings/?source=gamebench"))
    assert 'media="(max-width: 640px)"' in html and "width=440" in html
    url = reverse("ratings:plot", args=["overall", "whisker"]) + "?source=gamebench"
    assert assert_png(client.get(url + "&width=440"), min_width=300).width == 440
    assert assert_png(client.get(url + "&width=junk")).width == 800
    assert assert_png(client.get(url + "&width=99999")).width == 1600


def test_runs_are_read_only_in_the_admin(gamebench, client, django_user_model):
    client.get("/ratings/?source=gamebench")
    run = RatingRun.objects.get()
    admin = django_user_model.objects.create_superuser("admin", "admin@example.com", "pw-for-tests-only")
    client.force_login(admin)
    assert client.get("/admin/rating_app/ratingrun/").status_code == 200
    page = client.get(f"/admin/rating_app/ratingrun/{run.pk}/change/")
    assert page.status_code == 200
    assert 'name="_save"' not in page.content.decode()
    assert client.get("/admin/rating_app/ratingrun/add/").status_code == 403


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


# --- a GET only reads: computing is the button's POST ------------------------------------------------------


def writes_of(client, urls: list[str]) -> tuple[list[str], dict[str, int]]:
    """GET each URL, recording every writing SQL statement; returns (writes, status per URL)."""
    statuses = {}

    def get_all():
        for url in urls:
            statuses[url] = client.get(url).status_code

    return writes_during(get_all), statuses


def every_leaderboard_url(source: str) -> list[str]:
    urls = [f"/ratings/?source={source}", f"/ratings/scope/overall/?source={source}"]
    urls += [f"/ratings/scope/overall/{kind}.png?source={source}" for kind in ("whisker", "win-probability")]
    return urls + [f"{reverse('ratings:csv')}?source={source}", f"{reverse('ratings:json')}?source={source}"]


def test_no_get_computes_or_writes_anything(compute, client):
    small_league()
    urls = every_leaderboard_url("platform") + every_leaderboard_url("gamebench")
    writes, statuses = writes_of(client, urls)
    assert writes == [] and RatingRun.objects.count() == 0
    # Nothing stored: the pages say so and offer the button; figures and downloads have nothing to show.
    assert [statuses[u] for u in urls] == [200, 200, 404, 404, 404, 404] * 2
    html = html_of(client.get("/ratings/"))
    assert "Not computed yet" in html and 'method="post"' in html and "csrfmiddlewaretoken" in html
    compute()
    compute("/ratings/?source=gamebench")
    writes, statuses = writes_of(client, urls)
    assert writes == [] and set(statuses.values()) == {200} and RatingRun.objects.count() == 2


def test_the_compute_button_is_csrf_protected():
    browser = Client(enforce_csrf_checks=True)
    page = html_of(browser.get("/ratings/?source=gamebench"))
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    assert browser.post("/ratings/?source=gamebench").status_code == 403  # no token: refused
    assert RefreshRequest.objects.count() == 0
    response = browser.post("/ratings/?source=gamebench", {"csrfmiddlewaretoken": token})
    assert response.status_code == 302 and RefreshRequest.objects.count() == 1


@pytest.fixture
def worker(monkeypatch):
    """Celery with a real worker: the task is queued (recorded here), not run in-process."""
    queued = []
    monkeypatch.setattr(tasks.refresh_leaderboard, "delay", lambda **kwargs: queued.append(kwargs))
    return queued


def test_with_a_worker_the_page_says_the_run_is_being_computed(worker, client, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        client.post("/ratings/?source=gamebench")
        client.post("/ratings/?source=gamebench")  # pressed twice: still one computation
    request = RefreshRequest.objects.get()
    assert worker == [{"request_id": request.pk}] and request.finished_at is None
    html = html_of(client.get("/ratings/?source=gamebench"))
    assert "being computed" in html and "Compute ratings" not in html
    assert 'hx-trigger="every 3s"' in html and 'hx-select="#ratings-body"' in html  # it updates by itself
    assert RatingRun.objects.count() == 0
    assert tasks.refresh_leaderboard(**worker[0]) is True  # what the worker runs
    request.refresh_from_db()
    assert request.finished_at is not None and request.error == ""
    html = html_of(client.get("/ratings/?source=gamebench"))
    assert "being computed" not in html and "Overall ratings, best first" in html


def test_a_stale_run_is_shown_with_a_recompute_button(compute, client):
    small_league()
    compute()
    finished(["human", "random"], [1.0, 0.0])
    html = html_of(client.get("/ratings/"))
    assert "Recompute ratings" in html and "the rated matches have changed" in html
    data = json.loads(client.get(reverse("ratings:json")).content)
    assert data["provenance"]["n_matches"] == 9  # the stored run, until someone recomputes
    html = compute()
    assert "Recompute ratings" not in html and RatingRun.objects.first().n_matches == 10


def test_a_request_left_open_too_long_is_given_up(worker, client, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        client.post("/ratings/")
    assert "being computed" in html_of(client.get("/ratings/"))
    RefreshRequest.objects.update(requested_at=timezone.now() - selectors.REFRESH_PENDING_FOR - dt.timedelta(seconds=1))
    assert "Compute ratings" in html_of(client.get("/ratings/"))  # e.g. its worker died: ask again
    with django_capture_on_commit_callbacks(execute=True):
        client.post("/ratings/")
    assert len(worker) == 2


def test_a_computation_that_stores_nothing_says_why(compute, client, monkeypatch):
    def unreadable(source, filters):
        raise RatingInputError("the data file is not a list of matches")

    monkeypatch.setattr(selectors, "results_for", unreadable)
    html = compute("/ratings/?source=gamebench")
    assert "The latest computation stored no ratings: the data file is not a list of matches" in html
    assert "Compute ratings" in html and RatingRun.objects.count() == 0
    assert RefreshRequest.objects.get().finished_at is not None


def test_a_failing_computation_closes_its_request(client, monkeypatch, django_capture_on_commit_callbacks):
    def broken(*args, **kwargs):
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(services, "refresh", broken)
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post("/ratings/").status_code == 302  # the button's request itself does not fail
    request = RefreshRequest.objects.get()
    assert request.finished_at is not None and request.error
    html = html_of(client.get("/ratings/"))
    assert "being computed" not in html and "Compute ratings" in html and "stored no ratings" in html


def test_only_get_and_post_reach_the_pages(client):
    assert client.put("/ratings/").status_code == 405
    assert client.post(reverse("ratings:csv")).status_code == 405
    assert client.post(reverse("ratings:plot", args=["overall", "whisker"])).status_code == 405
