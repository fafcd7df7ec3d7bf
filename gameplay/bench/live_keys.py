"""Key-to-frame latency of a live bout as a person feels it, read from the page's own figures (issue 39, point 5).

A headless Chromium opens the site like a person: "New <game> match", one seat given to an agent, "Start match";
then it presses and releases keys for a while, as a boxer would, and reads the live stage's debug line
(static/js/live_stage.js: ``#live-debug``'s ``data-latency-ms``, the median time from a key press to the first
frame showing it, with ``data-latency-samples``, ``data-fps`` and ``data-delivery-ms``). It reads them twice: after
the early part of the bout and at the end, since a bout that slows down as it goes shows only in the second.

Playwright is imported on first use (it is a test requirement, not a runtime one); no Django here.
"""

from __future__ import annotations

import random
import re
import statistics
import time
from dataclasses import dataclass, field

CHROMIUM_ARGS = ("--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync")
# What a person boxing holds: a direction, a punch, or both (a diagonal punch), each for a moment.
DIRECTIONS = ("ArrowRight", "ArrowLeft", "ArrowUp", "ArrowDown")
PUNCH = " "
HOLD_MS = (150, 450)
PAUSE_MS = (80, 300)


class PlaywrightMissing(RuntimeError):
    pass


@dataclass(frozen=True)
class Figures:
    """The page's debug line at one moment."""

    seconds: float  # since the first key press
    latency_ms: float | None
    samples: int
    fps: int
    delivery_ms: float | None
    frames: int

    def to_json(self) -> dict:
        return {"seconds": round(self.seconds, 1), "latency_ms": self.latency_ms, "samples": self.samples,
                "fps": self.fps, "delivery_ms": self.delivery_ms, "frames": self.frames}


@dataclass
class Bout:
    url: str = ""
    early: Figures | None = None
    whole: Figures | None = None
    fps_each_second: list[int] = field(default_factory=list)
    presses: int = 0
    ended: bool = False  # the bout reached its result while keys were pressed

    def to_json(self) -> dict:
        return {"url": self.url, "early": self.early.to_json() if self.early else None,
                "whole": self.whole.to_json() if self.whole else None, "fps_each_second": self.fps_each_second,
                "fps_median": statistics.median(self.fps_each_second) if self.fps_each_second else None,
                "fps_min": min(self.fps_each_second, default=None), "presses": self.presses, "ended": self.ended}


def _number(value: str | None) -> float | None:
    return float(value) if value else None


def read_figures(page, since: float) -> Figures:
    """The debug line's data attributes now (attribute reads: the page's Content-Security-Policy forbids the
    evaluated scripts of ``page.evaluate``)."""
    debug = page.locator("#live-debug")
    attr = debug.get_attribute
    return Figures(time.monotonic() - since, _number(attr("data-latency-ms")), int(attr("data-latency-samples") or 0),
                   int(attr("data-fps") or 0), _number(attr("data-delivery-ms")), int(attr("data-frames") or 0))


def start_against_agent(page, url: str, game: str, seat_label: str, agent: str, choices: dict[str, str]) -> None:
    """As a person does: open "New <game> match", set the options, give ``seat_label`` to ``agent``, start."""
    page.goto(url + "/")
    page.get_by_role("link", name=f"New {game} match").click()
    for label, value in choices.items():
        page.get_by_label(label).select_option(value)
    page.get_by_label(seat_label).select_option(f"agent:{agent}")
    page.get_by_role("button", name="Start match").click()
    page.wait_for_url(re.compile(r"/play/[\w-]+/$"))
    page.wait_for_selector("#live-canvas")


def _wait_for_frames(page, count: int, timeout: float) -> None:
    """Until the stage has drawn ``count`` frames (the bout starts after a short "get ready"). Polled: the page's
    Content-Security-Policy forbids the evaluated functions ``wait_for_function`` needs."""
    deadline = time.monotonic() + timeout
    debug = page.locator("#live-debug")
    while time.monotonic() < deadline:
        if int(debug.get_attribute("data-frames") or 0) >= count:
            return
        page.wait_for_timeout(100)
    raise TimeoutError(f"the live stage drew fewer than {count} frames in {timeout:.0f} s")


def box(page, seconds: float, early: float, rng: random.Random, bout: Bout) -> None:
    """Press and release keys like a person for ``seconds`` (less if the bout ends), reading the figures after
    ``early`` seconds and at the end, and frames/s once a second."""
    page.keyboard.press("Tab")  # the page has the keyboard; no field takes the arrows
    start = time.monotonic()
    next_fps = start + 1.0
    while time.monotonic() - start < seconds:
        keys = [rng.choice(DIRECTIONS)] if rng.random() < 0.7 else []
        if not keys or rng.random() < 0.4:
            keys.append(PUNCH)
        for key in keys:
            page.keyboard.down(key)
        bout.presses += 1
        page.wait_for_timeout(rng.randint(*HOLD_MS))
        for key in reversed(keys):
            page.keyboard.up(key)
        page.wait_for_timeout(rng.randint(*PAUSE_MS))
        now = time.monotonic()
        if now >= next_fps:
            bout.fps_each_second.append(read_figures(page, start).fps)
            next_fps += 1.0 * max(1, int(now - next_fps) + 1)
        if bout.early is None and now - start >= early:
            bout.early = read_figures(page, start)
        if page.locator("#result").count():
            bout.ended = True
            break
    page.wait_for_timeout(600)  # the debug line refreshes twice a second: let it count the last presses
    bout.whole = read_figures(page, start)


@dataclass(frozen=True)
class Plan:
    url: str
    bouts: int
    seconds: float
    early: float
    game: str = "Atari Boxing"
    seat: str = "Black"  # the seat the agent takes: the person is White
    agent: str = "boxer"
    choices: tuple[tuple[str, str], ...] = ()
    seed: int = 0
    chromium: str = "/usr/bin/chromium"


def run(plan: Plan, report=None) -> list[Bout]:
    """Play ``plan.bouts`` bouts one after another, each in a fresh browser context; ``report(index, bout)`` after
    each."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as err:
        raise PlaywrightMissing("Playwright is not installed: pip install -r tests/requirements.txt") from err
    results = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=plan.chromium, headless=True, args=list(CHROMIUM_ARGS))
        try:
            for index in range(plan.bouts):
                context = browser.new_context(viewport={"width": 1280, "height": 800})
                page = context.new_page()
                page.set_default_timeout(20_000)
                bout = Bout()
                try:
                    start_against_agent(page, plan.url, plan.game, plan.seat, plan.agent, dict(plan.choices))
                    bout.url = page.url
                    _wait_for_frames(page, 30, timeout=30)
                    box(page, plan.seconds, plan.early, random.Random(plan.seed + index), bout)
                    if not bout.ended:
                        # Resign as the page's form does: a bout left alone runs on to its end (up to 2:00), and its
                        # clock would load the server during the next bout.
                        page.request.post(page.url + "resign/")
                finally:
                    context.close()
                results.append(bout)
                if report:
                    report(index, bout)
        finally:
            browser.close()
    return results


def overall(bouts: list[Bout]) -> dict:
    """Over all bouts: the median of the bouts' medians (the page gives one median per bout), early and whole, and
    their samples; frames/s as the median and lowest of every bout's per-second readings."""

    def summary(part: str) -> dict:
        figures = [getattr(b, part) for b in bouts if getattr(b, part) is not None]
        medians = [f.latency_ms for f in figures if f.latency_ms is not None]
        deliveries = [f.delivery_ms for f in figures if f.delivery_ms is not None]
        return {"latency_ms": statistics.median(medians) if medians else None,
                "latency_ms_each": medians, "samples": sum(f.samples for f in figures),
                "delivery_ms": statistics.median(deliveries) if deliveries else None}

    fps = [v for b in bouts for v in b.fps_each_second]
    return {"bouts": len(bouts), "early": summary("early"), "whole": summary("whole"),
            "fps_median": statistics.median(fps) if fps else None, "fps_min": min(fps, default=None)}
