"""python manage.py run_protocol fixtures/protocols/gamebench.json [--out DIR] [--no-wait] [--report-only]

Runs a benchmark protocol file (agents_app/protocols/schema.py says what it holds): one tournament per game and
seed, every match a Celery task played by however many workers run (in this process on the embedded default).
Running it again resumes: finished matches are kept, lost ones (a killed worker) are played again, none twice.
When every match is done it writes the report: ratings with intervals, average scores, win probabilities, scores
per reasoning category and each model's calls, tokens, time and cost, with their provenance.
"""

from __future__ import annotations

import time
from datetime import timedelta
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from agents_app.protocols import report, schema, selectors, services

BAR_WIDTH = 24
REQUEUE_EVERY_S = 5.0  # how often the wait looks for lost matches to queue again


class Command(BaseCommand):
    help = "Run (or resume) a benchmark protocol file and write its report."

    def add_arguments(self, parser):
        parser.add_argument("file", help="the protocol file (JSON), e.g. fixtures/protocols/gamebench.json")
        parser.add_argument("--out", help="the report's folder (default: the file's output.directory)")
        parser.add_argument("--no-wait", action="store_true", help="queue the matches and exit")
        parser.add_argument("--report-only", action="store_true", help="queue nothing; report what is finished")
        parser.add_argument("--poll", type=float, default=1.0, help="seconds between progress checks (workers)")
        parser.add_argument("--timeout", type=float, default=0, help="stop waiting after this many seconds (0: never)")
        parser.add_argument(
            "--stale-after", type=float, default=None,
            help="seconds without a move after which a match is taken as lost and queued again "
                 "(default: the file's stale_after_s; a killed worker of this machine is seen at once)",
        )
        parser.add_argument(
            "--allow-slow", action="store_true",
            help="go on with agents measured slower than their decision deadline on a game (check_agent --game), "
                 "as the file's \"allow_slow_agents\": true does",
        )
        parser.add_argument(
            "--resume", action="store_true",
            help="also queue again every match marked queued or running (after all workers were stopped)",
        )

    def handle(self, *args, **opts):
        try:
            protocol = schema.load(opts["file"])
            planned = services.prepare(protocol, allow_slow=opts["allow_slow"])
        except schema.ProtocolError as err:
            raise CommandError("the protocol cannot run:\n  - " + "\n  - ".join(err.problems), returncode=2) from None
        stale_after = timedelta(seconds=opts["stale_after"] or protocol.stale_after_s)
        self._isatty = getattr(self.stderr, "isatty", lambda: False)()
        self._last = ""
        before = selectors.progress(planned)["all"]
        self.stdout.write(
            f"Protocol {protocol.name} {protocol.version} ({protocol.sha256[:12]}): {len(protocol.games)} games, "
            f"{len(protocol.agents)} agents, seeds {', '.join(map(str, protocol.seeds))}; {len(planned)} tournaments, "
            f"{before.total} matches, {before.finished} already finished"
        )
        if not opts["report_only"]:
            queued = services.schedule(
                planned, stale_after=stale_after, requeue_active=opts["resume"],
                after_each=lambda _entry: self._show(planned),
            )
            self.stdout.write(f"Queued {queued} matches.")
            if opts["no_wait"]:
                self.stdout.write("Not waiting: run the command again to follow the run and write its report.")
                return
            if not self._wait(planned, opts["poll"], opts["timeout"], stale_after):
                raise CommandError("stopped waiting; the matches go on on the workers, run again to follow them")
        self._end()
        self._write_report(protocol, planned, opts["out"])
        failed = selectors.progress(planned)["all"].failed
        if failed:
            raise CommandError(f"{failed} matches failed (their errors are on the tournament pages); run the "
                               "command again to retry them")

    def _wait(self, planned, poll: float, timeout: float, stale_after: timedelta) -> bool:
        deadline = time.monotonic() + timeout if timeout > 0 else None
        next_requeue = time.monotonic() + REQUEUE_EVERY_S
        while not selectors.progress(planned)["all"].done:
            if deadline is not None and time.monotonic() > deadline:
                return False
            if time.monotonic() >= next_requeue:  # a worker killed mid-match: its match is queued again
                requeued = services.schedule(planned, stale_after=stale_after, lost_only=True)
                if requeued:
                    self._end()
                    self.stdout.write(f"Queued again {requeued} lost matches (a worker stopped or went quiet).")
                next_requeue = time.monotonic() + REQUEUE_EVERY_S
            time.sleep(max(poll, 0.05))
            self._show(planned)
        return True

    def _show(self, planned) -> None:
        lines = []
        for game, p in selectors.progress(planned).items():
            filled = BAR_WIDTH * p.finished // p.total if p.total else BAR_WIDTH
            extra = (f", {p.running} running" if p.running else "") + (f", {p.failed} failed" if p.failed else "")
            lines.append(f"{game:<22}[{'#' * filled}{'-' * (BAR_WIDTH - filled)}] {p.finished}/{p.total}{extra}")
        text = lines[-1] if self._isatty else "\n".join(lines)
        if text == self._last:
            return
        self._last = text
        if self._isatty:  # on a terminal one line (all games) redraws in place; in a log every change is written
            self.stderr.write(f"\r{text}", ending="", style_func=str)
            self.stderr.flush()
        else:
            self.stderr.write(text, style_func=str)

    def _end(self) -> None:
        if self._isatty and self._last:
            self.stderr.write("", style_func=str)

    def _write_report(self, protocol, planned, out: str | None) -> None:
        data = report.build(protocol, planned)
        paths = report.write(data, Path(out or protocol.output_dir), selectors.played_matches(planned))
        self.stdout.write("")
        self.stdout.write(report.render(data))
        self.stdout.write("Written: " + ", ".join(str(p) for p in paths))
