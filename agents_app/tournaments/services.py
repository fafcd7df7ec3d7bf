"""Writes of tournaments: create (or find again) a tournament, queue its matches, play one entry.

A tournament is identified by its parameters: the same game, agents, matches per pair, seed and
options give the same ``key``, so running it again resumes it instead of starting over. Every
entry (one match) is a Celery task; entries already finished are never played again.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import socket
from collections.abc import Mapping, Sequence
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from agents_app import selectors as agent_selectors
from agents_app import services as agent_services
from agents_app import turns
from agents_app.models import Tournament, TournamentMatch
from gameplay.engines.api import EngineError
from gameplay.engines.registry import GAMES, create_game
from gameplay.engines.seeding import derive_seed
from gameplay.models import Match
from gameplay.writes import services as match_services

logger = logging.getLogger(__name__)

# An entry queued or running without a sign of life for this long is assumed lost (a worker died,
# Redis was flushed) and is queued again. A duplicate delivery is harmless: the task is idempotent.
STALE_AFTER = timedelta(minutes=10)
DEFAULT_SEATS = 2  # a head-to-head match, when the game can be played by two
# A match that makes no progress after this many rounds of agent turns is stuck, not slow.
MAX_STALLED_ROUNDS = 3


class TournamentError(ValueError):
    """Parameters the service refuses; ``str(err)`` is a message fit for the user."""


def match_seed(seed: int, index: int) -> int:
    """The seed of entry ``index`` (gameplay.engines.seeding): sha256("tournament:<seed>:<index>"), so neighbouring
    tournaments never share matches; anyone can recompute it to replay a match."""
    return derive_seed("tournament", seed, index)


def pairings(
    agents: Sequence[str], matches_per_pair: int, seats: int = DEFAULT_SEATS, seating: str = ""
) -> list[tuple[str, ...]]:
    """Seat order of every entry: each unordered pair in the given order, seats swapped every other match.

    A game of more than two seats is still played by a pair: its two agents take the seats alternately (three
    seats: A, B, A), and the next match of the pair starts with the other agent, so over an even number of matches
    each agent holds as many seats, and each seat position, as the other. ``seating`` ("AABBB": one letter per
    seat) places them otherwise, e.g. one agent on a game's fixed Evil seats and the other on its Good seats as
    GameBench played Are You the Traitor?; the two agents still swap letters every other match."""
    if seating and len(seating) != seats:
        raise TournamentError(f"the seating {seating!r} has {len(seating)} letters for {seats} seats")
    pattern = seating or _alternating(seats)
    entries = []
    for i, first in enumerate(agents):
        for second in agents[i + 1 :]:
            for k in range(matches_per_pair):
                a, b = (first, second) if k % 2 == 0 else (second, first)
                entries.append(tuple(a if letter == "A" else b for letter in pattern))
    return entries


def default_seats(game_id: str) -> int:
    """Seats of a tournament match when none are asked for: two if the game allows it, else its minimum."""
    spec = GAMES[game_id].spec
    return DEFAULT_SEATS if spec.min_seats <= DEFAULT_SEATS <= spec.max_seats else spec.min_seats


def tournament_key(
    game_id: str,
    agents: Sequence[str],
    matches_per_pair: int,
    seed: int,
    options: Mapping,
    seats: int = DEFAULT_SEATS,
    seating: str = "",
) -> str:
    params = {
        "game": game_id,
        "agents": list(agents),
        "matches_per_pair": matches_per_pair,
        "seed": seed,
        "options": dict(options),
    }
    if seats != DEFAULT_SEATS:  # two-seat tournaments keep the keys they had before seat counts existed
        params["seats"] = seats
    if seating and seating != _alternating(seats):  # the default seating keeps the keys it always had
        params["seating"] = seating
    canonical = json.dumps(params, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def create_or_resume(
    game_id: str,
    agents: Sequence[str],
    matches_per_pair: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
    seats: int | None = None,
    seating: str = "",
    *,
    allow_slow: bool = False,
) -> Tournament:
    """The tournament of these parameters, with all its entries; created on first use, found again after.

    ``seats``: players per match (default: two where the game allows, else its minimum); ``seating``: which of
    the pair sits where (``pairings``). ``allow_slow``: go on with an agent measured slower than its decision
    deadline on the game (refused otherwise, as an agent that cannot play is); not part of the tournament's key."""
    agents = [a.strip() for a in agents if a and a.strip()]
    options, seats = _validated(game_id, agents, matches_per_pair, seed, options, seats, allow_slow)
    if seating and (len(seating) != seats or set(seating) - {"A", "B"}):
        raise TournamentError(f"seating: one letter A or B per seat ({seats} seats), not {seating!r}")
    key = tournament_key(game_id, agents, matches_per_pair, seed, options, seats, seating)
    with transaction.atomic():
        tournament, _ = Tournament.objects.get_or_create(
            key=key,
            defaults={
                "game_id": game_id,
                "agents": agents,
                "matches_per_pair": matches_per_pair,
                "seats": seats,
                "seed": seed,
                "options": options,
            },
        )
        # Entries are created by index, skipping existing ones: safe to repeat, never duplicates.
        existing = set(tournament.entries.values_list("index", flat=True))
        missing = [
            TournamentMatch(tournament=tournament, index=i, seat_agents=list(seat_agents), seed=match_seed(seed, i))
            for i, seat_agents in enumerate(pairings(agents, matches_per_pair, seats, seating))
            if i not in existing
        ]
        TournamentMatch.objects.bulk_create(missing, ignore_conflicts=True)
    return tournament


def mark_for_scheduling(
    tournament: Tournament,
    *,
    requeue_active: bool = False,
    stale_after: timedelta = STALE_AFTER,
    lost_only: bool = False,
) -> list[int]:
    """The ids of the entries that still have to be played, marked queued; ``tasks.schedule`` queues them.

    Pending and failed entries are taken, and so are queued/running ones that look lost (no update for
    ``stale_after``, or played by a process of this machine that no longer exists; see ``_stale``) or all of them
    with ``requeue_active`` (the caller knows no worker is on them). ``lost_only``: only running entries whose
    process is gone or whose match has gone quiet, for a caller that watches a run it has queued itself: its queued
    entries are waiting in the broker, not lost, however long the queue, and its failures wait for the next run.
    """
    refresh_status(tournament.pk)
    if lost_only:
        todo = _stale(tournament, False, stale_after).filter(status=TournamentMatch.Status.RUNNING)
    else:
        todo = tournament.entries.filter(
            status__in=[TournamentMatch.Status.PENDING, TournamentMatch.Status.FAILED]
        ) | _stale(tournament, requeue_active, stale_after)
    ids = list(todo.order_by("index").values_list("pk", flat=True))
    if ids:
        # Marked queued before anything is sent, so a fast worker never finds an entry still "pending"
        # and a scheduler run a moment later does not queue them again (the task is idempotent anyway).
        TournamentMatch.objects.filter(pk__in=ids).update(
            status=TournamentMatch.Status.QUEUED, error="", updated_at=timezone.now()
        )
    return ids


def play_entry(entry_id: int) -> str:
    """Play one entry to the end and return its final status. Never raises: a failure is recorded.

    Idempotent: a finished entry is left alone; an entry whose match was interrupted continues
    that match rather than starting another, so a duplicate or repeated delivery plays nothing twice.
    """
    try:
        match_id = _start(entry_id)
        if match_id is None:
            return TournamentMatch.Status.FINISHED
        _play_to_the_end(match_id)
        return _finish(entry_id)
    except Exception as err:  # a broken match must not take the worker (or the eager command) down
        logger.exception("tournament entry %s failed", entry_id)
        TournamentMatch.objects.filter(pk=entry_id).exclude(status=TournamentMatch.Status.FINISHED).update(
            status=TournamentMatch.Status.FAILED, error=f"{type(err).__name__}: {err}"[:2000], updated_at=timezone.now()
        )
        return TournamentMatch.Status.FAILED


def refresh_status(tournament_id: int) -> bool:
    """Mark the tournament finished once every entry is; True if it is finished."""
    unfinished = TournamentMatch.objects.filter(tournament_id=tournament_id).exclude(
        status=TournamentMatch.Status.FINISHED
    )
    if unfinished.exists():
        return False
    Tournament.objects.filter(pk=tournament_id, status=Tournament.Status.RUNNING).update(
        status=Tournament.Status.FINISHED, finished_at=timezone.now()
    )
    return True


# --- helpers -------------------------------------------------------------------


def _validated(
    game_id: str, agents: list[str], matches_per_pair: int, seed: int, options, seats: int | None,
    allow_slow: bool = False,
) -> tuple[dict, int]:
    """Check the parameters; return the game's normalised options (so {} and explicit defaults are one key) and
    the seat count."""
    if game_id not in GAMES:
        raise TournamentError(f"unknown game {game_id!r}; known: {', '.join(sorted(GAMES))}")
    spec = GAMES[game_id].spec
    seats = default_seats(game_id) if seats is None else seats
    if not isinstance(seats, int) or not spec.min_seats <= seats <= spec.max_seats:
        allowed = str(spec.min_seats) if spec.min_seats == spec.max_seats else f"{spec.min_seats}-{spec.max_seats}"
        raise TournamentError(f"{spec.name} is played by {allowed} seats, not {seats}")
    if len(agents) < 2:
        raise TournamentError("a tournament needs at least two agents")
    duplicates = sorted({a for a in agents if agents.count(a) > 1})
    if duplicates:
        raise TournamentError(f"each agent may appear once; repeated: {', '.join(duplicates)}")
    for name in agents:
        if not agent_selectors.agent_exists(name):
            known = ", ".join(n for n, _ in agent_selectors.agent_choices())
            raise TournamentError(f"unknown agent {name!r}; known: {known}")
        if not agent_selectors.agent_plays(name, game_id):
            known = ", ".join(n for n, _ in agent_selectors.agent_choices(game_id))
            raise TournamentError(f"agent {name!r} does not play {spec.name}; agents for it: {known}")
        _preflight(name, game_id, allow_slow)
    if not isinstance(matches_per_pair, int) or matches_per_pair < 1:
        raise TournamentError("matches per pair must be at least 1")
    if not isinstance(seed, int) or not -(2**63) <= seed < 2**63:
        raise TournamentError("the seed must be a 64-bit integer")
    if options is not None and not isinstance(options, Mapping):
        raise TournamentError("options must be a JSON object")
    try:
        return create_game(game_id, options, num_seats=seats).options, seats
    except EngineError as err:
        raise TournamentError(str(err)) from None


def _preflight(name: str, game_id: str, allow_slow: bool = False) -> None:
    """Refuse an agent that cannot play (e.g. a RAP config on an endpoint without logprobs, or one measured slower
    than its deadline unless ``allow_slow``) now, rather than as every one of its matches failing on the workers."""
    try:
        agent_services.preflight(name, game_id, allow_slow=allow_slow)
    except Exception as err:  # an endpoint that cannot even be probed is as good a reason not to start
        raise TournamentError(f"agent {name!r} cannot play: {err}") from None


def _stale(tournament: Tournament, everything: bool, stale_after: timedelta = STALE_AFTER):
    active = tournament.entries.filter(status__in=[TournamentMatch.Status.QUEUED, TournamentMatch.Status.RUNNING])
    if everything:
        return active
    cutoff = timezone.now() - stale_after
    # A running entry's match is saved on every move: that is its heartbeat, however long the match.
    quiet_match = Q(match__isnull=True) | Q(match__updated_at__lt=cutoff)
    # A worker of this machine that was killed is known lost at once: the process named in played_by is gone.
    dead = [
        pk
        for pk, played_by in active.filter(status=TournamentMatch.Status.RUNNING).values_list("pk", "played_by")
        if _process_gone(played_by)
    ]
    return active.filter(Q(updated_at__lt=cutoff) & quiet_match | Q(pk__in=dead))


def _process_gone(played_by: str) -> bool:
    """Whether ``played_by`` ("host:pid") names a process of this host that no longer runs (other hosts: unknown,
    False; their entries are found by the quiet-match rule instead)."""
    host, _, pid = played_by.rpartition(":")
    if host != socket.gethostname() or not pid.isdigit():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except PermissionError:  # it exists, under another user
        return False
    return False


def _alternating(seats: int) -> str:
    return "".join("AB"[seat % 2] for seat in range(seats))


def _start(entry_id: int) -> int | None:
    """Lock the entry, find or create its match and mark it running; None if there is nothing to play."""
    with transaction.atomic():
        # Lock the entry row only (of="self"), not its tournament: workers start entries side by side.
        entry = TournamentMatch.objects.select_for_update(of=("self",)).select_related("tournament").get(pk=entry_id)
        if entry.status == TournamentMatch.Status.FINISHED:
            return None
        match = entry.match
        if match is not None and match.status == Match.Status.FINISHED:
            # Played to the end before an interruption, but not yet recorded: record it, play nothing.
            entry.status = TournamentMatch.Status.RUNNING
            entry.save(update_fields=["status", "updated_at"])
            return match.pk
        if match is None or match.status != Match.Status.ACTIVE:
            match = match_services.create_match(
                entry.tournament.game_id,
                [match_services.SeatController("agent", agent_name=name) for name in entry.seat_agents],
                seed=entry.seed,
                options=entry.tournament.options,
                host_seat=None,
                schedule_agents=False,
            )
            entry.match = match
        entry.status = TournamentMatch.Status.RUNNING
        entry.error = ""
        entry.played_by = f"{socket.gethostname()}:{os.getpid()}"
        entry.save(update_fields=["match", "status", "error", "played_by", "updated_at"])
        return match.pk


def _play_to_the_end(match_id: int) -> None:
    # A plain call, not .delay(): the match is played by this process, whichever worker took the entry.
    stalled = 0
    while Match.objects.filter(pk=match_id, status=Match.Status.ACTIVE).exists():
        # play_agent_turns stops after a safety limit or a few rejected moves; go on while it progresses.
        stalled = 0 if turns.play_pending_turns(match_id) else stalled + 1
        if stalled >= MAX_STALLED_ROUNDS:
            raise RuntimeError(f"match {match_id} is stuck: no agent could move")
    match = Match.objects.get(pk=match_id)
    if match.status != Match.Status.FINISHED:
        raise RuntimeError(f"match {match_id} ended as {match.get_status_display().lower()}, not finished")


def _finish(entry_id: int) -> str:
    with transaction.atomic():
        entry = TournamentMatch.objects.select_for_update().get(pk=entry_id)
        entry.status = TournamentMatch.Status.FINISHED
        entry.error = ""
        entry.save(update_fields=["status", "error", "updated_at"])
    refresh_status(entry.tournament_id)
    return TournamentMatch.Status.FINISHED
