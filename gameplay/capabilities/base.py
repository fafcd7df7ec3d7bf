"""The hook contract of a capability (see the package docstring) and the two contexts its hooks read."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gameplay.engines.api import Game, State
    from gameplay.models import Match, Seat


@dataclass
class ActionContext:
    """One action on its way through ``services.apply_action``, inside its transaction, the match row locked.

    Filled as the action goes: ``deciding`` before the engine applies it, ``payload`` (the action event's, before the
    caller's ``extra``) after. Hooks may change ``match``'s fields and ``payload``; the service saves both."""

    match: Match
    state: State
    seat: int
    action_id: str
    expected_version: int  # the version of the view the action was chosen on
    timeout: bool = False  # the seat's timeout action, applied because its time ran out (gameplay.writes.timeouts)
    turn_started_before: datetime | None = None  # ``match.turn_started_at`` before this action
    deciding: set[int] = field(default_factory=set)  # the other seats that had to act before this action
    payload: dict[str, Any] = field(default_factory=dict)

    @property
    def game(self) -> Game:
        return self.state.game

    @property
    def stale(self) -> bool:
        """Whether the view the action was chosen on is older than the match."""
        return self.expected_version != self.match.version


def out_of_date(act: ActionContext) -> str:
    """The refusal of an action chosen on a view the match has moved on from."""
    return (f"your view is out of date (version {act.expected_version}, match is at {act.match.version}); "
            "refreshed")


@dataclass(frozen=True)
class PageContext:
    """What one seat's page is drawn from (``selectors.seat_view``): ``seat`` None is the public page."""

    match: Match
    seat: Seat | None
    state: State
    seats: list[Seat]
    names: dict[int, str]  # display name by seat index
    waiting_for: list[str]  # seats not joined yet (nobody moves until they are)
    my_turn: bool  # the match is under way and this seat acts now
    person: bool  # a person's seat in a running match that is not a study round
    with_chat: bool  # the page carries the chat log (a socket may keep it up to date line by line instead)
    # The match's newest action events (move_list.recent_actions) when the caller has them in hand (a socket drawing
    # a committed action: gameplay.writes.committed); None: the move list reads them.
    recent_actions: list[dict] | None = None

    @property
    def index(self) -> int | None:
        return self.seat.index if self.seat is not None else None

    @property
    def game(self) -> Game:
        return self.state.game


class Capability:
    """One capability's hooks; each does nothing by default. Subclasses set ``name`` and ``flags`` (the GameSpec
    fields they read) and override ``applies_to`` and the hooks they need."""

    name: str = ""
    flags: tuple[str, ...] = ()

    def applies_to(self, game: Game) -> bool:
        """Whether ``game`` declares this capability (its spec flag, or the declared hook that reads it)."""
        return False

    def engaged(self, act: ActionContext) -> bool:
        """Whether this action's hooks run: the game declares the capability (a request can engage more)."""
        return self.applies_to(act.game)

    # --- applying an action (services.apply_action) -------------------------------------------------------------

    def admits_stale_view(self, act: ActionContext) -> bool:
        """Whether an action chosen on a view the match has since moved on from may still count."""
        return False

    def refusal(self, act: ActionContext) -> str | None:
        """Why the action is refused (the text the seat reads), None to let it through to the engine."""
        return None

    def after_action(self, act: ActionContext) -> None:
        """The engine has applied it: adjust ``act.match`` and ``act.payload`` before they are saved."""

    def after_save(self, act: ActionContext) -> None:
        """The match and its events are saved, the transaction still open: schedule work for after the commit."""

    def sends_committed_action(self, act: ActionContext) -> bool:
        """Whether the match's sockets are sent the committed action (so that each draws its page from it) rather
        than told to read the match."""
        return True

    # --- drawing a seat's page (selectors.seat_view) -------------------------------------------------------------

    def page_fields(self, page: PageContext) -> dict[str, Any]:
        """``selectors.SeatView`` fields this capability fills (all others keep their defaults)."""
        return {}
