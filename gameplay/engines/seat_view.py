"""The one object through which a seat (or the public) is seen: ``SeatView``.

An engine hands out a seat's information only here (``State.seat_view``): the observation as *facts* (JSON-able
structures a page or an export reads by key, never sentences to parse back), the text for language models rendered
from the same facts, the legal and text actions, and what everybody may know about the table (who is to act, the
teams, whether the game is over). Pages, agents, exports and replays read a seat through this object; none of them
needs, or may hold, the ``State`` it came from.

``refusal_checker`` is the one question about a state a view cannot answer by itself: "would the engine accept
this action (and text) now, and if not why?". It answers with the engine's own refusal and nothing else.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .spec import Action, GameSpec, Observation, Rules, TextAction

if TYPE_CHECKING:
    from .api import State

# "Who acts after each of my legal actions" is worked out by trying the action on a copy of the full state. That is
# public knowledge only when the full state is: a game with no hidden information, no chance still to come and no
# simultaneous choices pending. Elsewhere the answer can carry a secret (a Codenames guess that keeps the turn says
# the card is the guesser's own agent; a vote that ends the game names the spy), so it is never worked out there.
NOBODY = "nobody: the game ends"
YOU = "you"


@dataclass(frozen=True)
class SeatView:
    """What one seat (``seat`` None: the public) may know of a game, as facts and as text."""

    game_id: str
    spec: GameSpec  # the game's immutable, declared facts (public)
    rules: Rules  # the game's rules text (public)
    seat: int | None
    num_seats: int
    seat_names: tuple[str, ...]
    options: Mapping[str, Any]  # the match's game options (public: everyone plays under them)
    facts: Mapping[str, Any]  # the observation's data: JSON-able facts, keyed, never prose to be parsed
    text: str  # the same observation written for a language model
    legal_actions: tuple[Action, ...] = ()
    text_actions: tuple[TextAction, ...] = ()
    to_act: tuple[int, ...] = ()  # the seats acting now (public in every game)
    terminal: bool = False
    awaiting_verdict: bool = False
    teams: tuple[int, ...] = ()  # Game.teams(): the public teams
    chat_open: bool = False  # chat is on in this match and this seat may post now (State.may_chat)
    team_chat: bool = False  # a line this seat posts reaches its team only (GameSpec.team_chat)
    own_moves: int = 0  # how many actions this seat has taken (it knows its own moves)
    move_topics: tuple[str, ...] = ()  # rule topics the legal actions depend on (State.rule_topics), first seen first
    next_actors: Mapping[str, str] = field(default_factory=dict)  # see public_next_actors

    @property
    def observation(self) -> Observation:
        """The facts and text as the engine's Observation (what agents and images are drawn from)."""
        return Observation(self.seat, self.facts, self.text)

    @property
    def my_turn(self) -> bool:
        return self.seat is not None and self.seat in self.to_act

    @property
    def cooperative(self) -> bool:
        """Every seat on one team: the players win or lose together."""
        return self.num_seats > 1 and len(set(self.teams)) == 1

    def seat_name(self, seat: int) -> str:
        return self.seat_names[seat] if 0 <= seat < len(self.seat_names) else f"Player {seat + 1}"


def build_seat_view(state: State, seat: int | None, *, with_next_actors: bool = False) -> SeatView:
    """``State.seat_view``: the view of ``seat`` (None: the public) of ``state``."""
    game = state.game
    observation = state.observation(seat)
    acting = seat is not None and not state.is_terminal() and seat in state.current_seats()
    legal = tuple(state.legal_actions(seat)) if acting else ()
    texts = tuple(state.text_actions(seat)) if acting else ()
    chat_on = game.spec.has_chat and game.chat_enabled()
    return SeatView(
        game_id=game.spec.id,
        spec=game.spec,
        rules=game.rules,
        seat=seat,
        num_seats=game.num_seats,
        seat_names=tuple(game.seat_name(s) for s in range(game.num_seats)),
        options=dict(game.options),
        facts=observation.data,
        text=observation.text,
        legal_actions=legal,
        text_actions=texts,
        to_act=() if state.is_terminal() else tuple(state.current_seats()),
        terminal=state.is_terminal(),
        awaiting_verdict=state.awaiting_verdict(),
        teams=tuple(game.teams()),
        chat_open=seat is not None and chat_on and (not game.spec.team_chat or bool(state.may_chat(seat))),
        team_chat=chat_on and game.spec.team_chat,
        own_moves=sum(1 for record in state.log if record.seat == seat) if seat is not None else 0,
        move_topics=_move_topics(state, seat, legal, texts) if acting else (),
        next_actors=public_next_actors(state, seat, legal) if with_next_actors and acting else {},
    )


def _move_topics(state: State, seat: int, legal, texts) -> tuple[str, ...]:
    found: dict[str, None] = {}
    for action in [*legal, *texts]:
        found.update(dict.fromkeys(state.rule_topics(seat, action.id)))
    return tuple(found)


def next_actors_are_public(state: State) -> bool:
    """Whether trying an action on a copy of the state reveals nothing a seat does not know already."""
    spec = state.game.spec
    return spec.perfect_information and not spec.has_chance and not spec.simultaneous


def public_next_actors(state: State, seat: int, legal) -> dict[str, str]:
    """Who acts after each legal action ("you", the seats' names, or NOBODY), for games where that is public
    (``next_actors_are_public``); {} for every other game, so the hint can never carry a derived secret."""
    if not next_actors_are_public(state):
        return {}
    game, found = state.game, {}
    for action in legal:
        trial = state.clone()
        try:
            trial.apply_action(seat, action.id)
        except Exception:  # an engine refusing its own legal action is a bug elsewhere; say nothing here
            continue
        seats = [] if trial.is_terminal() else trial.current_seats()
        if not seats:
            found[action.id] = NOBODY
        elif seat in seats:
            found[action.id] = YOU
        else:
            found[action.id] = " and ".join(game.seat_name(s) for s in seats)
    return found


RefusalChecker = Callable[[str, "str | None"], "str | None"]


def refusal_checker(state: State, seat: int) -> RefusalChecker:
    """A function answering, for an action (and text) ``seat`` proposes, the engine's refusal or None when it would be
    accepted. It keeps the state only as JSON and tries each proposal on a fresh copy, so the caller holds no State
    and learns nothing from it but the engine's own error message."""
    game, frozen = state.game, json.dumps(state.to_json())

    def refusal(action_id: str, text: str | None = None) -> str | None:
        trial = game.state_from_json(json.loads(frozen))
        try:
            trial.apply_action(seat, action_id, text)
        except Exception as err:
            return str(err) or type(err).__name__
        return None

    return refusal
