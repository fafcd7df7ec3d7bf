"""Issue 38's acceptance: a study of every registered game is built by hand in the admin, and one participant plays
its round 1 in the page.

For each game of the registry: a staff user on *Add study* picks the game (the rounds table and the condition's
seats are redrawn for it at once, static/js/study_admin.js), ticks round 1 with the options that keep it short
(below), makes one condition of a participant in the first seat and the built-in agent random in every other seat
the game needs, writes the consent text and the instructions, opens the study and saves it ("Save and add another",
which leaves the next game a fresh form). A participant then opens the study link, consents, reads the
instructions, plays round 1 to its end through the board (tests/browser/generic_player.py: whatever the board
offers, never the hidden list of actions), with at least one action of theirs taken, and continues to the survey.

The short round is chosen from the game's declared options alone, as a researcher piloting it would, by what they do
to seeded random playouts: each option is tried at a few values (a switch flipped; a number at the low end of its
range; the first and last of its choices), one after the other, and kept when the round gets shorter while the
participant's seat still acts in every one of 100 playouts. A round the page cannot show a person (one played live
on a clock: the study round page has no live stage) never counts.

One browser, one server and one participant's browser session serve every game (conftest's server_url).
"""

from __future__ import annotations

import math
import random
import re
import subprocess
import sys
from typing import Any

import pytest

from gameplay.engines.api import EngineError, GameSpec, OptionSpec
from gameplay.engines.registry import all_specs, create_game
from tests.browser.generic_player import GenericPlayer
from tests.support.live_server import ROOT

PASSWORD = "a-long-test-password"
PLAYOUT_SEEDS = (1, 2)
LONG = 40  # actions: a playout this long counts as long, however long it would go on
PARTICIPANT_SEEDS = range(100)  # a round where the first seat may never act is no round to walk a participant through


def random_turn(state, rng: random.Random) -> int | None:
    """Play one random legal action of a random seat that may act (None: a verdict was applied instead)."""
    if state.awaiting_verdict():
        state.apply_verdict(state.fallback_verdict(), "rule")
        return None
    seat = rng.choice(state.current_seats())
    choices = [(a.id, None) for a in state.legal_actions(seat)]
    choices += [(t.id, t.example) for t in state.text_actions(seat)]
    action_id, text = rng.choice(choices)
    state.apply_action(seat, action_id, text)
    return seat


def playout_length(game, seed: int) -> int:
    """The actions of a seeded random playout, up to LONG."""
    rng, state, actions = random.Random(seed), game.new_initial_state(seed), 0
    while actions < LONG and not state.is_terminal():
        actions += random_turn(state, rng) is not None
    return actions


def first_seat_always_acts(game) -> bool:
    """Whether the first seat acts before the end in every one of many seeded random playouts."""
    for seed in PARTICIPANT_SEEDS:
        rng, state = random.Random(seed), game.new_initial_state(seed)
        while random_turn(state, rng) != 0:
            if state.is_terminal():
                return False
    return True


def round_length(spec: GameSpec, options: dict, shorter_than: float) -> float:
    """The mean length of a round with ``options`` at the game's smallest table, or infinity when it is not a round
    for this test (refused by the game, played live, maybe without a move for the participant) or not shorter."""
    try:
        game = create_game(spec.id, options, num_seats=spec.min_seats)
    except EngineError:
        return math.inf
    if game.live_play():
        return math.inf
    total = 0
    for seed in PLAYOUT_SEEDS:
        total += playout_length(game, seed)
        if total / len(PLAYOUT_SEEDS) >= shorter_than:
            return math.inf
    return total / len(PLAYOUT_SEEDS) if first_seat_always_acts(game) else math.inf


def values_to_try(opt: OptionSpec) -> list[Any]:
    if opt.type is bool:
        return [not opt.default]
    if opt.choices:
        values = {opt.choices[0], opt.choices[-1]}
    elif opt.bounds:
        low, high = opt.bounds
        values = {v for v in (low, low + 1, 1, 2, 3) if low <= v <= high}
    else:
        return []
    return sorted(values - {opt.default}, key=str)


def short_round(spec: GameSpec) -> dict[str, Any]:
    """The options (beyond the defaults) that keep a round of ``spec`` short, tried one after the other."""
    chosen: dict[str, Any] = {}
    best = round_length(spec, chosen, math.inf)
    for opt in spec.options:
        for value in values_to_try(opt):
            length = round_length(spec, {**chosen, opt.name: value}, best)
            if length < best:
                best, chosen = length, {**chosen, opt.name: value}
    return chosen


@pytest.fixture(scope="module")
def staff(chromium, server_url, server_url_env):
    """A researcher signed in to the admin, in a laptop-sized browser of their own."""
    subprocess.run([sys.executable, "manage.py", "shell", "-c", "from django.contrib.auth.models import User; "
                    f"User.objects.create_superuser('builder', 'b@example.org', '{PASSWORD}')"],
                   cwd=ROOT, env=server_url_env, check=True, capture_output=True)
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(server_url + "/admin/login/?next=/admin/studies/study/")
    page.get_by_label("Username").fill("builder")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(re.compile(r"/admin/studies/study/$"))
    yield page
    context.close()


ADD = "/admin/studies/study/add/"


def build_study(page, server_url: str, spec: GameSpec, slug: str, options: dict[str, Any]) -> None:
    """Add the study by hand in the admin's Add study form (where the last one left the page: "Save and add
    another")."""
    if not page.url.endswith(ADD):
        page.goto(server_url + ADD, wait_until="domcontentloaded")
    page.get_by_label("Title").fill(f"{spec.name}, built by hand")
    page.get_by_label("Slug").fill(slug)
    page.get_by_label("Game").select_option(spec.id)
    # The table and the seats are drawn for the game chosen (at once by the script, or already for the default).
    page.wait_for_selector(f'input[name="rounds_game"][value="{spec.id}"]', state="attached")
    page.get_by_label("Play, row 1").check()
    for name, value in options.items():
        cell = page.locator(f'[name="rounds-0-{name}"]')
        if isinstance(value, bool):
            cell.set_checked(value)
        elif cell.evaluate("el => el.tagName") == "SELECT":
            cell.select_option(str(value))
        else:
            cell.fill(str(value))
    page.get_by_label("Consent text").fill("You play one round of a game. Do you agree to take part?")
    page.get_by_label("Instructions").fill("Play the round as you like.")
    page.get_by_label("Is open").check()
    page.locator('[name="conditions-0-key"]').fill("agents")
    page.locator('[name="conditions-0-label"]').fill("With agents")
    assert page.locator('[name="conditions-0-seat_players-0"]').input_value() == "participant"
    for seat in range(1, spec.min_seats):
        page.locator(f'[name="conditions-0-seat_players-{seat}"]').select_option("agent:random")
    page.get_by_role("button", name="Save and add another").click()
    page.wait_for_selector(".messagelist .success")
    assert "was added successfully" in page.locator(".messagelist").inner_text()
    assert page.url.endswith(ADD)


@pytest.fixture(scope="module")
def participant(chromium):
    """One person's browser, who takes part in every game's study (a browser holds one participant per study)."""
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


@pytest.mark.parametrize("spec", all_specs(), ids=lambda spec: spec.id)
def test_a_study_of_every_game_is_built_in_the_admin_and_its_first_round_played(spec, staff, participant, server_url):
    slug = f"by-hand-{spec.id.replace('_', '-')}"
    build_study(staff, server_url, spec, slug, short_round(spec))

    page = participant
    player = GenericPlayer(page, seed=len(slug))
    try:
        page.goto(f"{server_url}/s/{slug}/", wait_until="domcontentloaded")
        page.get_by_role("button", name="I agree, start the study").click()
        page.get_by_role("button", name="I'm ready, start round 1").click()
        page.wait_for_url(re.compile(r"/round/1/$"))
        page.wait_for_selector("[ws-connect][data-socket=live]")
        player.play_until("#study-continue-form")
    finally:
        player.stop()
    assert player.actions > player.refused, f"no action of the participant's was taken ({player.refused} refused)"
    page.get_by_role("button", name="Continue to the last questions").click()
    page.wait_for_url(re.compile(r"/survey/$"))
