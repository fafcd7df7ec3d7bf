"""Gnomes at Night (seeds/003 testbed) as a pure engine: a cooperative shared-control maze.

Two seats move one token on a 9x9 grid. Seat ``s`` sees side ``s`` of the board, and a move by seat ``s`` is
judged by side ``s``'s walls only: that asymmetry is the whole game. The treasure of the chosen round is drawn
on one side; the round ends when the token reaches it or after ``turn_cap`` moves.

Chat is not an action: the spec declares ``chat_in_state``, so ``GnomesState.record_message`` stores messages in
the state (they survive JSON round trips and reach both seats' observations), but ``Game.replay(seed, log)``
rebuilds the moves only. The match service keeps chat as events of its own and feeds them back through
``record_message`` when it rebuilds a state. ``chat_enabled()`` follows the "chat" option (off for the mute
condition of a study). The public move history is not
stored in the payload either: it is rebuilt from the action log, which every ``to_json`` carries.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, ClassVar

from ..api import (
    Action,
    ActionLabels,
    Game,
    GameSpec,
    IllegalActionError,
    MeasureSpec,
    Observation,
    OptionSpec,
    State,
)
from .layouts import ROUND_NUMBERS, default_layouts
from .maze import ACTIONS, Cell
from .rules import RULES
from .text import observation_text, result_sentence

ACTION_LABELS: dict[str, str] = {
    "stay": "Stay", "right": "Right →", "up": "Up ↑", "left": "Left ←", "down": "Down ↓",
}
# How a move that left the token where it was reads to everyone but its mover (option partner_attempts off).
UNMOVED_LABEL = "Did not move the token"
# Rewards are kept in integer tenths so that sums never drift (0.1 is not exact in binary floating point).
STEP_TENTHS = -1
WALL_HIT_TENTHS = -5
TREASURE_TENTHS = 200
TURN_CAP_RANGE = (1, 1000)

PLAYING, FOUND, OUT_OF_TURNS = "playing", "found", "out_of_turns"


def _move_record(seat: int, action_id: str, start: Cell, end: Cell, number: int) -> dict[str, Any]:
    """One public history entry; ``turn`` is the move's number, 1-based (moves made once it is applied)."""
    return {"seat": seat, "action": action_id, "from": list(start), "to": list(end), "moved": end != start,
            "turn": number}


class GnomesState(State):
    MAX_MESSAGE_LENGTH: ClassVar[int] = 500

    game: GnomesGame

    def __init__(self, game: GnomesGame, seed: int):
        super().__init__(game, seed)
        self.token: Cell = game.layouts.start
        self.to_move: int | None = game.options["first_seat"]
        self.turn = 0  # moves made so far
        self.wall_hits = 0
        self.reward_tenths = 0
        self.status = PLAYING
        # Public move records: both players see the token and which move was attempted.
        self.history: list[dict[str, Any]] = []
        self.chat: list[dict[str, Any]] = []

    # --- derived values ----------------------------------------------------------
    @property
    def reward(self) -> float:
        """The team's common reward so far, exact to one decimal place."""
        return self.reward_tenths / 10

    def result_text(self) -> str:
        """How the round ended and why (the page's status line shows it: everyone wins or loses together)."""
        return result_sentence(self.status, self.turn, self.wall_hits)

    def end_reason(self) -> str | None:
        """Why the round ended: the treasure found, or the move cap reached (never where an unfound treasure is)."""
        return self.result_text() if self.status != PLAYING else None

    def measures(self, seat: int) -> dict[str, Any]:
        """The team's outcome, the same for both seats (the game is cooperative): see ``GnomesGame.spec``."""
        return {"turns": self.turn, "wall_hits": self.wall_hits, "success": self.status == FOUND}

    # --- contract ------------------------------------------------------------------
    def current_seats(self) -> list[int]:
        return [self.to_move] if self.status == PLAYING else []

    def legal_actions(self, seat: int) -> list[Action]:
        if self.status != PLAYING or seat != self.to_move:
            return []
        # Every direction is offered even when the mover's side walls it off: trying is legal, it just costs.
        return [Action(a, ACTION_LABELS[a]) for a in ACTIONS]

    def _apply(self, seat: int, action_id: str, text: str | None) -> None:
        start = self.token
        self.token, blocked = self.game.mazes[seat].step(start, action_id)
        self.history.append(_move_record(seat, action_id, start, self.token, self.turn + 1))
        self.turn += 1
        self.reward_tenths += STEP_TENTHS
        if blocked:
            self.wall_hits += 1
            self.reward_tenths += WALL_HIT_TENTHS
        if self.token == self.game.round_spec.treasure:
            self.reward_tenths += TREASURE_TENTHS
            self.status, self.to_move = FOUND, None
        elif self.turn >= self.game.options["turn_cap"]:
            self.status, self.to_move = OUT_OF_TURNS, None
        else:
            self.to_move = 1 - seat

    def is_terminal(self) -> bool:
        return self.status != PLAYING

    def scores(self) -> list[float]:
        # Cooperative: both seats always share the outcome, and the platform wants a vector summing to 1.
        return [0.5, 0.5]

    # --- chat ------------------------------------------------------------------------
    def record_message(self, seat: int, text: str) -> None:
        """Store a chat message from ``seat``; it is not a move, so turn, control and the log are untouched."""
        if isinstance(seat, bool) or seat not in (0, 1):
            raise IllegalActionError(f"seat must be 0 or 1, got {seat!r}")
        if not isinstance(text, str):
            raise IllegalActionError(f"a chat message must be text, got {type(text).__name__}")
        text = text.strip()
        if not text:
            raise IllegalActionError("a chat message cannot be empty")
        if len(text) > self.MAX_MESSAGE_LENGTH:
            raise IllegalActionError(
                f"a chat message can be at most {self.MAX_MESSAGE_LENGTH} characters, got {len(text)}"
            )
        if self.status != PLAYING:
            raise IllegalActionError("the round is over; no more chat messages")
        if not self.game.options["chat"]:
            raise IllegalActionError("chat is off in this round")
        self.chat.append({"seat": int(seat), "text": text, "turn": self.turn})

    # --- what each seat sees -----------------------------------------------------------
    def _treasure_visible(self, seat: int | None) -> bool:
        if self.status == FOUND:
            return True  # the token sits on it, so everyone knows where it was
        return seat is not None and seat == self.game.round_spec.seen_by

    def _as_seen_by(self, move: dict[str, Any], seat: int | None) -> dict[str, Any]:
        """A move record as ``seat`` may know it. The mover knows what it tried; everyone else sees the token, so
        a move that left it where it was reads as such (its direction unknown: a stay, or a move into a wall on
        the mover's side), unless the ``partner_attempts`` option shows every attempt."""
        if move["seat"] == seat or move["moved"] or self.game.options["partner_attempts"]:
            return dict(move)
        return {**move, "action": None}

    def action_labels(self, seat: int, action_id: str, text: str | None = None) -> ActionLabels:
        """The mover reads its own move; the others (and the public) read what they see of it (``_as_seen_by``):
        a move that will not move the token is "did not move the token" unless ``partner_attempts`` is on."""
        own = ACTION_LABELS.get(action_id, action_id)
        if self.game.options["partner_attempts"] or action_id not in ACTION_LABELS:
            return ActionLabels(by_seat=(own, own), public=own)
        after, _ = self.game.mazes[seat].step(self.token, action_id)
        seen = own if after != self.token else UNMOVED_LABEL
        return ActionLabels(by_seat=tuple(own if s == seat else seen for s in (0, 1)), public=seen)

    def rule_topics(self, seat: int, action_id: str) -> tuple[str, ...]:
        return ("moves", "walls") if any(a.id == action_id for a in self.legal_actions(seat)) else ()

    def observation(self, seat: int | None) -> Observation:
        if seat not in (0, 1, None):
            raise ValueError(f"no seat {seat!r} in a two-seat game")
        visible = self._treasure_visible(seat)
        last_partner = None
        if seat is not None:
            last_partner = next((m for m in reversed(self.history) if m["seat"] != seat), None)
            last_partner = self._as_seen_by(last_partner, seat) if last_partner else None
        data = {
            "round": self.game.options["round"],
            "size": self.game.layouts.size,
            "side": seat,
            "token": list(self.token),
            "start": list(self.game.layouts.start),
            "to_move": self.to_move,
            "my_turn": seat is not None and seat == self.to_move,
            "walls": sorted(self.game.mazes[seat].walls) if seat is not None else [],
            "treasure": list(self.game.round_spec.treasure) if visible else None,
            "treasure_visible": visible,
            "turn": self.turn,
            "turn_cap": self.game.options["turn_cap"],
            "steps": self.turn,
            "wall_hits": self.wall_hits,
            "reward": self.reward,
            "history": [self._as_seen_by(m, seat) for m in self.history],
            "last_partner_move": last_partner,
            "partner_attempts": self.game.options["partner_attempts"],
            # Spectators get chat from the match log instead.
            "chat": [dict(m) for m in self.chat] if seat is not None else [],
            "status": self.status,
            "show_hints": self.game.options["show_hints"],
        }
        names = [self.game.seat_name(s) for s in range(2)]
        return Observation(seat, data, observation_text(data, names))

    def secrets(self) -> dict[int, list[str]]:
        """Per side: its walls the other side lacks, plus its treasure entry while the treasure is still hidden."""
        walls = self.game.layouts.walls
        result = {s: sorted(walls[s] - walls[1 - s]) for s in (0, 1)}
        if self.status == PLAYING:
            spec = self.game.round_spec
            # Exactly how the entry looks inside a json.dumps'd observation, so a substring search finds a leak.
            result[spec.seen_by].append(json.dumps({"treasure": list(spec.treasure)})[1:-1])
        return result

    # --- persistence -----------------------------------------------------------------
    PAYLOAD_FIELDS = ("to_move", "turn", "wall_hits", "reward_tenths", "status", "chat")

    def _payload(self) -> dict:
        return {**super()._payload(), "token": list(self.token)}

    def _load_payload(self, payload: Mapping[str, Any]) -> None:
        super()._load_payload(payload)
        x, y = payload["token"]
        self.token = (int(x), int(y))
        self.history = self._history_from_log()

    def _history_from_log(self) -> list[dict[str, Any]]:
        """The move records, rebuilt from the log that ``to_json`` always carries.

        Moves are deterministic, so the log already says everything the history does; keeping the history
        out of the payload keeps JSON round trips cheap (the base class deep-copies the payload).
        """
        history, cell = [], self.game.layouts.start
        for number, record in enumerate(self.log, start=1):
            after, _ = self.game.mazes[record.seat].step(cell, record.action_id)
            history.append(_move_record(record.seat, record.action_id, cell, after, number))
            cell = after
        return history


class GnomesGame(Game):
    spec = GameSpec(
        id="gnomes",
        name="Gnomes at Night",
        description=(
            "Two players share control of one token in a 9x9 maze whose two sides have different walls, "
            "and talk to each other to reach a treasure only one of them can see."
        ),
        min_seats=2,
        max_seats=2,
        reasoning_categories=("hidden_information", "cooperation"),
        perfect_information=False,
        simultaneous=False,
        has_chance=False,
        has_chat=True,
        options=(
            OptionSpec("round", 1, "Round 1-5 of the testbed: picks the treasure and which player sees it.",
                       type=int, choices=ROUND_NUMBERS, label="Round"),
            OptionSpec("first_seat", 0, "Which seat moves first (0 = Gnome A, 1 = Gnome B).",
                       type=int, choices=(0, 1), label="Who moves first"),
            OptionSpec("turn_cap", 200, "Moves allowed before the round ends without the treasure (1-1000).",
                       type=int, bounds=TURN_CAP_RANGE, short_value=20, label="Move cap"),
            OptionSpec("chat", True, "Players may chat (off for the mute control condition of a study).",
                       type=bool, label="Chat"),
            OptionSpec("show_hints", False, "Show people hints on how to talk to an agent partner (UI only).",
                       type=bool, label="Show hints on talking to an agent"),
            OptionSpec(
                "partner_attempts", False,
                "Show each player the direction their partner tried when the token did not move (a stay, or a "
                "move into a wall on the partner's side), as GameBench's observation does. Off, as in the "
                "testbed: a player sees the token and their own walls only, so a partner who left the token "
                "where it was may have stayed or hit a wall.",
                type=bool,
                label="Show the partner's blocked moves",
            ),
        ),
        seat_names=("Gnome A", "Gnome B"),
        chat_in_state=True,
        round_sequence=True,
        goal_measure="success",
        measures=(
            MeasureSpec(
                "turns", "Moves made in the round by both players (each move is one turn).", until_goal=True
            ),
            MeasureSpec("wall_hits", "Moves blocked by a wall on the mover's side (the team's total)."),
            MeasureSpec("success", "The treasure was found before the turn cap.", kind="bool"),
        ),
    )
    state_class = GnomesState
    rules = RULES

    def __init__(self, options: Mapping[str, Any] | None = None, num_seats: int | None = None):
        super().__init__(options, num_seats)
        self.layouts = default_layouts()
        self.round_spec = self.layouts.round(self.options["round"])
        self.mazes = (self.layouts.maze(0), self.layouts.maze(1))

    def max_actions(self) -> int:
        # Every action is a move and the round ends after turn_cap moves at the latest.
        return self.options["turn_cap"]

    def teams(self) -> list[int]:
        return [0, 0]

    def chat_enabled(self) -> bool:
        """Chat follows the "chat" option (off for a study's mute control condition)."""
        return bool(self.options["chat"])

    def next_round_options(self) -> dict | None:
        """Options for the next round of the five-round sequence (None after the last round)."""
        number = self.options["round"]
        if number >= ROUND_NUMBERS[-1]:
            return None
        return {**self.options, "round": number + 1}
