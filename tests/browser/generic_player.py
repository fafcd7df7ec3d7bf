"""Plays a seat of any game through its board, the way a person who knows none of the rules would: whatever the board
offers to press, choose or write.

What a board offers is read from its markup, never from the game's id: every control that acts carries ``ws-send``.
A button's ``hx-vals`` says what it sends: an action (``"kind": "action"``), a step of a click path (``"select"``:
a worker, a card, a square), or clearing the path (``"clear"``, never pressed). A form that sends an action has an
``action_id`` control (a hidden field, a list or radio buttons) and maybe a text to write. Actions come first, then
forms, then steps of a path, so a path is only walked when nothing can be done at once. The hidden regions of a page
(a study round page keeps the seat view's status and action list out of sight) are never used to act.
"""

from __future__ import annotations

import random
import time

from playwright.sync_api import Error as PlaywrightError

# What the page offers, in one round trip: whether ``done`` (a selector) shows, whether the match is over (its result,
# in the seat view's status), and for each ws-send control of #board (by its index among them) what it sends and
# whether a person can see and use it.
SCAN_JS = """done => ({
  done: document.querySelector(done) !== null,
  over: document.querySelector('#result') !== null,
  controls: Array.from(document.querySelectorAll('#board [ws-send]')).map((el, index) => {
    const shown = el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden'
      && !el.matches(':disabled');
    let kind = 'other';
    if (el.tagName === 'FORM') {
      kind = el.querySelector('[name="action_id"]') ? 'form' : 'other';
    } else {
      try { kind = JSON.parse(el.getAttribute('hx-vals') || '{}').kind || 'other'; } catch (e) { kind = 'other'; }
    }
    const chosen = el.classList.contains('selected') || el.getAttribute('aria-pressed') === 'true';
    return {index, kind, shown, chosen};
  }),
})"""

# Words for text actions: one a time, never the same twice in a match (some games refuse a repeated text), none of
# them a common word (Codenames refuses a clue on its grid; Who is Spy a description that names a player's word).
WORDS = ("zephyr", "quasar", "nimbus", "fjord", "sphinx", "gazebo", "yonder", "kumquat", "walrus", "bayou",
         "tundra", "lantern", "marimba", "origami", "pelican", "saffron", "trellis", "umbra", "vortex", "wombat")


class GenericPlayer:
    """Plays the page's seat until the study's Continue button shows, counting what it did."""

    def __init__(self, page, seed: int = 0):
        self.page = page
        self.rng = random.Random(seed)
        self.frames = 0
        self.socket = None
        self.actions = 0  # actions sent (buttons and forms), refused ones included
        self.refused = 0  # answered by a refusal (the seat's flash)
        self.steps = 0  # steps of a click path
        self.texts = 0
        page.on("websocket", self._watch)

    def stop(self) -> None:
        """Stop watching the page's sockets (the page may go on to another match)."""
        self.page.remove_listener("websocket", self._watch)

    def _watch(self, socket) -> None:
        self.socket = socket
        socket.on("framereceived", self._frame)

    def _frame(self, _payload) -> None:
        self.frames += 1

    def _word(self) -> str:
        self.texts += 1
        word = WORDS[(self.texts - 1) % len(WORDS)]
        return word if self.texts <= len(WORDS) else f"{word} {self.texts}"

    def play_until(self, done_selector: str, *, deadline_s: float = 60) -> None:
        """Act whenever the board offers something, else wait for the next frame, until ``done_selector`` shows."""
        page = self.page
        deadline = time.monotonic() + deadline_s
        while True:
            seen = self.frames
            scan = page.evaluate(SCAN_JS, done_selector)
            if scan["done"]:
                return
            if scan["over"]:  # the Continue button follows the match's last frame
                page.wait_for_selector(done_selector)
                return
            assert time.monotonic() < deadline, (
                f"the round did not end in {deadline_s} s ({self.actions} actions, {self.refused} refused)")
            acted = self._act([c for c in scan["controls"] if c["shown"]])
            if not acted and self.frames == seen:
                self._next_frame()

    def _next_frame(self, timeout_ms: int = 5_000) -> None:
        if self.socket is None:
            return
        try:
            self.socket.wait_for_event("framereceived", timeout=timeout_ms)
        except PlaywrightError:
            pass  # nothing came: look at the page again

    def _act(self, offered: list[dict]) -> bool:
        for kind in ("action", "form", "select"):
            choices = [c for c in offered if c["kind"] == kind and not c["chosen"]]
            if choices:
                choice = self.rng.choice(choices)
                return self._send(self.page.locator("#board [ws-send]").nth(choice["index"]), kind)
        return False

    def _send(self, control, kind: str) -> bool:
        """Press, then wait for the frame that answers it (the new board, the next step of the path, or a refusal,
        which the seat's flash says)."""
        if self.socket is None:
            return False  # no match socket yet: nothing would answer
        try:
            with self.socket.expect_event("framereceived", timeout=10_000) as answer:
                self._press(control, kind)
        except PlaywrightError:
            return False  # the board changed under the click, or nothing answered: look again
        if kind != "select" and 'class="flash error"' in str(answer.value):
            self.refused += 1
        return True

    def _press(self, control, kind: str) -> None:
        if kind == "form":
            self._fill(control)
            submit = control.locator('button[type="submit"], button:not([type])').first
            submit.click(timeout=2_000)
            self.actions += 1
        else:
            control.click(timeout=2_000, force=True)
            if kind == "action":
                self.actions += 1
            else:
                self.steps += 1

    def _fill(self, form) -> None:
        """Choose one of each choice the form offers and write a short text in each text field."""
        # Counted once: a frame may redraw the board between two counts (an agent's vote replaced a ballot), and a
        # control gone by the time it is pressed times out, which the caller takes as "look again".
        radios = form.locator('input[type="radio"][name="action_id"]')
        count = radios.count()
        if count:
            radios.nth(self.rng.randrange(count)).check(timeout=2_000, force=True)
        chooser = form.locator('select[name="action_id"]')
        if chooser.count():
            values = [v for v in chooser.first.locator("option:not([disabled])").evaluate_all(
                "options => options.map(o => o.value)") if v]
            if values:
                chooser.first.select_option(self.rng.choice(values), timeout=2_000)
        fields = form.locator('textarea, input[type="text"], input:not([type])')
        for n in range(fields.count()):
            field = fields.nth(n)
            if field.is_visible() and field.is_enabled():
                field.fill(self._word(), timeout=2_000)
