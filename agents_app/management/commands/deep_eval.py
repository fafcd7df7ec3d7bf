"""python manage.py deep_eval --agent NAME --judge NAME [--words FILE] [--distractors K] [--csv PATH] [--limit N]
[--seed S]

DEEP, seed 002's Dual Expression Evaluation Program (section 2.1). For each target word the agent's model writes an
**aggressive** description (precise, at most 100 words) and a **conservative** one (it first lists candidate words
sharing attributes with the target, then describes the target in at most 10 words so that it fits them all). A judge
model scores 1-5 how well each description matches the target and K distractor words (the target's Who is Spy pair
word plus random words of the pair list, seeded by --seed and the word). Good: aggressive target high and
distractors low; conservative target lower and distractors higher.

Words: ``--words FILE`` (one word a line, or a JSON list of words or of pairs), else the words of
fixtures/who_is_spy_pairs.json in order; the first ``--limit`` are used. A judge reply that is not a number from 1 to
5 is asked again once, then recorded as missing (so is every score of a description that never came). Every call is
stored (EvalCall, task deep_eval). Prints the mean target and distractor scores per mode; ``--csv`` writes one row
per (word, mode, scored word, score).
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from agents_app.agents.llm.spy_eval import (
    AGGRESSIVE,
    AGGRESSIVE_WORDS,
    CONSERVATIVE,
    CONSERVATIVE_WORDS,
    JUDGE_CORRECTION,
    Asker,
    aggressive_messages,
    candidate_words,
    candidates_messages,
    clean_description,
    conservative_request,
    judge_messages,
    parse_score,
)
from agents_app.evaluations.services import new_run, store_exchange
from agents_app.management.commands.spy_metrics import text_table, write_csv
from agents_app.selectors import agent_config, llm_settings
from gameplay.engines.who_is_spy.words import word_pairs

TASK = "deep_eval"
COLUMNS = ("word", "mode", "scored_word", "kind", "score", "description", "note")


def read_words(path: str | None) -> tuple[list[str], dict[str, str]]:
    """The target words in order and each word's pair partner (from the pair list, and from a pairs file given)."""
    pairs = [tuple(p) for p in word_pairs()]
    words: list[str] = []
    if path is None:
        words = [w for pair in pairs for w in pair]
    else:
        try:
            raw = Path(path).read_text(encoding="utf-8")
        except OSError as err:
            raise CommandError(f"cannot read {path}: {err}") from None
        if path.endswith(".json"):
            try:
                data = json.loads(raw)
            except ValueError as err:
                raise CommandError(f"{path} is not JSON: {err}") from None
            for item in data if isinstance(data, list) else []:
                if isinstance(item, list | tuple) and len(item) == 2:
                    pair = (str(item[0]).strip().lower(), str(item[1]).strip().lower())
                    pairs.append(pair)
                    words += list(pair)
                elif isinstance(item, str):
                    words.append(item.strip().lower())
        else:
            words = [line.strip().lower() for line in raw.splitlines() if line.strip() and not line.startswith("#")]
    partners = {}
    for a, b in pairs:
        partners.setdefault(a, b)
        partners.setdefault(b, a)
    unique = list(dict.fromkeys(w for w in words if w))
    if not unique:
        raise CommandError("no target words")
    return unique, partners


def distractors_for(word: str, partners: dict[str, str], pool: list[str], k: int, seed: int) -> list[str]:
    chosen = [partners[word]] if word in partners and k > 0 else []
    rest = sorted(set(pool) - {word, *chosen})
    rng = random.Random(f"{seed}:{word}")
    return chosen + rng.sample(rest, min(len(rest), k - len(chosen)))


class Command(BaseCommand):
    help = "DEEP (seed 002): aggressive and conservative word descriptions scored by a judge model."

    def add_arguments(self, parser):
        parser.add_argument("--agent", required=True, help="the LLM agent configuration that describes")
        parser.add_argument("--judge", required=True, help="the LLM agent configuration that scores")
        parser.add_argument("--words", help="target words: one a line, or a JSON list of words or pairs")
        parser.add_argument("--distractors", type=int, default=3, help="distractor words per target (K)")
        parser.add_argument("--limit", type=int, default=10, help="the first N target words")
        parser.add_argument("--seed", type=int, default=0, help="seed of the random distractors")
        parser.add_argument("--csv", dest="csv_path", help="write one row per score to this CSV file")

    def handle(self, *args, **options):
        askers = {}
        for role in ("agent", "judge"):
            config = agent_config(options[role])
            if config is None:
                raise CommandError(f"{options[role]!r} is not a stored LLM agent configuration")
            askers[role] = Asker(llm_settings(config))
        if options["limit"] < 1 or options["distractors"] < 0:
            raise CommandError("--limit must be at least 1 and --distractors at least 0")
        words, partners = read_words(options.get("words"))
        pool = list(dict.fromkeys([w for pair in word_pairs() for w in pair] + words))
        run = new_run(TASK)
        self.run, self.names = run, {role: options[role] for role in askers}
        rows = []
        for word in words[: options["limit"]]:
            distractors = distractors_for(word, partners, pool, options["distractors"], options["seed"])
            for mode in (AGGRESSIVE, CONSERVATIVE):
                description, note = self._describe(askers["agent"], word, mode)
                for scored, kind in [(word, "target")] + [(d, "distractor") for d in distractors]:
                    score, why = (None, "no description") if description is None else \
                        self._judge(askers["judge"], word, mode, description, scored)
                    rows.append({"word": word, "mode": mode, "scored_word": scored, "kind": kind,
                                 "score": "" if score is None else score, "description": description or "",
                                 "note": "; ".join(p for p in (note, why) if p)})
        self._report(rows, run)
        if options.get("csv_path"):
            write_csv(options["csv_path"], COLUMNS, rows)
            self.stdout.write(f"Wrote {len(rows)} row(s) to {options['csv_path']}")

    def _store(self, role, exchange, parsed, note, details):
        store_exchange(task=TASK, run=self.run, agent_name=self.names[role], exchange=exchange, parsed=parsed,
                       note=note, details=details)

    def _describe(self, asker, word, mode) -> tuple[str | None, str]:
        """The description as judged (None: none came) and a note."""
        details = {"word": word, "mode": mode}
        if mode == AGGRESSIVE:
            messages, limit = aggressive_messages(word), AGGRESSIVE_WORDS
        else:
            limit = CONSERVATIVE_WORDS
            first = asker.ask(candidates_messages(word), "candidates", details=details)
            candidates = candidate_words(first.text)
            self._store("agent", first, {"candidates": candidates} if first.text else None, first.problem, details)
            if not first.text:
                return None, f"no candidate words: {first.problem or 'empty reply'}"
            messages = [*candidates_messages(word), {"role": "assistant", "content": first.text},
                        conservative_request(word)]
        exchange = asker.ask(messages, mode, details=details)
        description, note = clean_description(exchange.text, limit)
        if not description:
            note = f"no description: {exchange.problem or 'empty reply'}"
            self._store("agent", exchange, None, note, details)
            return None, note
        self._store("agent", exchange, {"description": description}, note, details)
        return description, note

    def _judge(self, asker, word, mode, description, scored) -> tuple[int | None, str]:
        details = {"word": word, "mode": mode, "scored_word": scored}
        messages = judge_messages(description, scored)
        exchange = asker.ask(messages, "judge", details={**details, "attempt": 1})
        score = parse_score(exchange.text)
        if score is None:  # asked again once: after the bad reply with a correction, or afresh after a failure
            again = messages + ([{"role": "assistant", "content": exchange.text},
                                 {"role": "user", "content": JUDGE_CORRECTION}] if exchange.text else [])
            first_problem = exchange.problem or f"not a score 1-5: {exchange.text[:60]!r}"
            if exchange.calls and not exchange.problem:  # the bad reply's own record says why it was asked again
                exchange.calls[-1] = replace(exchange.calls[-1], error=first_problem)
            asker.ask(again, "judge", details={**details, "attempt": 2}, exchange=exchange)
            score = parse_score(exchange.text)
            if score is None:
                last = exchange.problem or f"not a score 1-5: {exchange.text[:60]!r}"
                note = f"missing: first reply {first_problem}; re-asked: {last}"
                self._store("judge", exchange, None, note, details)
                return None, note
        self._store("judge", exchange, {"score": score}, "", details)
        return score, ""

    def _report(self, rows, run):
        words = len({r["word"] for r in rows})
        self.stdout.write(f"DEEP ({run}): {words} target word(s), agent {self.names['agent']}, judge "
                          f"{self.names['judge']}. Scores 1-5 (mean over judged); good: aggressive target high and "
                          "distractor low, conservative target lower and distractor higher.")
        header = ("Mode", "Target", "Distractor", "Judged", "Missing")
        cells = [header]
        for mode in (AGGRESSIVE, CONSERVATIVE):
            items = [r for r in rows if r["mode"] == mode]
            means = []
            for kind in ("target", "distractor"):
                scores = [r["score"] for r in items if r["kind"] == kind and r["score"] != ""]
                means.append(f"{sum(scores) / len(scores):.2f}" if scores else "N/A")
            judged = sum(1 for r in items if r["score"] != "")
            cells.append((mode, *means, str(judged), str(len(items) - judged)))
        self.stdout.write(text_table(header, cells[1:], left=1))
