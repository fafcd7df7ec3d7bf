"""How Santorini reads in words: the action labels, the board as text for language models, and the result and why
the game ended. A mixin over SantoriniState that only reads the state.
"""

from __future__ import annotations

from .board import DOME, NAMES, WORKER_IDS


def _turns(count: int) -> str:
    return f"{count} turn" if count == 1 else f"{count} turns"


class SantoriniText:
    def _move_label(self, src: int, dst: int, letter: str | None = None) -> str:
        # Names the worker by its letter as the board shows it (A/B for seat 0, a/b for seat 1) and the cells with
        # "from"/"to": "Move worker A4 → B3" read as worker A on cell 4, or the worker on A4, when worker B stood
        # on A4 (issue 22). ``letter``: the worker's letter when the caller knows it already.
        return (
            f"Move worker {letter or self._worker_letter(src)} from {NAMES[src].upper()} to {NAMES[dst].upper()} "
            f"(level {self.levels[src]} → {self.levels[dst]})"
        )

    def _worker_letter(self, cell: int) -> str:
        for seat in range(2):
            if cell in self.workers[seat]:
                letter = WORKER_IDS[self.workers[seat].index(cell)]
                return letter if seat == 0 else letter.lower()
        return "?"  # no worker there: not reached for a legal move

    def _build_label(self, cell: int) -> str:
        level = self.levels[cell]
        if level == DOME - 1:
            return f"Build a dome on {NAMES[cell].upper()}"
        return f"Build on {NAMES[cell].upper()} (level {level} → {level + 1})"

    def result_text(self) -> str | None:
        if self.phase != "over":
            return None
        if self.winner_seat is None:
            return f"The turn cap ({_turns(self.game.options['max_turns'])}) was reached with no winner: a draw."
        return f"{self.game.seat_name(self.winner_seat)} wins. {self.end_reason()}"

    def end_reason(self) -> str | None:
        """Why the game ended: the winning climb, the stuck seat, or the turn cap (see State.end_reason)."""
        if self.phase != "over":
            return None
        ending = self.ending or self._ending_of_old_state()
        if ending == "cap" or self.winner_seat is None:
            return f"The turn cap of {_turns(self.game.options['max_turns'])} was reached with no winner."
        name = self.game.seat_name
        if ending == "climb":
            return self._climb_reason(name(self.winner_seat))
        loser = 1 - self.winner_seat
        if self.game.options["alternate_workers"]:
            # Only the worker due this turn may move: it is the one that is stuck.
            index = self.turns_taken[loser] % 2
            if index < len(self.workers[loser]):
                cell = self.workers[loser][index]
                letter = self._worker_letter(cell)
                return (f"{name(loser)} had no legal move: worker {letter} on {NAMES[cell].upper()}, the one due to "
                        f"move this turn, was blocked in.")
        return f"{name(loser)} had no legal move: both workers were blocked in."

    def _climb_reason(self, winner: str) -> str:
        roles = {role: cell for cell, role in self.last_turn.items()}
        src, dst = roles.get("from"), roles.get("to")
        if src is None or dst is None:  # a state saved before the last-move marks
            return f"{winner}'s worker moved onto level 3."
        letter = self._worker_letter(dst)
        if self.levels[src] == 3:  # from level 3 to level 3: a win only under the GameBench variant
            return (f"{winner}'s worker {letter} moved from level 3 onto level 3 on {NAMES[dst].upper()}, which wins "
                    f"in this variant.")
        start = self.levels[src]
        return f"{winner}'s worker {letter} moved up from level {start} onto level 3 on {NAMES[dst].upper()}."

    def _ending_of_old_state(self) -> str:
        """The ending of a finished state saved before ``ending`` was stored: only a winning move ends the game
        right after a move."""
        if self.winner_seat is None:
            return "cap"
        return "climb" if (self.last_action or "").startswith("Move") else "stuck"

    def _render(self, rows: list, seat: int | None, required: str | None) -> str:
        name = self.game.seat_name
        lines = []
        if seat is None:
            lines.append("You are watching Santorini.")
        else:
            case = "uppercase A/B" if seat == 0 else "lowercase a/b"
            lines.append(f"You are {name(seat)} (seat {seat}); your workers are {case}.")
        lines.append("Cells show level (0-3) then worker (A/B = seat 0, a/b = seat 1, . = none); ## = dome.")
        lines.append("     a  b  c  d  e")
        for row in rows:
            cells = []
            for cell in row:
                if cell["dome"]:
                    cells.append("##")
                else:
                    w = cell["worker"]
                    mark = "." if w is None else (w["id"] if w["seat"] == 0 else w["id"].lower())
                    cells.append(f"{cell['level']}{mark}")
            lines.append(f"  {row[0]['name'][1]}  " + " ".join(cells))
        if self.last_action:
            lines.append(f"Last action: {self.last_action}.")
        cap = self.game.options["max_turns"]
        if self.phase == "over":
            lines.append(f"Game over after {_turns(self.turn)}. {self.result_text()}")
        else:
            who = "your" if seat == self.to_move else f"{name(self.to_move)}'s"
            if self.phase == "build":
                step = f"build next to the worker on {NAMES[self.moved]}"
            else:
                step = f"{self.phase} a worker"
            lines.append(f"Turn {self.turn + 1}{f' of {cap}' if cap else ''}: {who} turn to {step}.")
            if cap:
                lines.append(f"The game is a draw once turn {cap} has been played without a winner (turn cap).")
            if required is not None:
                lines.append(f"Only worker {required} may be used this turn (alternating workers).")
        return "\n".join(lines)
