"""python manage.py gnomes_intents [--set FILE] [--llm] [--json] [--show-errors]

Measures the Gnomes at Night intent parsers (seeds/003 §4.2) on a labelled set of partner messages: overall
accuracy, precision and recall per flag (NONE included), the confusion matrix and the confusions behind the
errors. The rule-based parser is always measured; the
LLM parser too with --llm, or whenever GNOMES_LLM_BASE_URL / OPENAI_BASE_URL names an endpoint.
"""

from __future__ import annotations

import json
import math
import os
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings as django_settings
from django.core.management.base import BaseCommand, CommandError

from agents_app.agents.gnomes.flags import Flag
from agents_app.agents.gnomes.intents import IntentParser, RuleBasedParser
from agents_app.agents.gnomes.llm import LLMParser, settings_from_env
from agents_app.agents.llm.client import ChatCaller, make_openai_client

DEFAULT_SET = "fixtures/gnomes/intents.jsonl"


@dataclass
class Score:
    """How one parser did on the set."""

    parser: str
    total: int = 0
    correct: int = 0
    support: Counter = field(default_factory=Counter)
    hits: Counter = field(default_factory=Counter)
    predicted: Counter = field(default_factory=Counter)  # flag -> messages parsed as it
    confusions: Counter = field(default_factory=Counter)  # (expected, parsed) -> count
    errors: list[tuple[str, Flag, Flag]] = field(default_factory=list)
    fallbacks: int | None = None  # LLM parser only: replies answered by the rules instead
    parsed: list[Flag] = field(default_factory=list)  # this parser's flag per message, in set order
    agreed: int | None = None  # LLM parser only: messages where it gave the rule-based parser's flag

    def precision(self, flag: Flag) -> float | None:
        """Of the messages parsed as ``flag``, the share labelled ``flag``; None if none was parsed so."""
        return self.hits[flag] / self.predicted[flag] if self.predicted[flag] else None

    def recall(self, flag: Flag) -> float | None:
        return self.hits[flag] / self.support[flag] if self.support[flag] else None

    def matrix(self) -> list[list[int]]:
        return [
            [self.hits[e] if e is p else self.confusions[(e, p)] for p in Flag] for e in Flag
        ]

    @property
    def accuracy(self) -> float:
        return self.correct / self.total if self.total else 0.0

    def as_dict(self) -> dict:
        return {
            "parser": self.parser,
            "total": self.total,
            "correct": self.correct,
            "accuracy": round(self.accuracy, 4),
            "per_flag": {
                flag.value: {
                    "support": self.support[flag],
                    "predicted": self.predicted[flag],
                    "correct": self.hits[flag],
                    "precision": _round(self.precision(flag)),
                    "recall": _round(self.recall(flag)),
                }
                for flag in Flag
            },
            # Rows: the labelled flag; columns: the parsed flag, both in "labels" order (NONE included).
            "confusion_matrix": {"labels": [f.value for f in Flag], "rows": self.matrix()},
            "confusions": [
                {"expected": e.value, "parsed": p.value, "count": n} for (e, p), n in self.confusions.most_common()
            ],
            "errors": [{"text": t, "expected": e.value, "parsed": p.value} for t, e, p in self.errors],
            "fallbacks": self.fallbacks,
            # A valid but wrong flag is no failure, so a weak model can look healthy: how often it agrees with the
            # rules says more, and needs no labels.
            "agreement_with_rules": None if self.agreed is None else round(self.agreed / self.total, 4),
        }


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{value:.1%}"


def load_set(path: Path) -> list[tuple[str, Flag]]:
    """The labelled messages of a JSON-lines file; header objects carrying "_comment" are skipped."""
    examples = []
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as err:
        raise CommandError(f"cannot read {path}: {err}") from None
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            if "_comment" in row:
                continue
            examples.append((str(row["text"]), Flag(row["flag"])))
        except (ValueError, KeyError, TypeError) as err:
            raise CommandError(f"{path}:{number}: not a {{text, flag}} object ({err})") from None
    if not examples:
        raise CommandError(f"{path} holds no labelled messages")
    return examples


def measure(
    name: str, parser: IntentParser, examples: list[tuple[str, Flag]], reference: list[Flag] | None = None
) -> Score:
    """Score ``parser`` on the set; with ``reference`` (the rule-based parser's flags), count the agreement too."""
    score = Score(name, fallbacks=0 if isinstance(parser, LLMParser) else None)
    if reference is not None:
        score.agreed = 0
    for i, (text, expected) in enumerate(examples):
        parsed = parser.parse(text)
        score.parsed.append(parsed)
        if reference is not None and parsed is reference[i]:
            score.agreed += 1
        score.total += 1
        score.support[expected] += 1
        score.predicted[parsed] += 1
        if parsed is expected:
            score.correct += 1
            score.hits[expected] += 1
        else:
            score.confusions[(expected, parsed)] += 1
            score.errors.append((text, expected, parsed))
        if isinstance(parser, LLMParser) and parser.last_used_fallback:
            score.fallbacks += 1
    return score


class Command(BaseCommand):
    help = "Accuracy of the Gnomes at Night intent parsers on a labelled message set."

    def add_arguments(self, parser):
        parser.add_argument("--set", default=DEFAULT_SET, help=f"JSON lines of {{text, flag}} (default {DEFAULT_SET})")
        parser.add_argument("--llm", action="store_true", help="also measure the LLM parser (needs an endpoint)")
        parser.add_argument("--json", action="store_true", help="print one JSON object")
        parser.add_argument("--show-errors", action="store_true", help="list every misparsed message")

    def handle(self, *args, **opts):
        path = Path(opts["set"])
        if not path.is_absolute() and not path.exists():
            path = Path(django_settings.BASE_DIR) / path  # so the default works from any working directory
        examples = load_set(path)

        scores = [measure("Rule-based", RuleBasedParser(), examples)]
        llm_settings = settings_from_env(os.environ)
        if opts["llm"] and llm_settings is None:
            raise CommandError("--llm needs an endpoint: set GNOMES_LLM_BASE_URL (or OPENAI_BASE_URL)")
        if llm_settings is not None:
            # The same client code as the agent's; a whole set is one long "decision": no overall deadline.
            caller = ChatCaller(make_openai_client(llm_settings), llm_settings, budget_s=math.inf)
            llm_parser = LLMParser(caller)
            scores.append(measure(
                f"LLM ({llm_settings.model} at {llm_settings.display_url})", llm_parser, examples,
                reference=scores[0].parsed,
            ))

        if opts["json"]:
            report = {"set": str(path), "messages": len(examples), "scores": [s.as_dict() for s in scores]}
            self.stdout.write(json.dumps(report, indent=2, ensure_ascii=False))
            return
        self.stdout.write(f"Intent set: {path} ({len(examples)} messages)")
        for score in scores:
            self.stdout.write("")
            self._print_score(score, opts["show_errors"])

    def _print_score(self, score: Score, show_errors: bool) -> None:
        line = f"{score.parser} parser: {score.correct}/{score.total} correct ({score.accuracy:.1%})"
        if score.fallbacks is not None:
            line += f"; {score.fallbacks} of {score.total} replies fell back to the rule-based parser"
        if score.agreed is not None:
            share = score.agreed / score.total
            line += f"; agrees with the rule-based parser on {score.agreed}/{score.total} ({share:.1%})"
        self.stdout.write(line)
        self.stdout.write(f"  {'flag':<8} {'support':>7} {'parsed':>7} {'correct':>7} {'precision':>9} {'recall':>7}")
        for flag in Flag:
            precision, recall = score.precision(flag), score.recall(flag)
            self.stdout.write(
                f"  {flag.value:<8} {score.support[flag]:>7} {score.predicted[flag]:>7} {score.hits[flag]:>7} "
                f"{_percent(precision):>9} {_percent(recall):>7}"
            )
        self.stdout.write("  confusion matrix (rows: labelled flag, columns: parsed flag):")
        self.stdout.write("  " + " " * 8 + "".join(f"{f.value[:7]:>8}" for f in Flag))
        for flag, row in zip(Flag, score.matrix(), strict=True):
            self.stdout.write(f"  {flag.value:<8}" + "".join(f"{n:>8}" for n in row))
        if score.confusions:
            pairs = ", ".join(f"{e.value}->{p.value} x{n}" for (e, p), n in score.confusions.most_common())
            self.stdout.write(f"  confusions (expected->parsed): {pairs}")
        else:
            self.stdout.write("  confusions: none")
        if show_errors:
            for text, expected, parsed in score.errors:
                self.stdout.write(f"  [{expected.value} -> {parsed.value}] {text!r}")
