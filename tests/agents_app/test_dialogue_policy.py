"""The deployed dialogue policy: validation and the order of its lookups."""

import random

import pytest

from agents_app.agents.dialogue import policy

POLICY = {
    "game": "fruit_trading", "options": {"scenario": "fixed"}, "instruction_set": "tone",
    "instructions": ["calm", "assertive", "any"],
    "by_turn": {"1:0": {"calm": 0.25, "assertive": 0.75}},
    "by_infostate": {policy.infostate_key(1, "your basket: ...\nthread: ..."): {"any": 1.0}},
}


def test_an_exact_information_state_wins_then_the_message_index_then_uniform():
    assert policy.distribution(POLICY, 1, 0, "your basket: ...\nthread: ...") == ({"any": 1.0}, "infostate")
    assert policy.distribution(POLICY, 1, 0, "another dialogue") == ({"calm": 0.25, "assertive": 0.75}, "turn")
    dist, view = policy.distribution(POLICY, 1, 4, "a turn deeper than the tree")
    assert view == "uniform" and dist == pytest.approx({"calm": 1 / 3, "assertive": 1 / 3, "any": 1 / 3})


def test_a_seeded_draw_is_reproducible_and_follows_the_weights():
    dist = {"calm": 0.25, "assertive": 0.75}
    draws = [policy.sample(dist, random.Random(seed)) for seed in range(2000)]
    assert draws == [policy.sample(dist, random.Random(seed)) for seed in range(2000)]
    assert 0.70 < draws.count("assertive") / len(draws) < 0.80


def test_the_same_observation_of_another_seat_is_another_information_state():
    assert policy.infostate_key(0, "same text") != policy.infostate_key(1, "same text")


@pytest.mark.parametrize("broken, message", [
    ({"game": "x"}, "missing"),
    ({**POLICY, "instructions": []}, "distinct"),
    ({**POLICY, "by_turn": {"1:0": {"rude": 1.0}}}, "unknown"),
    ({**POLICY, "by_turn": {"1:0": {"calm": 0.5}}}, "sum to 1"),
    ({**POLICY, "by_turn": {"1:0": {"calm": 1.5, "assertive": -0.5}}}, "non-negative"),
])
def test_a_malformed_policy_is_refused_with_the_reason(broken, message):
    with pytest.raises(policy.PolicyError, match=message):
        policy.validate_policy(broken)


def test_a_well_formed_policy_passes():
    policy.validate_policy(POLICY)
