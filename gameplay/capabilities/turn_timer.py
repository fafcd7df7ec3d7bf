"""Turn timers (``GameSpec.turn_timer``, ``State.time_limit`` / ``State.timeout_action``): a timeout applied only
once the seat's time has run out, marked in the log, and the countdown on a person's page.

The clock is read in ``gameplay.writes.turn_timer`` (the server's, from ``Match.turn_started_at``); the sweep that
applies
timeout actions is ``gameplay.writes.timeouts.apply_timeouts``, which passes
``timeout=True`` to ``services.apply_action``.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from gameplay.writes.turn_timer import seat_deadline, turn_clock

from .base import ActionContext, Capability, PageContext, out_of_date


class TurnTimer(Capability):
    name = "turn timer"
    flags = ("turn_timer",)

    def applies_to(self, game) -> bool:
        return game.spec.turn_timer

    def engaged(self, act: ActionContext) -> bool:
        # A timeout engages the timer even in a game that declares none, so that its check refuses it there.
        return act.timeout or self.applies_to(act.game)

    def refusal(self, act: ActionContext) -> str | None:
        """A timeout counts only at exactly the version it was found at (never as a concurrent action), so a move
        that lands first wins, and only once the seat's time has run out, by the server's clock, under the lock."""
        if not act.timeout:
            return None
        if act.stale:
            return out_of_date(act)
        deadline = seat_deadline(act.match, act.state, act.seat)
        if deadline is None or deadline > timezone.now():
            return f"{act.game.seat_name(act.seat)}'s time has not run out"
        return None

    def after_action(self, act: ActionContext) -> None:
        if not act.timeout:
            return
        # A timeout is nobody's decision: when it leaves only seats that were already deciding (the other voters of
        # a simultaneous vote), their clock goes on, so every seat out of time can be timed out in one sweep.
        state = act.state
        if act.turn_started_before and not state.is_terminal() and set(state.current_seats()) <= act.deciding:
            act.match.turn_started_at = act.turn_started_before
        # The log, its exports and replays tell a timeout from a move.
        payload = act.payload
        payload.update(timed_out=True, label=f"{payload['label']} (time ran out)",
                       labels=[f"{label} (time ran out)" for label in payload["labels"]])

    def page_fields(self, page: PageContext) -> dict[str, Any]:
        """A person's countdown for the decision it must take now ("N s left")."""
        return {"deadline": turn_clock(page.match, page.state, page.seat)} if page.my_turn else {}
