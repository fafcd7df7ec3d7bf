"""python manage.py watch_agent_turns [--once] [--interval S]: the stalled agent turn watchdog without Celery beat."""

from __future__ import annotations

import time

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import close_old_connections

from gameplay.writes.watchdog import apply_overdue_timeouts, requeue_awaited_verdicts, requeue_stalled_agent_turns


class Command(BaseCommand):
    help = (
        "Queue again the turns of agent seats that have not moved within AGENT_TURN_DEADLINE_SECONDS "
        "(for deployments that run no Celery beat), and apply the timeout actions of people who ran out of time "
        "(turn timers). Runs until stopped, or one sweep with --once."
    )

    def add_arguments(self, parser):
        parser.add_argument("--once", action="store_true", help="one sweep, then exit")
        default = settings.AGENT_WATCHDOG_INTERVAL_SECONDS
        parser.add_argument(
            "--interval", type=float, default=None,
            help=f"seconds between sweeps (default: AGENT_WATCHDOG_INTERVAL_SECONDS, now {default:g})",
        )  # fmt: skip

    def handle(self, *args, **opts):
        interval = settings.AGENT_WATCHDOG_INTERVAL_SECONDS if opts["interval"] is None else opts["interval"]
        if not interval > 0:
            raise CommandError("--interval must be a positive number of seconds", returncode=2)
        while True:
            count = requeue_stalled_agent_turns() + requeue_awaited_verdicts()
            timeouts = apply_overdue_timeouts()
            if opts["once"] or count:
                self.stdout.write(f"stalled agent turns queued again: {count}")
            if timeouts:
                self.stdout.write(f"turn timers ran out: {timeouts} timeout actions applied")
            if opts["once"]:
                return
            time.sleep(interval)
            close_old_connections()  # a long-running loop: never keep a connection the database has dropped
