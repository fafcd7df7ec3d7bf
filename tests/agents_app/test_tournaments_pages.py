"""The tournament pages: the list and the detail page show progress, results, match links and the command that
resumes the tournament (with only the options chosen); a running tournament polls its progress until nothing is in
flight; failed matches are announced; an unknown tournament is a 404."""

from __future__ import annotations

import pytest
from django.urls import reverse

from agents_app import turns
from agents_app.tournaments import selectors, services, tasks
from tests.agents_app.tournaments_support import Status, run, tournament_agents  # noqa: F401 (an autouse fixture)

pytestmark = pytest.mark.django_db


def test_list_and_detail_pages_show_progress_results_and_match_links(client):
    tournament = run()
    page = client.get(reverse("tournaments:list")).content.decode()
    assert f'href="/tournaments/{tournament.pk}/"' in page
    assert '<progress max="2" value="2"' in page and "2/2" in page

    page = client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    assert "2 of 2 matches finished" in page and '<progress id="tournament-bar" max="2" value="2"' in page
    assert "hx-trigger" not in page  # finished: nothing to poll
    assert '<th scope="row" class="agent">random vs random-b</th>' in page
    for entry in tournament.entries.all():
        assert f'href="/matches/{entry.match_id}/"' in page and f'href="/matches/{entry.match_id}/replay/"' in page
        assert str(entry.seed) in page
    for r in selectors.results(tournament).agents:
        assert f'<tr data-agent="{r.agent}">' in page
    assert "--agents random,random-b --matches 2 --seed 5</code>" in page  # default options: none to name
    assert 'href="/tournaments/"' in page  # the nav link


def test_the_page_shows_the_command_that_resumes_it_with_only_the_chosen_options(client):
    tournament = services.create_or_resume("santorini", ["random", "random-b"], 1, 3, {"win_on_any_level3": "yes"})
    assert tournament.options == {"alternate_workers": False, "win_on_any_level3": True, "max_turns": 0}
    assert selectors.chosen_options(tournament) == {"win_on_any_level3": True}
    page = client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    assert "--seed 3 --options '{&quot;win_on_any_level3&quot;: true}'</code>" in page
    again = services.create_or_resume("santorini", ["random", "random-b"], 1, 3, {"win_on_any_level3": True})
    assert again.pk == tournament.pk


def test_a_running_tournament_polls_its_progress_until_nothing_is_in_flight(client):
    tournament = services.create_or_resume("santorini", ["random", "random-b"], 2, 1)
    tournament.entries.filter(index=0).update(status=Status.QUEUED)
    page = client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    progress_url = reverse("tournaments:progress", args=[tournament.pk])
    assert f'hx-get="{progress_url}" hx-trigger="every 2s"' in page

    partial = client.get(progress_url, headers={"HX-Request": "true"})
    assert partial.status_code == 200 and "0 of 2 matches finished" in partial.content.decode()
    assert "<html" not in partial.content.decode()

    tasks.schedule(tournament, requeue_active=True)  # plays both (eager)
    partial = client.get(progress_url, headers={"HX-Request": "true"})
    assert partial.status_code == 286 and partial["HX-Refresh"] == "true"  # htmx stops polling and reloads
    assert "2 of 2 matches finished" in partial.content.decode()
    assert client.get(progress_url).status_code == 200  # a plain GET is just the fragment


def test_failed_matches_are_announced_on_the_page(client, monkeypatch):
    monkeypatch.setattr(turns, "play_pending_turns", lambda match_id: 1 / 0)
    tournament = run(matches=1)
    page = client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    assert "1 failed" in page and "ZeroDivisionError: division by zero" in page
    assert "Failed matches are not queued" in page and "hx-trigger" not in page


def test_unknown_tournament_is_404(client):
    assert client.get(reverse("tournaments:detail", args=[999])).status_code == 404
    assert client.get(reverse("tournaments:progress", args=[999])).status_code == 404
