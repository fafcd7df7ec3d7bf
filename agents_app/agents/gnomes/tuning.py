"""Which seeds tune the Gnomes agents and which evaluate them: two disjoint ranges, so no reported number comes
from rounds the constants were chosen on.

- Tuning: seeds 1000..1029 (``TUNING_SEEDS``). ``gnomes_tune`` sweeps the belief's weights
  (``belief.BeliefConstants``) one at a time around the current values on these seeds, with the template
  partner and both egos, and the values it found best are the defaults.
- Evaluation: seeds 0..29 (gnomes_eval's default, ``EVALUATION_SEEDS``); gnomes_eval refuses tuning seeds.

The objective is the mean turns over rounds 1-5 with a failed round counted at the turn cap, summed over the
communicating agent (chat on) and the mute agent (chat off): what the evaluation reports, on other rounds.
"""

from __future__ import annotations

from dataclasses import astuple, replace

from .belief import CONSTANTS, BeliefConstants, use_constants
from .evaluation import RoundResult, chat_for, make_ego, make_partner, play_round

TUNING_SEEDS = range(1000, 1030)
TUNING_SEEDS_TEXT = f"{TUNING_SEEDS.start}..{TUNING_SEEDS.stop - 1}"
EVALUATION_SEEDS = range(0, 30)

# Each weight is tried at these values with the others held at their defaults.
SWEEP: dict[str, tuple[float, ...]] = {
    "hint_factor": (2.0, 4.0, 8.0),
    "move_factor": (1.0, 2.0, 3.0),
    "decline_likelihood": (0.5, 0.6, 0.7, 0.8, 0.9),
}


def candidates(base: BeliefConstants = CONSTANTS) -> list[BeliefConstants]:
    """The base and every one-weight change of it the sweep names, without duplicates, base first."""
    result = [base]
    for name, values in SWEEP.items():
        for value in values:
            candidate = replace(base, **{name: value})
            if candidate not in result:
                result.append(candidate)
    return result


def tune_job(job: tuple) -> RoundResult:
    """One (constants as a tuple, ego, round, seed, budget) job; top level so worker processes can run it."""
    constants, ego, round_number, seed, budget = job
    if seed not in TUNING_SEEDS:
        raise ValueError(f"seed {seed} is not a tuning seed ({TUNING_SEEDS_TEXT})")
    use_constants(BeliefConstants(*constants))
    return play_round(make_ego(ego, budget), make_partner("template"), round_number, seed, chat=chat_for(ego))


def jobs_for(constants: BeliefConstants, budget: int, seeds=TUNING_SEEDS) -> list[tuple]:
    return [
        (astuple(constants), ego, round_number, seed, budget)
        for ego in ("comm", "mute")
        for round_number in (1, 2, 3, 4, 5)
        for seed in seeds
    ]


def objective(jobs: list[tuple], results: list[RoundResult]) -> dict[str, float]:
    """Mean turns (cap counted) per ego and their sum."""
    by_ego: dict[str, list[int]] = {}
    for job, result in zip(jobs, results, strict=True):
        by_ego.setdefault(job[1], []).append(result.turns)
    means = {ego: sum(turns) / len(turns) for ego, turns in by_ego.items()}
    return {**means, "sum": sum(means.values())}
