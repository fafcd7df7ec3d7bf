"""Researcher pages and downloads: 403 for everyone but staff (anonymous, a logged-in user, a participant),
on every URL of researcher_urls, listed programmatically so a new page cannot be forgotten."""

from __future__ import annotations

import io
import zipfile

import pytest
from django.test import Client
from django.urls import NoReverseMatch, reverse
from django.utils.html import escape

from gameplay.engines.registry import create_game
from gameplay.studies import exports, researcher_urls
from tests.studies.admin_support import user_client
from tests.studies.factories import make_participant, make_study, play_round

pytestmark = pytest.mark.django_db


def research_urls(slug: str) -> list[str]:
    urls = []
    for pattern in researcher_urls.urlpatterns:
        kwargs = {"slug": slug} if "slug" in pattern.pattern.converters else {}
        urls.append(reverse(f"{researcher_urls.app_name}:{pattern.name}", kwargs=kwargs))
    return urls


@pytest.fixture
def study():
    study = make_study("access", rounds=1)
    p = make_participant(study, "A-Mute", step="survey")
    play_round([p], 0, agent="gnomes-mute", duration_s=30)
    return study


def participant_client(study) -> Client:
    """A browser holding a participant: it opened its study link (when the participant pages exist)."""
    participant = study.participants.first()
    client = Client(raise_request_exception=False)
    try:
        client.get(reverse("study:resume", kwargs={"slug": study.slug, "token": participant.token}))
    except NoReverseMatch:
        pass
    return client


def test_every_researcher_url_is_listed(study):
    urls = research_urls(study.slug)
    assert len(urls) == 10  # with comprehension.csv and payments.csv
    assert "/studies/" in urls and f"/studies/{study.slug}/analysis.zip" in urls


@pytest.mark.parametrize("who", ["anonymous", "user", "participant", "superuser-flag-without-staff"])
def test_everyone_but_staff_gets_403_everywhere(study, who):
    client = {
        "anonymous": lambda: Client(),
        "user": lambda: user_client(),
        "participant": lambda: participant_client(study),
        # is_staff is the rule; an active non-staff account is refused whatever else it has.
        "superuser-flag-without-staff": lambda: user_client(is_superuser=True, is_staff=False),
    }[who]()
    for url in research_urls(study.slug) + research_urls("no-such-study"):
        response = client.get(url)
        assert response.status_code == 403, (who, url)  # not a login redirect, not a 404 that leaks slugs
        assert b"P0" not in response.content
        assert client.post(url).status_code == 403, (who, url)


def test_staff_gets_every_page_and_file(study):
    client = user_client(is_staff=True)
    for url in research_urls(study.slug):
        response = client.get(url)
        assert response.status_code == 200, url
        assert "no-store" in response["Cache-Control"] or "no-cache" in response["Cache-Control"]
    page = client.get(reverse("study_research:dashboard", kwargs={"slug": study.slug})).content.decode()
    assert 'hx-trigger="every 5s"' in page
    for name in ("rounds_csv", "messages_csv", "survey_csv", "participants_csv", "comprehension_csv", "payments_csv",
                 "analysis_zip"):
        assert reverse(f"study_research:{name}", kwargs={"slug": study.slug}) in page
    assert client.get(reverse("study_research:list")).content.decode().count(study.title) >= 1


def test_staff_downloads(study):
    client = user_client(is_staff=True)
    response = client.get(reverse("study_research:rounds_csv", kwargs={"slug": study.slug}))
    assert response["Content-Type"].startswith("text/csv")
    assert 'filename="access-rounds.csv"' in response["Content-Disposition"]
    assert response.content == exports.rounds_csv(study)
    response = client.get(reverse("study_research:analysis_zip", kwargs={"slug": study.slug}))
    assert response["Content-Type"] == "application/zip"
    names = zipfile.ZipFile(io.BytesIO(response.content)).namelist()
    assert "access-analysis/anova.csv" in names and "access-analysis/rounds.csv" in names
    assert client.get("/studies/no-such-study/").status_code == 404
    assert client.post(reverse("study_research:dashboard", kwargs={"slug": study.slug})).status_code == 405


def test_live_partial_has_the_tables(study):
    client = user_client(is_staff=True)
    html = client.get(reverse("study_research:live", kwargs={"slug": study.slug})).content.decode()
    assert "Participants per condition and step" in html and "Adherence per round" in html
    assert "<html" not in html  # a fragment for htmx to swap in
    assert "1/1 (100%)" in html


def test_dashboard_lists_the_measures_the_game_declares(study):
    client = user_client(is_staff=True)
    page = client.get(reverse("study_research:dashboard", kwargs={"slug": study.slug})).content.decode()
    for spec in create_game(study.game_id).spec.measures:
        assert f"<code>m_{spec.name}</code>" in page and escape(spec.description) in page
    assert "time_to_complete_s, actions, m_turns, m_wall_hits" in page  # no score: the game is cooperative
    assert "m_success" in page.split("Counted as rates")[1]
    outcomes = page.split('id="rates-title"')[1]  # success so far, with its interval and the censored rounds
    assert 'data-measure="m_success"' in outcomes and "the game's goal" in outcomes
    assert "1/1 (100%, 0.21–1.00)" in outcomes and "censored 0" in outcomes  # the one found round, Wilson
    html = client.get(reverse("study_research:live", kwargs={"slug": study.slug})).content.decode()
    assert "(agent gnomes-mute)" in html  # the condition's partner summary
    assert "<code>gnomes</code>" in client.get(reverse("study_research:list")).content.decode()


def test_the_403_offers_a_researcher_a_way_to_sign_in_and_says_nothing_about_studies(study):
    response = Client().get(f"/studies/{study.slug}/")
    html = response.content.decode()
    assert response.status_code == 403 and "Researchers only" in html
    assert f'href="/admin/login/?next=%2Fstudies%2F{study.slug}%2F"' in html  # a link back here, not a redirect
    assert study.slug not in html.replace(f"%2Fstudies%2F{study.slug}%2F", "")  # only in the way back
    signed_in = user_client().get("/studies/").content.decode()
    assert "which is not a researcher's account" in signed_in and "Sign in with another account" in signed_in


def test_the_menu_shows_studies_to_staff_only(study):
    menu_link = 'href="/studies/">Studies</a>'
    assert menu_link in user_client("researcher", is_staff=True).get("/").content.decode()
    assert menu_link not in user_client().get("/").content.decode()
    assert menu_link not in Client().get("/").content.decode()
