"""python manage.py spy_probes --agent NAME [--matches N] [--csv PATH]

Seed 002's theory-of-mind probes (section 4.3) of an agent's seats in stored finished Who is Spy matches. For each
seat the agent held, the match's log is replayed with the engine up to the first vote and the agent's model is shown
that seat's view then (its ``SeatView.text`` only, never the state) and asked:

- first-order: every player's keyword and identity, itself included: **self-identity** (spy or villager?),
  **1-word** (each other player's word) and **1-identity** (each other player's role), scored against the truth;
- second-order: what each other player guesses its keyword and identity to be: **2-word** and **2-identity**,
  scored against that player's own first-order answer about it where that seat was probed too (in this run or an
  earlier one, by any agent: probe the hosts first), else N/A.

An unreadable reply (or a failed request) counts as wrong and is noted. Every call is stored (EvalCall, task
spy_probes). Prints accuracies per role of the probed seat and metric; ``--csv`` writes one row per scored item.
"""

from __future__ import annotations

from collections import defaultdict

from django.core.management.base import BaseCommand, CommandError

from agents_app.agents.llm.spy_eval import (
    FIRST_ORDER,
    SECOND_ORDER,
    Asker,
    ProbeReplyError,
    parse_probe,
    probe_messages,
)
from agents_app.evaluations.services import new_run, store_exchange
from agents_app.evaluations.spy_selectors import finished_matches, seat_agents, views_before_first_vote
from agents_app.management.commands.spy_metrics import text_table, write_csv
from agents_app.models import EvalCall
from agents_app.selectors import agent_config, llm_settings
from gameplay.engines.who_is_spy.words import word_key
from gameplay.reads.selectors import game_of

TASK = "spy_probes"
METRICS = ("self-identity", "1-word", "1-identity", "2-word", "2-identity")
COLUMNS = ("run", "match", "seat", "agent", "role", "metric", "about", "answer", "truth", "correct", "note")


def same_word(a: str | None, b: str | None) -> bool:
    """Whether an answered word names the true one: compared as the engine compares words (letter case,
    punctuation, hyphens and spaces aside: "spider man" names "Spider-Man"), a plural's "s" aside too."""
    a, b = word_key(a or ""), word_key(b or "")
    return bool(a and b) and (a == b or a.rstrip("s") == b.rstrip("s"))


def stored_first_order(match, seat: int) -> dict | None:
    """The latest readable first-order answers of a seat of this match (any run, any agent), or None."""
    call = (EvalCall.objects.filter(task=TASK, purpose=FIRST_ORDER, match=match, seat=seat, parsed__isnull=False)
            .order_by("-created_at", "-id").first())
    return (call.parsed or {}).get("answers") if call is not None else None


class Command(BaseCommand):
    help = "Seed 002's theory-of-mind probes of an agent's Who is Spy seats, just before the first vote."

    def add_arguments(self, parser):
        parser.add_argument("--agent", required=True, help="the LLM agent configuration to probe")
        parser.add_argument("--matches", type=int, default=10, help="at most this many matches (oldest first)")
        parser.add_argument("--csv", dest="csv_path", help="write one row per scored item to this CSV file")

    def handle(self, *args, **options):
        name, limit = options["agent"], options["matches"]
        config = agent_config(name)
        if config is None:
            raise CommandError(f"{name!r} is not a stored LLM agent configuration")
        if limit < 1:
            raise CommandError("--matches must be at least 1")
        asker, run = Asker(llm_settings(config)), new_run(TASK)
        probed = []  # (match, seat, final measures, first-order answers or None, second-order answers or None, notes)
        used = 0
        for match, final in finished_matches():
            seats = [s for s, agent in seat_agents(match).items() if agent == name]
            if not seats:
                continue
            before = views_before_first_vote(match)
            if before is None:
                continue
            used += 1
            for seat in sorted(seats):
                first, second, notes = self._probe(asker, run, name, match, before, seat)
                probed.append((match, seat, final, before, first, second, notes))
            if used >= limit:
                break
        rows = []
        for match, seat, final, before, first, second, notes in probed:
            rows += self._score(run, name, match, seat, final, before, first, second, notes)
        self._report(rows, used, run)
        if options.get("csv_path"):
            write_csv(options["csv_path"], COLUMNS, rows)
            self.stdout.write(f"Wrote {len(rows)} row(s) to {options['csv_path']}")

    def _probe(self, asker, run, name, match, before, seat):
        game = game_of(match)
        names = [game.seat_name(s) for s in range(game.num_seats)]
        me = names[seat]
        text = before[seat].text  # the probed seat's own view: the only one its prompt is made of
        results, notes = {}, {}
        for kind in (FIRST_ORDER, SECOND_ORDER):
            about = names if kind == FIRST_ORDER else [n for n in names if n != me]
            messages = probe_messages(kind, game.rules.summary, text, names, me, game.options["spies"])
            exchange = asker.ask(messages, kind, json_mode=True, details={"probe": kind})
            parsed, note = None, exchange.problem
            if not note:
                try:
                    answers, problems = parse_probe(exchange.text, about)
                    parsed = {"answers": answers, "notes": problems}
                    note = "; ".join(problems)
                except ProbeReplyError as err:
                    note = f"unparsable reply: {err}"
            store_exchange(task=TASK, run=run, agent_name=name, exchange=exchange, match=match, seat=seat,
                           parsed=parsed, note=note, details={"probe": kind})
            results[kind] = parsed["answers"] if parsed else None
            notes[kind] = f"unreadable: {note}" if parsed is None else ""
        return results[FIRST_ORDER], results[SECOND_ORDER], notes

    def _score(self, run, name, match, seat, final, before, first, second, notes) -> list[dict]:
        game = game_of(match)
        names = [game.seat_name(s) for s in range(game.num_seats)]
        role = lambda s: "spy" if final[s]["is_spy"] else "villager"  # noqa: E731
        word = lambda s: before[s].facts["word"]  # noqa: E731  (seat s's own word: scoring only, never shown)
        base = {"run": run, "match": match.pk, "seat": seat, "agent": name, "role": role(seat)}
        rows = []

        def add(metric, about, answer, truth, correct, note=""):
            rows.append({**base, "metric": metric, "about": about, "answer": answer or "", "truth": truth or "",
                         "correct": "" if correct is None else int(bool(correct)), "note": note})

        first_note, second_note = notes[FIRST_ORDER], notes[SECOND_ORDER]
        mine = (first or {}).get(names[seat], {})
        add("self-identity", names[seat], mine.get("identity"), role(seat), mine.get("identity") == role(seat),
            first_note or ("" if mine.get("identity") else "no identity given"))
        for other in range(game.num_seats):
            if other == seat:
                continue
            answer = (first or {}).get(names[other], {})
            add("1-word", names[other], answer.get("word"), word(other), same_word(answer.get("word"), word(other)),
                first_note or ("" if answer.get("word") else "no word given"))
            add("1-identity", names[other], answer.get("identity"), role(other),
                answer.get("identity") == role(other), first_note or ("" if answer.get("identity") else
                                                                       "no identity given"))
            theirs = stored_first_order(match, other)
            their_view = (theirs or {}).get(names[seat]) or {}
            guess = (second or {}).get(names[other], {})
            for metric, key in (("2-word", "word"), ("2-identity", "identity")):
                truth = their_view.get(key)
                if truth is None:
                    why = "not probed" if theirs is None else "its first-order answer gives none"
                    add(metric, names[other], guess.get(key), None, None, f"N/A: {names[other]} {why}")
                    continue
                right = same_word(guess.get(key), truth) if key == "word" else guess.get(key) == truth
                add(metric, names[other], guess.get(key), truth, right,
                    second_note or ("" if guess.get(key) else f"no {key} given"))
        return rows

    def _report(self, rows, used, run):
        if not rows:
            self.stdout.write("No finished who_is_spy match with a vote where the agent held a seat.")
            return
        seats = {(r["match"], r["seat"]) for r in rows}
        self.stdout.write(f"Theory-of-mind probes ({run}): {len(seats)} seat(s) in {used} match(es), observation "
                          "just before the first vote.")
        groups = defaultdict(list)
        for row in rows:
            groups[(row["role"], row["metric"])].append(row)
        header = ("Role", "Metric", "Scored", "Correct", "Accuracy", "N/A", "Unreadable")
        cells = [header]
        for role in ("spy", "villager"):
            for metric in METRICS:
                items = groups.get((role, metric), [])
                if not items:
                    continue
                scored = [r for r in items if r["correct"] != ""]
                correct = sum(r["correct"] for r in scored)
                accuracy = f"{correct / len(scored):.2f}" if scored else "N/A"
                unreadable = sum(1 for r in items if r["note"].startswith("unreadable"))
                cells.append((role, metric, str(len(scored)), str(correct), accuracy, str(len(items) - len(scored)),
                              str(unreadable)))
        self.stdout.write(text_table(header, cells[1:], left=2))
