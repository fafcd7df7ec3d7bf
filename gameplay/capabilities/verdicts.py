"""Judged dialogue games (``GameSpec.dialogue`` with ``judged``, ``State.awaiting_verdict``): after the last
message the judge is asked once the action commits, and the page says the judge is to move.

The verdict itself is applied by ``services.apply_verdict`` (agents_app's judge task, or the game's rule); the
watchdog asks again for a match left waiting.
"""

from __future__ import annotations

import logging
from functools import partial
from typing import Any

from django.db import transaction

from gameplay.engines.api import State
from gameplay.models import Match
from gameplay.signals import verdict_awaited

from .base import ActionContext, Capability, PageContext

logger = logging.getLogger(__name__)


class Verdicts(Capability):
    name = "verdicts"
    flags = ("dialogue",)

    def applies_to(self, game) -> bool:
        return game.spec.dialogue is not None and game.spec.dialogue.judged

    def after_save(self, act: ActionContext) -> None:
        schedule_verdict(act.match, act.state)  # sends verdict_awaited once the action commits, if one is awaited

    def page_fields(self, page: PageContext) -> dict[str, Any]:
        return {"to_move_label": "the judge"} if page.state.awaiting_verdict() else {}


def schedule_verdict(match: Match, state: State) -> None:
    """If the match waits for a judge's verdict (``State.awaiting_verdict``), send ``verdict_awaited`` once the current
    transaction commits (agents_app judges it; the watchdog sends it again for a match left waiting)."""
    if match.status == Match.Status.ACTIVE and state.awaiting_verdict():
        transaction.on_commit(partial(announce_verdict_awaited, match.pk))


def announce_verdict_awaited(match_id: int) -> None:
    """Send verdict_awaited; a failing receiver (a broker that is down) is logged, and the watchdog tries again."""
    for receiver, result in verdict_awaited.send_robust(sender=Match, match_id=match_id):
        if isinstance(result, Exception):
            logger.error("verdict_awaited receiver %r failed for match %s", receiver, match_id, exc_info=result)
