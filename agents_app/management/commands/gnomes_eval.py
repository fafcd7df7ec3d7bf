"""python manage.py gnomes_eval --ego comm|mute|both --partner simulated --seeds 30 [--rounds 1,2,3,4,5]
[--budget N] [--workers 2] [--json]

Plays Gnomes at Night rounds between the simulated partner (seat 0) and a planning agent (seat 1) and reports,
per round and overall: mean turns to the treasure (an unsuccessful round counts as the turn cap), how many
rounds hit the cap (censored) and the mean turns of the others, the success rate with its 95% Wilson interval,
messages sent by each side and the agent's mean think time; each mean with its 95% t-interval across the seeds
(``ci95``; a seed that played several rounds, or many decisions, counts once: agents_app.agents.intervals). The
mute control plays with chat off for both seats (the report's "chat" says so), as a study's mute condition does.
``--ego both`` runs the communicating and the mute agent on the same seeds and says which needed fewer turns.
Seeds are 0 .. N-1.

JSON (--json): one object {"ego", "seeds", "budget", "turn_cap", "note", "rounds": {"1": ...}, "overall": ...};
with a single ego each entry is that ego's summary, with both it is {"comm": ..., "mute": ...,
"fewer_turns": "comm" | "mute" | "tie"}.
"""

from __future__ import annotations

import json
import multiprocessing
import time

from django.core.management.base import BaseCommand, CommandError

from agents_app.agents.gnomes.evaluation import PARTNERS, RoundResult, chat_for, play_job, summarise
from agents_app.agents.gnomes.tuning import TUNING_SEEDS, TUNING_SEEDS_TEXT
from agents_app.agents.intervals import METHOD

TURN_CAP = 200
NOTE = (
    f"mean_turns counts an unsuccessful round as the turn cap ({TURN_CAP} turns); 'censored' says how many rounds "
    "hit it, 'mean_turns_finished' averages the others alone; success_ci95 is a 95% Wilson interval; ci95 gives "
    f"each mean its {METHOD} (the seeds are the draws: a seed's rounds and decisions count once, cluster-robust)"
)


class Command(BaseCommand):
    help = "Evaluate the Gnomes at Night agents with the simulated partner."

    def add_arguments(self, parser):
        parser.add_argument("--ego", choices=("comm", "mute", "both"), default="both")
        parser.add_argument(
            "--partner", choices=(*PARTNERS, "simulated"), default="template",
            help="template: plain lines the parser reads as meant; freeform: lines people type (a labelled set "
            "the parser was not written from); unreliable: freeform, and it sometimes lies or ignores requests "
            "(simulated = template)",
        )
        parser.add_argument("--first-seed", type=int, default=0,
                            help=f"evaluation seeds are FIRST .. FIRST+N-1; tuning uses {TUNING_SEEDS_TEXT}")
        parser.add_argument("--seeds", type=int, default=30)
        parser.add_argument("--rounds", default="1,2,3,4,5")
        parser.add_argument("--budget", type=int, default=1000, help="planner iterations per move")
        parser.add_argument("--workers", type=int, default=2, help="processes (1 = run in this process)")
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, **options):
        rounds = _parse_rounds(options["rounds"])
        if options["seeds"] < 1 or options["budget"] < 1 or options["workers"] < 1:
            raise CommandError("--seeds, --budget and --workers must be positive")
        egos = ("comm", "mute") if options["ego"] == "both" else (options["ego"],)
        partner = "template" if options["partner"] == "simulated" else options["partner"]
        seeds = range(options["first_seed"], options["first_seed"] + options["seeds"])
        if overlap := set(seeds) & set(TUNING_SEEDS):
            raise CommandError(
                f"seeds {min(overlap)}..{max(overlap)} are tuning seeds ({TUNING_SEEDS_TEXT}): evaluate on others"
            )
        jobs = [(ego, r, seed, options["budget"], partner) for ego in egos for r in rounds for seed in seeds]
        started = time.perf_counter()
        results = _run(jobs, options["workers"])
        elapsed = time.perf_counter() - started
        report = build_report(options["ego"], egos, rounds, options["seeds"], options["budget"], jobs, results)
        report["partner"] = partner
        report["seed_range"] = [seeds.start, seeds.stop - 1]
        if options["json"]:
            self.stdout.write(json.dumps(report, indent=2))
            return
        self.stdout.write(render_text(report, egos, rounds))
        self.stdout.write(_conversation_line(report, egos))
        self.stdout.write(f"({len(jobs)} rounds played in {elapsed:.0f} s with {options['workers']} worker(s))")


def _parse_rounds(text: str) -> list[int]:
    try:
        rounds = sorted({int(part) for part in text.split(",") if part.strip()})
    except ValueError:
        raise CommandError(f"--rounds must be numbers like 1,2,3, not {text!r}") from None
    if not rounds or any(r not in (1, 2, 3, 4, 5) for r in rounds):
        raise CommandError("--rounds must name rounds between 1 and 5")
    return rounds


def _run(jobs: list[tuple], workers: int) -> list[RoundResult]:
    if workers == 1 or len(jobs) == 1:
        return [play_job(job) for job in jobs]
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        return pool.map(play_job, jobs, chunksize=1)


def build_report(ego: str, egos, rounds, seeds: int, budget: int, jobs, results: list[RoundResult]) -> dict:
    by_key: dict[tuple[str, int], list[RoundResult]] = {}
    for (kind, round_number, *_), result in zip(jobs, results, strict=True):
        by_key.setdefault((kind, round_number), []).append(result)

    def entry(groups: dict[str, list[RoundResult]]) -> dict:
        if len(egos) == 1:
            return summarise(groups[egos[0]])
        summaries = {kind: summarise(groups[kind]) for kind in egos}
        return {**summaries, "fewer_turns": _fewer(summaries["comm"], summaries["mute"])}

    per_round = {str(r): entry({kind: by_key[(kind, r)] for kind in egos}) for r in rounds}
    overall = entry({kind: [x for r in rounds for x in by_key[(kind, r)]] for kind in egos})
    report = {"ego": ego, "seeds": seeds, "budget": budget, "turn_cap": TURN_CAP, "note": NOTE,
              # The mute control plays with chat off for both seats, as a study's mute condition does.
              "chat": {kind: "on" if chat_for(kind) else "off" for kind in egos}}
    report.update(rounds=per_round, overall=overall)
    if len(egos) == 2:
        report["comm_fewer_turns_in_rounds"] = sum(e["fewer_turns"] == "comm" for e in per_round.values())
    return report


def _fewer(comm: dict, mute: dict) -> str:
    if comm["mean_turns"] == mute["mean_turns"]:
        return "tie"
    return "comm" if comm["mean_turns"] < mute["mean_turns"] else "mute"


def render_text(report: dict, egos, rounds) -> str:
    chat = ", ".join(f"{kind}: chat {setting}" for kind, setting in report["chat"].items())
    lines = [
        f"Gnomes at Night, {report['partner']} partner, seeds {report['seed_range'][0]}..{report['seed_range'][1]} "
        f"({report['seeds']}), budget {report['budget']} iterations/move ({chat}); "
        f"{report['note']}."
    ]
    header = f"{'round':>7} " + " ".join(
        f"| {kind + ' turns (95% CI)':>23} {'success (95% CI)':>17} {'capped':>6} "
        f"{'msgs agent (95% CI)':>21} {'msgs partner (95% CI)':>21} {'think ms (95% CI)':>23} "
        for kind in egos
    )
    if len(egos) == 2:
        header += "| fewer turns"
    lines.append(header)
    for label, entry in [*((str(r), report["rounds"][str(r)]) for r in rounds), ("overall", report["overall"])]:
        stats = [entry] if len(egos) == 1 else [entry[kind] for kind in egos]
        row = f"{label:>7} " + " ".join(
            f"| {_with_ci(s, 'mean_turns'):>23} {s['success_rate']:>5.0%} "
            f"[{s['success_ci95'][0]:.2f}-{s['success_ci95'][1]:.2f}] "
            f"{s['censored']:>6} "
            f"{_with_ci(s, 'mean_messages_agent'):>21} {_with_ci(s, 'mean_messages_partner'):>21} "
            f"{_with_ci(s, 'mean_think_ms'):>23} "
            for s in stats
        )
        if len(egos) == 2:
            row += f"| {entry['fewer_turns']}"
        lines.append(row)
    if len(egos) == 2:
        lines.append(
            f"comm needs fewer turns than mute in {report['comm_fewer_turns_in_rounds']} of {len(rounds)} rounds"
        )
    return "\n".join(lines)


def _with_ci(stats: dict, name: str) -> str:
    """``mean [low-high]`` (its 95% t-interval across seeds), or ``mean [-]`` with a single seed."""
    low, high = stats["ci95"][name]
    interval = "-" if low is None else f"{low:.1f}-{high:.1f}"
    return f"{stats[name]:.1f} [{interval}]"


def _conversation_line(report: dict, egos) -> str:
    if "comm" not in egos:
        return "(the mute agent never speaks)"
    overall = report["overall"] if len(egos) == 1 else report["overall"]["comm"]
    ratio = overall["agent_per_partner_message"]
    return (
        f"comm agent lines per partner line: {'-' if ratio is None else f'{ratio:.2f}'}; "
        f"lines repeated without a partner line between: {overall['repeated_agent_lines']}"
    )
