"""A person kept waiting by an agent: "the agent is thinking", and after AGENT_WAY_OUT_SECONDS a way out (POST).

On the seat page the way out ends the match; in a study round it ends the round and the study goes on (as after a
partner who left). Refused before the time, from a seat that may move, from someone else's browser or seat:
refused requests change nothing. Agent turns are never played here (their receiver is disconnected: a dead worker).
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from gameplay.models import Event, Match
from gameplay.reads import selectors
from gameplay.signals import agent_turn_due
from gameplay.studies.models import Participant
from gameplay.web.rendering import seat_fragments
from gameplay.writes import absent_players, services
from gameplay.writes.absent_players import AGENT_SILENT_REASON
from gameplay.writes.services import SeatController, ServiceError
from tests.studies.journey_support import agent_condition, consent, make_study, participant_url

pytestmark = pytest.mark.django_db

HUMAN = SeatController("human")
RANDOM = SeatController("agent", agent_name="random")
WAY_OUT_S = 90


@pytest.fixture(autouse=True)
def dead_agents(settings):
    """Nothing plays agent turns (as after a killed worker), and the way out opens after WAY_OUT_S."""
    from agents_app.receivers import queue_agent_turns

    settings.AGENT_WAY_OUT_SECONDS = WAY_OUT_S
    assert agent_turn_due.disconnect(dispatch_uid="agents_app.queue_agent_turns")
    yield
    agent_turn_due.connect(queue_agent_turns, dispatch_uid="agents_app.queue_agent_turns")


def waited(match: Match, seconds: float) -> None:
    Match.objects.filter(pk=match.pk).update(turn_started_at=timezone.now() - timedelta(seconds=seconds))


def snapshot(match: Match) -> tuple:
    match = Match.objects.get(pk=match.pk)
    return match.status, match.version, match.state, Event.objects.filter(match=match).count()


@pytest.fixture
def stuck():
    """Santorini: the random agent (seat 0) must move first and never does; a person in seat 1."""
    match = services.create_match("santorini", [RANDOM, HUMAN], seed=5)
    return match, match.seats.get(index=1)


def way_out_url(seat) -> str:
    return reverse("agent_way_out", kwargs={"token": seat.token})


# --- the seat page ---------------------------------------------------------------------------------------------


def test_the_seat_page_says_the_agent_is_thinking_and_when_the_way_out_opens(client, stuck):
    match, seat = stuck
    waited(match, 30)
    html = client.get(reverse("play", kwargs={"token": seat.token})).content.decode()
    assert "The agent is thinking…" in html
    # Seconds left, by the server's clock (a first page render on a busy machine may take a few of them).
    left = int(re.search(r"If it has not answered within (\d+) s, you can end the match here\.", html)[1])
    assert 50 <= left <= 60
    # The panel asks for itself again (the server decides) when the time is up; no button yet.
    assert 'hx-select="#agent-wait"' in html and f'hx-trigger="load delay:{left}s"' in html
    assert way_out_url(seat) not in html

    waited(match, WAY_OUT_S + 5)
    html = client.get(reverse("play", kwargs={"token": seat.token})).content.decode()
    assert f'action="{way_out_url(seat)}"' in html and "End the match</button>" in html


def test_the_websocket_fragment_carries_the_same_panel(stuck):
    """The live update (the per-seat fragment the consumer sends) shows the wait too."""
    match, seat = stuck
    waited(match, WAY_OUT_S + 5)
    match.refresh_from_db()
    html = seat_fragments(selectors.seat_view(match, seat))
    assert 'id="status"' in html and "The agent is thinking…" in html and way_out_url(seat) in html


def test_no_panel_when_the_person_may_move_or_for_spectators(client, stuck):
    match = services.create_match("santorini", [HUMAN, RANDOM], seed=5)  # the person moves first
    waited(match, WAY_OUT_S * 10)
    html = client.get(reverse("play", kwargs={"token": match.seats.get(index=0).token})).content.decode()
    assert "The agent is thinking" not in html
    stuck_match, _ = stuck
    waited(stuck_match, WAY_OUT_S * 10)
    html = client.get(reverse("match_detail", args=[stuck_match.pk])).content.decode()
    assert "agent-way-out" not in html


def test_the_way_out_is_refused_before_its_time_and_changes_nothing(client, stuck):
    match, seat = stuck
    waited(match, WAY_OUT_S - 10)
    before = snapshot(match)
    response = client.post(way_out_url(seat))
    assert response.status_code == 409
    found = re.search(r"The agent still has (\d+) s to answer: the match goes on\.", response.content.decode())
    assert found and 1 <= int(found[1]) <= 10
    assert snapshot(match) == before


def test_after_its_time_the_way_out_ends_the_match_without_a_result(client, stuck):
    match, seat = stuck
    waited(match, WAY_OUT_S + 1)
    response = client.post(way_out_url(seat))
    assert response.status_code == 302 and response["Location"] == reverse("play", kwargs={"token": seat.token})
    match.refresh_from_db()
    assert match.status == Match.Status.ABORTED and match.winner is None and match.version == 0
    assert match.events.order_by("-seq").first().payload == {"aborted": AGENT_SILENT_REASON}
    html = client.get(response["Location"]).content.decode()
    assert f"This match has ended without a result ({AGENT_SILENT_REASON})." in html
    assert "The agent is thinking" not in html
    assert client.post(way_out_url(seat)).status_code == 302  # again: already over, nothing more happens
    assert match.events.count() == Match.objects.get(pk=match.pk).events.count()


def test_only_a_waiting_persons_own_seat_can_end_it(client, stuck):
    match, _ = stuck
    waited(match, WAY_OUT_S + 1)
    before = snapshot(match)
    agent_seat = match.seats.get(index=0)
    response = client.post(way_out_url(agent_seat))
    assert response.status_code == 409 and "Only a person&#x27;s seat" in response.content.decode()
    assert client.post(reverse("agent_way_out", kwargs={"token": "not-a-seat-token"})).status_code == 404
    assert client.get(way_out_url(match.seats.get(index=1))).status_code == 405  # GET never writes
    people = services.create_match("santorini", [HUMAN, HUMAN], seed=5)
    waited(people, WAY_OUT_S * 10)
    response = client.post(way_out_url(people.seats.get(index=1)))
    assert response.status_code == 409 and "No agent is keeping you waiting" in response.content.decode()
    assert snapshot(match) == before and Match.objects.get(pk=people.pk).status == Match.Status.ACTIVE


def test_the_service_refuses_a_seat_that_may_move(stuck):
    match = services.create_match("santorini", [HUMAN, RANDOM], seed=5)
    waited(match, WAY_OUT_S * 10)
    with pytest.raises(ServiceError, match="No agent is keeping you waiting"):
        absent_players.end_match_for_silent_agent(match.pk, 0)
    assert Match.objects.get(pk=match.pk).status == Match.Status.ACTIVE


# --- a study round -------------------------------------------------------------------------------------------


@pytest.fixture
def study_round():
    """A participant in round 1 of 2 of a Gnomes study whose agent (seat 1) moves first and never does."""
    study = make_study("stuck-agent", rounds=2, conditions=[agent_condition("mute", "gnomes-mute", chat=False)])
    study.rounds = [{"round": r, "turn_cap": 2, "first_seat": 1} for r in (1, 2)]
    study.save(update_fields=["rounds"])
    browser = Client()
    participant = consent(browser, study)
    browser.post(participant_url("instructions", participant))  # creates round 1
    participant.refresh_from_db()
    match = participant.rounds.get(round_index=0).match
    assert participant.round_index == 0 and match.status == Match.Status.ACTIVE and match.version == 0
    return browser, participant, match


def test_a_study_round_shows_the_thinking_agent_then_a_way_out(study_round):
    browser, participant, match = study_round
    waited(match, 30)
    html = browser.get(participant_url("round", participant, n=1)).content.decode()
    assert "The agent is thinking…" in html and "you can end this round here" in html
    assert re.search(r'hx-trigger="load delay:(5\d|60)s"', html) and 'name="agent_silent"' not in html

    waited(match, WAY_OUT_S + 1)
    status = browser.get(participant_url("round_status", participant, n=1))
    assert status.status_code == 200  # the round goes on: the area keeps refreshing
    html = status.content.decode()
    assert 'name="agent_silent"' in html and "End this round and continue to round 2" in html


def test_a_study_way_out_before_its_time_is_refused_with_a_message(study_round):
    browser, participant, match = study_round
    waited(match, WAY_OUT_S - 30)
    before = snapshot(match)
    response = browser.post(participant_url("round_continue", participant, n=1), {"agent_silent": "1"})
    assert response.status_code == 302 and response["Location"] == participant_url("round", participant, n=1)
    assert snapshot(match) == before
    participant.refresh_from_db()
    assert participant.step == Participant.Step.ROUNDS and participant.round_index == 0
    html = browser.get(response["Location"]).content.decode()
    assert re.search(r"The agent still has (2\d|30) s to answer: the match goes on\.", html)


def test_a_study_way_out_ends_the_round_and_the_study_goes_on(study_round):
    browser, participant, match = study_round
    waited(match, WAY_OUT_S + 1)
    response = browser.post(participant_url("round_continue", participant, n=1), {"agent_silent": "1"})
    assert response.status_code == 302 and response["Location"] == participant_url("round", participant, n=2)
    match.refresh_from_db()
    assert match.status == Match.Status.ABORTED
    assert match.events.order_by("-seq").first().payload == {"aborted": AGENT_SILENT_REASON}
    participant.refresh_from_db()
    assert participant.round_index == 1 and participant.rounds.get(round_index=1).match.status == "active"
    # A replayed POST changes nothing more: round 2 is not ended by it.
    browser.post(participant_url("round_continue", participant, n=1), {"agent_silent": "1"})
    assert participant.rounds.get(round_index=1).match.status == Match.Status.ACTIVE


def test_another_participants_browser_cannot_end_the_round(study_round):
    _, participant, match = study_round
    waited(match, WAY_OUT_S + 1)
    before = snapshot(match)
    other = Client()
    assert consent(other, participant.study) is not None  # this browser holds another participant
    response = other.post(participant_url("round_continue", participant, n=1), {"agent_silent": "1"})
    assert response.status_code == 403
    assert snapshot(match) == before
    participant.refresh_from_db()
    assert participant.round_index == 0
