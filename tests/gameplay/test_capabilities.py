"""The capability modules (gameplay.capabilities): each reads a declared GameSpec flag, is documented in the
package's one table, is used by some registered game, and a game that declares none runs none of their hooks."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from gameplay import capabilities
from gameplay.capabilities import CAPABILITIES
from gameplay.engines.api import GameSpec
from gameplay.engines.registry import GAMES
from gameplay.reads import selectors
from gameplay.writes import services
from gameplay.writes.services import ActionRejected

SPEC_FIELDS = {f.name for f in dataclasses.fields(GameSpec)}
HUMAN = services.SeatController("human")


def module_file(capability) -> str:
    return Path(type(capability).__module__.replace(".", "/")).with_suffix(".py").name


@pytest.mark.parametrize("capability", CAPABILITIES, ids=lambda c: c.name)
def test_each_capability_reads_declared_spec_flags(capability):
    assert capability.flags and set(capability.flags) <= SPEC_FIELDS, capability.flags


@pytest.mark.parametrize("capability", CAPABILITIES, ids=lambda c: c.name)
def test_each_capability_is_documented_in_the_package_table(capability):
    doc = capabilities.__doc__
    assert module_file(capability) in doc
    assert all(flag in doc for flag in capability.flags)


@pytest.mark.parametrize("capability", CAPABILITIES, ids=lambda c: c.name)
def test_each_capability_applies_to_some_registered_game(capability):
    assert any(capability.applies_to(cls({}, None)) for cls in GAMES.values()), capability.name


def test_a_game_declaring_no_capability_engages_none():
    # Except the move list, every turn-based game's: it reads the realtime flag only to leave live games out.
    game = GAMES["sea_battle"]({}, None)
    assert [c.name for c in CAPABILITIES if c.applies_to(game)] == ["move_list"]
    live = GAMES["atari_boxing"]({"live": True}, None)
    assert "move_list" not in [c.name for c in CAPABILITIES if c.applies_to(live)]


@pytest.mark.django_db
def test_a_timeout_in_a_game_without_a_turn_timer_is_refused():
    # The request engages the turn timer although the game declares none, so that its check refuses it.
    match = services.create_match("santorini", [HUMAN, HUMAN], seed=3, schedule_agents=False)
    with pytest.raises(ActionRejected, match="time has not run out"):
        services.apply_action(match.pk, 0, "anything", expected_version=0, timeout=True)
    match.refresh_from_db()
    assert match.version == 0


@pytest.mark.django_db
@pytest.mark.parametrize("game_id,sent", [("santorini", True), ("atari_boxing", False)])
def test_sockets_get_the_committed_action_unless_a_capability_says_read_the_match(monkeypatch, game_id, sent):
    # A live bout commits a dozen times a second: its sockets read the match when they redraw (the live capability).
    told = []
    monkeypatch.setattr(services, "notify_match_changed", lambda match, seq, change: told.append(change))
    match = services.create_match(game_id, [HUMAN, HUMAN], seed=3, schedule_agents=False)
    state = selectors.state_of(match)
    seat = state.current_seats()[0]
    services.apply_action(match.pk, seat, state.legal_actions(seat)[0].id, expected_version=0)
    assert len(told) == 1 and (told[0] is not None) == sent
