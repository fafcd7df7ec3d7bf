"""Who is Spy, seeded random playouts at 4 and 6 seats (one or two spies, spy_guess, show_votes, repeats allowed, a
round cap) pass the conformance checks and keep the game's invariants: the spies hold the spy word, the winners and
their scores follow from who is left, votes received add up, and run-off voters are never candidates."""

from __future__ import annotations

import pytest

from gameplay.engines.who_is_spy import SpyGame

from .conformance import check_playouts


@pytest.mark.parametrize("seats,options", [
    (4, {}), (4, {"spy_guess": True, "show_votes": True}), (4, {"repeat_rule": "allow", "max_rounds": 3}),
    (6, {}), (6, {"spies": 2}), (6, {"spies": 2, "spy_guess": True}),
])
def test_random_playouts_keep_the_invariants(seats, options):
    finals = check_playouts(lambda: SpyGame(options, seats), n_playouts=25, base_seed=300)
    for state in finals:
        spies = state.spies
        assert len(spies) == options.get("spies", 1)
        assert all(state.words[s] == state.spy_word for s in spies)
        assert len(state.rounds) <= state.game.options["max_rounds"]
        alive_spies = [s for s in spies if state.alive(s)]
        alive_villagers = [s for s in state.alive_seats() if s not in spies]
        if state.winners == "villagers":
            assert not alive_spies
        elif state.ending == "out":
            assert len(alive_spies) >= len(alive_villagers)
        team = [s for s in range(seats) if (s in spies) == (state.winners == "spies")]
        assert state.scores() == [1 / len(team) if s in team else 0.0 for s in range(seats)]
        measures = [state.measures(s) for s in range(seats)]
        assert sum(m["votes_received"] for m in measures) == sum(
            1 for r in state.rounds for t in r["votes"] if t is not None)
        assert all(m["won"] == (s in team) for s, m in enumerate(measures))
        for r in state.rounds:
            assert sorted(r["order"]) == sorted(set(r["order"]))
            assert all(v not in r["candidates"] for v in r["voters"]) or not r["runoff"]
