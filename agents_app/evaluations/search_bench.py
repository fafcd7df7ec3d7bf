"""Measurements of the search agents (``bench_search``, ``search_ladder``): simulations per second per game, a
level's decision times and its results against random play, and a round robin of the levels rated with the platform's
own ratings (rating_app.ratings). Matches run in this process or in ``jobs`` processes (arena.py plays them)."""

from __future__ import annotations

import itertools
import math
import random
import statistics
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from agents_app.agents.intervals import mean_ci95
from agents_app.agents.search.agent import searchable
from agents_app.agents.search.levels import level_name
from agents_app.agents.search.mcts import Budget, search
from gameplay.engines.registry import GAMES, create_game

from .arena import ArenaResult, play

SPEED_SIMULATIONS = 200  # per measured position: enough for a steady rate, few enough for Hive


def searchable_games() -> list[str]:
    return [game_id for game_id in GAMES if searchable(game_id)]


def simulations_per_second(game_id: str, seats: int, positions: int = 5, seed: int = 0) -> float:
    """Simulations a second of a full search (no time limit) from ``positions`` positions reached by random play."""
    rng = random.Random(seed)
    spent = done = 0.0
    for k in range(positions):
        state = create_game(game_id, num_seats=seats).new_initial_state(seed + k)
        for _ in range(rng.randrange(0, 30)):
            if state.is_terminal():
                break
            seat = rng.choice(state.current_seats())
            actions = state.legal_actions(seat)
            if not actions:
                break
            state.apply_action(seat, rng.choice(actions).id)
        if state.is_terminal() or not state.current_seats():
            continue
        seat = state.current_seats()[0]
        if not state.legal_actions(seat):
            continue
        spec = state.game.spec
        root = state.sample_information_state(seat, random.Random(k))
        started = time.perf_counter()
        result = search(root, seat, Budget(SPEED_SIMULATIONS, seconds=3600), random.Random(k),
                        resample=not spec.perfect_information or spec.has_chance)
        spent += time.perf_counter() - started
        done += result.simulations
    return done / spent if spent else 0.0


def _play_job(job: tuple[str, tuple[str, ...], int]) -> ArenaResult:
    game_id, names, seed = job
    return play(game_id, names, seed)


def play_all(jobs: Sequence[tuple[str, tuple[str, ...], int]], workers: int) -> list[ArenaResult]:
    if workers <= 1:
        return [_play_job(job) for job in jobs]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(_play_job, jobs, chunksize=1))


@dataclass(frozen=True)
class VersusRandom:
    game_id: str
    seats: int
    matches: int
    level: int
    sims_per_second: float
    think_mean_ms: float
    think_p95_ms: float
    think_max_ms: float
    wins: int
    draws: int
    mean_score: float
    score_low: float | None
    score_high: float | None
    win_low: float
    win_high: float
    fair_share: float


def wilson95(successes: int, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    z = 1.959963984540054
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def versus_random(game_id: str, matches: int, level: int, seats: int, seed: int, workers: int) -> VersusRandom:
    """``matches`` seeded matches of the level against random players, the search agent's seat rotating."""
    name = level_name(level)
    jobs = []
    for k in range(matches):
        names = ["random"] * seats
        names[k % seats] = name
        jobs.append((game_id, tuple(names), seed + k))
    results = play_all(jobs, workers)
    scores, think = [], []
    wins = draws = 0
    for k, result in enumerate(results):
        mine = k % seats
        scores.append(result.scores[mine])
        think += result.think_ms[mine]
        best = max(result.scores)
        leaders = [s for s, v in enumerate(result.scores) if v == best]
        if leaders == [mine]:
            wins += 1
        elif mine in leaders:
            draws += 1
    think.sort()
    interval = mean_ci95(scores)
    win_low, win_high = wilson95(wins, matches)
    return VersusRandom(
        game_id=game_id, seats=seats, matches=matches, level=level,
        sims_per_second=simulations_per_second(game_id, seats, seed=seed),
        think_mean_ms=statistics.fmean(think) if think else 0.0,
        think_p95_ms=think[min(len(think) - 1, math.ceil(0.95 * len(think)) - 1)] if think else 0.0,
        think_max_ms=think[-1] if think else 0.0,
        wins=wins, draws=draws, mean_score=interval.mean, score_low=interval.low, score_high=interval.high,
        win_low=win_low, win_high=win_high, fair_share=1.0 / seats,
    )


Job = tuple[str, tuple[str, ...], int]  # game id, agent names by seat, seed


def ladder_players(levels: Sequence[int], with_random: bool = True) -> list[str]:
    """The round robin's players, weakest first: random play (unless ``with_random`` is false), then the levels."""
    return [*(["random"] if with_random else []), *(level_name(level) for level in levels)]


def ladder_jobs(game_id: str, levels: Sequence[int], per_pair: int, seed: int, seats: int = 2,
                with_random: bool = True, table: int = 2) -> list[Job]:
    """A round robin of random play (unless ``with_random`` is false) and the levels, one seed per match:
    ``per_pair`` matches for every group of ``table`` players (2: every pair; in a game of more seats, 3 or more
    puts that many different players at each table, so that one match compares more of them). The group's players
    take the seats in turn (A, B, A, ... or A, B, C, A, ...), the first seat going to each in turn, so that every
    match sets the group's players against each other and each sits first equally often."""
    players = ladder_players(levels, with_random)
    if not 2 <= table <= min(len(players), seats):
        raise ValueError(f"a table of {table} players needs 2 to {min(len(players), seats)}")
    jobs = []
    k = 0
    for group in itertools.combinations(players, table):
        for m in range(per_pair):
            turn = m % table
            order = group[turn:] + group[:turn]
            jobs.append((game_id, tuple(order[s % table] for s in range(seats)), seed + k))
            k += 1
    return jobs
