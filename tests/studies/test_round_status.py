"""Every study round page shows the seat's status, whose turn it is, the last move, the result, and its list of
moves, in every registered game, with nothing that leads out of the study (issue 38, point 4).

One generated study per game: a condition of people only in the game's smallest table, its default options, the
participants paired by the waiting room as in a real study. Each seat's page and its websocket frame (the same
regions, re-rendered after every move) are read."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from gameplay.engines.registry import GAMES
from gameplay.models import Match
from gameplay.reads import selectors as match_selectors
from gameplay.studies import pairing
from gameplay.studies.models import Condition, ParticipantRound, Study
from gameplay.web.rendering import seat_fragments
from gameplay.writes import absent_players
from gameplay.writes import services as match_services
from tests.studies.factories import make_participant
from tests.studies.journey_support import participant_url

pytestmark = pytest.mark.django_db

# What a study round page must never offer: the study decides what comes next.
LEADS_OUT = ("Watch the replay", "Play again", "next round", "Send these links", "Leave for now", "Resign")
STATUS = re.compile(r'<div id="status"[^>]*>(.*?)</div>\s*<div id="actions"', re.S)


def people_round(game_id: str) -> list[ParticipantRound]:
    """Round 1 of a study of ``game_id`` whose only condition seats people in every seat of its smallest table."""
    seats = GAMES[game_id].spec.min_seats
    study = Study.objects.create(slug=f"all-{game_id}".replace("_", "-"), title=game_id, game_id=game_id,
                                 rounds=[{}], consent_text="c", instructions="i", is_open=True)
    Condition.objects.create(study=study, key="people", label="People", seats=[{"kind": "participant"}] * seats)
    people = [make_participant(study, "people", pid=f"p{i}") for i in range(seats)]
    for person in people:
        pairing.pair_or_wait(person)
    rounds = list(ParticipantRound.objects.filter(participant__study=study).order_by("seat_index"))
    assert len(rounds) == seats and len({r.match_id for r in rounds}) == 1, "the waiting room did not fill the table"
    return rounds


def status_of(html: str) -> str:
    found = STATUS.search(html)
    assert found, "no status region followed by the actions region"
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", found.group(1))).strip()


def turn_cue(round_: ParticipantRound) -> str:
    """The words of the seat's status that say whose turn it is, as the match stands now."""
    view = seat_view_of(round_)
    if view.live:
        return "Live:"
    return "Your turn." if view.my_turn else f"Waiting for {view.to_move_label}…"


def seat_view_of(round_: ParticipantRound):
    match = Match.objects.get(pk=round_.match_id)
    return match_selectors.seat_view(match, match.seats.get(index=round_.seat_index))


def page_status(client: Client, round_: ParticipantRound) -> tuple[str, str]:
    html = client.get(participant_url("round", round_.participant, n=1)).content.decode()
    return html, status_of(html)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_study_round_shows_whose_turn_it_is_what_just_happened_and_what_may_be_done(game_id):
    rounds = people_round(game_id)
    # A seat that may act and one that waits (a live game has no turns: any two seats).
    acting = next((r for r in rounds if seat_view_of(r).legal_actions), rounds[0])
    waiting = next((r for r in rounds if r is not acting and not seat_view_of(r).my_turn), rounds[-1])
    browsers = {}
    for r in (acting, waiting):
        browsers[r.pk] = Client()  # each participant's own browser (a fresh one binds the participant's link)
        html, status = page_status(browsers[r.pk], r)
        assert html.count('id="status"') == 1 and 'id="actions"' in html, "the status and actions regions"
        assert turn_cue(r) in status, (r.seat_index, status)
        assert not [text for text in LEADS_OUT if text in html]
        if seat_view_of(r).live:
            assert 'id="live-stage"' in html  # a live game's moves are held on its stage
    # One move by the acting seat: the waiting seat's status says what happened, and whose turn it is now.
    match = Match.objects.get(pk=acting.match_id)
    view = seat_view_of(acting)
    if view.legal_actions and not view.live:
        match_services.submit_action(match.pk, acting.seat_index, view.legal_actions[0].id,
                                     expected_version=match.version)
        _, status = page_status(browsers[waiting.pk], waiting)
        assert "Last:" in status and turn_cue(waiting) in status, status
    # The websocket re-renders the same region after every move, in the same study terms, to the end.
    absent_players.abort_match(match.pk, "a test ends it")
    frame = seat_fragments(seat_view_of(waiting))
    assert "This match has ended without a result (a test ends it)." in status_of(frame)
    assert not [text for text in LEADS_OUT if text in frame]
    html, status = page_status(browsers[waiting.pk], waiting)
    assert "a test ends it" in status and 'id="study-continue-form"' in html
