"""python manage.py spy_metrics [--agent NAME] [--csv PATH]

Seed 002's SpyGame metrics over the stored finished Who is Spy matches, per agent and role (as spy, as villager):
games (seats played), Win (the share of them its side won), Round (mean rounds the seat took part in, the round it
went out in included: the engine's ``rounds_played``, the seed's "rounds the guest survives" as SpyGame counts them)
and Voted (mean votes received per round played: ``votes_received`` over ``rounds_played``). Completed (CSV
``rounds_completed``) is the mean of the engine's ``rounds_survived``, the rounds finished still in the game, which
this command reported as Round before: it leaves out the round a seat goes out in, so at 4 players without ties a
lost game counts at most 1 round and the seed's Win 0.16 with Round 1.99 could not come out of it.

Everything comes from the final measures through the engine's declared measures. ``--agent NAME`` keeps only
matches where that agent is a spy (the seed's guest setting: one evaluated model as the spy among host models; the
``spy_run`` command plays such a run). ``--csv PATH`` writes the table too.
"""

from __future__ import annotations

import csv
from collections import defaultdict

from django.core.management.base import BaseCommand, CommandError

from agents_app.evaluations.spy_selectors import finished_matches, outcomes

COLUMNS = ("agent", "role", "games", "win", "round", "voted", "rounds_completed")


def metric_rows(agent_as_spy: str | None = None) -> tuple[list[dict], int]:
    """One row per (agent, role), sorted, and the number of matches counted."""
    groups = defaultdict(list)
    counted = 0
    for match, measures in finished_matches():
        seats = outcomes(match, measures)
        if agent_as_spy is not None and not any(s.is_spy and s.agent == agent_as_spy for s in seats):
            continue
        counted += 1
        for seat in seats:
            groups[(seat.agent, seat.role)].append(seat)
    rows = []
    for (agent, role), seats in sorted(groups.items(), key=lambda item: (item[0][0], item[0][1] != "spy")):
        n = len(seats)
        rows.append({
            "agent": agent, "role": role, "games": n,
            "win": round(sum(s.won for s in seats) / n, 3),
            "round": round(sum(s.rounds_played for s in seats) / n, 3),
            "voted": round(sum(s.votes_received / max(1, s.rounds_played) for s in seats) / n, 3),
            "rounds_completed": round(sum(s.rounds_survived for s in seats) / n, 3),
        })
    return rows, counted


def text_table(header, rows, left: int = 2) -> str:
    """Aligned columns (the first ``left`` flush left, the numbers right) under a rule."""
    cells = [tuple(header), *(tuple(str(c) for c in row) for row in rows)]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    lines = ["  ".join(c.ljust(w) if i < left else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths, strict=True)))
             for row in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def format_table(rows: list[dict]) -> str:
    return text_table(("Agent", "Role", "Games", "Win", "Round", "Voted", "Completed"),
                      [(r["agent"], r["role"], r["games"], f"{r['win']:.2f}", f"{r['round']:.2f}", f"{r['voted']:.2f}",
                        f"{r['rounds_completed']:.2f}") for r in rows])


def write_csv(path: str, columns, rows: list[dict]) -> None:
    try:
        with open(path, "w", newline="", encoding="utf-8") as handle:
            writer = csv.DictWriter(handle, fieldnames=list(columns))
            writer.writeheader()
            writer.writerows(rows)
    except OSError as err:
        raise CommandError(f"cannot write {path}: {err}") from None


class Command(BaseCommand):
    help = "Seed 002's Who is Spy metrics (Win, Round, Voted) per agent and role over stored finished matches."

    def add_arguments(self, parser):
        parser.add_argument("--agent", help="only matches where this agent is a spy (the seed's guest setting)")
        parser.add_argument("--csv", dest="csv_path", help="also write the table to this CSV file")

    def handle(self, *args, **options):
        rows, counted = metric_rows(options.get("agent"))
        scope = f" where {options['agent']} is a spy" if options.get("agent") else ""
        if not rows:
            self.stdout.write(f"No finished who_is_spy matches{scope}.")
        else:
            self.stdout.write(f"Who is Spy: {counted} finished match(es){scope}. Win: share of games won; Round: mean "
                              "rounds played (the round a seat went out in included, as seed 002 counts); Voted: "
                              "mean votes received per round played; Completed: mean rounds finished still in the "
                              "game.")
            self.stdout.write(format_table(rows))
        if options.get("csv_path"):
            write_csv(options["csv_path"], COLUMNS, rows)
            self.stdout.write(f"Wrote {len(rows)} row(s) to {options['csv_path']}")
