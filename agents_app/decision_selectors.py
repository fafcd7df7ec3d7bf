"""How a model's decisions went, per agent, from the stored calls (issue 42): a report of a language model's play
says how many of its decisions were its own.

A decision is the calls one agent made for one seat at one match version. It *fell back* when the agent gave up and
played a random move; it *copied a suggestion* when the move it chose was an action the prompt had shown as an
example (agents_app.agents.llm.suggestions: such a benchmark measures the example, not the model); it took the *first
listed* action when it chose the first one its list showed (a model that always does so is not choosing either).
Only agents that call a model have decisions here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .models import AgentCall


@dataclass
class DecisionQuality:
    agent: str
    decisions: int = 0
    fallbacks: int = 0
    copied: int = 0  # moves equal to an action the prompt suggested
    first_listed: int = 0  # moves equal to the first action listed
    recorded: int = 0  # decisions whose move record says whether it copied (older records do not)

    def share(self, count: int, of_recorded: bool = False) -> float | None:
        total = self.recorded if of_recorded else self.decisions
        return count / total if total else None

    @property
    def copied_share(self) -> float | None:
        return self.share(self.copied, of_recorded=True)

    @property
    def first_listed_share(self) -> float | None:
        return self.share(self.first_listed, of_recorded=True)

    @property
    def fallback_share(self) -> float | None:
        return self.share(self.fallbacks)

    def as_dict(self) -> dict:
        return {"agent": self.agent, "decisions": self.decisions, "fallbacks": self.fallbacks,
                "copied_suggestion": self.copied, "first_listed": self.first_listed, "recorded": self.recorded,
                "copied_share": self.copied_share, "first_listed_share": self.first_listed_share,
                "fallback_share": self.fallback_share}


def decision_quality(matches=None, agents: Iterable[str] | None = None) -> dict[str, DecisionQuality]:
    """Per agent name, over the calls of ``matches`` (match ids or a Match queryset; None: every match) by
    ``agents`` (None: every agent with calls), in name order."""
    calls = AgentCall.objects.all()
    if matches is not None:
        calls = calls.filter(match__in=matches)
    if agents is not None:
        calls = calls.filter(agent_name__in=list(agents))
    rows = calls.order_by("agent_name", "match_id", "version", "seat", "seq").values_list(
        "agent_name", "match_id", "version", "seat", "fallback", "parsed_action", "details")
    decisions: dict[tuple, dict] = {}
    for agent, match_id, version, seat, fallback, parsed, details in rows.iterator(chunk_size=2000):
        decision = decisions.setdefault((agent, match_id, version, seat), {"fallback": False, "move": None})
        decision["fallback"] |= fallback
        if parsed and isinstance(details, dict) and "copied_suggestion" in details:
            decision["move"] = details  # the last parsed move of the decision: the one played (its last part)
    result: dict[str, DecisionQuality] = {}
    for (agent, *_), decision in decisions.items():
        row = result.setdefault(agent, DecisionQuality(agent))
        row.decisions += 1
        row.fallbacks += decision["fallback"]
        move = decision["move"]
        if move is not None and not decision["fallback"]:
            row.recorded += 1
            row.copied += bool(move.get("copied_suggestion"))
            row.first_listed += bool(move.get("first_listed"))
    return dict(sorted(result.items()))
