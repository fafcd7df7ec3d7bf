"""How a finished game of Pit reads: the final totals and who won (result_text), and why it ended (end_reason): a
corner reaching the target or the hand limit, then what decided the winner. A mixin over PitState that only reads
the state; totals and corners are public, so nothing here names a card in anybody's hand.
"""

from __future__ import annotations

from .cards import NAMES


class EndWords:
    def result_text(self) -> str | None:
        """The final totals and who won, as the page's status line has it from the scores: the seats with the top
        score win, and all scores equal is a draw."""
        if not self.finished:
            return None
        scores = self.scores()
        best = max(scores)
        top = [s for s, score in enumerate(scores) if score == best]
        if len(top) == len(scores):
            outcome = "A draw."
        elif len(top) == 1:
            outcome = f"{self.game.seat_name(top[0])} wins."
        else:
            outcome = f"{self._names(top)} share the win."
        return f"Final totals: {self._tally()}. {outcome}"

    def end_reason(self) -> str | None:
        """Why the game ended: a corner reaching the target, or the hand limit (``max_hands``) after a last hand
        that ended in a corner or at the tick cap; then what decided the winner from the totals. Totals and corners
        are public; no hand is named."""
        if not self.finished:
            return None
        name = self.game.seat_name
        target, hands = self.game.options["target"], self.game.options["max_hands"]
        last = self.events[-1] if self.events else None
        if last is not None and last["k"] == "corner" and max(self.totals) >= target:
            reason = (f"{name(last['s'])} cornered {NAMES[last['c']]} (+{last['value']}) and reached the "
                      f"{target}-point target ({self._tally()}).")
        else:
            if last is not None and last["k"] == "corner":
                how = f"with {name(last['s'])} cornering {NAMES[last['c']]} (+{last['value']})"
            else:
                ticks = last["ticks"] if last is not None else self.game.options["tick_cap"]
                how = f"without a corner at the {ticks}-tick cap"
            reason = (f"The {hands}-hand limit was reached: hand {self.hands_played} ended {how}; "
                      f"{self._standing()}.")
        if self.game.options["gamebench_share_scores"]:
            reason += " Each player scores its share of the positive points."
        return reason

    def _standing(self) -> str:
        """Who leads on the final totals, worded as the scores decide it."""
        totals = self.totals
        if self.game.options["gamebench_share_scores"] and max(totals) <= 0:
            return f"nobody has positive points, so the shares are even ({self._tally()})"
        best = max(totals)
        top = [s for s, t in enumerate(totals) if t == best]
        if len(top) == len(totals):
            if best == 0 and not any(self.corners_made):
                return "nobody cornered a market, so every total is 0"
            return f"every total is {best}"
        if len(top) == 1:
            return f"{self.game.seat_name(top[0])} has the most points ({self._tally()})"
        return f"{self._names(top)} share the most points ({self._tally()})"

    def _tally(self) -> str:
        return ", ".join(f"{self.game.seat_name(s)} {t}" for s, t in enumerate(self.totals))

    def _names(self, seats: list[int]) -> str:
        named = [self.game.seat_name(s) for s in seats]
        return named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]
