"""The solver's tree -> EFG -> open_spiel CFR path against open_spiel's own Kuhn poker."""

import pyspiel
import pytest
from open_spiel.python.algorithms import cfr, exploitability

from agents_app.agents.dialogue import cfr as dialogue_cfr
from agents_app.agents.dialogue.tree import Chance, Decision, Terminal

CARDS = (0, 1, 2)
PASS, BET = "Pass", "Bet"


def _showdown(cards, pot_each):
    winner = 0 if cards[0] > cards[1] else 1
    return (pot_each, -pot_each) if winner == 0 else (-pot_each, pot_each)


def _kuhn_after(cards, history):
    """Kuhn poker from a betting history, built by hand: infoset keys as open_spiel spells them (card + history)."""
    if history in ("pp",):
        return Terminal(_showdown(cards, 1))
    if history in ("bb", "pbb"):
        return Terminal(_showdown(cards, 2))
    if history == "bp":
        return Terminal((1, -1))
    if history == "pbp":
        return Terminal((-1, 1))
    seat = len(history) % 2
    children = [_kuhn_after(cards, history + "p"), _kuhn_after(cards, history + "b")]
    return Decision(seat, f"{cards[seat]}{history}", [PASS, BET], children, message_index=len(history) // 2)


def hand_built_kuhn():
    outer = []
    for first in CARDS:
        inner = [(f"p1 gets {second}", 0.5, _kuhn_after((first, second), "")) for second in CARDS if second != first]
        outer.append((f"p0 gets {first}", 1 / 3, Chance(inner)))
    return Chance(outer)


@pytest.mark.parametrize("iterations", [1, 7, 50])
def test_cfr_matches_open_spiel_on_hand_built_tree(iterations):
    ours = dialogue_cfr.solve(hand_built_kuhn(), iterations)

    kuhn = pyspiel.load_game("kuhn_poker")
    solver = cfr.CFRSolver(kuhn)
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    average = solver.average_policy()
    expected_nash_conv = exploitability.nash_conv(kuhn, average)

    assert ours.nash_conv == pytest.approx(expected_nash_conv, abs=1e-9)
    assert ours.cfr_gain is None  # no "any" action in Kuhn poker
    compared = 0
    for key, dist in ours.by_infostate.items():
        row = average.policy_for_key(key)
        assert dist[PASS] == pytest.approx(row[0], abs=1e-9), key
        assert dist[BET] == pytest.approx(row[1], abs=1e-9), key
        compared += 1
    assert compared == 12  # every information state of Kuhn poker
    # by_turn is a proper distribution per seat and message index.
    for dist in ours.by_turn.values():
        assert sum(dist.values()) == pytest.approx(1.0)
    assert set(ours.by_turn) == {"0:0", "1:0", "0:1"}


def test_by_turn_weights_each_information_state_by_its_reach():
    # Seat 0 does better with "a" whatever seat 1 does, so CFR plays "a"; seat 1's message 0 policy must then be
    # the one at the state "a" reaches (where "x" pays it), not the average with the unreached "b" state.
    after_a = Decision(1, "1:after-a", ["x", "y"], [Terminal((2, 1)), Terminal((2, 0))])
    after_b = Decision(1, "1:after-b", ["x", "y"], [Terminal((0, 0)), Terminal((0, 1))])
    root = Decision(0, "0:start", ["a", "b"], [after_a, after_b])
    solution = dialogue_cfr.solve(root, 200)
    assert solution.by_infostate["0:start"]["a"] > 0.99
    assert solution.by_turn["1:0"]["x"] == pytest.approx(solution.by_infostate["1:after-a"]["x"], abs=0.01)
    assert solution.by_turn["1:0"]["x"] > 0.95
    assert solution.nash_conv < 0.05


def test_efg_refuses_an_information_state_with_differing_actions():
    from agents_app.agents.dialogue.efg import to_efg

    root = Chance([("l", 0.5, Decision(0, "same", ["a", "b"], [Terminal((0, 0))] * 2)),
                   ("r", 0.5, Decision(0, "same", ["a", "c"], [Terminal((0, 0))] * 2))])
    with pytest.raises(ValueError, match="differing actions"):
        to_efg(root)
