"""Writes of the evaluations made outside play (seed 002's probes and DEEP): every model call kept as an EvalCall."""

from __future__ import annotations

import uuid

from django.utils import timezone

from agents_app.agents.llm.spy_eval import Exchange
from agents_app.models import EvalCall
from gameplay.models import Match


def new_run(task: str) -> str:
    """An id for one command run (its calls share it)."""
    return f"{task}-{timezone.now():%Y%m%dT%H%M%S}-{uuid.uuid4().hex[:6]}"


def store_exchange(*, task: str, run: str, agent_name: str, exchange: Exchange, match: Match | None = None,
                   seat: int | None = None, parsed=None, note: str = "", details: dict | None = None) -> list[EvalCall]:
    """Store the calls of one question in the order they were made; what was read from the reply (``parsed``) and
    ``note`` (why it was unusable, or what had to be fixed) go on the last call."""
    rows = []
    last = len(exchange.calls) - 1
    for index, call in enumerate(exchange.calls):
        error = call.error
        if index == last and note:
            error = "; ".join(part for part in (error, note) if part)
        rows.append(EvalCall(
            task=task, run=run, agent_name=agent_name, match=match, seat=seat, purpose=(call.purpose or "")[:24],
            request_messages=list(call.request_messages or []), raw_reply=call.raw_reply or "",
            parsed=parsed if index == last else None, error=error,
            latency_ms=_non_negative(call.latency_ms), prompt_tokens=_non_negative(call.prompt_tokens),
            completion_tokens=_non_negative(call.completion_tokens),
            details={**(details or {}), **(call.details or {})},
        ))
    return EvalCall.objects.bulk_create(rows)


def _non_negative(value) -> int | None:
    return max(int(value), 0) if value is not None else None
