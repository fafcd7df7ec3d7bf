"""Solve a dialogue game with CFR or PSRO over an instruction set, generating its tree with a stored LLM agent.

    python manage.py solve_dialogue --game fruit_trading --solver cfr --agent NAME --depth 2 --llm-seeds 2 \
        --init-states 1 --iterations 100 --seed 0 [--seeds 5] [--temperature 0.7] [--psro-iterations 3] \
        [--instruction-set tone] [--judge-agent NAME] [--options JSON] [--json]

Prints the equilibrium over the instructions per seat and message, the CFR gain, the seats' values and NashConv
(CFR), or each PSRO iteration with the instruction it added and the meta-game's value and NashConv. Generations are
cached: the same command again makes no model call and prints the same numbers. A judged game (a debate) is judged
by --judge-agent, else by the game's own rule.

Each request carries a sampling seed derived from --seed and the LLM seed's index, at --temperature (default: the
agent's). When the LLM seeds gave identical turns the run says so (a WARNING line, and ``warnings`` in its result):
at temperature 0 they usually do, and the tree's chance nodes are then copies, not samples.

--seeds N solves with seeds --seed .. --seed+N-1 (one solver run each; the scenarios and the model's samples differ
by seed) and ends with the means over them and their 95% t-intervals (agents_app.agents.intervals): NashConv, each
seat's value and the CFR gain. With --json and N > 1: {"runs": [...], "summary": {...}}.
"""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from agents_app.agents.dialogue import pipeline
from agents_app.agents.intervals import describe
from agents_app.models import SolverRun
from agents_app.solver_services import SolverRunError, create_solver_run, run_solver
from gameplay.engines.registry import create_game


class Command(BaseCommand):
    help = "Solve a dialogue game (CFR or PSRO over an instruction set) with a stored LLM agent generating the turns."

    def add_arguments(self, parser):
        parser.add_argument("--game", required=True)
        parser.add_argument("--agent", required=True, help="the LLM agent configuration that generates the turns")
        parser.add_argument("--solver", choices=["cfr", "psro"], default="cfr")
        parser.add_argument("--depth", type=int, default=2, help="decisions per dialogue in the tree")
        parser.add_argument("--llm-seeds", type=int, default=2, help="samples of the model per decision")
        parser.add_argument("--init-states", type=int, default=1, help="scenarios at the root")
        parser.add_argument("--iterations", type=int, default=100, help="CFR iterations")
        parser.add_argument("--psro-iterations", type=int, default=3)
        parser.add_argument("--instruction-set", default="",
                            help="default: the set the game declares for the solver, else its first")
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument("--seeds", type=int, default=1,
                            help="solve with seeds SEED .. SEED+N-1 and report means with 95%% t-intervals")
        parser.add_argument("--temperature", type=float, default=None,
                            help="sampling temperature of the generated turns (default: the agent's)")
        parser.add_argument("--judge-agent", default="", help="a judged game's judge model (default: its rule)")
        parser.add_argument("--options", default="{}", help="the game's options as JSON")
        parser.add_argument("--json", action="store_true", help="print the run as one JSON object")

    def handle(self, *args, **opts):
        try:
            game_options = json.loads(opts["options"])
        except json.JSONDecodeError as err:
            raise CommandError(f"--options is not JSON: {err}") from None
        if opts["seeds"] < 1:
            raise CommandError("--seeds must be at least 1")
        runs = []
        for seed in range(opts["seed"], opts["seed"] + opts["seeds"]):
            try:
                run = create_solver_run(
                    game_id=opts["game"], agent=opts["agent"], solver=opts["solver"], options=game_options,
                    instruction_set=opts["instruction_set"], depth=opts["depth"], llm_seeds=opts["llm_seeds"],
                    init_states=opts["init_states"], iterations=opts["iterations"],
                    psro_iterations=opts["psro_iterations"], seed=seed, judge_agent=opts["judge_agent"],
                    temperature=opts["temperature"],
                )
            except SolverRunError as err:
                raise CommandError(str(err)) from None
            runs.append(run_solver(run))
            if not opts["json"]:
                for line in report_lines(run):
                    self.stdout.write(line)
        done = [run for run in runs if run.status == SolverRun.Status.DONE]
        summary = pipeline.across_seeds([run.result for run in done]) if len(done) > 1 else None
        if opts["json"]:
            data = _as_json(runs[0]) if len(runs) == 1 else {"runs": [_as_json(run) for run in runs],
                                                               "summary": summary}
            self.stdout.write(json.dumps(data, sort_keys=True))
        elif summary is not None:
            for line in summary_lines(summary, [run.seed for run in done], create_game(opts["game"], game_options)):
                self.stdout.write(line)
        failed = [run for run in runs if run.status != SolverRun.Status.DONE]
        if failed:
            raise CommandError("; ".join(f"solver run {run.pk} failed: {run.error}" for run in failed))


def _as_json(run: SolverRun) -> dict:
    return {
        "run": run.pk, "status": run.status, "error": run.error, "model_calls": run.model_calls,
        "cache_hits": run.cache_hits, "seed": run.seed, "result": run.result,
    }


def _dist(dist: dict) -> str:
    return "  ".join(f"{name} {p:.4f}" for name, p in dist.items())


def report_lines(run: SolverRun) -> list[str]:
    lines = [
        f"solver run {run.pk}: {run.solver} on {run.game_id} with {run.agent.name} "
        f"(depth {run.depth}, llm seeds {run.llm_seeds}, init states {run.init_states}, seed {run.seed}"
        + (f", iterations {run.iterations})" if run.solver == "cfr" else f", psro iterations {run.psro_iterations})"),
        f"status: {run.status}" + (f" ({run.error})" if run.error else ""),
    ]
    result = run.result or {}
    if result:
        game = create_game(run.game_id, run.options)
        tree = result["tree"]
        lines.append(f"instruction set: {result['instruction_set']} ({', '.join(result['instructions'])})")
        what = "tree" if run.solver == "cfr" else "trees of every profile evaluated"
        lines.append(
            f"{what}: {tree['nodes']} nodes, {tree['decision_nodes']} decisions, {tree['infosets']} information "
            f"states, {tree['terminals']} leaves"
        )
        if run.solver == "cfr":
            lines.append("equilibrium (average CFR policy, reach-weighted per seat and message):")
            for key in sorted(result["equilibrium"], key=lambda k: tuple(int(x) for x in k.split(":"))[::-1]):
                seat, index = (int(x) for x in key.split(":"))
                lines.append(f"  {game.seat_name(seat)}, message {index + 1}: {_dist(result['equilibrium'][key])}")
            gain = result["cfr_gain"]
            if gain:
                seats = ", ".join(f"{game.seat_name(s)} {g:.6f}" for s, g in enumerate(gain["seats"]))
                lines.append(f"CFR gain: {seats}; mean {gain['mean']:.6f}")
            lines.append(f"NashConv: {result['nash_conv']:.6f}")
        else:
            for step in result["psro_history"]:
                mixture = dict(zip(step["instructions"], step["mixture"], strict=True))
                added = f" -> added {step['added']}" if step["added"] else ""
                lines.append(f"PSRO iteration {step['iteration']}: {_dist(mixture)}{added}")
            lines.append(f"equilibrium: {_dist(result['equilibrium']['meta'])}")
            if "values" in result:
                lines.append(f"meta-game value (both seats play the mixture): {result['values'][0]:.6f}; "
                             f"meta-game NashConv: {result['nash_conv']:.6f}")
        if run.solver == "cfr" and "values" in result:
            lines.append("values: " + ", ".join(f"{game.seat_name(s)} {v:.6f}" for s, v in enumerate(result["values"])))
        sampling = result.get("sampling")
        if sampling:
            temperature = "?" if sampling["temperature"] is None else f"{sampling['temperature']:g}"
            lines.append(f"sampling: {sampling['llm_seeds']} LLM seed(s) at temperature {temperature}, sampling seed "
                         f"{sampling['seed_parameter']}")
        lines.extend(f"WARNING: {warning}" for warning in result.get("warnings", []))
        lines.append(f"fallbacks: {len(result.get('fallbacks', []))}")
    lines.append(f"model calls: {run.model_calls}, cached replies: {run.cache_hits}, elapsed: {run.elapsed_s} s")
    return lines


def summary_lines(summary: dict, seeds: list[int], game) -> list[str]:
    """The means over the solver seeds, each beside its interval."""
    lines = [f"across {summary['seeds']} solver seeds ({', '.join(map(str, seeds))}); {summary['method']}:",
             f"  NashConv: {describe(summary['nash_conv'], '.6f')}"]
    lines += [f"  value {game.seat_name(seat)}: {describe(entry, '.6f')}"
              for seat, entry in enumerate(summary["values"])]
    if "cfr_gain" in summary:
        lines.append(f"  CFR gain (mean of the seats): {describe(summary['cfr_gain'], '.6f')}")
    if summary["solves_with_warnings"]:
        lines.append(f"  WARNING: {summary['solves_with_warnings']} of {summary['seeds']} solves warned (above)")
    return lines
