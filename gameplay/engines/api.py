"""The pure game-engine contract every game implements.

In the spirit of OpenSpiel's Game/State split: a ``Game`` is an immutable spec
plus options and creates ``State`` objects; a ``State`` is mutated only through
``apply_action`` and can always be serialised to JSON and rebuilt, or replayed
from its seed and action log. Nothing in this package may import Django,
Channels or Celery: engines are used by the web app, by agents, by tests and by
command-line tools alike.

Information leaves an engine only through ``State.seat_view(seat)`` (built on
``State.observation(seat)``, where hidden information is enforced). Each state also declares its secrets
(``State.secrets()``) so the conformance suite can check that no observation
carries another seat's secret values.

Two groups of hooks live in modules of their own and are mixed in here: the optional hooks, each with a default
(``optional_hooks.py``: capabilities, labels, endings), and the search hooks (``search_hooks.py``).
"""

from __future__ import annotations

import copy
import json
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from .jsoncopy import json_copy
from .optional_hooks import OptionalGameHooks, OptionalStateHooks
from .search_hooks import HIDDEN_ACTION, SearchHooks
from .spec import (  # the declared values, re-exported: engines import the whole contract from here
    Action,
    ActionLabels,
    ActionRecord,
    EngineError,
    GameSpec,
    IllegalActionError,
    InvalidOptionsError,
    MeasureSpec,
    Observation,
    OptionSpec,
    Rules,
    TextAction,
    log_from_json,
    log_to_json,
)

if TYPE_CHECKING:
    from .seat_view import SeatView

__all__ = [
    "Action",
    "ActionLabels",
    "ActionRecord",
    "EngineError",
    "Game",
    "GameSpec",
    "HIDDEN_ACTION",
    "IllegalActionError",
    "InvalidOptionsError",
    "MeasureSpec",
    "Observation",
    "OptionSpec",
    "Rules",
    "State",
    "TextAction",
    "winner_of",
]


class Game(OptionalGameHooks, ABC):
    """An immutable game definition plus validated options; creates states."""

    spec: ClassVar[GameSpec]
    state_class: ClassVar[type[State]]
    rules: ClassVar[Rules]

    def __init__(self, options: Mapping[str, Any] | None = None, num_seats: int | None = None):
        self.options = self._validate_options(dict(options or {}))
        self.num_seats = num_seats if num_seats is not None else self.spec.min_seats
        if not self.spec.min_seats <= self.num_seats <= self.spec.max_seats:
            raise InvalidOptionsError(
                f"{self.spec.name} needs {self.spec.min_seats}-{self.spec.max_seats} seats, got {self.num_seats}"
            )

    def _validate_options(self, given: dict) -> dict:
        known = {o.name: o for o in self.spec.options}
        unknown = sorted(set(given) - set(known))
        if unknown:
            raise InvalidOptionsError(f"unknown option(s) for {self.spec.id}: {', '.join(unknown)}")
        result = {}
        for name, opt in known.items():
            value = given.get(name, opt.default)
            if opt.type is bool and isinstance(value, str):
                value = value.lower() in ("1", "true", "yes", "on")
            try:
                value = opt.type(value)
            except (TypeError, ValueError):
                raise InvalidOptionsError(f"option {name} must be {opt.type.__name__}") from None
            if opt.choices is not None and value not in opt.choices:
                raise InvalidOptionsError(f"option {name} must be one of {opt.choices}")
            if opt.bounds is not None and not opt.bounds[0] <= value <= opt.bounds[1]:
                raise InvalidOptionsError(f"option {name} must be between {opt.bounds[0]} and {opt.bounds[1]}, "
                                          f"got {value}")
            result[name] = value
        return result

    # --- limits and teams ---------------------------------------------------
    @abstractmethod
    def max_actions(self) -> int:
        """An upper bound on actions in any playout; the conformance suite enforces it."""

    def teams(self) -> list[int]:
        """Team index per seat. Default: every seat is its own team."""
        return list(range(self.num_seats))

    def seat_name(self, seat: int) -> str:
        names = self.spec.seat_names
        return names[seat] if seat < len(names) else f"Player {seat + 1}"

    def team_name(self, team: int) -> str:
        """How people call team ``team`` (an index of ``teams()``): "Red" in Codenames. Default "Team 1", ..."""
        return f"Team {team + 1}"

    # --- states -------------------------------------------------------------
    def new_initial_state(self, seed: int) -> State:
        return self.state_class(self, seed)

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        return self.state_class.from_json(self, data)

    def replay(self, seed: int, log: Sequence[ActionRecord]) -> State:
        """Rebuild a state exactly from its seed and action log."""
        state = self.new_initial_state(seed)
        for record in log:
            state.apply_action(record.seat, record.action_id, record.text)
        return state


class State(OptionalStateHooks, SearchHooks, ABC):
    """A game state. Subclasses keep all their data JSON-safe in ``_payload()``.

    Chance comes from ``self.rng()``: a fresh ``random.Random`` derived from the
    match seed and a draw counter kept in the state, so a state restored from
    JSON continues with exactly the same random stream.
    """

    # Subclasses: __init__ builds the initial state (and may draw chance via rng());
    # from_json calls it too and then overwrites everything from the payload. Do not
    # name an attribute "winner": it would hide the winner() method below.
    def __init__(self, game: Game, seed: int):
        self.game = game
        self.seed = int(seed)
        self.rng_draws = 0
        self.log: list[ActionRecord] = []
        # The seat whose information set this state was sampled from (sample_information_state); None for a match's
        # own state. Not part of the JSON: a sample is a search's, never stored.
        self.sampled_for: int | None = None

    # --- what subclasses implement ------------------------------------------
    @abstractmethod
    def current_seats(self) -> list[int]:
        """Seats that must act now: one for turn-based play, several when simultaneous."""

    @abstractmethod
    def legal_actions(self, seat: int) -> list[Action]:
        """Structured actions ``seat`` may take now, in a stable order; [] when it is not to act."""

    def legal_action_ids(self, seat: int) -> list[str]:
        """The ids of ``legal_actions(seat)``, in the same order, without their labels: all that checking a move
        and searching need. An engine whose labels cost more than its ids (Pit words every bundle of cards for its
        viewer) overrides it; conformance checks that the two agree throughout its playouts."""
        return [action.id for action in self.legal_actions(seat)]

    def text_actions(self, seat: int) -> list[TextAction]:
        """Open-ended actions available to ``seat`` (default: none)."""
        return []

    def validate_text(self, seat: int, action_id: str, text: str) -> str:
        """Check and normalise free text for a text action; raise IllegalActionError if bad."""
        raise IllegalActionError(f"{action_id!r} takes no text")

    @abstractmethod
    def _apply(self, seat: int, action_id: str, text: str | None) -> None:
        """Apply a validated action."""

    @abstractmethod
    def is_terminal(self) -> bool:
        """True once the game is over (no seat acts any more)."""

    @abstractmethod
    def scores(self) -> list[float]:
        """Scores per seat, each in [0, 1], summing to 1. Meaningful once terminal;
        before that engines return an even split so callers never see an invalid vector."""

    @abstractmethod
    def observation(self, seat: int | None) -> Observation:
        """What ``seat`` may see (None: the public view)."""

    def seat_view(self, seat: int | None, *, with_next_actors: bool = False) -> SeatView:
        """The one way a seat (None: the public) is seen: its observation's facts and text, its legal and text
        actions, and the public facts of the table (``seat_view.SeatView``). ``with_next_actors`` adds who acts after
        each legal action where that is public knowledge (``seat_view.public_next_actors``)."""
        from .seat_view import build_seat_view  # seat_view.py imports this module

        return build_seat_view(self, seat, with_next_actors=with_next_actors)

    def secrets(self) -> dict[int, list[str]]:
        """Per seat, string values only that seat may see (default: none)."""
        return {}

    def rule_topics(self, seat: int, action_id: str) -> tuple[str, ...]:
        """The rule topics (names in ``Game.rules.topics``) a player needs to understand the legal action
        ``action_id`` of ``seat``: a language-model player is offered these topics, so each rule a move depends on
        is in the summary or a topic away (the conformance suite checks every legal move names at least one, and
        only topics that exist). Every engine declares them: the default names none."""
        return ()

    # The game's own fields, each saved under its attribute's name as it is: a JSON value (numbers, strings, None,
    # lists, dicts with string keys). Listing them is all most engines need; a field that must be converted (a
    # tuple, a set, a dict keyed by numbers, a key renamed) is handled by overriding _payload/_load_payload and
    # calling super() for the plain ones. A field missing here is lost on a JSON round trip, which the conformance
    # suite's round-trip and replay checks catch.
    PAYLOAD_FIELDS: ClassVar[tuple[str, ...]] = ()
    # Whether the JSON log writes an action without text as the string "seat:action id" instead of a list
    # (``log_to_json``): for games whose logs run to thousands of actions (a realtime bout), since every stored state
    # is read and written whole at each action. Either form is read back.
    COMPACT_LOG: ClassVar[bool] = False

    def _payload(self) -> dict:
        """Game-specific JSON-safe data: the PAYLOAD_FIELDS (values are not copied: the caller serialises them)."""
        return {name: getattr(self, name) for name in self.PAYLOAD_FIELDS}

    def _load_payload(self, payload: Mapping[str, Any]) -> None:
        """Restore the game-specific data written by ``_payload`` (``from_json`` hands over a copy of its own)."""
        for name in self.PAYLOAD_FIELDS:
            setattr(self, name, payload[name])

    # --- shared machinery ----------------------------------------------------
    def rng(self) -> random.Random:
        """A deterministic random stream for one chance event."""
        self.rng_draws += 1
        return random.Random(f"{self.seed}:{self.rng_draws}")

    def apply_action(self, seat: int, action_id: str, text: str | None = None) -> None:
        """Validate and apply one action; on any error the state is unchanged."""
        if self.is_terminal():
            raise IllegalActionError("the game is over")
        if seat not in self.current_seats():
            raise IllegalActionError(f"it is not {self.game.seat_name(seat)}'s turn")
        # Text action ids and structured ids share one namespace; engines keep them distinct.
        text_specs = {t.id: t for t in self.text_actions(seat)}
        if action_id in text_specs:
            spec = text_specs[action_id]
            if text is None or not str(text).strip():
                raise IllegalActionError(f"{spec.label} needs text ({spec.hint})")
            if len(text) > spec.max_length:
                raise IllegalActionError(f"text is longer than {spec.max_length} characters")
            text = self.validate_text(seat, action_id, str(text))
        else:
            if action_id not in self.legal_action_ids(seat):
                raise IllegalActionError(f"{action_id!r} is not a legal action now")
            text = None
        self._apply(seat, action_id, text)
        self.log.append(ActionRecord(seat, action_id, text))

    def to_json(self) -> dict:
        return {
            "game": self.game.spec.id,
            "options": dict(self.game.options),
            "num_seats": self.game.num_seats,
            "seed": self.seed,
            "rng_draws": self.rng_draws,
            "log": log_to_json(self.log, compact=self.COMPACT_LOG),
            # Copied: a payload may hand out the state's own lists, and a snapshot that changed with later moves
            # would not be a snapshot (conformance checks it).
            "payload": json_copy(self._payload()),
        }

    @classmethod
    def from_json(cls, game: Game, data: Mapping[str, Any]) -> State:
        if data.get("game") != game.spec.id:
            raise EngineError(f"state is for {data.get('game')!r}, not {game.spec.id!r}")
        state = cls(game, data["seed"])
        state.rng_draws = int(data["rng_draws"])
        state.log = log_from_json(data["log"])
        state._load_payload(copy.deepcopy(data["payload"]))
        return state

    def clone(self) -> State:
        """A copy equal to this state's JSON round trip, ``from_json(game, json.loads(json.dumps(to_json())))``, made
        without the text: searches clone at every step. The payload is copied as JSON would rebuild it
        (``jsoncopy.json_copy``), and the log's records, frozen values, are shared rather than rebuilt (the log grows
        with every action, so rebuilding it made a clone cost grow with the game's length). A state class that writes
        or reads its own JSON (overriding ``to_json`` or ``from_json``) is cloned through that JSON, as before. A
        clone of a sample is marked as its sample (``sampled_for``)."""
        cls = type(self)
        if cls.to_json is not State.to_json or cls.from_json.__func__ is not State.from_json.__func__:
            state = cls.from_json(self.game, json.loads(json.dumps(self.to_json())))
        else:
            state = cls(self.game, self.seed)
            state.rng_draws = int(self.rng_draws)
            state.log = list(self.log)
            state._load_payload(json_copy(self._payload()))  # a fresh copy already: from_json's deep copy not needed
        state.sampled_for = self.sampled_for
        return state

    def winner(self) -> int | None:
        """The seat with the strictly highest terminal score, or None (draw, or not over)."""
        if not self.is_terminal():
            return None
        return winner_of(self.scores())


def winner_of(scores: Sequence[float]) -> int | None:
    """The seat with the strictly highest score, or None (a tie)."""
    best = max(scores)
    leaders = [i for i, s in enumerate(scores) if s == best]
    return leaders[0] if len(leaders) == 1 else None
