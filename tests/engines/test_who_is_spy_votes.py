"""Who is Spy's votes: secret by default (only the voter sees its own) and public with show_votes, vote options
shuffled per voter and reproducible, and teams one per seat, so that the camps stay secret, while the result names
the camps."""

from __future__ import annotations

from gameplay.engines.who_is_spy import SpyGame

from .who_is_spy_support import describe_round, new_state, spy_and_villagers, vote


def test_votes_are_secret_by_default_and_public_with_show_votes():
    state = new_state(seed=1)
    describe_round(state)
    labels = state.action_labels(0, "vote:2")
    assert labels.public == "Player 1 has voted" and labels.for_viewer(1) == "Player 1 has voted"
    assert labels.for_viewer(0) == "You vote for Player 3"
    state.apply_action(0, "vote:2")
    assert "In round 1 you voted for Player 3." in state.observation(0).text
    for viewer in (1, 2, 3, None):
        assert "voted for" not in state.observation(viewer).text
    assert "In round 1 you voted for Player 3." in state.secrets()[0]
    open_votes = new_state(seed=1, show_votes=True)
    describe_round(open_votes)
    assert open_votes.action_labels(0, "vote:2").public == "Player 1 votes for Player 3"
    open_votes.apply_action(0, "vote:2")
    assert "Player 1 voted for Player 3" in open_votes.observation(3).text


def test_vote_options_are_shuffled_per_voter_and_reproducible():
    orders = set()
    for seed in range(10):
        state = new_state(seed=seed, seats=6)
        describe_round(state)
        again = new_state(seed=seed, seats=6)
        describe_round(again)
        for voter in range(6):
            ids = [a.id for a in state.legal_actions(voter)]
            assert ids == [a.id for a in again.legal_actions(voter)]
            orders.add(tuple(ids))
    assert len(orders) > 30


def test_teams_stay_one_per_seat_so_camps_stay_secret_and_the_result_names_the_camps():
    assert SpyGame({"spies": 2}, 6).teams() == [0, 1, 2, 3, 4, 5]
    state = new_state(seed=8)
    assert state.result_teams() == [0, 1, 2, 3]
    (spy,), villagers = spy_and_villagers(state)
    describe_round(state)
    vote(state, {v: spy for v in villagers} | {spy: villagers[0]})
    assert state.result_teams() == [1 if s == spy else 0 for s in range(4)]
