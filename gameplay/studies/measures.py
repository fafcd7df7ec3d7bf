"""Reads for researchers: per participant-round measures (rounds.csv), and what every export shares: pseudonyms,
times, the study's keys and the measures its game declares. Survey answers and one row per participant are
gameplay.studies.participant_measures, messages.csv's rows gameplay.studies.words, the dashboard's live counts
gameplay.studies.dashboard. No writes here.

Every measure comes from the rounds' matches: the engine state for the score, the winner and the outcome
measures the game declares (``GameSpec.measures``, read through ``State.measures(seat)``), the match for its
status and action count, the event log (with its server timestamps) for times, messages and agent think
times, so the exports can never disagree with what was played and nothing here knows any game by name.
Row keys are the columns ``exports`` writes and documents. Participants appear as a pseudonym, "P" + their
database id; their token is the credential of their study link and is never read here (querysets defer it).

A declared measure ``name`` becomes the column ``m_<name>`` (``measure_column``): the prefix keeps a game's
measure from ever colliding with a platform column (a game may well call a measure "score" or "status"), and
lets a reader of the CSV tell the game's own measures from the platform's at a glance.
"""

from __future__ import annotations

import json
import statistics
from collections import defaultdict
from dataclasses import dataclass
from datetime import UTC, datetime

from gameplay.engines.api import EngineError, MeasureSpec, State
from gameplay.engines.registry import create_game, game_class
from gameplay.models import Event, Seat
from gameplay.reads import player_results
from gameplay.reads.selectors import state_of
from gameplay.studies.models import AGENT, Condition, ParticipantRound, Study

MEASURE_PREFIX = "m_"
HUMAN, MIXED = "human", "mixed"  # partner_kind besides "agent"; "" when the participant plays alone


def participant_code(pk: int | None) -> str:
    return "" if pk is None else f"P{pk:04d}"


def iso(moment: datetime | None) -> str:
    return moment.astimezone(UTC).isoformat(timespec="milliseconds") if moment else ""


def round_count(study: Study) -> int:
    return len(study.rounds or [])


def condition_keys(study: Study) -> list[str]:
    return list(study.conditions.order_by("pk").values_list("key", flat=True))


def likert_keys(study: Study) -> list[str]:
    return [item["key"] for item in study.likert_items or []]


def survey_keys(study: Study) -> list[str]:
    """Every item of the survey in page order: the Likert items, then the questions (``Study.questions``)."""
    return likert_keys(study) + [item["key"] for item in study.questions or []]


# --- what the study's game declares ---------------------------------------------------------------------------


def declared_measures(study: Study) -> tuple[MeasureSpec, ...]:
    """The outcome measures the study's game declares (``GameSpec.measures``), in declaration order."""
    return game_class(study.game_id).spec.measures


def measure_column(name: str) -> str:
    return MEASURE_PREFIX + name


def goal_column(study: Study) -> str:
    """rounds.csv's column of the game's goal measure (``GameSpec.goal_measure``), "" if it declares none."""
    goal = game_class(study.game_id).spec.goal_measure
    return measure_column(goal) if goal else ""


def until_goal_columns(study: Study) -> list[str]:
    """The declared number measures that count up to the goal (censored in rounds that missed it)."""
    return [measure_column(m.name) for m in declared_measures(study) if m.until_goal]


def measure_columns(study: Study) -> list[str]:
    return [measure_column(m.name) for m in declared_measures(study)]


def seat_names(study: Study) -> list[str]:
    """Seat labels for the README, for the largest seat count any condition uses."""
    cls = game_class(study.game_id)
    seats = max([len(c.seats or []) for c in study.conditions.all()] + [cls.spec.min_seats])
    return [cls.spec.seat_names[i] if i < len(cls.spec.seat_names) else f"Player {i + 1}" for i in range(seats)]


def is_cooperative(study: Study) -> bool:
    """True when, in every condition, all seats are on one team (``Game.teams``): nobody wins against anybody,
    so ``won`` is left blank and not analysed. Judged on round 1 as each condition plays it."""
    cls = game_class(study.game_id)
    options = dict((study.rounds or [{}])[0])
    verdicts = []
    for condition in study.conditions.all():
        seats = len(condition.seats or []) or cls.spec.min_seats
        try:
            game = create_game(study.game_id, {**options, **(condition.options or {})}, num_seats=seats)
        except EngineError:  # a condition validation would refuse; judge the game's defaults instead
            game = create_game(study.game_id, num_seats=cls.spec.min_seats)
        verdicts.append(len(set(game.teams())) == 1)
    if not verdicts:
        verdicts.append(len(set(create_game(study.game_id).teams())) == 1)
    return all(verdicts)


# --- one row per participant-round ----------------------------------------------------------------------------


@dataclass
class PlayedRound:
    """One participant's round: their ParticipantRound and what its match logged, seated and ended as."""

    record: ParticipantRound
    events: list[Event]
    seats: dict[int, Seat]
    state: State  # the engine state of the round's match as exported
    players: dict[int, str]  # seat -> participant code, for the study's participants in this match


def played_rounds(study: Study) -> list[PlayedRound]:
    """Every participant-round with its match log, seats and state, in three queries plus one parse a match."""
    records = list(
        ParticipantRound.objects.filter(participant__study=study)
        .select_related("participant__condition", "match")
        .defer("participant__token")
        .order_by("participant_id", "round_index")
    )
    matches = ParticipantRound.objects.filter(participant__study=study).values("match_id")
    events: dict[int, list[Event]] = defaultdict(list)
    for event in Event.objects.filter(match_id__in=matches).order_by("match_id", "seq"):
        events[event.match_id].append(event)
    seats: dict[int, dict[int, Seat]] = defaultdict(dict)
    for seat in Seat.objects.filter(match_id__in=matches).only("match_id", "index", "controller", "agent_name"):
        seats[seat.match_id][seat.index] = seat
    states: dict[int, State] = {}
    players: dict[int, dict[int, str]] = defaultdict(dict)
    for r in records:
        if r.match_id not in states:
            states[r.match_id] = state_of(r.match)
        players[r.match_id][r.seat_index] = participant_code(r.participant_id)
    return [
        PlayedRound(r, events[r.match_id], seats[r.match_id], states[r.match_id], players[r.match_id]) for r in records
    ]


def _partner(r: PlayedRound) -> tuple[str, str, list[int]]:
    """(partner, partner_kind, the agent seats of the match other than the participant's).

    partner lists everyone else in seat order, ";"-separated: participant codes for people (a person outside
    the export falls back to the round's recorded partner), agent names for agents. partner_kind is "human",
    "agent", "mixed" (both), or "" when nobody else plays.
    """
    rec = r.record
    others = sorted(i for i in r.seats if i != rec.seat_index)
    agents = [i for i in others if r.seats[i].is_agent]
    names = []
    for i in others:
        if r.seats[i].is_agent:
            names.append(r.seats[i].agent_name)
        else:
            names.append(r.players.get(i) or participant_code(rec.partner_participant_id) or HUMAN)
    people = len(others) - len(agents)
    kind = MIXED if people and agents else AGENT if agents else HUMAN if people else ""
    return ";".join(names), kind, agents


def _as_assigned(condition: Condition, seats: dict[int, Seat]) -> bool:
    """Every seat is played as the condition prescribes: participants where it names a participant, the named
    agent where it names an agent (a pairing timeout puts the fallback agent in a participant seat: False)."""
    wanted = condition.seats or []
    if len(wanted) != len(seats):
        return False
    agents = condition.agent_seats
    for i, seat in seats.items():
        if i in agents:
            if not (seat.is_agent and seat.agent_name == agents[i]):
                return False
        elif seat.is_agent:
            return False
    return True


def _won(state: State, seat: int) -> bool | None:
    """Whether ``seat``'s team won: its result is above every other team's (gameplay/reads/player_results.py, each
    team one player, with the teams as they stand at the end, ``State.result_teams``: a Who is Spy civilian whose
    side won has won, though each civilian scores only a share of the win). None for a cooperative game (one team)
    or an unfinished one; a draw is False."""
    if len(set(state.game.teams())) == 1 or not state.is_terminal():
        return None
    teams = [int(t) for t in state.result_teams()]
    by_team = player_results.player_results(teams, state.scores(), teams)
    return player_results.outcome(by_team, teams[seat]) == player_results.WIN


def _round_row(study: Study, r: PlayedRound, declared: tuple[MeasureSpec, ...]) -> dict:
    rec, match, state = r.record, r.record.match, r.state
    participant, condition = rec.participant, rec.participant.condition
    partner, kind, agent_seats = _partner(r)
    completed = match.is_finished
    start = r.events[0].created_at if r.events else match.created_at
    messages = [e for e in r.events if e.kind == Event.Kind.MESSAGE]
    mine = [len(e.payload.get("text", "")) for e in messages if e.seat == rec.seat_index]
    theirs = [len(e.payload.get("text", "")) for e in messages if e.seat != rec.seat_index]
    think = [
        e.payload.get("agent_think_ms", e.think_time_ms)
        for e in r.events
        if e.kind == Event.Kind.ACTION and e.seat in agent_seats
    ]
    think = [float(ms) for ms in think if ms is not None]
    agent_moves = [e for e in r.events if e.kind == Event.Kind.ACTION and e.seat in agent_seats]
    notes = {e.seat: e.payload["agent_note"] for e in agent_moves if e.payload.get("agent_note")}
    reported = state.measures(rec.seat_index) or {}
    row = {
        "study": study.slug,
        "participant": participant_code(participant.pk),
        "prolific_pid": participant.prolific_pid,
        "condition": condition.key,
        "condition_partner": condition.partner_summary,
        "round": rec.round_index + 1,
        "options": json.dumps(match.options, sort_keys=True, separators=(",", ":")),
        "match_id": match.pk,
        "seat": rec.seat_index,
        "partner": partner,
        "partner_kind": kind,
        "as_assigned": _as_assigned(condition, r.seats),
        "status": match.status,
        "departure": rec.departure,
        "completed": completed,
        # Scores mean something only once the game is over; engines return an even split before that.
        "score": float(state.scores()[rec.seat_index]) if completed and state.is_terminal() else None,
        "won": _won(state, rec.seat_index) if completed else None,
        "actions": match.version,
        # Rounded to the millisecond here, so the analysis uses exactly the value the CSV shows.
        "time_to_complete_s": round((match.finished_at - start).total_seconds(), 3)
        if completed and match.finished_at
        else None,
        "messages_participant": len(mine),
        "messages_partner": len(theirs),
        "chars_participant": sum(mine),
        "chars_partner": sum(theirs),
        "mean_length_participant": round(statistics.fmean(mine), 3) if mine else None,
        "mean_length_partner": round(statistics.fmean(theirs), 3) if theirs else None,
        "agent_think_ms_mean": round(statistics.fmean(think), 3) if think else None,
        "agent_think_ms_median": statistics.median(think) if think else None,
        "agent_think_ms_max": max(think) if think else None,
        "agent_fallbacks": sum(1 for e in agent_moves if e.payload.get("fallback")) if agent_seats else None,
        "agent_notes": " | ".join(f"{r.seats[seat].agent_name}: {note}" for seat, note in sorted(notes.items())),
        "started_at": iso(start),
        "finished_at": iso(match.finished_at),
    }
    for spec in declared:
        row[measure_column(spec.name)] = reported.get(spec.name)
    goal = state.game.spec.goal_measure
    reached = reported.get(goal) if goal else None
    # Censored: over without the goal (the cap ended it). Unknown while playing or when the game has no goal.
    row["censored"] = (not reached) if completed and state.is_terminal() and reached is not None else None
    return row


def round_rows(study: Study) -> list[dict]:
    """rounds.csv: one row per participant per round, for the participant's own seat with that seat's measures
    (``State.measures(seat)``). A match several participants share has a row for each of their seats; agent seats
    have none (they are named in each row's partner and summarised in its agent_ columns)."""
    declared = declared_measures(study)
    return [_round_row(study, r, declared) for r in played_rounds(study)]
