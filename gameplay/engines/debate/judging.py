"""The verdicts a debate judge may give and the deterministic rule used when no judge model gives a valid one.

The rule is deliberately simple and public (the Judging rule topic words it for players): per argument, one point
for giving a reason, one for an example or a number, one for answering the other side's last argument. It is a
stand-in that keeps every match finishing the same way from its log, not a measure of quality.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

SINGLE = "single"
OPENSPIEL = "openspiel"
JUDGING_MODES = (SINGLE, OPENSPIEL)

# Seat 0 argues for, seat 1 against.
VERDICTS = {SINGLE: ("for", "against", "draw"), OPENSPIEL: ("both", "for", "against", "neither")}
# Raw payoff per seat (for, against) of each verdict.
PAYOFFS = {
    SINGLE: {"for": (1.0, 0.0), "against": (0.0, 1.0), "draw": (0.5, 0.5)},
    OPENSPIEL: {"both": (1.0, 1.0), "for": (1.0, 0.0), "against": (0.0, 1.0), "neither": (0.0, 0.0)},
}

REASON_MARKERS = ("because", "since", "therefore", "so that", "as a result", "which means", "thus", "hence", "so ")
EXAMPLE_MARKERS = ("for example", "for instance", "such as", "e.g.", "imagine", "consider")
# Words of at least this many letters shared with the other side's last argument count as answering it.
ANSWER_WORD_LETTERS = 5
_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)
_DIGIT = re.compile(r"\d")


def argument_points(text: str, answered: str | None) -> int:
    """The rule's points for one argument; ``answered`` is the other side's previous argument, if any."""
    lowered = f" {text.casefold()} "
    points = 0
    if any(marker in lowered for marker in REASON_MARKERS):
        points += 1
    if _DIGIT.search(lowered) or any(marker in lowered for marker in EXAMPLE_MARKERS):
        points += 1
    if answered:
        theirs = {w for w in _WORD.findall(answered.casefold()) if len(w) >= ANSWER_WORD_LETTERS}
        mine = {w for w in _WORD.findall(lowered) if len(w) >= ANSWER_WORD_LETTERS}
        if theirs & mine:
            points += 1
    return points


def rule_totals(arguments: Sequence[tuple[int, str]]) -> list[int]:
    """Points per seat over the thread, ``arguments`` being (seat, text) in the order spoken."""
    totals = [0, 0]
    last_by = {}
    for seat, text in arguments:
        totals[seat] += argument_points(text, last_by.get(1 - seat))
        last_by[seat] = text
    return totals


def rule_verdict(mode: str, totals: Sequence[int]) -> str:
    for_points, against_points = totals
    if for_points > against_points:
        return "for"
    if against_points > for_points:
        return "against"
    if mode == SINGLE:
        return "draw"
    return "both" if for_points > 0 else "neither"
