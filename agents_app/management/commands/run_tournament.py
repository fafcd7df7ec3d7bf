"""python manage.py run_tournament --game santorini --agents a,b[,c...] --matches 10 --seed 7

Every pair of agents plays --matches matches (seats swapped in turn), each a Celery task: played
inside this command on the embedded default (eager Celery), by workers on any machine when
REDIS_URL is set. Running the same command again resumes: finished matches are not replayed.
"""

from __future__ import annotations

import json
import time

from django.core.management.base import BaseCommand, CommandError
from django.urls import reverse
from django.utils import timezone

from agents_app.models import Tournament
from agents_app.tournaments import selectors, services, tasks
from gameplay.engines.registry import GAMES

BAR_WIDTH = 30


class Command(BaseCommand):
    help = "Run (or resume) a tournament between agents; show its progress and results."

    def add_arguments(self, parser):
        parser.add_argument("--game", required=True, help=f"one of: {', '.join(sorted(GAMES))}")
        parser.add_argument("--agents", required=True, help="comma-separated distinct agents, e.g. random,other")
        parser.add_argument("--matches", type=int, default=2, help="matches per pair of agents (seats alternate)")
        parser.add_argument("--seed", type=int, default=0, help="tournament seed; each match's seed derives from it")
        parser.add_argument("--options", default="{}", help="game options as a JSON object")
        parser.add_argument(
            "--seats", type=int, default=None,
            help="seats per match (default 2, or the game's minimum): a pair of agents takes them alternately",
        )
        parser.add_argument(
            "--seating", default="",
            help="which of the pair sits where, one letter per seat (e.g. AABBB: the first agent on seats 0-1); "
                 "swapped every other match (default: alternate, ABAB...)",
        )
        parser.add_argument(
            "--allow-slow", action="store_true",
            help="go on with an agent whose measured p95 think time on the game exceeds its decision deadline "
                 "(check_agent NAME --game G measures it); refused otherwise",
        )
        parser.add_argument("--no-wait", action="store_true", help="queue the matches and exit")
        parser.add_argument("--poll", type=float, default=1.0, help="seconds between progress checks (workers)")
        parser.add_argument(
            "--timeout", type=float, default=0, help="stop waiting after this many seconds (0: wait until done)"
        )
        parser.add_argument(
            "--resume",
            action="store_true",
            help="also queue again matches marked queued or running (after their workers were stopped)",
        )

    def handle(self, *args, **opts):
        try:
            options = json.loads(opts["options"])
        except ValueError:
            raise CommandError("--options must be a JSON object", returncode=2) from None
        started = timezone.now()
        try:
            tournament = services.create_or_resume(
                opts["game"], opts["agents"].split(","), opts["matches"], opts["seed"], options, seats=opts["seats"],
                seating=opts["seating"], allow_slow=opts["allow_slow"],
            )
        except services.TournamentError as err:
            raise CommandError(str(err), returncode=2) from None
        self._isatty = getattr(self.stderr, "isatty", lambda: False)()
        self._last_bar = ""

        before = selectors.progress(tournament)
        self.stdout.write(
            f"Tournament #{tournament.pk}: {tournament.game_id}, {', '.join(tournament.agents)}; "
            f"{tournament.matches_per_pair} per pair, {before.total} matches of {tournament.seats} seats, "
            f"seed {tournament.seed}"
        )
        self.stdout.write(f"Page: {reverse('tournaments:detail', args=[tournament.pk])}")
        if tournament.created_at < started:
            self.stdout.write(f"Resuming: {before.finished} of {before.total} matches already finished.")

        self._bar(tournament)
        queued = tasks.schedule(
            tournament, requeue_active=opts["resume"], after_each=lambda _entry: self._bar(tournament)
        )
        self._bar(tournament)
        if opts["no_wait"]:
            self._end_bar()
            self.stdout.write(f"Queued {queued} matches; not waiting (see the page, or run again to follow).")
            return
        done = self._wait(tournament, opts["poll"], opts["timeout"])
        self._end_bar()
        self._report(tournament)
        progress = selectors.progress(tournament)
        if progress.failed:
            raise CommandError(f"{progress.failed} of {progress.total} matches failed; run again to retry them")
        if not done:
            raise CommandError("stopped waiting; the matches go on on the workers, run again to follow them")

    # --- progress -------------------------------------------------------------

    def _wait(self, tournament: Tournament, poll: float, timeout: float) -> bool:
        """With workers, watch the database until every entry is finished or failed; True if so."""
        deadline = time.monotonic() + timeout if timeout > 0 else None
        while not selectors.progress(tournament).done:
            if deadline is not None and time.monotonic() > deadline:
                return False
            time.sleep(max(poll, 0.05))
            self._bar(tournament)
        self._bar(tournament)  # the last match may finish between a redraw and the check: draw the final state
        services.refresh_status(tournament.pk)
        return True

    def _bar(self, tournament: Tournament) -> None:
        p = selectors.progress(tournament)
        filled = BAR_WIDTH * p.finished // p.total if p.total else BAR_WIDTH
        bar = "#" * filled + "-" * (BAR_WIDTH - filled)
        line = f"[{bar}] {p.finished}/{p.total} matches finished, {p.failed} failed"
        if line == self._last_bar:
            return
        self._last_bar = line
        # On a terminal the bar redraws in place; in a log each change is one line.
        if self._isatty:
            self.stderr.write(f"\r{line}", ending="", style_func=str)
            self.stderr.flush()
        else:
            self.stderr.write(line, style_func=str)

    def _end_bar(self) -> None:
        if self._isatty:
            self.stderr.write("", style_func=str)

    # --- results --------------------------------------------------------------

    def _report_teamwork(self, results, width: int) -> None:
        """A cooperative game: the goal reached ("success") and the turns it took, never wins and losses."""
        def mean(team) -> str:
            return f"{team.mean_turns:.1f}" if team.mean_turns is not None else "–"

        self.stdout.write(f"a cooperative game: success = {results.goal_measure}; turns = {results.turns_measure} "
                          "(mean over the successful matches)")
        self.stdout.write(f"{'agent':<{width}}  matches  successes  success rate  turns")
        for r in results.agents:
            self.stdout.write(f"{r.agent:<{width}}  {r.matches:>7}  {r.team.successes:>9}  "
                              f"{r.success_rate or 0:>12.0%}  {mean(r.team):>5}")
        self.stdout.write("")
        self.stdout.write("per pair (playing together)")
        for p in results.pairs:
            self.stdout.write(f"{p.first} with {p.second}: {p.matches} matches, {p.team.successes} successes "
                              f"({p.success_rate or 0:.0%}), turns {mean(p.team)}")

    def _report(self, tournament: Tournament) -> None:
        results = selectors.results(tournament)
        width = max(len(a) for a in tournament.agents + ["agent"])
        self.stdout.write("")
        if results.cooperative:
            self._report_teamwork(results, width)
            return
        self.stdout.write("an agent's result in a match: the mean score of the seats it held (in teams, each seat "
                          "counts its team's score); points: the sum of its results")
        self.stdout.write(f"{'agent':<{width}}  matches  wins  draws  losses   points")
        for r in results.agents:
            self.stdout.write(
                f"{r.agent:<{width}}  {r.matches:>7}  {r.wins:>4}  {r.draws:>5}  {r.losses:>6}  {r.points:>7g}"
            )
        self.stdout.write("")
        self.stdout.write("per pair (wins of the first agent – draws – wins of the second; points)")
        for p in results.pairs:
            self.stdout.write(
                f"{p.first} vs {p.second}: {p.matches} matches, {p.first_wins}–{p.draws}–{p.second_wins}, "
                f"points {p.first_points:g}–{p.second_points:g}"
            )
