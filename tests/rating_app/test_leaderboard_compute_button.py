"""Leaderboard compute button: a GET only reads stored runs, the POST computes them (eagerly or on a worker)."""

from __future__ import annotations

import datetime as dt
import json
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from rating_app import selectors, services, tasks
from rating_app.models import RatingRun, RefreshRequest
from rating_app.ratings import RatingInputError
from tests.rating_app.factories import finished, small_league
from tests.rating_app.leaderboard_support import html_of
from tests.support.db_writes import writes_during

# small_bootstrap, compute and gamebench: tests/rating_app/conftest.py
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("small_bootstrap")]


def test_leaderboard_is_computed_once_and_then_served_from_the_stored_run(compute, gamebench, client):
    run = RatingRun.objects.get()
    html = html_of(client.get("/ratings/?source=gamebench"))
    assert RatingRun.objects.get().pk == run.pk
    assert f"(run {run.pk})" in html
    assert "Recompute" not in html  # the run is current: no button
    compute("/ratings/?source=gamebench")  # pressing it anyway finds the stored run current
    assert RatingRun.objects.get().pk == run.pk


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
