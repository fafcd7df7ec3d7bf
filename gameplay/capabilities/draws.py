"""Draws by agreement (``GameSpec.draw_by_agreement``): who may offer one, the offer on a seat's page, and a move
that declines it.

Offering, accepting and declining are ``gameplay.writes.match_endings.agree_to_draw`` / ``refuse_draw``; the draw's
scores are the engine's (``State.agreed_draw_scores``).
"""

from __future__ import annotations

from typing import Any

from .base import ActionContext, Capability, PageContext


def draws_open(game, seats) -> bool:
    """Whether the players may agree to a draw: the rules allow it (GameSpec.draw_by_agreement) and every seat
    is a person's (an agent never agrees to one, so it is never asked)."""
    return game.spec.draw_by_agreement and not any(s.is_agent for s in seats)


class Draws(Capability):
    name = "draws"
    flags = ("draw_by_agreement",)

    def applies_to(self, game) -> bool:
        return game.spec.draw_by_agreement

    def after_action(self, act: ActionContext) -> None:
        """Moving instead of accepting declines a draw offer (gameplay.writes.match_endings)."""
        if act.match.draw_agreed and act.seat not in act.match.draw_agreed:
            act.match.draw_agreed = []

    def page_fields(self, page: PageContext) -> dict[str, Any]:
        """A person may offer a draw, sees whether its own offer stands and who offers one to it."""
        if not (page.person and not page.waiting_for and draws_open(page.game, page.seats)):
            return {}
        agreed = page.match.draw_agreed
        offered_by = [page.names.get(i, f"seat {i}") for i in agreed if i != page.index]
        return {"draws": True, "draw_mine": page.index in agreed, "draw_offered_by": offered_by}
