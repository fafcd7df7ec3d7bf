"""How fast an engine is under a search's access pattern (no Django): random playouts that clone the state before
every action, as a tree search does when it keeps a state per node, timed separately for the clones and for the
actions (choosing among the legal actions and applying one).

``measure(game_id)`` gives, for one game, the time of one clone of the initial state and of a mid-game state, and
clones/s, actions/s and playouts/s of playouts started from each. Times are CPU time of this process, so that other
work on a shared machine slows the numbers down less than it would wall-clock ones. Seeds are fixed, so two runs
play the same moves and only the clock differs. ``bench_search_speed`` prints the table for every game.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gameplay.engines.api import EngineError, State
from gameplay.engines.registry import create_game

# Texts tried in turn for a text action after the engine's own example (a dialogue game's message, a clue).
TEXTS = ("hello", "ok 1", "word,1", "1")


@dataclass(frozen=True)
class PlayoutSpeed:
    """Totals of some random playouts; rates are per second of CPU time spent in that kind of work."""

    playouts: int
    actions: int
    clones: int
    clone_s: float
    action_s: float

    @property
    def clones_per_s(self) -> float:
        return self.clones / self.clone_s if self.clone_s else 0.0

    @property
    def actions_per_s(self) -> float:
        return self.actions / self.action_s if self.action_s else 0.0

    @property
    def playouts_per_s(self) -> float:
        total = self.clone_s + self.action_s
        return self.playouts / total if total else 0.0


@dataclass(frozen=True)
class SearchSpeed:
    game_id: str
    options: Mapping[str, Any]
    clone_us_start: float  # one clone of the initial state, microseconds (the best of several rounds)
    clone_us_mid: float  # one clone of the mid-game state
    mid_ply: int  # actions played to reach the mid-game state: half of a random playout
    from_start: PlayoutSpeed
    from_mid: PlayoutSpeed


def random_step(state: State, rng: random.Random) -> None:
    """One uniformly random action of a random current seat; a text action takes the engine's example or the first
    stock text it accepts; a judged dialogue game waiting for its verdict takes the rule's verdict."""
    if state.awaiting_verdict():
        state.apply_verdict(state.fallback_verdict(), "rule")
        return
    seat = rng.choice(state.current_seats())
    legal = state.legal_actions(seat)
    if legal:
        state.apply_action(seat, rng.choice(legal).id)
        return
    spec = rng.choice(state.text_actions(seat))
    # Numbered texts after the stock ones: an engine may refuse a text said before (Who is Spy's descriptions).
    stock = (*TEXTS, *(f"{text} {n}" for n in range(2, 41) for text in TEXTS))
    for text in ([spec.example] if spec.example else []) + list(stock):
        try:
            state.apply_action(seat, spec.id, text)
            return
        except EngineError:
            continue
    raise EngineError(f"no text was accepted for {spec.id!r}")


def clone_us(state: State, *, repeats: int = 200, rounds: int = 3) -> float:
    """Microseconds of CPU per clone of ``state``: the best round of ``repeats`` clones (the least disturbed)."""
    best = float("inf")
    for _ in range(rounds):
        started = time.process_time()
        for _ in range(repeats):
            state.clone()
        best = min(best, (time.process_time() - started) / repeats)
    return best * 1e6


def playouts(root: State, n: int, seed: int, *, max_seconds: float | None = None) -> PlayoutSpeed:
    """``n`` random playouts from (clones of) ``root``, cloning the state before each action; stops early once
    ``max_seconds`` of CPU have been spent (after at least one playout)."""
    clock = time.perf_counter
    clones = actions = done = 0
    clone_s = action_s = 0.0
    cpu = 0.0
    for i in range(n):
        rng = random.Random(seed * 1_000_003 + i)
        cpu_start = time.process_time()
        t0 = clock()
        state = root.clone()
        clone_s += clock() - t0
        clones += 1
        while not state.is_terminal():
            t0 = clock()
            state = state.clone()
            t1 = clock()
            random_step(state, rng)
            t2 = clock()
            clone_s += t1 - t0
            action_s += t2 - t1
            clones += 1
            actions += 1
        cpu += time.process_time() - cpu_start
        done += 1
        if max_seconds is not None and cpu >= max_seconds:
            break
    # The process's CPU time, which other processes on the machine do not inflate, split between clones and actions
    # as the wall clock split them (a CPU clock around every step would cost a microsecond a call).
    wall = clone_s + action_s
    clone_cpu = cpu * clone_s / wall if wall else 0.0
    return PlayoutSpeed(done, actions, clones, clone_cpu, cpu - clone_cpu)


def mid_game_state(root: State, seed: int) -> State:
    """The state halfway through a seeded random playout from ``root`` (rebuilt by replaying half its log)."""
    state = root.clone()
    rng = random.Random(seed)
    while not state.is_terminal():
        random_step(state, rng)
    return root.game.replay(root.seed, state.log[: len(state.log) // 2])


def best_playouts(root: State, n: int, seed: int, *, repeats: int = 1,
                  max_seconds: float | None = None) -> PlayoutSpeed:
    """The fastest of ``repeats`` runs of the same playouts (the run least slowed by other processes; later runs
    play exactly as many playouts as the first, whatever the clock)."""
    best = playouts(root, n, seed, max_seconds=max_seconds)
    for _ in range(repeats - 1):
        run = playouts(root, best.playouts, seed)
        if run.clone_s + run.action_s < best.clone_s + best.action_s:
            best = run
    return best


def measure(game_id: str, *, options: Mapping[str, Any] | None = None, num_seats: int | None = None,
            n_playouts: int = 10, seed: int = 0, max_seconds: float | None = None, repeats: int = 1) -> SearchSpeed:
    """Clone times and playout rates of ``game_id`` (options and seats as given, else the defaults), from the
    initial state and from a mid-game state; the first run of each set of playouts stops early after
    ``max_seconds``, and the fastest of ``repeats`` runs counts."""
    game = create_game(game_id, options, num_seats)
    start = game.new_initial_state(seed)
    mid = mid_game_state(start, seed)
    return SearchSpeed(
        game_id=game_id,
        options=dict(game.options),
        clone_us_start=clone_us(start),
        clone_us_mid=clone_us(mid),
        mid_ply=len(mid.log),
        from_start=best_playouts(start, n_playouts, seed, repeats=repeats, max_seconds=max_seconds),
        from_mid=best_playouts(mid, n_playouts, seed, repeats=repeats, max_seconds=max_seconds),
    )
