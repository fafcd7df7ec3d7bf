"""Who is Spy's ties and undecided rounds: a first partial tie gives a run-off of the tied players voted on by the
others (fact 8), a second one in a row resets to a normal round, everyone tied puts nobody out and starts a new full
round, and seven undecided rounds end the game with a spy win (fact 10; a run-off round counts too)."""

from __future__ import annotations

from .who_is_spy_support import describe_round, fresh_clue, new_state, spy_and_villagers, vote


def test_fact8_a_first_partial_tie_gives_a_runoff_of_the_tied_voted_by_the_others():
    state = new_state(seed=2)
    a, b, c, d = 0, 1, 2, 3
    describe_round(state)
    vote(state, {a: b, b: a, c: a, d: b})  # 2-2-0-0
    r = state.round
    assert r["runoff"] and r["n"] == 2 and sorted(r["order"]) == [a, b]
    assert r["candidates"] == [a, b] and r["voters"] == [c, d]
    assert state.alive_seats() == [0, 1, 2, 3]
    assert "run-off" in state.observation(None).text
    # Only the tied players describe ...
    spoken = []
    while state.phase == "describe":
        spoken.append(state.current_seats()[0])
        state.apply_action(spoken[-1], "describe", fresh_clue())
    assert sorted(spoken) == [a, b]
    # ... and only the others vote, for a tied player.
    assert sorted(state.current_seats()) == [c, d]
    assert state.legal_actions(a) == [] and {x.id for x in state.legal_actions(c)} == {f"vote:{a}", f"vote:{b}"}
    vote(state, {c: a, d: a})
    assert state.out_round[a] == 2 and not state.round["runoff"]


def test_a_second_partial_tie_in_a_row_resets_to_a_normal_round():
    state = new_state(seed=2)
    describe_round(state)
    vote(state, {0: 1, 1: 0, 2: 0, 3: 1})
    describe_round(state)
    vote(state, {2: 0, 3: 1})  # the run-off ties again
    r = state.round
    assert r["n"] == 3 and not r["runoff"] and sorted(r["order"]) == [0, 1, 2, 3] and r["voters"] == [0, 1, 2, 3]
    assert state.rounds[1]["outcome"]["k"] == "reset" and state.alive_seats() == [0, 1, 2, 3]
    # The counter starts again: the next partial tie is a first one and gives a run-off.
    describe_round(state)
    vote(state, {0: 2, 1: 3, 2: 3, 3: 2})
    assert state.round["runoff"] and state.round["candidates"] == [2, 3]


def test_everyone_tied_means_nobody_out_and_a_new_full_round():
    state = new_state(seed=4)
    describe_round(state)
    vote(state, {0: 1, 1: 2, 2: 3, 3: 0})
    assert state.rounds[0]["outcome"]["k"] == "all_tied"
    assert state.alive_seats() == [0, 1, 2, 3] and not state.round["runoff"] and state.round["n"] == 2
    assert "nobody is out" in state.observation(2).text


def test_fact10_seven_undecided_rounds_end_the_game_with_a_spy_win():
    state = new_state(seed=6)
    for n in range(1, 8):
        assert not state.is_terminal() and state.round["n"] == n
        describe_round(state)
        vote(state, {0: 1, 1: 2, 2: 3, 3: 0})
    assert state.is_terminal() and state.winners == "spies" and state.ending == "cap"
    assert len(state.rounds) == 7 and len(state.log) <= state.game.max_actions()
    (spy,), _ = spy_and_villagers(state)
    assert state.scores()[spy] == 1.0 and "No decision within 7 rounds" in state.result_text()
    short = new_state(seed=6, max_rounds=2)
    describe_round(short)
    vote(short, {0: 1, 1: 0, 2: 0, 3: 1})  # a run-off round also counts
    describe_round(short)
    vote(short, {2: 0, 3: 1})  # tied again: the cap comes before the reset round
    assert short.is_terminal() and short.ending == "cap" and len(short.rounds) == 2
