"""Conformance of what people and agents receive: for every registered game and preset (those of the engine
conformance suite), seeded random playouts are looked at through the platform's own doors.

At two random steps before the end and at the end of each playout, a real match holding that state renders the page
fragments of every seat and of the public (gameplay.web.rendering.seat_fragments of
gameplay.reads.selectors.seat_view), and each
seat's agent prompts are built from the view the platform hands agents (base, CoT, system, rule explanations, and RAP
with its next-actor hint). Nothing may fail to render, and no page or prompt may carry another seat's secret
(``State.secrets()``; the public page none), in any escaped form. Where a game declares its secrets as sentences of
its observation text ("Your secret word is book."), a page that shows facts will not contain them: the twins below
compare whole pages instead.

Derived secrets carry no secret word, so they are looked for with twins (tests/support/seen_checks.twin_differences):
a seat must be given exactly the same (view, prompts, page) in two states it cannot tell apart. A throwaway hidden-role
game whose turn order depends on the hidden role passes when it declares its hidden information, and is caught when it
wrongly declares perfect information (the platform then works its next-actor hint out on the full state).
"""

from __future__ import annotations

import html
import json
import random

import pytest

from gameplay.engines import registry
from gameplay.engines.registry import GAMES
from gameplay.management.commands.bench_play import random_move
from gameplay.models import Match
from gameplay.writes import services
from gameplay.writes.services import SeatController
from tests.agents_app.twins_support import codenames_twins, spy_twins
from tests.engines.conformance import check_playouts
from tests.engines.conformance_support import CASES, FAST_PLAYOUTS
from tests.support.hidden_role_game import HiddenRoleGame, LeakyHiddenRoleGame, voting_twins
from tests.support.seen_checks import (
    agent_prompts,
    agent_view,
    foreign_secrets,
    leaked,
    page_of,
    page_twin_differences,
    prompt_leaks,
    stand_at,
    twin_differences,
)

pytestmark = pytest.mark.django_db

PLAYOUTS = 20
# Steps looked at before the end of each playout (and the end itself): the file's budget is about a minute of CPU.
MID_STEPS = 2
BASE_SEED = 7000
HUMAN = SeatController("human")


def sampled_playout(game, seed: int) -> list[dict]:
    """One seeded random playout (a judged game's verdict is its rule's fallback), as the JSON of ``MID_STEPS``
    uniformly chosen steps before the end (reservoir sampling: no copy of every step), in order, and of the end."""
    rng, pick = random.Random(seed), random.Random(-seed - 1)
    state = game.new_initial_state(seed)
    sampled: list[tuple[int, dict]] = []
    steps = 0
    while not state.is_terminal():
        steps += 1
        slot = len(sampled) if len(sampled) < MID_STEPS else pick.randrange(steps)
        if slot < MID_STEPS:
            snapshot = (steps, json.loads(json.dumps(state.to_json())))
            sampled[slot:slot + 1] = [snapshot]
        if state.awaiting_verdict():
            state.apply_verdict(state.fallback_verdict(), "rule")
            continue
        random_move(state, rng.choice(state.current_seats()), rng)
    return [data for _, data in sorted(sampled, key=lambda s: s[0])] + [state.to_json()]


def what_is_seen(match: Match, state, seed: int) -> tuple[list[str], int]:
    """Every finding of one state (rendering failures and leaks, each naming the viewer), and how many pages and
    prompt sets were looked at."""
    match = stand_at(match, state)
    seats = list(match.seats.order_by("index"))
    findings, looked = [], 0
    for index in [*range(len(seats)), None]:
        viewer = f"seat {index}" if index is not None else "the public"
        try:
            page = page_of(match, index, seats)
        except Exception as err:  # any failure to render is a finding, named with its viewer
            findings.append(f"{viewer}'s page does not render: {type(err).__name__}: {err}")
            continue
        if not page.strip():
            findings.append(f"{viewer}'s page is empty")
        findings += [f"{viewer}'s page carries {value!r}" for value in leaked(page, foreign_secrets(state, index))]
        looked += 1
        if index is not None:
            findings += [f"seat {index}'s prompt {found}" for found in prompt_leaks(state, index, seed)]
            looked += 1
    return findings, looked


@pytest.mark.parametrize("game_id,options", CASES)
def test_no_page_or_prompt_shows_another_seats_secret(game_id, options):
    cls = GAMES[game_id]
    options = {**options, **FAST_PLAYOUTS.get(game_id, {})}
    findings, looked = [], 0
    for n in range(PLAYOUTS):
        seed = BASE_SEED + n
        game = cls(options)
        match = services.create_match(game_id, [HUMAN] * game.num_seats, seed=seed, options=options, host_seat=None,
                                      schedule_agents=False)
        for data in sampled_playout(game, seed):
            found, count = what_is_seen(match, game.state_from_json(data), seed)
            findings += [f"seed {seed}, step {len(data['log'])}: {f}" for f in found]
            looked += count
    assert not findings, f"{game_id}: " + "\n".join(findings[:10])
    assert looked >= PLAYOUTS * (2 * game.num_seats + 1)


def test_the_checks_find_a_secret_that_is_shown():
    """Positive controls on real output: a seat's own page and prompts show its own Air, Land & Sea hand, and the
    checks find every card there; a secret is found HTML- or JSON-escaped too."""
    game = GAMES["air_land_sea"]({})
    state = game.new_initial_state(3)
    match = services.create_match(game.spec.id, [HUMAN] * 2, seed=3, host_seat=None, schedule_agents=False)
    seat = state.current_seats()[0]
    own = sorted(state.secrets()[seat])
    assert own and leaked(page_of(stand_at(match, state), seat), own) == own
    prompts = "\n".join(agent_prompts(agent_view(state, seat, 3)).values())
    assert leaked(prompts, own) == own
    tricky = 'O\'Neil & "Co" <é>'
    for shown in (html.escape(tricky), html.escape(tricky, quote=False), json.dumps(tricky), json.dumps(tricky,
                  ensure_ascii=False), html.escape(json.dumps(tricky))):
        assert leaked(f"<p>{shown}</p>", [tricky]) == [tricky], shown


# --- derived secrets: twins ----------------------------------------------------------------------------------------


def test_the_hidden_role_game_is_a_conforming_game():
    """The throwaway game itself passes the engine suite (no observation leaks its written secret)."""
    finals = check_playouts(HiddenRoleGame, n_playouts=30, base_seed=0)
    assert all(state.is_terminal() for state in finals)


def twin_match(game, seat_count: int | None = None) -> Match:
    return services.create_match(game.spec.id, [HUMAN] * (seat_count or game.num_seats), seed=1,
                                 options=dict(game.options), host_seat=None, schedule_agents=False)


@pytest.fixture
def hidden_role_games(monkeypatch):
    """The throwaway games registered for this test only (a match needs its game in the registry)."""
    for cls in (HiddenRoleGame, LeakyHiddenRoleGame):
        monkeypatch.setitem(registry.GAMES, cls.spec.id, cls)


@pytest.mark.parametrize("seed", range(6))
def test_a_seat_is_given_the_same_in_hidden_role_twins(seed, hidden_role_games):
    state, twin, voter = voting_twins(HiddenRoleGame, seed)
    assert state.traitor != twin.traitor
    assert twin_differences(state, twin, voter, seed) == []
    assert page_twin_differences(twin_match(state.game), state, twin, voter) == []


@pytest.mark.parametrize("seed", range(6))
def test_the_twin_check_catches_a_next_actor_hint_that_names_the_traitor(seed):
    """Positive control: declared (wrongly) a perfect-information game, the platform tells the voter who acts after
    each vote, which names the traitor; the twin check reports it, in the view and in RAP's prediction prompt."""
    state, twin, voter = voting_twins(LeakyHiddenRoleGame, seed)
    found = twin_differences(state, twin, voter, seed)
    assert "SeatView.next_actors" in found
    assert any(name.startswith("prompt rap-predict") for name in found), found


def test_the_page_comparison_sees_a_difference_the_seat_may_see(hidden_role_games):
    """The page comparison is not blind: once the voter has voted for the traitor of one twin only, that twin is
    over and the other is not, and the pages say so."""
    state, twin, voter = voting_twins(HiddenRoleGame, 0)
    for s in (state, twin):
        s.apply_action(voter, f"vote:{state.traitor}")
    assert state.is_terminal() and not twin.is_terminal()
    match = twin_match(state.game)
    assert page_of(stand_at(match, state), voter) != page_of(stand_at(match, twin), voter)


@pytest.mark.parametrize("twins", [codenames_twins, spy_twins], ids=["codenames-operative", "who-is-spy-last-voter"])
def test_a_seat_is_given_the_same_in_registered_games_twins(twins):
    game, state, twin, seat = twins()
    assert state.to_json()["payload"] != twin.to_json()["payload"]
    assert twin_differences(state, twin, seat, seed=1) == []
    assert page_twin_differences(twin_match(game), state, twin, seat) == []
