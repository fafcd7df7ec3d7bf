"""python manage.py bench_live_keys --url http://127.0.0.1:8741 [--bouts 3] [--seconds 120] [--early 15]
[--choose "Frames per decision=15"] [--server-pid PID] [--json]

Boxes live against the scripted boxer in headless Chromium as a person does (issue 39, point 5) and prints the page's
own figures per bout and overall: the median time from a key press to the first frame showing it and its number
of samples, frames per second and the frames' delivery, after the early part of the bout and over the whole of it.
See gameplay/bench/README.md ("Key to frame in a live bout").
"""

from __future__ import annotations

import json
import os
import time

from django.core.management.base import BaseCommand, CommandError

from gameplay.bench.live_keys import Bout, Plan, PlaywrightMissing, overall, run
from gameplay.bench.measures import ServerCpu


def _figures_line(name: str, figures) -> str:
    if figures is None:
        return f"{name}: -"
    latency = "-" if figures.latency_ms is None else f"{figures.latency_ms:.1f} ms"
    delivery = "-" if figures.delivery_ms is None else f"{figures.delivery_ms:.0f} ms"
    return (f"{name} ({figures.seconds:.0f} s): key to frame {latency} (median of {figures.samples}), "
            f"{figures.fps} frames/s, delivery {delivery}")


def _bout_line(index: int, bout: Bout) -> str:
    fps = bout.to_json()
    return (f"bout {index + 1}: {_figures_line('early', bout.early)}; {_figures_line('whole', bout.whole)}; "
            f"frames/s median {fps['fps_median']} min {fps['fps_min']}; {bout.presses} presses"
            + ("; the bout ended" if bout.ended else "") + f"  {bout.url}")


class Command(BaseCommand):
    help = "Box live in headless Chromium like a person and print the page's key-to-frame median, frames/s, delivery."

    def add_arguments(self, parser):
        parser.add_argument("--url", default="http://127.0.0.1:8000", help="the running server's base URL")
        parser.add_argument("--bouts", type=int, default=3, help="bouts played one after another")
        parser.add_argument("--seconds", type=float, default=120.0,
                            help="seconds of key presses per bout (a whole bout is 2:00; it stops at its result)")
        parser.add_argument("--early", type=float, default=15.0, help="the early figures are read after this long")
        parser.add_argument("--agent", default="boxer", help="the agent the person boxes (it takes Black)")
        parser.add_argument("--choose", action="append", default=[], metavar="LABEL=VALUE",
                            help='an option of the new-match form, e.g. "Frames per decision=15" (repeatable)')
        parser.add_argument("--seed", type=int, default=0, help="seeds the key presses")
        parser.add_argument("--chromium", default=os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium"))
        parser.add_argument("--server-pid", type=int, action="append", dest="server_pids", default=[],
                            help="a server process whose CPU time to report per second of bout (repeatable)")
        parser.add_argument("--json", action="store_true", help="print one JSON object")

    def handle(self, *args, **opts):
        if opts["bouts"] < 1 or opts["seconds"] <= 0 or opts["early"] < 0:
            raise CommandError("--bouts must be at least 1, --seconds positive and --early not negative")
        choices = []
        for item in opts["choose"]:
            label, sep, value = item.partition("=")
            if not sep:
                raise CommandError(f"--choose takes LABEL=VALUE, not {item!r}")
            choices.append((label.strip(), value.strip()))
        if not os.path.exists(opts["chromium"]):
            raise CommandError(f"Chromium not found at {opts['chromium']} (apt-get install chromium, or --chromium)")
        plan = Plan(url=opts["url"].rstrip("/"), bouts=opts["bouts"], seconds=opts["seconds"], early=opts["early"],
                    agent=opts["agent"], choices=tuple(choices), seed=opts["seed"], chromium=opts["chromium"])
        cpu = ServerCpu(opts["server_pids"]) if opts["server_pids"] else None
        try:
            if cpu:
                cpu.start()
        except ValueError as err:
            raise CommandError(str(err)) from None
        started = time.monotonic()

        def report(index: int, bout: Bout) -> None:
            if not opts["json"]:
                self.stdout.write(_bout_line(index, bout))
                self.stdout.flush()

        try:
            bouts = run(plan, report)
        except PlaywrightMissing as err:
            raise CommandError(str(err)) from None
        elapsed = time.monotonic() - started
        result = {"plan": {"url": plan.url, "bouts": plan.bouts, "seconds": plan.seconds, "early": plan.early,
                           "agent": plan.agent, "choices": dict(plan.choices)},
                  "bouts": [b.to_json() for b in bouts], "overall": overall(bouts)}
        if cpu:
            server = cpu.stop()
            result["server"] = {**server, "cpu_seconds_per_second": round(server["cpu_seconds"] / elapsed, 2)}
        if opts["json"]:
            self.stdout.write(json.dumps(result))
            return
        total = result["overall"]

        def line(part: str) -> str:
            figures = total[part]
            each = ", ".join(f"{v:.1f}" for v in figures["latency_ms_each"])
            return (f"{part}: key to frame median {figures['latency_ms']} ms (bouts: {each}; {figures['samples']} "
                    f"samples), delivery median {figures['delivery_ms']} ms")

        self.stdout.write(f"overall ({total['bouts']} bouts): {line('early')}; {line('whole')}; "
                          f"frames/s median {total['fps_median']} min {total['fps_min']}")
        if cpu:
            server = result["server"]
            self.stdout.write(f"server CPU {server['cpu_seconds']} s in {elapsed:.0f} s "
                              f"({server['cpu_seconds_per_second']} s per second, browser start and page loads "
                              "included)")
