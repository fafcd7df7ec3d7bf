"""python manage.py run_study_bots <slug> --participants N --seed S [--bot-agent random|gnomes-partner] [--url URL]
    [--concurrency 6] [--timeout S]

Works for a study of any game: the bots play a seeded random legal action by default (``--bot-agent
gnomes-partner`` plays Gnomes at Night like a cooperative person who chats).

Drives N simulated participants through the whole study over real HTTP and websockets, so a researcher can
try a study before launch and look at its exports. Without --url a daphne server is started on a free port
against this project's database (a SQLite file or the configured server database) and stopped at the end.
"""

from __future__ import annotations

import secrets
import sys
import threading
import time
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor

from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError

from gameplay.studies.bots.journey import Outcome, run_participant
from gameplay.studies.bots.player import POLICIES
from gameplay.studies.bots.server import ServerError, daphne_server, database_env
from gameplay.studies.models import Participant, Study

UNFINISHED_STATUSES = ("aborted", "active", "playing")
DEFAULT_TIMEOUT_S = 600.0


class Command(BaseCommand):
    help = "Run simulated participants through a study over the real HTTP and websocket paths."

    def add_arguments(self, parser):
        parser.add_argument("study", help="the study's slug (its link is /s/<slug>/)")
        parser.add_argument("--participants", type=int, default=10, help="number of simulated participants")
        parser.add_argument(
            "--seed",
            type=int,
            default=0,
            help="seeds every bot's moves, messages and survey answers (the server still draws match seeds "
            "and breaks assignment ties at random, so two runs differ in what the bots meet)",
        )
        parser.add_argument(
            "--bot-agent",
            default="random",
            choices=sorted(POLICIES),
            help="how the bots choose moves: a seeded random legal action (any game), or gnomes-partner (the "
            "simulated Gnomes at Night partner, which also chats)",
        )
        parser.add_argument(
            "--url", default="", help="use this running server (e.g. http://127.0.0.1:8000) instead of starting one"
        )
        parser.add_argument(
            "--concurrency",
            type=int,
            default=6,
            help="bots on the site at once; people-paired conditions need at least 2",
        )
        parser.add_argument("--stagger", type=float, default=0.2, help="seconds between two bots' arrivals")
        parser.add_argument(
            "--timeout",
            type=float,
            default=None,
            help="seconds one bot may take for the whole study (default: 600, plus the study's pairing timeout "
            "for every round, since a bot without a partner waits that long each round)",
        )

    def handle(self, *args, **opts):
        if opts["participants"] < 1:
            raise CommandError("--participants must be at least 1", returncode=2)
        if opts["concurrency"] < 2:
            raise CommandError(
                "--concurrency must be at least 2 (paired conditions need two bots at once)", returncode=2
            )
        if not opts["url"]:
            try:
                database_env()  # before touching the database: an in-memory one cannot be served
            except ServerError as err:
                raise CommandError(str(err), returncode=2) from None
        study = self._check_study(opts["study"], bool(opts["url"]))
        if opts["timeout"] is None:
            opts["timeout"] = DEFAULT_TIMEOUT_S + (study.pairing_timeout_s * len(study.rounds or []) if study else 0)
        started = time.monotonic()
        if opts["url"]:
            outcomes = self._run(opts["url"].rstrip("/"), opts, started)
        else:
            try:
                with daphne_server() as url:
                    self.stdout.write(f"server: {url} (daphne, stopped at the end)")
                    outcomes = self._run(url, opts, started)
            except ServerError as err:
                raise CommandError(str(err)) from None
        self._summary(opts["study"], outcomes, time.monotonic() - started)

    # --- the run --------------------------------------------------------------------------------------
    def _check_study(self, slug: str, remote: bool) -> Study | None:
        try:
            study = Study.objects.filter(slug=slug).first()
        except DatabaseError:
            if not remote:
                raise
            study = None  # a server elsewhere needs nothing from this process's database
        if study is None:
            if not remote:
                raise CommandError(f"no study {slug!r} in the database (load one with load_study)", returncode=2)
            self.stdout.write(f"note: study {slug!r} is not in this process's database; conditions are inferred")
        elif not study.is_open:
            self.stdout.write(self.style.WARNING(f"study {slug!r} is closed: new participants will be turned away"))
        return study

    def _run(self, url: str, opts: dict, started: float) -> list[Outcome]:
        lock = threading.Lock()

        def log(line: str) -> None:
            with lock:
                self.stdout.write(f"[{time.monotonic() - started:6.1f}s] {line}")
                self.stdout.flush()

        run_id = secrets.token_hex(3)  # prolific ids stay unique when a study is run with the same seed again
        count = opts["participants"]
        log(
            f"{count} participants on {url}/s/{opts['study']}/ (seed {opts['seed']}, run {run_id}, "
            f"{opts['concurrency']} at a time)"
        )

        def one(number: int) -> Outcome:
            # Staggered arrivals, like people following a link; a bot waits its turn if a slot frees early.
            delay = started + number * opts["stagger"] - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            outcome = run_participant(
                url, opts["study"], number, seed=opts["seed"], run_id=run_id, timeout=opts["timeout"], log=log,
                policy=opts["bot_agent"],
            )
            if outcome.completed:
                log(f"bot {number:>3}: completed in {outcome.seconds:.1f} s, code {outcome.completion_code or '?'}")
            else:
                log(f"bot {number:>3}: FAILED at {outcome.last_page}: {outcome.error}")
            return outcome

        with ThreadPoolExecutor(max_workers=opts["concurrency"], thread_name_prefix="study-bot") as pool:
            return list(pool.map(one, range(1, count + 1)))

    # --- the report -----------------------------------------------------------------------------------
    def _summary(self, slug: str, outcomes: list[Outcome], seconds: float) -> None:
        conditions = self._conditions(slug, outcomes)
        by_condition: dict[str, list[Outcome]] = defaultdict(list)
        for outcome in outcomes:
            by_condition[conditions.get(outcome.prolific_pid) or outcome.experience].append(outcome)
        self.stdout.write("")
        # "succeeded": the bot's side reached the game's goal (the treasure found, or the bot won). Rounds are
        # counted per participant, so a round two people played together counts for each of them.
        self.stdout.write(
            f"{'condition':<12} {'completed':>10} {'rounds played':>14} {'succeeded':>9} "
            f"{'mean turns':>11} {'waited s':>9}"
        )
        for key in sorted(by_condition):
            group = by_condition[key]
            played = [r for o in group for r in o.rounds if r.status not in UNFINISHED_STATUSES]
            found = sum(1 for r in played if r.succeeded)
            mean_turns = f"{sum(r.turns for r in played) / len(played):.1f}" if played else "-"
            waited = sum(o.waited_s for o in group) / len(group)
            completed = sum(1 for o in group if o.completed)
            self.stdout.write(
                f"{key:<12} {f'{completed}/{len(group)}':>10} {len(played):>14} {found:>9} "
                f"{mean_turns:>11} {waited:>9.1f}"
            )
        failed = [o for o in outcomes if not o.completed]
        total = sum(1 for o in outcomes if o.completed)
        self.stdout.write(f"{total}/{len(outcomes)} participants completed in {seconds:.1f} s")
        if failed:
            for o in failed:
                self.stderr.write(f"bot {o.number} ({o.prolific_pid}) failed at {o.last_page}: {o.error}")
            sys.stdout.flush()
            raise CommandError(f"{len(failed)} of {len(outcomes)} bots failed", returncode=1)

    @staticmethod
    def _conditions(slug: str, outcomes: list[Outcome]) -> dict[str, str]:
        """Each bot's condition from the database, when this process shares the server's database."""
        pids = [o.prolific_pid for o in outcomes]
        try:
            rows = Participant.objects.filter(study__slug=slug, prolific_pid__in=pids).values_list(
                "prolific_pid", "condition__key"
            )
            return dict(rows)
        except DatabaseError:
            return {}
