"""Twin states for the derived-leak tests (tests/agents_app/test_derived_leaks.py and
tests/gameplay/test_seen_conformance.py): two states a seat cannot tell apart that differ in what it may not know,
a Codenames Operative's key and the Who is Spy spy a last voter may vote for."""

from __future__ import annotations

import copy
import random

from gameplay.engines.registry import create_game
from gameplay.management.commands.bench_play import random_move


def twin_of(state, change) -> object:
    data = copy.deepcopy(state.to_json())
    change(data["payload"])
    return state.game.state_from_json(data)


def codenames_twins():
    """An Operative to guess, and a twin whose key swaps one of its team's agents with the assassin."""
    game = create_game("codenames", num_seats=4)
    state = game.new_initial_state(11)
    spymaster = state.current_seats()[0]
    clue = next(t for t in state.text_actions(spymaster))
    for word in ("harbor", "quantum", "velvet", "orbit"):
        try:
            state.apply_action(spymaster, clue.id, f"{word},2")
            break
        except Exception:
            continue
    operative = state.current_seats()[0]
    key = state.to_json()["payload"]["key"]
    revealed = state.to_json()["payload"]["revealed"]
    hidden = [i for i, shown in enumerate(revealed) if not shown]
    assassin = next(i for i in hidden if key[i] == next(k for k in key if key.count(k) == 1))
    own = next(i for i in hidden if key[i] != key[assassin])

    def swap(payload):
        payload["key"][assassin], payload["key"][own] = payload["key"][own], payload["key"][assassin]

    return game, state, twin_of(state, swap), operative


def spy_twins():
    """The last voter of a vote, and a twin in which the spy is another of the players it may vote for."""
    game = create_game("who_is_spy", num_seats=4)
    state = game.new_initial_state(5)
    rng = random.Random(5)
    while True:  # describe, and vote until one vote is left to cast
        seat = state.current_seats()[0]
        if state.to_json()["payload"]["phase"] == "vote" and len(state.current_seats()) == 1:
            break
        random_move(state, seat, rng)
    voter = state.current_seats()[0]
    payload = state.to_json()["payload"]
    spy = payload["spies"][0]
    villager = next(s for s in range(4) if s not in payload["spies"] and s != voter)

    def move_the_spy(p):
        p["words"][spy], p["words"][villager] = p["words"][villager], p["words"][spy]
        p["spies"] = [villager if s == spy else s for s in p["spies"]]

    return game, state, twin_of(state, move_the_spy), voter
