"""``check_agent NAME --game G``'s measurement: a few decisions of a game played with a stored configuration as it
is now (its probed capabilities included), summed up as agents_app.measurements keeps it on the configuration.

An offline harness on the engine alone (decision_bench): fresh games, never a match.
"""

from __future__ import annotations

from django.utils import timezone

from agents_app import selectors
from agents_app.evaluations.decision_bench import play_decisions


def measure(config, game_id: str, decisions: int = 5, seed: int = 0) -> dict:
    """Play ``decisions`` decisions of ``game_id`` with the configuration as stored now (its probed capabilities
    included) and return the measurement (not stored: ``store``)."""
    settings = selectors.llm_settings(config)
    run = play_decisions(selectors.build_agent(config.name), game_id, decisions, seed)
    if not run.records:
        raise ValueError(f"{game_id}: the agent's seat was never given a decision")
    summary = run.summary()
    return {
        "decisions": summary["decisions"],
        "matches": summary["matches"],
        "seed": seed,
        "valid_first": summary["valid"],
        "corrected": summary["corrected"],
        "fallback": summary["fallback"],
        "think_p50_s": summary["think_s_median"],
        "think_p95_s": summary["think_s_p95"],
        "deadline_s": settings.decision_deadline_s,
        "largest_prompt_tokens": summary["largest_prompt_tokens"],
        "context_tokens": settings.context_length() or None,
        "measured_at": timezone.now().isoformat(timespec="seconds"),
    }
