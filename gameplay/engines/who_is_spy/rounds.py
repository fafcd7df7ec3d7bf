"""Who is Spy's round machinery: a round's freshly shuffled speaking order, then the secret vote with each voter's
own shuffled options, the count (one player out, a run-off between the tied, or a new round), eliminations, the
round limit and the end. A mixin over SpyState; game.py decides which action moves it on.
"""

from __future__ import annotations

from typing import Any

DESCRIBE, VOTE, OVER = "describe", "vote", "over"
ABSTAINED = -1  # a vote of ABSTAIN (game.py: the turn timer's) as a round stores it; the count counts it for nobody
SPIES, VILLAGERS = "spies", "villagers"


class RoundFlow:
    def _start_round(self, speakers: list[int], candidates: list[int], voters: list[int], runoff: bool) -> None:
        order = sorted(speakers)
        self.rng().shuffle(order)  # speaking-order bias: a fresh public order every round
        n = self.game.num_seats
        self.rounds.append({"n": len(self.rounds) + 1, "runoff": runoff, "order": order, "next": 0,
                            "candidates": sorted(candidates), "voters": sorted(voters), "talk": [],
                            "ballots": [None] * n, "votes": [None] * n, "outcome": None})
        self.phase = DESCRIBE

    def _advance_speaker(self) -> None:
        self.round["next"] += 1
        if self.round["next"] >= len(self.round["order"]):
            self._begin_vote()

    def _begin_vote(self) -> None:
        r = self.round
        # A wrong spy_guess puts its speaker out mid-round; such a seat is no longer a candidate or a voter.
        r["candidates"] = [c for c in r["candidates"] if self.alive(c)]
        r["voters"] = [v for v in r["voters"] if self.alive(v)]
        if not r["candidates"]:  # a run-off whose tied players all guessed wrong: nobody left to vote for
            r["outcome"] = {"k": "none", "tally": [0] * self.game.num_seats, "leaders": []}
            self.partial_ties = 0
            self._next_round(None)
            return
        rng = self.rng()
        for voter in r["voters"]:
            # Option-order bias: each voter gets its own shuffled list (the order of its legal actions).
            options = [c for c in r["candidates"] if c != voter]
            rng.shuffle(options)
            r["ballots"][voter] = options
        self.phase = VOTE

    def _count(self) -> None:
        r = self.round
        tally = [0] * self.game.num_seats
        for voter in r["voters"]:
            if r["votes"][voter] != ABSTAINED:  # an abstention counts for nobody
                tally[r["votes"][voter]] += 1
        top = max(tally[c] for c in r["candidates"])
        leaders = [c for c in r["candidates"] if tally[c] == top]
        outcome: dict[str, Any] = {"tally": tally, "leaders": leaders}
        r["outcome"] = outcome
        if len(leaders) == 1:
            outcome["k"] = "out"
            self.partial_ties = 0
            self._eliminate(leaders[0], "vote")
            if self.phase != OVER:
                self._next_round(None)
        elif set(leaders) == set(self.alive_seats()):
            outcome["k"] = "all_tied"
            self.partial_ties = 0
            self._next_round(None)
        else:
            self.partial_ties += 1
            if self.partial_ties == 1:
                outcome["k"] = "runoff"
                self._next_round(leaders)
            else:
                outcome["k"] = "reset"
                self.partial_ties = 0
                self._next_round(None)

    def _next_round(self, runoff: list[int] | None) -> None:
        # Every round, tied ones and run-offs included, counts towards the cap; surviving it is a spy win.
        if len(self.rounds) >= self.game.options["max_rounds"]:
            self._finish(SPIES, "cap")
            return
        alive = self.alive_seats()
        if runoff is None:
            self._start_round(alive, alive, alive, runoff=False)
        else:
            self._start_round(runoff, runoff, [s for s in alive if s not in runoff], runoff=True)

    def _eliminate(self, seat: int, how: str) -> None:
        self.out_round[seat] = self.round["n"]
        self.out_how[seat] = how
        spies_in = sum(1 for s in self.spies if self.alive(s))
        villagers_in = len(self.alive_seats()) - spies_in
        if spies_in == 0:
            self._finish(VILLAGERS, "out")
        elif spies_in >= villagers_in:
            self._finish(SPIES, "out")

    def _finish(self, winners: str, reason: str) -> None:
        self.phase = OVER
        self.winners = winners
        self.ending = reason
