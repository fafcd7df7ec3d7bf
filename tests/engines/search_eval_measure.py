"""Measure the search agent on Arctic Scavengers or Pit against random players (not a test: minutes per game).

Prints one JSON line per match as it ends (so a long run can be watched and cut short), then a summary: the search
seat's wins and mean score against the fair share, its mean decision time, and simulations a second of a full
search (``search_bench.simulations_per_second``). The search seat rotates over the seats, one seed per match. Run
from the repository root; compare with and without an engine's evaluation by running it on both versions.

``--opponent playout-N`` seats, instead of random players, the level-N search with the engine's evaluation switched
off for it alone (random playouts, cut at the budget's playout length with the even split, as before the engine
declared one): the two ways of ending a simulation head to head, in one process under the same load.

    DEBUG=1 .venv/bin/python -m tests.engines.search_eval_measure arctic_scavengers --matches 20
    DEBUG=1 .venv/bin/python -m tests.engines.search_eval_measure pit --seats 3 --options '{"max_hands": 3}'
    DEBUG=1 .venv/bin/python -m tests.engines.search_eval_measure arctic_scavengers --matches 10 --opponent playout-3
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import statistics
import time


def playout_agent(level: int):
    """The level's search agent, made to play out to the end as if the engine declared no evaluation: its root
    becomes a state of a game class that says so, whose evaluation() is the even split (samples and clones keep the
    class)."""
    from agents_app.agents.search.agent import SEARCH_AGENTS
    from gameplay.engines.api import State

    base = next(cls for cls in SEARCH_AGENTS if cls.level == level)
    variants: dict[type, tuple[type, type]] = {}

    def without_evaluation(root):
        game_cls, state_cls = type(root.game), type(root)
        if game_cls not in variants:
            state = type(f"Playout{state_cls.__name__}", (state_cls,), {"evaluation": State.evaluation})
            spec = dataclasses.replace(game_cls.spec, has_evaluation=False)
            game = type(f"Playout{game_cls.__name__}", (game_cls,), {"spec": spec, "state_class": state})
            variants[game_cls] = (game, state)
        game, state = variants[game_cls]
        root.game = game(root.game.options, root.game.num_seats)
        root.__class__ = state
        return root

    class PlayoutSearch(base):
        name = f"playout-{level}"

        def decide(self, view):
            root = view.search_root and without_evaluation(view.search_root)
            return super().decide(dataclasses.replace(view, search_root=root))

    return PlayoutSearch()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--matches", type=int, default=10)
    parser.add_argument("--level", default="search-3")
    parser.add_argument("--opponent", default="random", help="random, or playout-N (see above)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--options", default="{}", help="the game's options, as JSON")
    parser.add_argument("--no-speed", action="store_true", help="skip the simulations-per-second measurement")
    args = parser.parse_args()

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gameplay.project.settings")
    import django

    django.setup()
    from agents_app.evaluations import arena  # imports agents_app.services: Django must be set up
    from agents_app.evaluations.search_bench import simulations_per_second
    from gameplay.engines.registry import game_class

    if args.opponent.startswith("playout-"):
        created = arena.create_agent
        level = int(args.opponent.split("-")[1])
        arena.create_agent = lambda name: playout_agent(level) if name == args.opponent else created(name)
    options = json.loads(args.options)
    scores, think, others, wins, started = [], [], [], 0, time.perf_counter()
    for k in range(args.matches):
        mine = k % args.seats
        names = [args.opponent] * args.seats
        names[mine] = args.level
        began = time.perf_counter()
        result = arena.play(args.game, names, args.seed + k, options or None)
        scores.append(result.scores[mine])
        think += result.think_ms[mine]
        others += [ms for seat, times in result.think_ms.items() if seat != mine for ms in times]
        best = max(result.scores)
        wins += result.scores[mine] == best and result.scores.count(best) == 1
        print(json.dumps({"match": k, "seat": mine, "scores": [round(s, 3) for s in result.scores],
                          "actions": result.actions, "fallbacks": result.fallbacks,
                          "seconds": round(time.perf_counter() - began, 1)}), flush=True)
    summary = {
        "game": args.game, "seats": args.seats, "level": args.level, "opponent": args.opponent,
        "matches": args.matches, "options": options,
        "has_evaluation": game_class(args.game).spec.has_evaluation,
        "wins": wins, "mean_score": round(statistics.fmean(scores), 3), "fair_share": round(1 / args.seats, 3),
        "score_stdev": round(statistics.stdev(scores), 3) if len(scores) > 1 else None,
        "think_mean_ms": round(statistics.fmean(think), 1), "decisions": len(think),
        "opponent_think_mean_ms": round(statistics.fmean(others), 1) if others else None,
        "minutes": round((time.perf_counter() - started) / 60, 1),
    }
    if not args.no_speed:
        summary["sims_per_second"] = round(simulations_per_second(args.game, args.seats, seed=args.seed), 1)
    print(json.dumps(summary), flush=True)


if __name__ == "__main__":
    main()
