"""python manage.py bench_realtime [--matches 50] [--duration 60] [--url http://127.0.0.1:8000 ...] [--game santorini]
[--seats N] [--advance MOVES] [--agent random] [--json]

Plays N matches of people (with --agent, the last seat an agent) over real websockets against a running server
(issue 14) and prints moves/s, the mover's round trip and each move's delivery to the other seats (the first, each,
and the last; p50/p90/p95/p99/max; with --agent, the agent's reply), errors, and lost or duplicated moves as
checked against the event log. ``--advance`` starts every match that many random moves in (a long Pit game runs
to thousands of actions, and a move's cost grew with them). Run it with the
server's DATABASE_URL: it creates the matches and reads the log there. See gameplay/bench/README.md
for the topologies measured.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections import deque
from concurrent.futures import ThreadPoolExecutor

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import connections

from gameplay.bench.audit import audit, logged_actions
from gameplay.bench.realtime import BenchConfig, NewMatch, run_bench
from gameplay.bench.report import format_text, summarize
from gameplay.engines.registry import GAMES, game_class
from gameplay.reads import selectors
from gameplay.reads.agent_directory import agent_choices, agent_exists
from gameplay.writes import services


def new_match(game_id: str, seats: int, agent: str | None, seed: int, advance: int = 0) -> NewMatch:
    """A match of ``seats`` people, or with ``agent`` playing the last seat (its turns go to the server's agent
    workers, as in a study's human-vs-agent condition); ``advance`` random moves already played (people only)."""
    controllers = [services.SeatController("human")] * seats
    agent_seats = frozenset({seats - 1}) if agent else frozenset()
    for index in agent_seats:
        controllers[index] = services.SeatController("agent", agent_name=agent)
    match = services.create_match(game_id, controllers, seed=seed, host_seat=0)
    rng = random.Random(seed)
    for _ in range(advance):  # through the service, as the seats' sockets would: the log stays whole
        state = selectors.state_of(match)
        if state.is_terminal():
            break
        seat = rng.choice(state.current_seats())
        action = rng.choice(state.legal_actions(seat)).id
        match = services.submit_action(match.pk, seat, action, expected_version=match.version)
    tokens = tuple(match.seats.order_by("index").values_list("token", flat=True))
    return NewMatch(match.pk, tokens, agent_seats, start_version=match.version)


class Command(BaseCommand):
    help = "Load-test a running server over websockets: N matches of seats moving at a human pace (or with an agent)."

    def add_arguments(self, parser):
        parser.add_argument("--matches", type=int, default=50)
        parser.add_argument("--duration", type=float, default=60.0, help="measured seconds (after the warm-up)")
        parser.add_argument("--warmup", type=float, default=5.0)
        parser.add_argument("--url", action="append", dest="urls",
                            help="server base URL; repeat to split the seats over several processes round-robin")
        parser.add_argument("--game", default="santorini")
        parser.add_argument("--seats", type=int, default=None, help="seats per match (default: the game's minimum)")
        parser.add_argument("--advance", type=int, default=0, help="random moves played in every match before its "
                            "sockets connect (the first matches are made before the clock starts; not with --agent)")
        parser.add_argument("--pace", type=float, default=1.0, help="mean seconds between a seat's moves")
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument("--agent", help="a registered agent (e.g. random) to play each match's last seat; its "
                            "turns run on the server's Celery workers (give their pids to --server-pid too)")
        parser.add_argument("--flood", type=int, default=0, help="extra sockets sending clear frames")
        parser.add_argument("--flood-rate", type=float, default=100.0, help="frames/s per flood socket")
        parser.add_argument("--flood-address", default="", help="local address the flood sockets connect from "
                            "(e.g. 127.0.0.2: another client than the quiet matches' sockets)")
        parser.add_argument("--server-pid", type=int, action="append", dest="server_pids", default=[],
                            help="a server process whose CPU time to report per move (repeatable)")
        parser.add_argument("--json", action="store_true", help="print one JSON object")

    def handle(self, *args, **opts):
        if opts["game"] not in GAMES:
            raise CommandError(f"unknown game {opts['game']!r}; known: {', '.join(sorted(GAMES))}")
        if opts["matches"] < 1 or opts["duration"] <= 0 or opts["pace"] < 0 or opts["warmup"] < 0:
            raise CommandError("--matches must be at least 1, --duration positive, --pace and --warmup not negative")
        if opts["agent"] is not None and not agent_exists(opts["agent"]):
            raise CommandError(f"unknown agent {opts['agent']!r}; known: {', '.join(n for n, _ in agent_choices())}")
        if opts["flood"] < 0 or opts["flood_rate"] <= 0:
            raise CommandError("--flood must not be negative and --flood-rate must be positive")
        if opts["advance"] < 0 or (opts["advance"] and opts["agent"] is not None):
            raise CommandError("--advance must not be negative, and goes without --agent")
        config = BenchConfig(
            matches=opts["matches"],
            duration=opts["duration"],
            urls=tuple(u.rstrip("/") for u in (opts["urls"] or ["http://127.0.0.1:8000"])),
            pace=opts["pace"],
            warmup=opts["warmup"],
            seed=opts["seed"],
            flood=opts["flood"],
            flood_rate=opts["flood_rate"],
            flood_address=opts["flood_address"],
            sockets_per_seat=settings.MAX_SOCKETS_PER_SEAT,
        )
        spec = game_class(opts["game"]).spec
        seats = opts["seats"] if opts["seats"] is not None else spec.min_seats
        if not spec.min_seats <= seats <= spec.max_seats:
            raise CommandError(f"{spec.name} is played by {spec.min_seats} to {spec.max_seats} seats, not {seats}")
        # One thread for every database write, so the event loop never blocks on it (nor writes concurrently).
        db = ThreadPoolExecutor(max_workers=1)
        # Advanced matches take seconds each to make: the first ones are ready before the clock starts.
        ready = deque(
            new_match(opts["game"], seats, None, opts["seed"] * 100_003 + n, opts["advance"])
            for n in range(opts["matches"] if opts["advance"] else 0)
        )

        async def create(seed: int) -> NewMatch:
            if ready:
                return ready.popleft()
            return await asyncio.get_running_loop().run_in_executor(
                db, new_match, opts["game"], seats, opts["agent"], seed, opts["advance"]
            )

        try:
            run = asyncio.run(run_bench(config, create, tuple(opts["server_pids"])))
        except ValueError as err:  # e.g. a --server-pid that is no process
            raise CommandError(str(err)) from None
        finally:
            db.submit(connections.close_all).result()
            db.shutdown()
        checked = audit(run.sends, logged_actions(run.match_ids), run.agent_seats, run.start_versions)
        result = {"game": opts["game"], "seats_per_match": seats,
                  **summarize(run, seats - (1 if opts["agent"] else 0), checked, run.server_cpu, run.client_cpu)}
        self.stdout.write(json.dumps(result) if opts["json"] else format_text(result))
