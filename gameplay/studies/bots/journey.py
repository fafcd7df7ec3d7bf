"""One simulated participant, end to end: study link → consent → instructions → comprehension check (when the
study has one) → rounds (through the waiting room when the condition pairs people) → survey → completion code.

The bot follows the pages the server sends rather than a fixed script: after every request it looks at the
URL it landed on and does what a person would do there. So a study whose flow changes (a round skipped, a
pairing timeout that ends the session) is walked as it really is, and an unexpected page is reported with
its address and text.
"""

from __future__ import annotations

import random
import re
import time
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass, field

from .client import BotClient, BotError, Page
from .player import RoundPlay, chat_enabled, play_round

# The page polls (POSTs) every 2 s; a bot polls faster to keep runs short. Pairing happens on the later
# arrival's request, so this only bounds how soon the earlier one notices; each poll takes the condition's lock.
WAIT_POLL_S = 0.5
MAX_PAGES = 200  # a loop between pages is a bug in the study flow, not something to wait out

_PARTICIPANT = r"/s/[^/]+/p/[^/]+/"
PAGE_KINDS = (
    ("instructions", re.compile(_PARTICIPANT + r"instructions/$")),
    ("comprehension", re.compile(_PARTICIPANT + r"comprehension/$")),
    ("round", re.compile(_PARTICIPANT + r"round/(\d+)/$")),
    ("wait", re.compile(_PARTICIPANT + r"wait/(\d+)/$")),
    ("survey", re.compile(_PARTICIPANT + r"survey/$")),
    ("complete", re.compile(_PARTICIPANT + r"complete/$")),
    ("ended", re.compile(_PARTICIPANT + r"ended/$")),
    ("screened", re.compile(_PARTICIPANT + r"screened/$")),
)
_CODE_IN_TEXT = re.compile(r"code\W{0,3}\s*([A-Z0-9][A-Za-z0-9_-]{3,63})")


@dataclass
class Outcome:
    """One bot's journey: where it got to, what it played and, on failure, why."""

    number: int
    prolific_pid: str
    completed: bool = False
    error: str = ""
    participant_token: str = ""
    completion_code: str = ""
    waited_rounds: int = 0
    waited_s: float = 0.0
    saw_chat: bool = False
    rounds: list[RoundPlay] = field(default_factory=list)
    answers: dict[str, str] = field(default_factory=dict)
    comprehension_attempts: int = 0
    seconds: float = 0.0
    last_page: str = ""

    @property
    def experience(self) -> str:
        """The condition as the participant experienced it, for when the database is not at hand."""
        if self.waited_rounds:
            return "human?"
        if not self.rounds:
            return "?"
        return "chat?" if self.saw_chat else "no-chat?"


def page_kind(path: str) -> tuple[str, int | None]:
    for kind, pattern in PAGE_KINDS:
        found = pattern.search(path)
        if found:
            return kind, int(found.group(1)) if found.groups() else None
    return "other", None


def survey_choices(form_groups: dict[str, list[str]], outcome: Outcome, rng: random.Random) -> dict[str, str]:
    """Likert answers with tendencies a person might have: higher when the rounds went well, when the partner
    talked, and a little higher with a person than with an agent. Noise from the bot's seeded rng."""
    played = outcome.rounds or []
    found = sum(1 for r in played if r.succeeded) / len(played) if played else 0.0
    talked = any(r.partner_messages for r in played)
    centre = 0.25 + 0.35 * found + 0.2 * talked + 0.1 * bool(outcome.waited_rounds)  # 0..0.9 of the scale
    choices = {}
    for name, values in form_groups.items():
        ordered = sorted(values, key=lambda v: (0, int(v)) if v.lstrip("-").isdigit() else (1, v))
        position = centre + rng.gauss(0.0, 0.2) + (0.05 if "engag" in name else 0.0)
        index = min(len(ordered) - 1, max(0, round(position * (len(ordered) - 1))))
        choices[name] = ordered[index]
    return choices


# What a bot writes in a survey's text box (a person's short, unremarkable answer).
TEXT_ANSWERS = ("Nothing to add.", "It was fine, thank you.", "The game was interesting.", "No comments.")


def question_choices(form, rng: random.Random) -> dict[str, str]:
    """Answers to the survey's questions that are not radio groups: one box of each multiple-choice group, a
    number within the input's min and max, a short text; seeded by the bot's rng. An attention check is answered
    like any question: a bot cannot know the expected answer, so its pass or fail is recorded as it falls."""
    choices: dict[str, str] = {}
    boxes: dict[str, list[str]] = {}
    for f in form.fields:
        if f.type == "checkbox":
            boxes.setdefault(f.name, []).append(f.value)
        elif f.type == "number":
            low, high = _bound(f.attrs.get("min"), 0), _bound(f.attrs.get("max"), 100)
            value = rng.uniform(low, max(low, high))
            whole = f.attrs.get("step") in ("1", None) or f.attrs.get("inputmode") == "numeric"
            choices[f.name] = str(round(value)) if whole else f"{value:.1f}"
        elif f.type == "textarea":
            choices[f.name] = rng.choice(TEXT_ANSWERS)
    for name, values in boxes.items():
        choices[name] = rng.choice(values)
    return choices


def _bound(raw: str | None, default: float) -> float:
    try:
        return float(raw) if raw not in (None, "") else default
    except ValueError:
        return default


def completion_code(page: Page) -> str:
    for source in (page.attributes.get("data-completion-code") or [], page.code_text):
        for value in source:
            if value.strip():
                return value.strip()
    found = _CODE_IN_TEXT.search(page.text)
    return found.group(1) if found else ""


class Journey:
    def __init__(
        self,
        base_url: str,
        slug: str,
        number: int,
        *,
        seed: int,
        run_id: str,
        timeout: float,
        log: Callable[[str], None],
        policy: str = "random",
        condition: str = "",
    ):
        self.client = BotClient(base_url)
        self.policy = policy
        # A study whose assignment is "url" seats the bot in this condition (?condition=, as in piloting).
        self.condition = condition
        self.slug = slug
        self.number = number
        self.seed = seed
        self.rng = random.Random(f"{seed}:{number}")
        self.deadline = time.monotonic() + timeout
        self.log = log
        self.outcome = Outcome(number=number, prolific_pid=f"bot{seed}r{run_id}n{number:03d}")
        self.tried: dict[str, set[str]] = {}  # comprehension options tried, per question

    def run(self) -> Outcome:
        started = time.monotonic()
        try:
            page = self._consent()
            for _ in range(MAX_PAGES):
                self.outcome.last_page = page.path
                if time.monotonic() > self.deadline:
                    raise BotError(f"timed out on {page.path}")
                kind, number = page_kind(page.path)
                if kind == "complete":
                    self._complete(page)
                    break
                page = getattr(self, f"_on_{kind}")(page, number)
            else:
                raise BotError(f"gave up after {MAX_PAGES} pages (last {page.path})")
        except BotError as err:
            self.outcome.error = str(err)
        except Exception as err:  # a bug in the bot or an unexpected answer: report it, never kill the run
            self.outcome.error = f"{type(err).__name__}: {err}"
        self.outcome.seconds = time.monotonic() - started
        return self.outcome

    # --- pages ----------------------------------------------------------------------------------------
    def _consent(self) -> Page:
        query = urllib.parse.urlencode(
            {
                "PROLIFIC_PID": self.outcome.prolific_pid,
                "STUDY_ID": f"bots-{self.seed}",
                "SESSION_ID": f"{self.outcome.prolific_pid}-session",
                **({"condition": self.condition} if self.condition else {}),
            }
        )
        self.outcome.last_page = f"/s/{self.slug}/"
        page = self._ok(self.client.get(f"/s/{self.slug}/?{query}"), "the study link")
        form = page.form_posting_to("/consent/")
        if form is None:
            raise BotError(f"no consent form on {page.path}: {page.text[:200]}")
        return self._ok(self.client.submit(page, form, "I agree"), "consent")

    def _on_instructions(self, page: Page, _number) -> Page:
        self.outcome.participant_token = page.path.split("/p/")[1].split("/")[0]
        form = self._single_post_form(page)
        return self._ok(self.client.submit(page, form, self._continue_label(form)), "instructions")

    def _on_round(self, page: Page, number: int) -> Page:
        form = self._continue_form(page)
        start = next((f for f in page.post_forms() if f.button("Start round")), None)
        if form is None and start is not None and not page.attributes.get("ws-connect"):
            # The round's match is created by a POST; this page appears only if the step before did not.
            return self._ok(self.client.submit(page, start, "Start round"), f"start round {number}")
        if form is None:
            if not page.attributes.get("ws-connect"):
                raise BotError(f"round page {page.path} has neither a match nor a Continue form: {page.text[:200]}")
            self.outcome.saw_chat = self.outcome.saw_chat or chat_enabled(page)
            played = play_round(
                self.client, page, bot_seed=self.rng.getrandbits(32), deadline=self.deadline, policy=self.policy,
                round_number=number,
            )
            self.outcome.rounds.append(played)
            self.log(
                f"bot {self.number:>3}: round {number} {played.status} in {played.turns} turns "
                f"({played.my_moves} moves, {played.my_messages} messages, {played.reads} reads, "
                f"{played.seconds:.1f} s)"
            )
            page = self._ok(self.client.get(page.url), f"round {number} after the match")
            form = self._continue_form(page)
            if form is None:
                raise BotError(f"no Continue form on {page.path} after the match ended: {page.text[:200]}")
        return self._ok(self.client.submit(page, form, self._continue_label(form)), f"continue after round {number}")

    def _on_wait(self, page: Page, number: int) -> Page:
        """Post to the waiting room's status URL like the page's htmx does, until it redirects (paired/timed out)."""
        self.outcome.waited_rounds += 1
        status_url = next((u for u in page.attributes.get("hx-post") or () if u.rstrip("/").endswith("status")), None)
        status_url = urllib.parse.urljoin(page.url, status_url or "status/")
        started = time.monotonic()
        while time.monotonic() < self.deadline:
            answer = self.client.post(status_url, [], {"HX-Request": "true", "HX-Current-URL": page.url})
            target = answer.header("HX-Redirect") or answer.header("HX-Location")
            if target:
                self.outcome.waited_s += time.monotonic() - started
                return self._ok(self.client.get(target), f"waiting room {number} redirect")
            if answer.status != 200:
                raise BotError(f"waiting room status {answer.path} answered {answer.status}: {answer.text[:200]}")
            if answer.path != urllib.parse.urlsplit(status_url).path:  # a plain redirect instead of HX-Redirect
                self.outcome.waited_s += time.monotonic() - started
                return answer
            time.sleep(WAIT_POLL_S)
        raise BotError(f"timed out in the waiting room for round {number}")

    def _on_comprehension(self, page: Page, _number) -> Page:
        """Answer the comprehension check as a person who has not learnt the rules would: keep the answers the page
        kept (those were right), and for each question it cleared choose an option not tried before."""
        form = self._single_post_form(page)
        kept = {f.name for f in form.fields if f.type == "radio" and f.checked}
        choices = {}
        for name, values in form.radio_groups().items():
            if name in kept:
                continue
            fresh = [v for v in values if v not in self.tried.setdefault(name, set())] or values
            choices[name] = self.rng.choice(fresh)
            self.tried[name].add(choices[name])
        self.outcome.comprehension_attempts += 1
        buttons = [b.label or b.value for b in form.buttons]
        return self._ok(self.client.submit(page, form, buttons[0] if buttons else None, choices),
                        f"comprehension check, try {self.outcome.comprehension_attempts}")

    def _on_screened(self, page: Page, _number) -> Page:
        raise BotError(f"screened out by the comprehension check after {self.outcome.comprehension_attempts} "
                       f"tries: {page.text[:200]}")

    def _on_survey(self, page: Page, _number) -> Page:
        form = self._single_post_form(page)
        groups = form.radio_groups()
        if not groups and not form.fields:
            raise BotError(f"the survey on {page.path} has no questions")
        choices = {**survey_choices(groups, self.outcome, self.rng), **question_choices(form, self.rng)}
        self.outcome.answers = choices
        buttons = [b.label or b.value for b in form.buttons]
        answer = self.client.submit(page, form, buttons[0] if buttons else None, choices)
        if page_kind(answer.path)[0] == "survey":
            raise BotError(f"the survey was not accepted: {answer.text[:300]}")
        return self._ok(answer, "survey")

    def _on_ended(self, page: Page, _number) -> Page:
        raise BotError(f"the study ended the session (not paired in time?): {page.text[:200]}")

    def _on_other(self, page: Page, _number) -> Page:
        raise BotError(f"unexpected page {page.path} ({page.status}): {page.text[:300]}")

    def _complete(self, page: Page) -> None:
        self.outcome.completion_code = completion_code(page)
        self.outcome.completed = True
        self.outcome.participant_token = self.outcome.participant_token or page.path.split("/p/")[1].split("/")[0]

    # --- helpers --------------------------------------------------------------------------------------
    @staticmethod
    def _ok(page: Page, what: str) -> Page:
        if page.status != 200:
            raise BotError(f"{what}: {page.path} answered {page.status}: {page.text[:300]}")
        return page

    @staticmethod
    def _single_post_form(page: Page):
        forms = page.post_forms()
        if not forms:
            raise BotError(f"no form to submit on {page.path}: {page.text[:200]}")
        return forms[0]

    @staticmethod
    def _continue_form(page: Page):
        """The round page's POST form to the next step (present once the match is over)."""
        return next(
            (f for f in page.post_forms() if any("continue" in f"{b.label} {b.value}".casefold() for b in f.buttons)),
            None,
        )

    @staticmethod
    def _continue_label(form) -> str | None:
        for b in form.buttons:
            return b.label or b.value
        return None


def run_participant(base_url: str, slug: str, number: int, **journey_options) -> Outcome:
    """One bot participant's whole journey (the keywords are Journey's: seed, run_id, timeout, log, policy,
    condition)."""
    return Journey(base_url, slug, number, **journey_options).run()
