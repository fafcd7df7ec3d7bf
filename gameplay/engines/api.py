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
"""

from __future__ import annotations

import copy
import json
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from .jsoncopy import json_copy
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


class Game(ABC):
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

    def observation_image(self, observation: Observation, *, coords: bool = False) -> bytes | None:
        """An optional PNG of an observation (for people and vision-capable agents); ``spec.has_image``.

        It takes the observation, not the state, so an image can never show more than
        the seat may see. ``coords`` asks for cell labels; a game whose pictures have none to draw ignores it
        (still a PNG). Default: this game has no image.
        """
        return None

    def chat_enabled(self) -> bool:
        """Whether players may chat in a match with these options. Default: ``spec.has_chat``."""
        return self.spec.has_chat

    def frames_per_second(self) -> int:
        """Frames the game plays per second of real time (``spec.realtime``); 0 for games without a clock."""
        return 0

    def live_play(self) -> bool:
        """Whether a match with people in it runs on the clock (``spec.realtime``): the platform then plays a
        decision point every ``State.frames_per_decision()`` frames whatever the seats do, with each person's held
        input as their choice. Off (or without a clock), every decision point waits for all its seats."""
        return self.spec.realtime

    def options_for_live_play(self) -> dict[str, Any]:
        """The options a match takes when it runs live with a person at the table (``live_play``, gameplay.live):
        the platform creates such a match with these instead. A person's key shows only from the next decision
        point on, so a realtime game may hold each choice for fewer frames live than in turn-based play, where
        every decision point waits for a slow agent. Default: the options as they are."""
        return dict(self.options)

    def next_round_options(self) -> dict | None:
        """Options of the round after this one (``spec.round_sequence``); None after the last round or for
        games without rounds."""
        return None

    def replay(self, seed: int, log: Sequence[ActionRecord]) -> State:
        """Rebuild a state exactly from its seed and action log."""
        state = self.new_initial_state(seed)
        for record in log:
            state.apply_action(record.seat, record.action_id, record.text)
        return state


class State(SearchHooks, ABC):
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

    # --- optional hooks, each with a default (declared on GameSpec where a capability) -----------
    def action_labels(self, seat: int, action_id: str, text: str | None = None) -> ActionLabels:
        """How the action ``seat`` is about to take reads to each seat and to the public.

        Called on the state BEFORE the action is applied (labels describe the state they act on).
        Default: the action's own label (plus its text, for a text action) for every viewer; a game
        with hidden information overrides this so no viewer's label carries another seat's secret.
        """
        label = action_id
        for action in self.legal_actions(seat):
            if action.id == action_id:
                label = action.label
                break
        else:
            for spec in self.text_actions(seat):
                if spec.id == action_id:
                    label = f"{spec.label}: {text}" if text is not None else spec.label
                    break
        return ActionLabels(by_seat=tuple(label for _ in range(self.game.num_seats)), public=label)

    def record_message(self, seat: int, text: str) -> None:
        """Keep a chat message in the state (``spec.chat_in_state``); raise EngineError to refuse it.

        Default: chat is not part of the state, so nothing is stored.
        """
        return None

    def chat_audience(self, seat: int) -> tuple[int, ...] | None:
        """The seats that may read a chat line ``seat`` posts now (``spec.team_chat``): the sender and its team, say;
        None for everyone (spectators and replays included). Default None."""
        return None

    def may_chat(self, seat: int) -> bool:
        """Whether ``seat`` may post a chat line now (``spec.team_chat``); default True."""
        return True

    def result_teams(self) -> list[int]:
        """Team index per seat as the teams stand when the game ends, for the ratings (a team's result counts for
        each member). Games whose camps are hidden during play (``Game.teams()`` is then one team per seat) reveal
        them here. Default: ``self.game.teams()``."""
        return self.game.teams()

    def parse_move(self, text: str) -> str:
        """The action id of a move typed in the game's notation (``spec.typed_moves``).

        Raise IllegalActionError when the text is not a legal move. Default: no notation.
        """
        raise IllegalActionError(f"{self.game.spec.name} does not accept typed moves")

    # --- realtime hooks (``spec.realtime``) ----------------------------------------------------------
    def frames_per_decision(self) -> int:
        """Frames between two decision points; 0 for games without a clock."""
        return 0

    def idle_action(self, seat: int) -> str | None:
        """The legal action a seat that has not chosen in time takes (e.g. keep holding the last one); None for
        games without a clock, where the platform's own fallback applies."""
        return None

    def keep_frames(self, keep: bool) -> None:
        """Ask the state to keep the frames each decision point plays, for ``take_frames`` (a live stream)."""
        return None

    def take_frames(self) -> list[bytes]:
        """PNG images of the frames the last decision point played while ``keep_frames`` was on, oldest first,
        then forgotten. Only public pictures: they go to every viewer. Default: none."""
        return []

    def result_text(self) -> str | None:
        """A sentence describing how a finished game ended (e.g. for cooperative games); default None."""
        return None

    def end_reason(self) -> str | None:
        """Why a finished game ended, in one or two sentences any seat may read: "Black's queen is surrounded.",
        "Player 1 has no legal move.", "The turn cap of 100 turns was reached; Red has more victory points." The
        page says who won from the scores and adds this, so every ending says who won and why. None before the end.
        Every game gives one for every way it can end (conformance checks every finished playout); it never names
        what a seat may not know yet at the end (a hidden card still hidden)."""
        return None

    def measures(self, seat: int) -> dict[str, Any]:
        """Values of the declared ``spec.measures`` for ``seat`` (name -> number, bool or None). Default: none."""
        return {}

    def resignation_scores(self, seat: int) -> list[float]:
        """The scores of the game when ``seat`` resigns it (every game can be resigned; the platform ends the
        match with these). Default: the resigning seat's team gets 0 and the other seats share 1 equally; in a
        cooperative game (one team) everyone shares the outcome of a game given up, which is the even split
        ``scores`` gives. Engines whose rules score a resignation otherwise override this."""
        teams = self.game.teams()
        winners = [i for i, team in enumerate(teams) if team != teams[seat]]
        if not winners:
            return [1.0 / len(teams)] * len(teams)
        return [1.0 / len(winners) if i in winners else 0.0 for i in range(len(teams))]

    def agreed_draw_scores(self) -> list[float]:
        """The scores of a draw the players agreed (``spec.draw_by_agreement``): every seat an even share.
        Engines whose rules score an agreed draw otherwise override this."""
        seats = self.game.num_seats
        return [1.0 / seats] * seats

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

    def concurrent_view_start(self, seat: int, action_id: str) -> int:
        """For ``spec.concurrent_actions``: how many logged actions ``seat``'s view must already include for
        ``action_id`` chosen on it to count once other seats have overtaken it. Default 0 (any such view counts if the
        action is legal); Pit answers the actions before the current hand's deal (a click made on the previous hand's
        cards never lands on the new hand) or, to take an offer, before that offer was made."""
        return 0

    # --- turn timer (``spec.turn_timer``) -------------------------------------------------------------------
    def time_limit(self, seat: int) -> int:
        """Seconds ``seat`` has for its current decision, counted by the platform from when the decision started
        (``Match.turn_started_at``); 0 for no limit. Default 0."""
        return 0

    def timeout_action(self, seat: int) -> tuple[str, str | None] | None:
        """The action (id, text or None) the platform applies for ``seat`` when its ``time_limit`` has run out: it
        must be legal now (the conformance suite applies it to a copy wherever a limit is set). Default None."""
        return None

    # --- judged dialogue games (``spec.dialogue.judged``) ----------------------------------------------------
    def awaiting_verdict(self) -> bool:
        """True when every message is in and the outcome waits for a judge: no seat is current, yet the state is
        not terminal until ``apply_verdict``."""
        return False

    def verdict_request(self) -> tuple[str, tuple[str, ...]]:
        """What a judge reads (public text only: the whole exchange and the question) and the verdicts it may give."""
        raise EngineError(f"{self.game.spec.name} has no judge")

    def fallback_verdict(self) -> str:
        """The verdict of the game's deterministic rule, used when no judge model gives a valid one."""
        raise EngineError(f"{self.game.spec.name} has no judge")

    def apply_verdict(self, verdict: str, source: str) -> None:
        """Apply a verdict (``source`` says who gave it: a model's name or "rule"); it is logged like an action so
        replay reproduces it. Raises IllegalActionError for a verdict not offered or when none is awaited."""
        raise EngineError(f"{self.game.spec.name} has no judge")


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
