"""Studies of games with more than two seats: a condition with three participant seats and an agent seat fills
the participant seats from the waiting room in arrival order, and a pairing timeout gives the missing
participant seats to the fallback agent. A throwaway four-seat game stands in for the card and team games."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest
from django.test import Client

from gameplay.engines.api import Action, Game, GameSpec, Observation, OptionSpec, Rules, State
from gameplay.engines.registry import GAMES
from gameplay.models import Match
from gameplay.studies.models import PairingTicket, ParticipantRound
from tests.studies.journey_support import (  # noqa: F401
    consent,
    eager_celery,
    make_study,
    participant_url,
)
from tests.studies.pairing_support import age_ticket

pytestmark = pytest.mark.django_db


class RingState(State):
    """Seats pass a token round the table; the game ends after ``length`` passes."""

    def __init__(self, game, seed):
        super().__init__(game, seed)
        self.passes = 0

    def current_seats(self):
        return [] if self.is_terminal() else [self.passes % self.game.num_seats]

    def legal_actions(self, seat):
        return [Action("pass", "Pass the token")] if seat in self.current_seats() else []

    def _apply(self, seat, action_id, text):
        self.passes += 1

    def is_terminal(self):
        return self.passes >= self.game.options["length"]

    def scores(self):
        return [1 / self.game.num_seats] * self.game.num_seats

    def end_reason(self):
        n = self.passes
        return f"The token was passed {n} time{'' if n == 1 else 's'}." if self.is_terminal() else None

    def observation(self, seat):
        return Observation(seat, {"passes": self.passes}, f"{self.passes} passes")

    def _payload(self):
        return {"passes": self.passes}

    def _load_payload(self, payload: Mapping[str, Any]):
        self.passes = payload["passes"]


class RingGame(Game):
    spec = GameSpec(
        id="ring", name="Ring", description="A test game.", min_seats=3, max_seats=5, has_chat=True,
        options=(OptionSpec("length", 8, "Passes before the end.", int, label="Passes"),),
    )
    state_class = RingState
    rules = Rules("Pass the token.")

    def max_actions(self):
        return self.options["length"]


@pytest.fixture(autouse=True)
def ring_game(monkeypatch):
    monkeypatch.setitem(GAMES, "ring", RingGame)


TABLE = {
    "key": "table",
    "seats": [{"kind": "participant"}, {"kind": "participant"}, {"kind": "agent", "agent": "random"},
              {"kind": "participant"}],
    "options": {"length": 4},
}


def arrive(study, pid):
    client = Client()
    participant = consent(client, study, PROLIFIC_PID=pid)
    response = client.post(participant_url("instructions", participant))
    return client, participant, response["Location"]


def ring_study(**fields):
    study = make_study(conditions=[TABLE], pairing_fallback_agent="random", **fields)
    study.game_id, study.rounds = "ring", [{"length": 9}, {}]
    study.save(update_fields=["game_id", "rounds"])
    return study


def test_three_participants_and_an_agent_share_one_private_match_in_arrival_order():
    study = ring_study()
    (_, first, where1), (_, second, where2) = arrive(study, "one"), arrive(study, "two")
    assert where1.endswith("/wait/1/") and where2.endswith("/wait/1/")  # two of three: still waiting
    assert ParticipantRound.objects.count() == 0
    third_client, third, where3 = arrive(study, "three")
    assert where3 == participant_url("round", third, n=1)  # the third arrival fills the table
    rounds = {r.participant_id: r for r in ParticipantRound.objects.all()}
    match = rounds[first.pk].match
    assert {r.match_id for r in rounds.values()} == {match.pk} and Match.objects.count() == 1
    assert match.private and match.options == {"length": 4}  # the condition's options over the round's
    assert [rounds[p.pk].seat_index for p in (first, second, third)] == [0, 1, 3]
    assert [(s.controller, s.agent_name) for s in match.seats.order_by("index")] == [
        ("human", ""), ("human", ""), ("agent", "random"), ("human", ""),
    ]
    assert rounds[first.pk].partner_participant == second and rounds[third.pk].partner_participant == first
    assert {r.partner_agent for r in rounds.values()} == {"random"}
    assert set(PairingTicket.objects.values_list("outcome", flat=True)) == {"paired"}
    html = third_client.get(participant_url("round", third, n=1)).content.decode()
    assert f"/ws/play/{match.seats.get(index=3).token}/" in html


def test_after_the_timeout_the_fallback_agent_takes_every_missing_participant_seat():
    study = ring_study(pairing_timeout_s=60)
    client, alone, _ = arrive(study, "alone")
    age_ticket(alone, 61)
    status = client.post(participant_url("wait_status", alone, n=1), HTTP_HX_REQUEST="true")
    assert status["HX-Redirect"] == participant_url("round", alone, n=1)
    current = ParticipantRound.objects.get(participant=alone)
    assert current.seat_index == 0 and current.partner_participant is None and current.partner_agent == "random"
    assert [s.controller for s in current.match.seats.order_by("index")] == ["human", "agent", "agent", "agent"]
    assert PairingTicket.objects.get(participant=alone).outcome == "timeout-agent"


def test_each_participant_who_leaves_a_table_of_three_is_handed_to_the_agent_in_turn(monkeypatch):
    """partner_left_action "agent" with three people: the first to leave, then the second, each gets the fallback
    agent when they have left; the one who stays plays on with two agents (issue 16.1)."""
    from gameplay.studies import services as study_services
    from gameplay.studies.models import Study
    from gameplay.web import presence

    study = ring_study(partner_left_action=Study.PartnerLeft.AGENT)
    (_, stays, _), (_, first_out, _), (_, second_out, _) = (arrive(study, p) for p in ("stays", "first", "second"))
    seats = {s.index: s for s in ParticipantRound.objects.get(participant=stays).match.seats.all()}
    index_of = {r.participant_id: r.seat_index for r in ParticipantRound.objects.all()}
    now = [presence._clock()]
    monkeypatch.setattr(presence, "_clock", lambda: now[0])
    for p in (stays, first_out, second_out):
        presence.beat(seats[index_of[p.pk]])
    presence.mark_gone(seats[index_of[first_out.pk]])
    now[0] += presence.settings.PRESENCE_LEFT_AFTER_SECONDS + 1
    presence.beat(seats[index_of[stays.pk]])
    presence.beat(seats[index_of[second_out.pk]])
    study_services.apply_partner_left(stays, 0)
    controllers = lambda: [s.controller for s in Match.objects.get().seats.order_by("index")]  # noqa: E731
    assert controllers() == ["human", "agent", "agent", "human"]  # seat 1 was the first to leave
    presence.mark_gone(seats[index_of[second_out.pk]])
    now[0] += presence.settings.PRESENCE_LEFT_AFTER_SECONDS + 1
    presence.beat(seats[index_of[stays.pk]])
    study_services.apply_partner_left(stays, 0)
    assert controllers() == ["human", "agent", "agent", "agent"]
    departures = dict(ParticipantRound.objects.values_list("participant_id", "departure"))
    assert departures == {stays.pk: "partner-left-agent", first_out.pk: "left", second_out.pk: "left"}
    assert Match.objects.get().status == Match.Status.ACTIVE
