"""A study round's match: one private match created through the match service, seated as the condition says.

Participants sit in the condition's participant seats in arrival order, agents in its agent seats, and the
fallback agent in participant seats nobody took. ``services.start_round`` creates the match of a round played
without other participants, ``pairing.pair_or_wait`` that of a table the waiting room filled (or gave up on).
"""

from __future__ import annotations

import secrets
from functools import partial

from django.db import transaction

from gameplay.studies.models import Condition, Participant, ParticipantRound, Study
from gameplay.writes import seat_claims
from gameplay.writes import services as match_services
from gameplay.writes.services import SeatController


def create_round(
    people: list[Participant], round_index: int, *, fallback_agent: str, me: Participant | None = None
) -> ParticipantRound:
    """One private match for ``people`` (in arrival order, seated in the condition's participant seats in seat
    order), agents in the condition's agent seats and ``fallback_agent`` in participant seats nobody took.
    Returns the round of ``me`` (default: the first person)."""
    condition = people[0].condition
    study = people[0].study
    participant_seats = condition.participant_seats
    seat_of = dict(zip((x.pk for x in people), participant_seats, strict=False))
    agents = dict(condition.agent_seats)
    for seat in participant_seats[len(people):]:
        agents[seat] = fallback_agent
    controllers = [
        SeatController("agent", agent_name=agents[i]) if i in agents else SeatController("human")
        for i in range(len(condition.seats))
    ]
    match = match_services.create_match(
        study.game_id, controllers, seed=_new_seed(), options=round_options(study, condition, round_index),
        host_seat=None, schedule_agents=False, private=True,
    )
    if agents:
        # An agent may move first: queue it only once the match is committed, so a worker can see it.
        transaction.on_commit(partial(match_services.schedule_agent_turns, match))
    # Each participant's seat is held by the participant's browser (its round page hands the seat's cookie over):
    # the seat link alone opens nothing (issue 37, point 4).
    seat_claims.bind_seats(match, [seat_of[person.pk] for person in people])
    first_agent = agents[min(agents)] if agents else ""
    rounds = {}
    for person in people:
        others = sorted((x for x in people if x.pk != person.pk), key=lambda x: seat_of[x.pk])
        rounds[person.pk] = ParticipantRound.objects.create(
            participant=person, round_index=round_index, match=match, seat_index=seat_of[person.pk],
            partner_participant=others[0] if others else None, partner_agent=first_agent,
        )
    return rounds[(me or people[0]).pk]


def round_options(study: Study, condition: Condition, round_index: int) -> dict:
    """The game options of one round as this condition plays it: the round's, with the condition's on top."""
    return {**study.rounds[round_index], **(condition.options or {})}


def _new_seed() -> int:
    return secrets.randbelow(2**31)
