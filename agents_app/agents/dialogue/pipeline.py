"""One solve of a dialogue game, from the engine and a (cached) model to the result kept with a solver run.

Pure: the caller (agents_app.services) gives the game, the model and the cache and stores what comes back.
"""

from __future__ import annotations

import time

import numpy as np

from agents_app.agents.intervals import METHOD, mean_ci95
from gameplay.engines.api import Game

from . import cfr
from .generation import CachedModel
from .policy import turn_key, validate_policy
from .psro import PSRO
from .tree import TreeBuilder, TreeOptions, TreeStats

SOLVERS = ("cfr", "psro")


def solve(
    game: Game,
    model: CachedModel,
    *,
    solver: str,
    instruction_set: str = "",
    options: TreeOptions,
    iterations: int = 100,
    psro_iterations: int = 3,
    judge: CachedModel | None = None,
) -> dict:
    """The result of one solve (JSON-safe): the deployable policy (with the game options and the instruction set it
    was solved under), the equilibrium per seat and message, NashConv, the seats' values and CFR gain (CFR), the PSRO
    history with the meta-game's NashConv and value (PSRO), the tree's size, how the model was sampled, every
    fallback, and warnings (e.g. LLM seeds that gave identical turns)."""
    if solver not in SOLVERS:
        raise ValueError(f"unknown solver {solver!r}; known: {', '.join(SOLVERS)}")
    dialogue = game.spec.dialogue
    if dialogue is None:
        raise ValueError(f"{game.spec.name} is not a dialogue game")
    chosen = dialogue.instruction_set(instruction_set) if instruction_set else dialogue.solver_set(solver)
    builder = TreeBuilder(game, model, chosen, options, judge=judge)
    started = time.monotonic()
    result: dict = {"game": game.spec.id, "solver": solver, "instruction_set": chosen.name,
                    "options": dict(game.options)}
    if solver == "cfr":
        tree = builder.build()
        generated = time.monotonic()
        solution = cfr.solve(tree, iterations)
        result.update(
            instructions=list(chosen.instructions),
            equilibrium=solution.by_turn,
            nash_conv=solution.nash_conv,
            cfr_gain=solution.cfr_gain,
            values=solution.values,
            policy=_policy(game, chosen.name, list(chosen.instructions), solution.by_turn, solution.by_infostate),
        )
    else:
        psro = PSRO(builder, model)
        outcome = psro.run(psro_iterations)
        generated = time.monotonic()
        mixture = dict(zip(outcome.instructions, outcome.mixture, strict=True))
        by_turn = {turn_key(seat, index): mixture for seat in range(2) for index in range(options.depth)}
        value, nash_conv = meta_value_and_nash_conv(outcome.table, outcome.mixture)
        result.update(
            instructions=outcome.instructions,
            equilibrium={"meta": mixture},
            table=outcome.table,
            psro_history=outcome.history,
            # The symmetric meta-game over the final pool: both seats play the mixture, so both get its value.
            values=[value, value],
            nash_conv=nash_conv,
            policy=_policy(game, chosen.name, outcome.instructions, by_turn, {}),
        )
    result["tree"] = builder.stats.as_dict()
    result["timing"] = {"generate_s": round(generated - started, 3), "solve_s": round(time.monotonic() - generated, 3)}
    result["sampling"] = {
        "llm_seeds": options.llm_seeds,
        "temperature": model.temperature,
        "seed_parameter": f"refused by the endpoint: {model.stats.seed_refused}" if model.stats.seed_refused
        else "sent",
    }
    result["warnings"] = sampling_warnings(builder.stats, options, model)
    result["fallbacks"] = [list(item) for item in model.stats.fallbacks]
    if judge is not None:
        result["judge"] = {"model": judge.model, "model_calls": judge.stats.model_calls,
                           "cache_hits": judge.stats.cache_hits}
    return result


def across_seeds(results: list[dict]) -> dict:
    """Means over solves that differ only in their seed, each with its 95% interval (``intervals.METHOD``): NashConv,
    each seat's value and, where every solve has one, the mean CFR gain; and how many solves warned."""
    summary: dict = {"method": METHOD, "seeds": len(results),
                     "nash_conv": mean_ci95([r["nash_conv"] for r in results]).as_dict(),
                     "values": [mean_ci95([r["values"][seat] for r in results]).as_dict() for seat in range(2)]}
    gains = [r["cfr_gain"]["mean"] for r in results if r.get("cfr_gain")]
    if gains and len(gains) == len(results):
        summary["cfr_gain"] = mean_ci95(gains).as_dict()
    summary["solves_with_warnings"] = sum(1 for r in results if r.get("warnings"))
    return summary


def sampling_warnings(stats: TreeStats, options: TreeOptions, model: CachedModel) -> list[str]:
    """What makes the tree's chance nodes over LLM seeds no samples of the model: seeds that all gave one turn."""
    warnings = []
    if stats.identical:
        temperature = "unknown" if model.temperature is None else f"{model.temperature:g}"
        seed = "refused by the endpoint" if model.stats.seed_refused else "sent with each request"
        warnings.append(
            f"the {options.llm_seeds} LLM seeds gave identical turns at {stats.identical} of {stats.sampled} chance "
            f"nodes (temperature {temperature}, sampling seed {seed}): those branches are copies, not samples "
            f"({stats.decisions} decisions, {len(stats.infosets)} information states). Raise the temperature, or "
            "use --llm-seeds 1 to stop paying for copies."
        )
    return warnings


def meta_value_and_nash_conv(table: list, mixture: list) -> tuple[float, float]:
    """The value of the symmetric meta-game (row payoffs ``table``) when both seats play ``mixture``, and its
    NashConv: the sum over the two seats of what the best pure deviation gains."""
    payoffs = np.asarray(table, dtype=float)
    x = np.asarray(mixture, dtype=float)
    against = payoffs @ x
    value = float(x @ against)
    return value, float(2 * max(0.0, float(against.max()) - value))


def _policy(game: Game, set_name: str, instructions: list, by_turn: dict, by_infostate: dict) -> dict:
    policy = {
        "game": game.spec.id,
        # What it was solved under: applying it elsewhere is refused (policy.applicability_problem).
        "options": dict(game.options),
        "instruction_set": set_name,
        "instructions": instructions,
        "by_turn": _normalised(by_turn),
        "by_infostate": _normalised(by_infostate),
    }
    validate_policy(policy)
    return policy


def _normalised(table: dict) -> dict:
    """Distributions summing to exactly 1 after float noise (a solver's average can be off by 1e-16)."""
    result = {}
    for key, dist in table.items():
        total = sum(dist.values())
        result[key] = {a: (p / total if total > 0 else 1.0 / len(dist)) for a, p in dist.items()}
    return result
