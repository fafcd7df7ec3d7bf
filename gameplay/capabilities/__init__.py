"""Capabilities as modules: the platform's side of each capability a game declares on its ``GameSpec``.

A game declares what it can do on its spec (gameplay/engines/api.py; the README's table lists each flag with its
engine hooks, and the conformance suite checks them). Here each capability is one module of the platform holding
its hooks into the two hubs, applying an action (``services.apply_action``) and drawing a seat's page
(``selectors.seat_view``), the idea of boardgame.io's plugins: the hubs run the hooks of the capabilities a game
declares, in the order of ``CAPABILITIES``, and grow no branch per capability.

==================  ============================  ===========================================================
module              spec flag(s)                  hooks (and where the rest of the capability lives)
==================  ============================  ===========================================================
chat.py             has_chat (``chat_enabled``),  page: the chat box, its lines (``chat_page``, ``readable_by``:
                    chat_in_state, team_chat      a team line only for its audience), team chat, a muted seat.
                                                  Posting: gameplay.writes.chat_posting.
turn_timer.py       turn_timer                    action: a timeout counts only at its version and once the time
                                                  ran out; it keeps the clock of seats already deciding and is
                                                  marked "timed_out". page: the countdown. Clock:
                                                  gameplay.writes.turn_timer; sweep: gameplay.writes.timeouts.
draws.py            draw_by_agreement             action: a move declines a draw offer. page: offer, own offer,
                                                  offered by. Offering/answering: gameplay.writes.match_endings.
rounds.py           round_sequence                page: the chain of rounds and the next round's link.
                                                  Next round: follow_ups.start_next_round.
live.py             realtime                      page: the live stage (frames, held inputs). action: the
                                                  sockets read the match, not the commit. The clock:
                                                  gameplay.live.
concurrent.py       concurrent_actions            action: a view overtaken only by other seats' actions counts.
verdicts.py         dialogue (judged)             action: the judge is asked once it commits. page: "the judge"
                                                  is to move. The verdict: services.apply_verdict.
move_list.py        realtime (without it)         page: the recent actions, newest first, each worded for the
                                                  seat (its labels); the whole log is the replay's.
==================  ============================  ===========================================================

Capabilities read where a match ends, not in the hubs: ``measures`` / ``goal_measure`` and the teams of the result
(``selectors.final_measures`` / ``final_teams``, kept by services' and match_endings' ``_finish``).

The hook contract (``base.Capability``; every hook does nothing by default):

- ``applies_to(game) -> bool``: the game declares the capability; read from its spec flag (or the declared hook
  that reads it, ``Game.chat_enabled``), never by probing the engine for a method. ``engaged(act)``: whether an
  action's hooks run, ``applies_to`` unless the request itself engages the capability (a timeout engages the
  turn timer, which then refuses it in a game without one).
- Applying an action, in this order, inside its transaction with the match row locked (``base.ActionContext``):
  ``admits_stale_view(act)`` (any engaged capability may let an action chosen on an older view through),
  ``refusal(act) -> str | None`` (the first reason refuses the action: nothing changes), then the engine applies
  it; ``after_action(act)`` may change the match's fields and the event's payload before they are saved;
  ``after_save(act)`` schedules work for after the commit (``transaction.on_commit``);
  ``sends_committed_action(act)``: whether the sockets get the committed action or are told to read the match.
- Drawing a seat's page (``base.PageContext``): ``page_fields(page) -> dict`` gives the ``selectors.SeatView``
  fields the capability fills; a capability that does not apply leaves them at their defaults (off, empty).
  Fields are each capability's own, but a capability may refine a field of the page's core (verdicts:
  ``to_move_label``).

A new capability: a module here with a ``Capability`` subclass, added to ``CAPABILITIES``, its row above, its
flag on ``GameSpec`` with its hooks' defaults (gameplay/engines/optional_hooks.py), and its conformance check
(tests/engines/conformance_capabilities.py).
This package imports nothing from selectors or services (they import it), so pages and writes share it without
an import circle; the one hook that needs a module above them (verdicts: gameplay.writes.announce) imports it late.
"""

from __future__ import annotations

from typing import Any

from .base import ActionContext, Capability, PageContext, out_of_date
from .chat import Chat
from .concurrent import ConcurrentActions
from .draws import Draws
from .live import Live
from .move_list import MoveList
from .rounds import Rounds
from .turn_timer import TurnTimer
from .verdicts import Verdicts

__all__ = ["CAPABILITIES", "ActionContext", "Capability", "PageContext", "engaged", "out_of_date", "page_fields"]

CAPABILITIES: tuple[Capability, ...] = (
    Chat(),
    TurnTimer(),
    Draws(),
    Rounds(),
    Live(),
    ConcurrentActions(),
    Verdicts(),
    MoveList(),
)


class Engaged(tuple):
    """The capabilities whose hooks run for one action, with the hub's view of them."""

    def admit_stale_view(self, act: ActionContext) -> bool:
        return any(c.admits_stale_view(act) for c in self)

    def refusal(self, act: ActionContext) -> str | None:
        return next((reason for c in self if (reason := c.refusal(act))), None)

    def after_action(self, act: ActionContext) -> None:
        for capability in self:
            capability.after_action(act)

    def after_save(self, act: ActionContext) -> None:
        for capability in self:
            capability.after_save(act)

    def sends_committed_action(self, act: ActionContext) -> bool:
        return all(c.sends_committed_action(act) for c in self)


def engaged(act: ActionContext) -> Engaged:
    """The capabilities whose hooks run for this action, in the order of ``CAPABILITIES``."""
    return Engaged(c for c in CAPABILITIES if c.engaged(act))


def page_fields(page: PageContext) -> dict[str, Any]:
    """The SeatView fields of every capability the page's game declares (later ones win on a shared field)."""
    fields: dict[str, Any] = {}
    for capability in CAPABILITIES:
        if capability.applies_to(page.game):
            fields.update(capability.page_fields(page))
    return fields
