"""Who is Spy's turn timer (GameSpec.turn_timer; options describe_seconds and vote_seconds): the limits, the timeout
actions (a pass for a speaker, an abstention for a voter), how they count and read, and their conformance."""

from __future__ import annotations

import json

import pytest

from gameplay.engines.api import IllegalActionError, InvalidOptionsError
from gameplay.engines.who_is_spy import SpyGame
from gameplay.engines.who_is_spy.game import ABSTAIN, SKIP_DESCRIBE

from .conformance import check_playouts, check_turn_timer


def new_state(seats=4, seed=0, **options):
    """Pair 0 (coffee/cocoa), so the descriptions below never contain a word by accident."""
    return SpyGame({"pair_index": 0, **options}, seats).new_initial_state(seed)


def describe_round(state):
    n = 0
    while state.phase == "describe":
        n += 1
        state.apply_action(state.current_seats()[0], "describe", f"timed clue {n}")


def test_the_game_declares_a_turn_timer_and_both_limits_are_off_by_default():
    assert SpyGame.spec.turn_timer is True
    state = new_state()
    speaker = state.current_seats()[0]
    assert state.time_limit(speaker) == 0 and state.timeout_action(speaker) is None
    assert SKIP_DESCRIBE not in {a.id for a in state.legal_actions(speaker)}
    describe_round(state)
    voter = state.current_seats()[0]
    assert state.time_limit(voter) == 0 and state.timeout_action(voter) is None
    assert ABSTAIN not in {a.id for a in state.legal_actions(voter)}


@pytest.mark.parametrize("name", ["describe_seconds", "vote_seconds"])
def test_limits_are_bounded_from_0_to_600_seconds(name):
    assert SpyGame({name: 0}).options[name] == 0
    assert SpyGame({name: 600}).options[name] == 600
    for bad in (-1, 601):
        with pytest.raises(InvalidOptionsError):
            SpyGame({name: bad})


def test_a_speaker_out_of_time_gives_no_description_and_the_next_speaks():
    state = new_state(describe_seconds=45, vote_seconds=20)
    speaker, following = state.round["order"][0], state.round["order"][1]
    assert state.time_limit(speaker) == 45
    assert all(state.time_limit(s) == 0 for s in range(4) if s != speaker)  # only the current seat is timed
    assert state.timeout_action(speaker) == (SKIP_DESCRIBE, None)
    labels = state.action_labels(speaker, SKIP_DESCRIBE)
    state.apply_action(speaker, *state.timeout_action(speaker))
    assert state.current_seats() == [following]
    name = state.game.seat_name(speaker)
    assert labels.public == f"{name} gives no description" and labels.for_viewer(speaker) == "You give no description"
    # The pass is a fact of the round's talk for every viewer, worded in each one's text ("You" for the speaker).
    for viewer, who in ((following, name), (speaker, "You")):
        observation = state.observation(viewer)
        assert observation.data["rounds"][0]["talk"] == [{"seat": speaker, "name": name, "you": viewer == speaker,
                                                          "kind": "pass", "text": "", "struck": False, "skip": True,
                                                          "right": False}]
        assert f"\n  {who} gave no description.\n" in observation.text
    assert state.said == []  # a pass is no description: nothing for the repeat rule


def test_every_speaker_may_pass_with_the_reject_rule_too_and_the_vote_follows():
    state = new_state(describe_seconds=30, repeat_rule="reject")
    while state.phase == "describe":
        seat = state.current_seats()[0]
        state.apply_action(seat, *state.timeout_action(seat))  # the same pass for everyone is never a repeat
    assert state.phase == "vote" and state.time_limit(state.current_seats()[0]) == 0  # no vote limit set


def test_a_voter_out_of_time_abstains_and_the_abstention_counts_for_nobody():
    state = new_state(seed=3, vote_seconds=20)
    spies = list(state.spies)
    (spy,), (v1, v2, v3) = spies, [s for s in range(4) if s not in spies]
    describe_round(state)
    assert all(state.time_limit(v) == 20 for v in state.current_seats())
    assert state.timeout_action(v3) == (ABSTAIN, None)
    assert ABSTAIN in {a.id for a in state.legal_actions(v3)}
    state.apply_action(spy, f"vote:{v1}")
    state.apply_action(v2, f"vote:{v1}")
    state.apply_action(v1, f"vote:{v2}")
    labels = state.action_labels(v3, ABSTAIN)
    assert labels.public == f"{state.game.seat_name(v3)} has voted"  # secret like any vote
    assert labels.for_viewer(v3) == "You abstain"
    state.apply_action(v3, *state.timeout_action(v3))
    outcome = state.rounds[0]["outcome"]
    assert outcome["k"] == "out" and outcome["leaders"] == [v1] and sum(outcome["tally"]) == 3
    assert state.out_round[v1] == 1
    # The abstention is the abstainer's secret until the end, like a vote.
    assert "you abstained" in json.dumps(state.observation(v3).to_json()).lower()
    assert "abstained" not in json.dumps(state.observation(v2).to_json()).lower()
    assert "In round 1 you abstained." in state.secrets()[v3]
    assert state.measures(v1)["votes_received"] is None  # known at the end only, as before


def test_when_every_voter_abstains_everyone_is_tied_and_a_new_round_starts():
    state = new_state(vote_seconds=10)
    describe_round(state)
    for voter in list(state.current_seats()):
        state.apply_action(voter, *state.timeout_action(voter))
    assert state.rounds[0]["outcome"]["k"] == "all_tied"
    assert state.round["n"] == 2 and state.phase == "describe" and state.alive_seats() == [0, 1, 2, 3]


def test_with_show_votes_an_abstention_is_public():
    state = new_state(vote_seconds=10, show_votes=True)
    describe_round(state)
    voter = state.current_seats()[0]
    assert state.action_labels(voter, ABSTAIN).public == f"{state.game.seat_name(voter)} abstains"
    state.apply_action(voter, ABSTAIN)
    other = next(s for s in range(4) if s != voter)
    assert f"in round 1 {state.game.seat_name(voter)} abstained.".lower() in json.dumps(
        state.observation(other).to_json()).lower()


def test_the_timer_actions_are_refused_without_their_limit():
    state = new_state(vote_seconds=10)  # no describe limit
    with pytest.raises(IllegalActionError):
        state.apply_action(state.current_seats()[0], SKIP_DESCRIBE)
    state = new_state(describe_seconds=10)  # no vote limit
    describe_round(state)
    with pytest.raises(IllegalActionError):
        state.apply_action(state.current_seats()[0], ABSTAIN)


def test_the_status_line_tells_the_timed_seat_its_limit_and_its_choice():
    state = new_state(describe_seconds=40, vote_seconds=25)
    speaker = state.current_seats()[0]
    assert "You have 40 seconds; you may also pass" in state.observation(speaker).text
    describe_round(state)
    voter = state.current_seats()[0]
    assert "You have 25 seconds; you may also abstain" in state.observation(voter).text


def test_timed_games_conform_and_every_timeout_action_is_legal():
    finals = check_playouts(lambda: SpyGame({"describe_seconds": 30, "vote_seconds": 30}, 5), n_playouts=40,
                            base_seed=7)
    assert all(state.is_terminal() for state in finals)
    state = new_state(describe_seconds=5, vote_seconds=5)
    check_turn_timer(state)
    describe_round(state)
    check_turn_timer(state)
