"""Leaderboard pages over HTTP: the overall and per-game tables, the figures as PNGs, the scope pages, the admin."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from rating_app.models import RatingRun
from tests.rating_app.leaderboard_support import GAMEBENCH_AGENTS, assert_png, html_of, image_urls, row_agents, tables

# small_bootstrap, compute and gamebench: tests/rating_app/conftest.py
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("small_bootstrap")]


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
