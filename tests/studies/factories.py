"""Studies with real rounds, fast: matches created and played through the match service.

Rounds are ordinary Gnomes at Night matches: moves go through ``submit_action`` along a shortest
cooperative route (found by a BFS over the engine's own mazes), optionally padded with "stay" moves so
turn counts differ; chat goes through ``post_message``; agent seats' moves carry the payload the agent task
writes (agent name and think time), without running the agents, so nothing here is slow or random.
Only the round's start time is moved back afterwards (``duration_s``), so times to complete are known.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Sequence
from datetime import timedelta
from functools import cache

from django.utils import timezone

from gameplay.engines.registry import create_game
from gameplay.models import Event, Match
from gameplay.studies.models import Condition, Participant, ParticipantRound, Study, SurveyAnswer
from gameplay.writes import services
from gameplay.writes.services import SeatController

Step = Participant.Step
CONDITIONS = (
    ("H", "Human partner", "human", ""),
    ("A-Comm", "Communicating agent", "agent", "gnomes-comm"),
    ("A-Mute", "Mute agent", "agent", "gnomes-mute"),
)
TURN_CAP = 40


def make_study(slug: str = "pilot", *, rounds: int = 3, turn_cap: int = TURN_CAP, conditions=CONDITIONS, **fields):
    study = Study.objects.create(
        slug=slug,
        game_id=fields.pop("game_id", "gnomes"),
        title=fields.pop("title", f"Study {slug}"),
        rounds=[{"round": k, "turn_cap": turn_cap} for k in range(1, rounds + 1)],
        consent_text="Consent?",
        instructions="Find the treasure together.",
        **fields,
    )
    for key, label, partner, agent in conditions:
        Condition.objects.create(study=study, key=key, label=label, **condition_fields(partner, agent))
    return study


def condition_fields(partner: str, agent: str = "", **options) -> dict:
    """Seats and options of a two-seat condition: the participant in seat 0 and a person or ``agent`` in seat 1."""
    other = {"kind": "participant"} if partner == "human" else {"kind": "agent", "agent": agent}
    return {"seats": [{"kind": "participant"}, other], "options": options}


def make_participant(study: Study, condition_key: str, *, step: str = Step.ROUNDS, pid: str = "", **fields):
    now = timezone.now()
    fields.setdefault("consented_at", now)
    fields.setdefault("last_seen_at", now)
    if step == Step.COMPLETE:
        fields.setdefault("completed_at", now)
    return Participant.objects.create(
        study=study, condition=study.conditions.get(key=condition_key), step=step, prolific_pid=pid, **fields
    )


@cache
def route(round_number: int) -> tuple[str, ...]:
    """Fewest moves to the treasure with seat 0 moving first, both players cooperating (BFS on the engine)."""
    game = create_game("gnomes", {"round": round_number}, num_seats=2)
    start, goal = (game.layouts.start, 0), game.round_spec.treasure
    previous = {start: None}
    queue = deque([start])
    while queue:
        cell, mover = node = queue.popleft()
        if cell == goal:
            break
        for action in ("right", "up", "left", "down", "stay"):
            following = (game.mazes[mover].step(cell, action)[0], 1 - mover)
            if following not in previous:
                previous[following] = (node, action)
                queue.append(following)
    actions = []
    while previous[node] is not None:
        node, action = previous[node]
        actions.append(action)
    return tuple(reversed(actions))


def play_round(
    participants: Sequence[Participant],
    round_index: int,
    *,
    agent: str = "",
    outcome: str = "found",
    detour: int = 0,
    messages: Sequence[tuple[int, int, str]] = (),
    think_ms: Sequence[int] = (120, 80, 400),
    duration_s: float | None = None,
) -> Match:
    """One round for one participant and an agent, or for two participants of a human pair.

    outcome: "found" (the route, after ``detour`` pairs of stays), "out_of_turns" (stays up to the cap) or
    "playing" (two moves, then abandoned). messages: (after how many moves, seat, text).
    """
    study = participants[0].study
    options = dict(study.rounds[round_index])
    controllers = [SeatController("human"), SeatController("agent", agent_name=agent) if agent else None]
    controllers[1] = controllers[1] or SeatController("human")
    match = services.create_match(
        "gnomes", controllers, seed=7 + round_index, options=options, schedule_agents=False, private=True
    )
    for seat, p in enumerate(participants):
        partner = participants[1 - seat] if len(participants) == 2 else None
        ParticipantRound.objects.create(
            participant=p,
            round_index=round_index,
            match=match,
            seat_index=seat,
            partner_participant=partner,
            partner_agent=agent,
        )
    if outcome == "found":
        moves = ["stay"] * (2 * detour) + list(route(options["round"]))
    elif outcome == "out_of_turns":
        moves = ["stay"] * options["turn_cap"]
    else:
        moves = ["stay", "stay"]
    pending = sorted(messages)
    for number, action in enumerate(moves):
        while pending and pending[0][0] == number:
            services.post_message(match.pk, pending[0][1], pending.pop(0)[2])
        seat = number % 2
        extra = {"agent": agent, "agent_think_ms": think_ms[number % len(think_ms)]} if agent and seat == 1 else None
        match = services.submit_action(
            match.pk, seat, action, expected_version=match.version, extra=extra, schedule_agents=False
        )
    for _, seat, text in pending:  # messages after the last move (only possible while playing)
        services.post_message(match.pk, seat, text)
    if duration_s is not None and match.finished_at is not None:
        Event.objects.filter(match=match, seq=1).update(created_at=match.finished_at - timedelta(seconds=duration_s))
    return match


def answer(participant: Participant, **values: int) -> None:
    for key, value in values.items():
        SurveyAnswer.objects.create(participant=participant, item_key=key, value=value)


def build_study(slug: str = "pilot", *, per_condition: int = 4, seed: int = 3) -> Study:
    """A small but complete study: every condition, finished and unfinished rounds, chat, a dropout, a
    fallback-agent round in the human condition, survey answers. Deterministic for a given seed."""
    rng = random.Random(seed)
    study = make_study(slug)
    rounds = len(study.rounds)
    people = {key: [] for key, *_ in CONDITIONS}
    for key, *_ in CONDITIONS:
        for i in range(per_condition):
            people[key].append(make_participant(study, key, step=Step.COMPLETE, pid=f"{key}-pid-{i}"))
    # Human pairs play every round together; agent conditions play alone with their agent.
    humans = people["H"]
    for a, b in zip(humans[::2], humans[1::2], strict=True):
        for k in range(rounds):
            play_round(
                [a, b],
                k,
                detour=rng.randint(0, 4),
                duration_s=rng.uniform(30, 120),
                messages=[(0, 0, "I see the treasure"), (1, 1, "ok, going right")],
            )
    # The last mute participant runs out of turns in the final round; the last comm one abandons it (with a
    # message that looks like a spreadsheet formula) and goes silent: a dropout.
    last_mute, last_comm = people["A-Mute"][-1], people["A-Comm"][-1]
    special = {last_mute.pk: "out_of_turns", last_comm.pk: "playing"}
    for key, agent in (("A-Comm", "gnomes-comm"), ("A-Mute", "gnomes-mute")):
        for p in people[key]:
            for k in range(rounds):
                outcome = special.get(p.pk, "found") if k == rounds - 1 else "found"
                chat = [(0, 1, "Where is the treasure?"), (2, 0, "right of you")] if key == "A-Comm" else []
                if outcome == "playing":
                    chat = [(1, 0, "=SUM(A1)")]
                play_round(
                    [p],
                    k,
                    agent=agent,
                    outcome=outcome,
                    detour=rng.randint(0, 6),
                    duration_s=rng.uniform(20, 150),
                    messages=chat,
                )
    stale = timezone.now() - timedelta(seconds=study.dropout_after_s + 60)
    Participant.objects.filter(pk=last_comm.pk).update(
        step=Step.ROUNDS, round_index=rounds - 1, last_seen_at=stale, completed_at=None
    )
    # A human-condition participant whose partner never came: one round with the fallback agent.
    alone = make_participant(study, "H", step=Step.SURVEY, pid="H-alone")
    play_round([alone], 0, agent="gnomes-comm", duration_s=45.0)
    for key, group in people.items():
        for p in group:
            if p.pk != last_comm.pk:
                base = {"H": 4, "A-Comm": 2, "A-Mute": 3}[key]
                answer(p, engagement=min(5, base + rng.randint(0, 1)), satisfaction=max(1, base - rng.randint(0, 1)))
    return study
