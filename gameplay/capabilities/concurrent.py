"""Concurrent actions (``GameSpec.concurrent_actions``, ``State.concurrent_view_start``): an action chosen on a
view that only other seats' actions have overtaken still counts (Pit's open market). Nothing on the page."""

from __future__ import annotations

from django.db.models import Count, Q

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
        # One query for both counts: where every seat acts at once, most actions arrive on an overtaken view, and
        # each query is one more round trip made while holding the match's lock (issue 39, point 6).
        counts = Event.objects.filter(match=match, kind=Event.Kind.ACTION).aggregate(
            own_since=Count("pk", filter=Q(seat=act.seat, version__gt=act.expected_version)),
            seen=Count("pk", filter=Q(version__lte=act.expected_version)),
        )
        if counts["own_since"]:
            return False
        # One ACTION event per action in the engine's log, so ``seen`` counts the actions the view was drawn after.
        return counts["seen"] >= act.state.concurrent_view_start(act.seat, act.action_id)
