"""Hive (base game plus the Mosquito, Ladybug and Pillbug expansions) as a pure engine.

Action ids are canonical UHP move strings ("wS1", "bS1 wS1-", "wB1 bQ", "pass"); ``apply_action``
also accepts any equivalent UHP string and logs the canonical one. The rules themselves live in
core.py (position, move generation) and moves.py (per-bug movement).
"""

from __future__ import annotations

from collections.abc import Mapping
from operator import attrgetter
from typing import Any

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
from .board import cell_text, parse_cell, qr
from .core import (
    BLACK_WINS,
    COLOUR_NAMES,
    DRAW,
    PASS,
    WHITE_WINS,
    Position,
    bugs_in_game,
)
from .evaluation import evaluate
from .rules import RULES
from .textview import board_lines, render_text
from .uhp import describe_all, game_type_string, move_ids, move_string, parse_move

# The rules topic of each bug, by its letter in the piece names (wQ, bS1, ...).
_BUG_TOPICS = {
    "Q": "queen", "S": "spider", "B": "beetle", "G": "grasshopper", "A": "ant", "M": "mosquito", "L": "ladybug",
    "P": "pillbug",
}

_action_id = attrgetter("id")

HARD_CAP = 500  # turns, when max_turns is 0
GAMEBENCH_TURNS = 250
MAX_TURN_LIMIT = 5000


class HiveState(State):
    def __init__(self, game: Game, seed: int):
        super().__init__(game, seed)
        self.pos = Position(game.expansions, game.beetles, game.turn_limit)
        self.last_from: int | None = None
        self.last_to: int | None = None
        self._cache: tuple[int, list[Action], dict[str, tuple]] | None = None
        self._ids: tuple[int, list[str], dict[str, tuple]] | None = None  # the same moves without labels (searches)
        self._view: tuple[int, dict, list[str]] | None = None  # seat-independent observation parts

    @property
    def moves_played(self) -> list[str]:
        """Canonical UHP strings of the moves so far (the action log holds exactly these)."""
        return [r.action_id for r in self.log]

    # --- legal moves ---------------------------------------------------------------------------
    def _legal(self) -> tuple[list[Action], dict[str, tuple]]:
        pos = self.pos
        if self._cache is None or self._cache[0] != pos.ply:
            by_id: dict[str, tuple] = {}
            actions = []
            moves = pos.moves()
            for (aid, label, parts), move in zip(describe_all(pos, moves), moves, strict=True):
                by_id[aid] = move
                piece, src, dst = move
                if src is not None:
                    path: tuple[str, ...] = (cell_text(src), cell_text(dst))
                elif dst is not None:
                    path = (f"hand:{piece[:2]}", cell_text(dst))
                else:  # the pass
                    path = ()
                actions.append(Action(aid, label, path, parts))
            actions.sort(key=_action_id)
            self._cache = (pos.ply, actions, by_id)
        return self._cache[1], self._cache[2]

    def _moves_by_id(self) -> dict[str, tuple]:
        """Legal move per canonical id, from the labelled cache when there is one, else built without labels."""
        pos = self.pos
        if self._cache is not None and self._cache[0] == pos.ply:
            return self._cache[2]
        if self._ids is None or self._ids[0] != pos.ply:
            moves = pos.moves()
            by_id = dict(zip(move_ids(pos, moves), moves, strict=True))
            self._ids = (pos.ply, sorted(by_id), by_id)
        return self._ids[2]

    def legal_action_ids(self, seat: int) -> list[str]:
        if self.pos.is_over() or seat != self.pos.ply % 2:
            return []
        if self._cache is not None and self._cache[0] == self.pos.ply:
            return [action.id for action in self._cache[1]]
        self._moves_by_id()
        return list(self._ids[1])

    def current_seats(self) -> list[int]:
        return [] if self.pos.is_over() else [self.pos.ply % 2]

    def rule_topics(self, seat: int, action_id: str) -> tuple[str, ...]:
        move = self._moves_by_id().get(action_id) if seat in self.current_seats() else None
        if move is None:
            return ()
        if move == PASS:
            return ("passing",)
        piece, src, _dst = move
        if src is None:
            return ("placement", "notation")
        topics = (_BUG_TOPICS[piece[1]], "one_hive", "freedom_to_move", "notation")
        if piece[0] != "wb"[seat]:  # the other side's piece: moved by a Pillbug's (or a Mosquito's) special ability
            topics += ("pillbug",)
        return topics

    def legal_actions(self, seat: int) -> list[Action]:
        if self.pos.is_over() or seat != self.pos.ply % 2:
            return []
        return list(self._legal()[0])

    def apply_action(self, seat: int, action_id: str, text: str | None = None) -> None:
        """As in State, but an equivalent UHP string (e.g. another reference piece) is accepted too; the log holds
        its canonical id."""
        if self._needs_normalising(seat, action_id):
            action_id = normalise_move(self, action_id)
        super().apply_action(seat, action_id, text)

    def action_labels(self, seat: int, action_id: str, text: str | None = None) -> ActionLabels:
        """As in State, for the canonical move an equivalent UHP string denotes: the stored event reads the move's own
        label, never the text as typed (``"wA1 "`` once became the label of a placement). A string that denotes no
        legal move keeps the default label: apply_action refuses it, so that label is never stored."""
        if self._needs_normalising(seat, action_id):
            try:
                action_id = normalise_move(self, action_id)
            except IllegalActionError:
                pass
        return super().action_labels(seat, action_id, text)

    def _needs_normalising(self, seat: int, action_id: str) -> bool:
        """Whether ``action_id`` may be another spelling of one of ``seat``'s legal moves (not a canonical id)."""
        return not self.is_terminal() and seat in self.current_seats() and action_id not in self._moves_by_id()

    def parse_move(self, text: str) -> str:
        """The canonical action id for any valid UHP string of a legal move (``spec.typed_moves`` is "UHP");
        IllegalActionError for anything else (see normalise_move)."""
        return normalise_move(self, text)

    def _apply(self, seat: int, action_id: str, text: str | None) -> None:
        move = self._moves_by_id()[action_id]
        self.last_from, self.last_to = move[1], move[2]
        self.pos.play(move)
        self._cache = self._ids = self._view = None

    # --- outcome -------------------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.pos.is_over()

    def scores(self) -> list[float]:
        status = self.pos.status
        if status == WHITE_WINS:
            return [1.0, 0.0]
        if status == BLACK_WINS:
            return [0.0, 1.0]
        return [0.5, 0.5]

    def evaluation(self) -> list[float]:
        """Estimated scores of an unfinished game from the pressure on each queen, its freedom and the pieces free to
        move or still in hand (``evaluation.py``); the scores once it is over."""
        return evaluate(self.pos)

    def result_text(self) -> str | None:
        pos = self.pos
        if pos.status == WHITE_WINS:
            return "White wins: Black's queen is surrounded."
        if pos.status == BLACK_WINS:
            return "Black wins: White's queen is surrounded."
        if pos.status == DRAW:
            if pos.queen_surrounded("w") and pos.queen_surrounded("b"):
                return "Draw: both queens were surrounded by the same move."
            return f"Draw: the turn limit of {pos.limit} turns was reached."
        return None

    def end_reason(self) -> str | None:
        """Why the game ended (see State.end_reason): a queen surrounded, both at once, or the turn limit."""
        pos = self.pos
        if not pos.is_over():
            return None
        if pos.status in (WHITE_WINS, BLACK_WINS):
            loser = "b" if pos.status == WHITE_WINS else "w"
            return f"{COLOUR_NAMES[loser]}'s queen is surrounded on all six sides."
        if pos.queen_surrounded("w") and pos.queen_surrounded("b"):
            return "Both queens were surrounded by the same move."
        if pos.limit and pos.ply >= pos.limit:
            return f"The turn limit of {pos.limit} turns was reached with no winner."
        return "The game was drawn."  # not reached by play (only by a saved state edited by hand)

    def measures(self, seat: int) -> dict[str, Any]:
        """See ``HiveGame.spec.measures``; the same for both seats."""
        return {"turns": self.pos.ply}

    # --- views -----------------------------------------------------------------------------------
    def observation(self, seat: int | None) -> Observation:
        base, board = self._public_view()
        # Fresh containers per call, so a caller editing its data cannot alter the cached view.
        data = dict(
            base, you=seat,
            pieces=[dict(p) for p in base["pieces"]],
            hands={c: [list(h) for h in hs] for c, hs in base["hands"].items()},
            pinned=list(base["pinned"]),
            last_from=list(base["last_from"]) if base["last_from"] is not None else None,
            last_to=list(base["last_to"]) if base["last_to"] is not None else None,
        )
        names = (self.game.seat_name(0), self.game.seat_name(1))
        return Observation(seat, data, render_text(data, names, board))

    def _public_view(self) -> tuple[dict, list[str]]:
        """Observation data without "you" plus the text board, built once per position."""
        pos = self.pos
        if self._view is not None and self._view[0] == pos.ply:
            return self._view[1], self._view[2]
        pieces = []
        for c, stack in pos.stacks.items():
            q, r = qr(c)
            for h, piece in enumerate(stack):
                pieces.append({
                    "id": piece, "color": piece[0], "bug": piece[1], "q": q, "r": r,
                    "height": h, "top": h == len(stack) - 1,
                })
        pieces.sort(key=lambda p: (p["r"], p["q"], p["height"]))
        hands = {}
        for colour in ("w", "b"):
            left = [p[1] for p in pos.hand(colour)]
            hands[colour] = [[bug, left.count(bug)] for bug in bugs_in_game(pos.expansions, pos.beetles)]
        over = pos.is_over()
        pinned = []
        if "P" in pos.expansions and pos.last_moved and not over:
            pinned = [pos.last_moved]
        data = {
            "pieces": pieces,
            "hands": hands,
            "to_move": None if over else pos.ply % 2,
            "you": None,
            "turn": pos.turn_number,
            "turns_played": pos.ply,
            "max_turns": pos.limit,
            "last_move": self.log[-1].action_id if self.log else None,
            "last_from": list(qr(self.last_from)) if self.last_from is not None else None,
            "last_to": list(qr(self.last_to)) if self.last_to is not None else None,
            "status": pos.status,
            "game_string": game_string(self),
            "expansions": pos.expansions,
            "beetles": pos.beetles,
            "pinned": pinned,
            "result": self.result_text(),
        }
        board = board_lines(pieces)
        self._view = (pos.ply, data, board)
        return data, board

    # --- persistence ----------------------------------------------------------------------------
    def _payload(self) -> dict:
        pos = self.pos
        return {
            "stacks": {cell_text(c): list(s) for c, s in sorted(pos.stacks.items())},
            "ply": pos.ply,
            "last_moved": pos.last_moved,
            "status": pos.status,
            "last_from": cell_text(self.last_from) if self.last_from is not None else None,
            "last_to": cell_text(self.last_to) if self.last_to is not None else None,
        }

    def _load_payload(self, payload: Mapping[str, Any]) -> None:
        pos = self.pos
        pos.stacks = {parse_cell(k): list(v) for k, v in payload["stacks"].items()}
        pos.where = {p: c for c, s in pos.stacks.items() for p in s}
        pos.ply = int(payload["ply"])
        pos.last_moved = payload["last_moved"]
        pos.status = payload["status"]
        pos.history = []
        self.last_from = parse_cell(payload["last_from"]) if payload["last_from"] is not None else None
        self.last_to = parse_cell(payload["last_to"]) if payload["last_to"] is not None else None
        self._cache = self._view = None


class HiveGame(Game):
    spec = GameSpec(
        id="hive",
        name="Hive",
        description=(
            "Two players place and move bug tiles on a growing hive of hexagons; surround the "
            "opponent's queen bee on all six sides to win. Optional Mosquito, Ladybug and Pillbug."
        ),
        min_seats=2,
        max_seats=2,
        reasoning_categories=("abstract_strategy",),
        perfect_information=True,
        has_evaluation=True,
        # A move is chosen as (which piece, where to): late in a game there are a hundred moves and more.
        composed_actions=True,
        seat_names=("White", "Black"),
        typed_moves="UHP",
        has_image=True,
        # The rules allow a draw by mutual consent (typically when both sides can only repeat moves for ever).
        draw_by_agreement=True,
        measures=(
            MeasureSpec("turns", "Turns played by both players (plies: each placement, movement or pass)."),
        ),
        options=(
            OptionSpec("mosquito", False, "Add the Mosquito (copies the movement of the bugs it touches).",
                       label="Mosquito"),
            OptionSpec("ladybug", False, "Add the Ladybug (two steps over the top of the hive, then one down).",
                       label="Ladybug"),
            OptionSpec(
                "pillbug", False,
                "Add the Pillbug (walks like a queen, or lifts a neighbouring piece over itself).",
                label="Pillbug",
            ),
            OptionSpec(
                "max_turns", 0,
                f"Draw once this many turns have been played in total (each player's move or pass is one "
                f"turn). 0 = no limit of your own: the game is still drawn at the hard cap of {HARD_CAP} "
                f"turns. At most {MAX_TURN_LIMIT}.",
                type=int, bounds=(0, MAX_TURN_LIMIT), short_value=30,
                label="Turn cap",
            ),
            OptionSpec(
                "gamebench", False,
                f"GameBench preset (the benchmark's variant): no beetles in either set, and a draw after "
                f"{GAMEBENCH_TURNS} turns (max_turns {GAMEBENCH_TURNS} unless max_turns is set).",
                label="GameBench preset",
            ),
        ),
    )
    state_class = HiveState
    rules = RULES

    def observation_image(self, observation, *, coords: bool = False) -> bytes:
        """The board as a PNG, drawn from the observation alone (for people and vision agents)."""
        from .render import observation_png

        return observation_png(observation, coords=coords)

    def __init__(self, options: Mapping[str, Any] | None = None, num_seats: int | None = None):
        super().__init__(options, num_seats)
        self.expansions = "".join(
            letter for letter, name in (("M", "mosquito"), ("L", "ladybug"), ("P", "pillbug"))
            if self.options[name]
        )
        self.beetles = not self.options["gamebench"]
        self.turn_limit = self.options["max_turns"] or (GAMEBENCH_TURNS if self.options["gamebench"] else HARD_CAP)

    def max_actions(self) -> int:
        # Every action is one turn (a placement, a movement or a pass) and the position is a draw
        # as soon as turn_limit turns have been played, so no playout has more actions.
        return self.turn_limit


def normalise_move(state: HiveState, text: str) -> str:
    """The canonical action id of any valid UHP string for a legal move; IllegalActionError otherwise."""
    return move_string(state.pos, parse_move(state.pos, text))


def game_string(state: HiveState) -> str:
    """UHP GameString, e.g. "Base+MLP;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1"."""
    pos = state.pos
    head = f"{game_type_string(pos.expansions)};{pos.status};{COLOUR_NAMES[pos.colour]}[{pos.turn_number}]"
    return ";".join([head, *state.moves_played])

