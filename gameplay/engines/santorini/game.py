"""Santorini (base game, no god powers) as a pure engine: the state, its legal moves and their effects, and the
game's options. The board's geometry is board.py's; every sentence (labels, the board as text, the ending) is
text.py's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..api import Action, Game, GameSpec, MeasureSpec, Observation, OptionSpec, State
from .board import DOME, INDEX, NAMES, NEIGHBOURS, SIZE, WORKER_IDS
from .evaluation import evaluate
from .rules import RULES
from .text import SantoriniText

# The highest turn cap an option may set: no game reaches it, as every turn adds a level and the board holds at most
# 96 (see SantoriniGame.max_actions).
MAX_TURNS_BOUND = 100


class SantoriniState(SantoriniText, State):
    def __init__(self, game: Game, seed: int):
        super().__init__(game, seed)
        self.levels = [0] * (SIZE * SIZE)
        # workers[seat][k] is the cell of worker WORKER_IDS[k]; placement order fixes the ids.
        self.workers: list[list[int]] = [[], []]
        self.phase = "place"
        self.to_move: int | None = 0
        self.moved: int | None = None  # cell of the worker that moved, during the build phase
        self.turns_taken = [0, 0]  # per seat; drives the alternate_workers variant
        self.turn = 0
        self.winner_seat: int | None = None  # not "winner": State.winner() is a method
        # How the game ended (end_reason): "climb" (a worker moved onto level 3), "stuck" (the seat to move had no
        # legal move) or "cap" (the turn cap); None while it runs.
        self.ending: str | None = None
        self.last_action: str | None = None
        # The cells of the newest turn (its placements, or its move and build), for the board's last-move marks:
        # cell -> "place", "from", "to" or "build"; and whose turn it was.
        self.last_turn: dict[int, str] = {}
        self.last_turn_seat: int | None = None
        # The legal actions of the seat to act, built once per position (a playout asks twice per action: to choose
        # one, then apply_action to check it); every change of the position (_apply, _load_payload) drops them.
        self._legal: list[Action] | None = None

    def _mark(self, seat: int, marks: dict[int, str], *, new_turn: bool) -> None:
        if new_turn or self.last_turn_seat != seat:
            self.last_turn = {}
        self.last_turn.update(marks)
        self.last_turn_seat = seat

    # --- rules helpers ---------------------------------------------------------
    def _occupied(self) -> set[int]:
        return set(self.workers[0]) | set(self.workers[1])

    def _allowed_workers(self, seat: int) -> list[int]:
        """Indices of the workers ``seat`` may move this turn."""
        if self.game.options["alternate_workers"]:
            return [self.turns_taken[seat] % 2]
        return [0, 1]

    def _builds(self, at: int, occupied: set[int]) -> list[int]:
        levels = self.levels
        return [n for n in NEIGHBOURS[at] if n not in occupied and levels[n] < DOME]

    def _moves(self, seat: int) -> list[tuple[int, int]]:
        """Legal (from, to) moves.

        A move counts only if a build can follow it, which in the base game always holds: the cell the worker
        leaves is next to where it goes, is then empty and carries no dome (a worker stood on it), so it can be
        built on. The check is therefore not made (it cost a set per move, on the hot path of every playout).
        """
        levels, occupied, result = self.levels, self._occupied(), []
        for k in self._allowed_workers(seat):
            src = self.workers[seat][k]
            limit = levels[src] + 1
            for dst in NEIGHBOURS[src]:
                if dst not in occupied and levels[dst] <= limit and levels[dst] < DOME:
                    result.append((src, dst))
        return result

    def _is_win(self, src: int, dst: int) -> bool:
        if self.levels[dst] != 3:
            return False
        return self.levels[src] == 2 or self.game.options["win_on_any_level3"]

    def _start_turn(self, seat: int) -> None:
        """Hand the turn to ``seat``; a seat with no legal move loses at once."""
        self.phase, self.to_move, self.moved = "move", seat, None
        if not self._moves(seat):
            self.phase, self.to_move, self.winner_seat, self.ending = "over", None, 1 - seat, "stuck"

    # --- contract --------------------------------------------------------------
    def current_seats(self) -> list[int]:
        return [] if self.phase == "over" else [self.to_move]

    def legal_actions(self, seat: int) -> list[Action]:
        if self.phase == "over" or seat != self.to_move:
            return []
        if self._legal is None:
            self._legal = self._legal_actions(seat)
        return list(self._legal)

    def _legal_actions(self, seat: int) -> list[Action]:
        if self.phase == "place":
            occupied = self._occupied()
            actions = [
                Action(f"place:{NAMES[i]}", f"Place a worker on {NAMES[i].upper()}", (NAMES[i],))
                for i in range(SIZE * SIZE)
                if i not in occupied
            ]
        elif self.phase == "move":
            letters = {cell: self._worker_letter(cell) for cell in self.workers[seat]}
            actions = [
                Action(f"move:{NAMES[s]}-{NAMES[d]}", self._move_label(s, d, letters[s]), (NAMES[s], NAMES[d]))
                for s, d in self._moves(seat)
            ]
        else:
            actions = [
                Action(f"build:{NAMES[c]}", self._build_label(c), (NAMES[c],))
                for c in self._builds(self.moved, self._occupied())
            ]
        actions.sort(key=lambda a: a.id)
        return actions

    def rule_topics(self, seat: int, action_id: str) -> tuple[str, ...]:
        kind = action_id.partition(":")[0]
        topics = {"place": ("setup",), "move": ("moving", "winning"), "build": ("building",)}.get(kind, ())
        options = self.game.options
        if topics and (options["alternate_workers"] or options["win_on_any_level3"]):
            topics += ("variant",)  # the GameBench variant changes which worker moves and what wins
        if kind == "build" and options["max_turns"]:
            topics += ("turn_cap",)  # the build that completes the last turn the cap allows ends the game
        return topics

    def _apply(self, seat: int, action_id: str, text: str | None) -> None:
        self._legal = None
        kind, _, arg = action_id.partition(":")
        if kind == "place":
            cell = INDEX[arg]
            self.last_action = f"Place a worker on {arg.upper()}"
            self._mark(seat, {cell: "place"}, new_turn=False)
            self.workers[seat].append(cell)
            if len(self.workers[seat]) < 2:
                return
            if seat == 0:
                self.to_move = 1
            else:
                self._start_turn(0)
        elif kind == "move":
            src, dst = (INDEX[x] for x in arg.split("-"))
            self.last_action = self._move_label(src, dst)
            self._mark(seat, {src: "from", dst: "to"}, new_turn=True)
            self.workers[seat][self.workers[seat].index(src)] = dst
            if self._is_win(src, dst):
                self.turn += 1
                self.turns_taken[seat] += 1
                self.phase, self.to_move, self.winner_seat, self.ending = "over", None, seat, "climb"
            else:
                self.phase, self.moved = "build", dst
        else:
            cell = INDEX[arg]
            self.last_action = self._build_label(cell)
            self._mark(seat, {cell: "build"}, new_turn=False)
            self.levels[cell] += 1
            self.turn += 1
            self.turns_taken[seat] += 1
            if self._at_turn_cap():
                # Drawn before the next seat's turn starts: the cap ends the game, not that seat's being stuck.
                self.phase, self.to_move, self.ending = "over", None, "cap"
            else:
                self._start_turn(1 - seat)

    def _at_turn_cap(self) -> bool:
        cap = self.game.options["max_turns"]
        return bool(cap) and self.turn >= cap

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def scores(self) -> list[float]:
        # The published game has no draws; the platform's turn cap (max_turns) ends one as a draw. Before the end
        # both seats share equally so the result still sums to 1 for any caller that asks early.
        if self.winner_seat is None:
            return [0.5, 0.5]
        return [1.0 if s == self.winner_seat else 0.0 for s in range(2)]

    def evaluation(self) -> list[float]:
        """Estimated scores of an unfinished game from heights, reach and threats (``evaluation.py``); the scores
        once it is over."""
        return evaluate(self, NEIGHBOURS)

    def measures(self, seat: int) -> dict[str, Any]:
        """See ``SantoriniGame.spec.measures``; the same for both seats."""
        return {"turns": self.turn}

    def observation(self, seat: int | None) -> Observation:
        where = {}
        for s in range(2):
            for k, cell in enumerate(self.workers[s]):
                where[cell] = {"seat": s, "id": WORKER_IDS[k]}
        # Top row (row 5) first, as the board is drawn on screen.
        rows = [
            [
                {"name": NAMES[i], "level": self.levels[i], "dome": self.levels[i] == DOME,
                 "worker": where.get(i), "last": self.last_turn.get(i)}
                for i in range(r * SIZE, r * SIZE + SIZE)
            ]
            for r in reversed(range(SIZE))
        ]
        alternate = self.game.options["alternate_workers"]
        required = None
        if alternate and self.phase in ("move", "build"):
            required = WORKER_IDS[self.turns_taken[self.to_move] % 2]
        data = {
            "rows": rows,
            "phase": self.phase,
            "to_move": self.to_move,
            "you": seat,
            "moved_worker": NAMES[self.moved] if self.moved is not None else None,
            "last_action": self.last_action,
            "winner": self.winner_seat,
            "turn": self.turn,
            "alternate_workers": alternate,
            "required_worker": required,
            "max_turns": self.game.options["max_turns"],  # 0: no cap, the published game
            "result": self.result_text(),
        }
        return Observation(seat, data, self._render(rows, seat, required))

    PAYLOAD_FIELDS = ("levels", "phase", "to_move", "turns_taken", "turn", "last_action")

    def _payload(self) -> dict:
        return {
            **super()._payload(),
            "workers": [[NAMES[c] for c in ws] for ws in self.workers],
            "moved": NAMES[self.moved] if self.moved is not None else None,
            "winner": self.winner_seat,
            "ending": self.ending,
            "last_turn": {NAMES[c]: role for c, role in self.last_turn.items()},
            "last_turn_seat": self.last_turn_seat,
        }

    def _load_payload(self, payload: Mapping[str, Any]) -> None:
        super()._load_payload(payload)
        self._legal = None
        self.workers = [[INDEX[c] for c in ws] for ws in payload["workers"]]
        self.moved = INDEX[payload["moved"]] if payload["moved"] is not None else None
        self.winner_seat = payload["winner"]
        self.ending = payload.get("ending")  # states saved before it was stored: see _ending_of_old_state
        # States saved before the last-move marks have none (the next action starts them).
        self.last_turn = {INDEX[c]: str(role) for c, role in (payload.get("last_turn") or {}).items()}
        self.last_turn_seat = payload.get("last_turn_seat")


class SantoriniGame(Game):
    spec = GameSpec(
        id="santorini",
        name="Santorini",
        description=(
            "Move and build on a 5x5 island; climb a worker onto a level-3 tower to win "
            "(base game, no god powers)."
        ),
        min_seats=2,
        max_seats=2,
        reasoning_categories=("abstract_strategy",),
        perfect_information=True,
        has_evaluation=True,
        # Two people playing each other may chat (a perfect-information game: chat cannot leak anything);
        # agents ignore it. The chat lives in the match's event log only.
        has_chat=True,
        measures=(
            MeasureSpec(
                "turns",
                "Turns completed by both players (a worker move and its build, or the winning move); "
                "the opening worker placements are not counted.",
            ),
        ),
        options=(
            OptionSpec(
                "alternate_workers",
                False,
                "Workers alternate each turn (A, B, A, ...); a player whose turn's worker is stuck "
                "loses. GameBench variant; its preset also sets win_on_any_level3.",
                label="Alternate workers",
            ),
            OptionSpec(
                "win_on_any_level3",
                False,
                "Any move onto level 3 wins, even from level 3 (GameBench rules text); officially "
                "only a move up from level 2 wins.",
                label="Win on any move onto level 3",
            ),
            OptionSpec(
                "max_turns",
                0,
                "Platform cap, not in the published rules: the game ends as a draw once this many turns (a move "
                "and its build; both players' turns counted) have been played without a winner. 0 = no cap, the "
                "published game.",
                type=int,
                bounds=(0, MAX_TURNS_BOUND),
                short_value=10,
                label="Turn cap",
            ),
        ),
    )
    state_class = SantoriniState
    rules = RULES

    def max_actions(self) -> int:
        # Proof of the bound: 4 placements, then each turn is a move plus a build
        # (or a final winning move with no build). Every build adds one level and
        # levels never go down. Workers always stand on 4 cells, which are at most
        # level 3, so the board never holds more than 21 * 4 + 4 * 3 = 96 levels:
        # at most 96 builds, hence 4 + 2 * 96 + 1 = 197 actions <= 204. A turn cap of max_turns ends the game after
        # at most max_turns turns of two actions each (the winning move has one).
        return 4 + 2 * (self.options["max_turns"] or MAX_TURNS_BOUND)
