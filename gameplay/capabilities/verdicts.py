"""Judged dialogue games (``GameSpec.dialogue`` with ``judged``, ``State.awaiting_verdict``): after the last
message the judge is asked once the action commits, and the page says the judge is to move.

The verdict itself is applied by ``services.apply_verdict`` (agents_app's judge task, or the game's rule); the
watchdog asks again for a match left waiting.
"""

from __future__ import annotations

from typing import Any

from .base import ActionContext, Capability, PageContext


class Verdicts(Capability):
    name = "verdicts"
    flags = ("dialogue",)

    def applies_to(self, game) -> bool:
        return game.spec.dialogue is not None and game.spec.dialogue.judged

    def after_save(self, act: ActionContext) -> None:
        # Late: gameplay.announce reads selectors, which draw pages with this package.
        from gameplay.announce import schedule_verdict

        schedule_verdict(act.match, act.state)  # sends verdict_awaited once the action commits, if one is awaited

    def page_fields(self, page: PageContext) -> dict[str, Any]:
        return {"to_move_label": "the judge"} if page.state.awaiting_verdict() else {}
