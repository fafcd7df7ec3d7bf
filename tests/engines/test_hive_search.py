"""Hive's evaluation() (the estimate a depth-limited search reads): the side closing in on the other queen is ahead,
colour-swapped positions evaluate swapped, and one-ply greedy play on it beats uniform random play."""

from __future__ import annotations

import random

import pytest

from gameplay.engines.hive import HiveGame
from gameplay.engines.hive.evaluation import evaluate


def position(stacks: dict[str, list[str]], ply: int = 20, **options):
    """A state with these stacks ("q,r" -> pieces bottom to top), loaded through the public JSON path."""
    game = HiveGame(options)
    data = game.new_initial_state(0).to_json()
    data["payload"].update(stacks=stacks, ply=ply, last_moved=None, status="InProgress")
    return game.state_from_json(data)


def swapped(state):
    """The same position with the colours swapped (every white piece black and the other way round)."""
    flip = {"w": "b", "b": "w"}
    data = state.to_json()
    payload = data["payload"]
    payload["stacks"] = {c: [flip[p[0]] + p[1:] for p in s] for c, s in payload["stacks"].items()}
    if payload["last_moved"]:
        payload["last_moved"] = flip[payload["last_moved"][0]] + payload["last_moved"][1:]
    return state.game.state_from_json(data)


def check_share(state):
    values = state.evaluation()
    assert len(values) == 2 and all(0.0 <= v <= 1.0 for v in values) and abs(sum(values) - 1.0) < 1e-12
    assert swapped(state).evaluation() == pytest.approx(values[::-1])
    return values


# The black queen at 0,0 with five white pieces around it (north-east, 1,-1, still open); the white queen free at
# the edge of the hive.
CLOSING_IN = {
    "1,0": ["wA1"], "0,1": ["wA2"], "-1,1": ["wA3"], "-1,0": ["wG1"], "0,-1": ["wG2"], "0,0": ["bQ"],
    "2,0": ["wQ"], "3,0": ["bS1"], "-2,0": ["bS2"], "-3,0": ["bG1"],
}


def test_the_side_closing_in_on_the_other_queen_is_ahead_and_the_swap_behind():
    state = position(CLOSING_IN)
    values = check_share(state)
    assert values[0] > 0.8
    assert swapped(state).evaluation()[0] < 0.2


def test_a_queen_with_room_to_slide_is_better_than_a_boxed_one():
    # The same pieces, the white queen now in a pocket (two neighbours, no slide: closed gates) against a free one.
    free = {"0,0": ["wQ"], "1,0": ["bQ"], "-1,0": ["wS1"], "2,0": ["bS1"]}
    boxed = {"0,0": ["wQ"], "1,0": ["bQ"], "-1,0": ["wS1"], "2,0": ["bS1"], "0,1": ["bG1"], "0,-1": ["wG1"]}
    assert check_share(position(free))[0] == pytest.approx(0.5)  # mirror image of itself
    assert check_share(position(boxed, ply=12))[0] < 0.5


def test_evaluation_of_random_positions_is_a_share_and_symmetric_and_the_end_is_the_score():
    for seed, options in enumerate([{}, {"mosquito": True, "ladybug": True, "pillbug": True}, {"gamebench": True}]):
        game = HiveGame({**options, "max_turns": 120})
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.pos.ply % 7 == 0:
                check_share(state)
            seat = state.current_seats()[0]
            state.apply_action(seat, rng.choice(state.legal_actions(seat)).id)
        assert state.evaluation() == state.scores()
    assert position(CLOSING_IN).evaluation() == evaluate(position(CLOSING_IN).pos)


def greedy(pos, me: int, rng: random.Random):
    """The move whose resulting position evaluates best for ``me`` (ties at random), by play and undo: the same
    value as ``state.evaluation()`` of a clone after the action (see above), without cloning."""
    best, choices = -1.0, []
    for move in pos.moves():
        pos.play(move)
        value = evaluate(pos)[me]
        pos.undo()
        if value > best + 1e-12:
            best, choices = value, [move]
        elif value > best - 1e-12:
            choices.append(move)
    return rng.choice(choices)


def test_one_ply_greedy_on_evaluation_beats_uniform_random():
    # 20 seeded games to 200 turns here (about 2 s; greedy wins take about 40); 50 and 100 games to the default cap
    # are measured in gameplay/engines/hive/README.md. The games greedy does not win are draws at the cap with the
    # random side locked (passing): one ply cannot see how to fill the queen's last cell.
    game = HiveGame({"max_turns": 200})
    wins = 0
    for seed in range(20):
        me = seed % 2
        pos = game.new_initial_state(seed).pos.copy()
        rng = random.Random(seed)
        while not pos.is_over():
            pos.play(greedy(pos, me, rng) if pos.ply % 2 == me else rng.choice(pos.moves()))
        wins += evaluate(pos)[me] == 1.0
    assert wins >= 18, f"greedy won {wins} of 20"
