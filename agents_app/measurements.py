"""What ``check_agent NAME --game G`` measured of a configuration's decisions, kept on the configuration, and the
preflight's verdict on it.

A measurement plays a few decisions of a game with the stored configuration (agents_app.evaluations.measure_agent,
on agents_app.evaluations.decision_bench) and is kept in ``AgentConfig.capabilities["measured"][game_id]``: the
shares valid at the first reply, corrected and fallen back, the think time's median and p95, the decision deadline it
was measured under, the largest prompt the server counted and the model's context. Beside the probe's keys, never
instead of them: a probe keeps the measurements and a measurement keeps the probe's findings. A configuration whose
measured p95 passes its current deadline would play mostly random fallbacks; the preflight refuses it unless the
caller allows slow agents.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

MEASURED = "measured"  # the capabilities key holding the measurements, by game id
# How a caller goes on with an agent measured too slow; said in the refusal so the operator need not look it up.
GO_ON_ANYWAY = (
    "run_tournament/run_protocol/play_match --allow-slow, \"allow_slow_agents\": true in a protocol file, or "
    "a study's \"Allow slow agents\" setting"
)


def measured(capabilities: Mapping[str, Any] | None, game_id: str) -> dict | None:
    """The stored measurement of ``game_id`` (None: never measured)."""
    found = ((capabilities or {}).get(MEASURED) or {}).get(game_id)
    return dict(found) if isinstance(found, Mapping) else None


def store(config, game_id: str, measurement: Mapping[str, Any]) -> None:
    """Keep ``measurement`` as the configuration's for ``game_id``, beside the probe's findings and the other games'
    measurements. Saved without touching ``updated_at``, as the probe's findings are (not an edit)."""
    capabilities = _stored_capabilities(config)
    by_game = dict(capabilities.get(MEASURED) or {})
    by_game[game_id] = dict(measurement)
    capabilities[MEASURED] = by_game
    type(config).objects.filter(pk=config.pk).update(capabilities=capabilities)
    config.capabilities = capabilities


def with_measurements(config, capabilities: Mapping[str, Any]) -> dict:
    """A probe's findings with the measurements already stored on the configuration kept."""
    kept = _stored_capabilities(config).get(MEASURED)
    return {**capabilities, MEASURED: kept} if kept else dict(capabilities)


def too_slow(measurement: Mapping[str, Any], deadline_s: float) -> bool:
    """Whether the measured p95 think time passes ``deadline_s`` (the configuration's deadline NOW, whatever the
    deadline was when it was measured)."""
    p95 = measurement.get("think_p95_s")
    return isinstance(p95, int | float) and p95 > deadline_s


def slow_problem(name: str, settings, game_id: str) -> str | None:
    """Why the configuration is refused for ``game_id`` as too slow, or None (fast enough, or never measured)."""
    found = measured(settings.capabilities, game_id)
    deadline = settings.decision_deadline_s
    if found is None or not too_slow(found, deadline):
        return None
    return (
        f"{name} is too slow for {game_id}: its measured p95 think time of {found['think_p95_s']:.3f} s (over "
        f"{found.get('decisions', '?')} decisions, {found.get('measured_at', 'at an unknown time')}) exceeds its "
        f"decision deadline of {deadline:g} s, so many of its moves would be random fallbacks. Raise its "
        f"decision_deadline_s or use a faster endpoint and measure again (manage.py check_agent {name} --game "
        f"{game_id}), or go on anyway with {GO_ON_ANYWAY}"
    )


def _stored_capabilities(config) -> dict:
    # Read afresh: the object in hand may predate a probe or a measurement made since.
    stored = type(config).objects.filter(pk=config.pk).values_list("capabilities", flat=True).first()
    return dict(stored if stored is not None else (config.capabilities or {}))
