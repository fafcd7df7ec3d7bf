"""Tournaments, set up: every pair of agents plays the asked number of matches with the seats swapped in turn, each
match on its documented seed; the same parameters (options normalised) are the same tournament; a pair takes the
seats of a bigger game in turn; and bad parameters, seat counts or agents that fail their preflight are refused
clearly, with nothing stored."""

from __future__ import annotations

import hashlib

import pytest

from agents_app.models import Tournament
from agents_app.tournaments import services
from gameplay.engines import registry as game_registry
from gameplay.engines.api import Game, GameSpec
from gameplay.reads.player_results import player_results
from gameplay.writes import services as match_services
from tests.agents_app.tournaments_support import Status, tournament_agents  # noqa: F401 (an autouse fixture)

pytestmark = pytest.mark.django_db


def test_three_agents_two_matches_per_pair_give_six_entries_with_seats_swapped():
    tournament = services.create_or_resume("santorini", ["random", "random-b", "random-c"], 2, 11)
    entries = list(tournament.entries.order_by("index"))
    assert [e.index for e in entries] == list(range(6))
    assert [tuple(e.seat_agents) for e in entries] == [
        ("random", "random-b"),
        ("random-b", "random"),
        ("random", "random-c"),
        ("random-c", "random"),
        ("random-b", "random-c"),
        ("random-c", "random-b"),
    ]
    assert all(e.status == Status.PENDING and e.match_id is None for e in entries)
    # The documented per-match seed: sha256("tournament:<seed>:<index>"), first 8 bytes, top bit cleared.
    for e in entries:
        digest = hashlib.sha256(f"tournament:11:{e.index}".encode()).digest()
        assert e.seed == int.from_bytes(digest[:8], "big") >> 1 == services.match_seed(11, e.index)
        assert 0 <= e.seed < 2**63
    assert len({e.seed for e in entries}) == 6


def test_same_parameters_are_the_same_tournament_and_others_are_not():
    first = services.create_or_resume("santorini", ["random", "random-b"], 3, 1)
    again = services.create_or_resume("santorini", [" random", "random-b "], 3, 1, {})
    assert again.pk == first.pk and again.entries.count() == 3 and Tournament.objects.count() == 1
    for other in (
        services.create_or_resume("santorini", ["random-b", "random"], 3, 1),
        services.create_or_resume("santorini", ["random", "random-b"], 2, 1),
        services.create_or_resume("santorini", ["random", "random-b"], 3, 2),
        services.create_or_resume("hive", ["random", "random-b"], 3, 1),
    ):
        assert other.pk != first.pk
    assert len(set(Tournament.objects.values_list("key", flat=True))) == 5


def test_options_are_normalised_into_the_key():
    hive = services.create_or_resume("hive", ["random", "random-b"], 1, 1)
    defaults = dict(hive.options)
    assert defaults, "hive has options with defaults"
    assert services.create_or_resume("hive", ["random", "random-b"], 1, 1, defaults).pk == hive.pk


class FourWinds(Game):
    """A game for three or four seats (only its spec and options are needed to set a tournament up)."""

    spec = GameSpec(id="four-winds", name="Four Winds", description="", min_seats=3, max_seats=4)

    def max_actions(self) -> int:
        return 1


@pytest.mark.parametrize("seats", [2, 5])
def test_a_seat_count_the_game_does_not_allow_is_refused(monkeypatch, seats):
    monkeypatch.setitem(game_registry.GAMES, FourWinds.spec.id, FourWinds)
    with pytest.raises(services.TournamentError, match=f"Four Winds is played by 3-4 seats, not {seats}"):
        services.create_or_resume("four-winds", ["random", "random-b"], 1, 1, seats=seats)
    assert not Tournament.objects.exists()


def test_a_pair_takes_the_seats_of_a_bigger_game_in_turn_starting_with_each_agent_alternately(monkeypatch):
    monkeypatch.setitem(game_registry.GAMES, FourWinds.spec.id, FourWinds)
    tournament = services.create_or_resume("four-winds", ["random", "random-b"], 2, 1)
    assert tournament.seats == 3  # the game's minimum, as it cannot be played by two
    assert [e.seat_agents for e in tournament.entries.order_by("index")] == [
        ["random", "random-b", "random"],
        ["random-b", "random", "random-b"],
    ]
    four = services.create_or_resume("four-winds", ["random", "random-b"], 2, 1, seats=4)
    assert four.pk != tournament.pk and four.seats == 4
    assert four.entries.order_by("index").first().seat_agents == ["random", "random-b", "random", "random-b"]
    # Asking for the default seat count by name is the same tournament, and two-seat keys are unchanged.
    assert services.create_or_resume("four-winds", ["random", "random-b"], 2, 1, seats=3).pk == tournament.pk
    assert services.tournament_key("santorini", ["a", "b"], 1, 1, {}) == services.tournament_key(
        "santorini", ["a", "b"], 1, 1, {}, seats=2)


def test_an_agents_result_in_a_bigger_match_is_the_mean_of_its_seats_scores():
    # More cases, the tables and the pages: tests/agents_app/test_multiseat_results.py.
    assert player_results(["a", "b", "a"], [0.0, 0.25, 0.75]) == {"a": 0.375, "b": 0.25}
    assert player_results(["a", "b"], [0.5, 0.5]) == {"a": 0.5, "b": 0.5}


@pytest.mark.parametrize(
    "game, agents, matches, options, message",
    [
        ("chess", ["random", "random-b"], 1, None, "unknown game 'chess'"),
        ("santorini", ["random"], 1, None, "at least two agents"),
        ("santorini", ["random", "random-b", "random"], 1, None, "repeated: random"),
        ("santorini", ["random", "nobody"], 1, None, "unknown agent 'nobody'"),
        ("santorini", ["random", "random-b"], 0, None, "at least 1"),
        ("santorini", ["random", "random-b"], 1, {"no-such-option": 1}, "unknown option"),
    ],
)
def test_bad_parameters_are_refused_clearly(monkeypatch, game, agents, matches, options, message):
    monkeypatch.setitem(game_registry.GAMES, FourWinds.spec.id, FourWinds)
    with pytest.raises(services.TournamentError, match=message):
        services.create_or_resume(game, agents, matches, 1, options)
    assert not Tournament.objects.exists()


def test_an_agent_that_fails_its_preflight_is_refused(monkeypatch):
    def preflight(name, game_id=None, allow_slow=False):
        if name == "random-b":
            raise match_services.ServiceError("RAP needs logprobs")

    monkeypatch.setattr(services.agent_services, "preflight", preflight)
    with pytest.raises(services.TournamentError, match="'random-b' cannot play: RAP needs logprobs"):
        services.create_or_resume("santorini", ["random", "random-b"], 1, 1)
