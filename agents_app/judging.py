"""Judged dialogue games (a debate): once the last message is in, a judge model decides, or else the game's rule.

``judge_match`` runs as a Celery task queued on gameplay's ``verdict_awaited`` signal (and again by the watchdog for a
match left waiting). The judge is the AgentConfig named by the DIALOGUE_JUDGE_AGENT setting; with none, an unknown
one, an endpoint that fails or replies that stay invalid after one correction, the game's deterministic rule
(``State.fallback_verdict``) decides, with the reason logged and kept on the verdict's event (``fallback_reason``,
as for an agent's fallback move). Idempotent: the verdict is applied with the version it was asked for, so of two
tasks racing only one applies (the other's model calls are kept, marked not applied).
"""

from __future__ import annotations

import logging

from django.conf import settings

from agents_app.selectors import agent_config, llm_settings
from agents_app.services import record_calls
from gameplay.models import Event, Match
from gameplay.reads.agent_seats import pending_verdict
from gameplay.writes import services as match_services

logger = logging.getLogger(__name__)

RULE = "rule"


def judge_match(match_id: int) -> str | None:
    """Decide a match awaiting its verdict; the verdict applied, or None (nothing awaited, or another task won)."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None or match.status != Match.Status.ACTIVE:
        return None
    request = pending_verdict(match)  # the public question and the rule's verdict: the judge sees no state
    if request is None:
        return None
    version = match.version
    request_text, verdicts = request.text, request.verdicts
    name = (settings.DIALOGUE_JUDGE_AGENT or "").strip()
    verdict, calls, problem, reason = None, (), "", ""
    config = agent_config(name) if name else None
    if not name:
        problem = "no judge model configured (DIALOGUE_JUDGE_AGENT is empty)"
    elif config is None:
        problem = f"judge agent {name!r} has no stored configuration"
    else:
        from agents_app.agents.llm.judge import ask_judge  # late: the openai client only when a judge is configured

        try:
            result = ask_judge(llm_settings(config), request_text, verdicts)
            verdict, calls, problem, reason = result.verdict, result.calls, result.problem, result.reason
        except Exception as err:  # a broken configuration must not leave the match waiting
            logger.exception("judge %s could not be asked for match %s", name, match_id)
            problem = f"{type(err).__name__}: {err}"[:300]
    extra = {}
    if verdict is None:
        verdict, source = request.rule_verdict, RULE
        logger.warning("match %s: the game's rule decides (%s): %s", match_id, problem, verdict)
        extra["fallback_reason"] = problem[:300]
    else:
        source = name
        if reason:
            extra["judge_reason"] = reason
    try:
        match_services.apply_verdict(match_id, verdict, source, expected_version=version, extra=extra)
    except match_services.ActionRejected as err:
        logger.info("verdict for match %s not applied: %s", match_id, err)
        if calls:
            record_calls(match_id=match_id, event=None, seat=request.judge_seat, agent_name=name, version=version,
                         calls=calls, fallback=source == RULE, not_applied=str(err), what="verdict")
        return None
    if calls:
        event = Event.objects.filter(match_id=match_id, kind=Event.Kind.ACTION, version=version + 1).first()
        record_calls(match_id=match_id, event=event, seat=request.judge_seat, agent_name=name, version=version,
                     calls=calls, fallback=source == RULE)
    return verdict
