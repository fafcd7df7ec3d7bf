"""Concurrent actions (``GameSpec.concurrent_actions``, ``State.concurrent_view_start``): an action chosen on a
view that only other seats' actions have overtaken still counts (Pit's open market). Nothing on the page."""

from __future__ import annotations

from gameplay.models import Event

from .base import ActionContext, Capability


class ConcurrentActions(Capability):
    name = "concurrent actions"
    flags = ("concurrent_actions",)

    def applies_to(self, game) -> bool:
        return game.spec.concurrent_actions

    def admits_stale_view(self, act: ActionContext) -> bool:
        """Seats act at once on their own information, so other seats' actions overtaking the view do not make it
        stale (the engine still checks the action is legal now); this seat's own action since that view does (a
        second click on the same page), and so does a view older than what the engine says it must include
        (``State.concurrent_view_start``: Pit's previous hand, or an offer made since that the action takes)."""
        match = act.match
        if not 0 <= act.expected_version < match.version:
            return False
        actions = Event.objects.filter(match=match, kind=Event.Kind.ACTION)
        if actions.filter(seat=act.seat, version__gt=act.expected_version).exists():
            return False
        # One ACTION event per action in the engine's log, so this counts the actions the view was drawn after.
        seen = actions.filter(version__lte=act.expected_version).count()
        return seen >= act.state.concurrent_view_start(act.seat, act.action_id)
