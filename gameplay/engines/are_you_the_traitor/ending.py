"""How a finished game of Are You the Traitor? reads: the final points, the winners (or a draw) and the deciding fact.
A mixin over TraitorState that only reads the state; every sentence here is public (the end reveals every hand)."""

from __future__ import annotations


def names_and(names: list[str]) -> str:
    """'A', 'A and B', 'A, B and C'."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def points_words(count: int) -> str:
    return f"{count} point{'' if count == 1 else 's'}"


class EndWords:
    def result_text(self) -> str | None:
        if self.phase != "over":
            return None
        name = self.game.seat_name
        totals = ", ".join(f"{name(s)} {t}" for s, t in enumerate(self.totals()))
        return f"Final points: {totals}. {self.winners_sentence()}"

    def is_draw(self) -> bool:
        """Every seat shares the result (all tied for the most points, or GameBench's team result with leaders on
        both teams): the scores are all equal, which the match page calls a draw."""
        return len(self.winners) == self.game.num_seats

    def winners_sentence(self) -> str:
        if self.is_draw():
            return "The game is a draw: every player shares the result."
        return f"Winner(s): {', '.join(self.game.seat_name(s) for s in self.winners)}."

    def end_reason(self) -> str | None:
        """The deciding fact: the target reached at the end of a round, or the round cap, with the most points (and
        GameBench's team result when that option decides the winners)."""
        if self.phase != "over":
            return None
        name = self.game.seat_name
        totals = self.totals()
        best = max(totals)
        leaders = [s for s, t in enumerate(totals) if t == best]
        everyone = len(leaders) == self.game.num_seats
        who = "everyone" if everyone else names_and([name(s) for s in leaders])
        target = self.game.options["target_points"]
        if everyone:
            most = f"with {points_words(best)} each"
        elif len(leaders) == 1:
            most = f"with the most points ({best})"
        else:
            most = f"tied for the most points ({best} each)"
        if self.ending == "target":
            reason = f"{who[0].upper()}{who[1:]} reached the {target}-point target in round {self.round_no}, {most}."
        else:
            rounds = self.game.options["max_rounds"]
            reason = (f"The {rounds}-round limit was reached with nobody at the {target}-point target; {who} finished "
                      f"{most}.")
        if self.game.options["gamebench_team_win"] and not everyone:
            teams = sorted({self.team(s).capitalize() for s in leaders})
            if len(teams) == 2:
                reason += " The leaders are on both teams, so under GameBench's team result everyone shares the result."
            else:
                whose = "leader's" if len(leaders) == 1 else "leaders'"
                reason += (f" Under GameBench's team result the {whose} whole team of the last round ({teams[0]}) "
                           "shares the win.")
        return reason
