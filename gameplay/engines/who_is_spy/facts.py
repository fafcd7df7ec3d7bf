"""What one viewer of Who is Spy may know, as facts (a mixin over SpyState: it only reads the state). Seats are
numbers; a fact about a person carries the seat, its name and whether it is the viewer ("you").

Public: every speaking order, every description and pass, who is a candidate, a voter, who has voted, every count's
outcome, a right spy guess. Only for some viewers:
- a wrong spy guess's word: its guesser's own, everyone's at the end;
- a vote (and an abstention): the voter's own; everyone's with option show_votes or at the end;
- the votes each candidate received in a count: with show_votes or at the end (the counts would tell single votes).
"""

from __future__ import annotations

from typing import Any

ABSTAINED = -1  # game.ABSTAINED (not imported: game.py imports this module)


class SeatFacts:
    def votes_public(self) -> bool:
        return self.game.options["show_votes"] or self.is_terminal()

    def _person(self, seat: int, viewer: int | None) -> dict[str, Any]:
        return {"seat": seat, "name": self.game.seat_name(seat), "you": seat == viewer}

    def talk_fact(self, entry: dict[str, Any], viewer: int | None) -> dict[str, Any]:
        """One talk entry: kind "describe" (text, struck), "pass" (skip) or "guess" (right; text is the guessed word
        where this viewer may know it, else None)."""
        seat = entry["s"]
        fact = {**self._person(seat, viewer), "kind": "describe", "text": "", "struck": False, "skip": False,
                "right": False}
        if "guess" in entry:
            known = entry["right"] or seat == viewer or self.is_terminal()
            fact.update(kind="guess", text=entry["guess"] if known else None, right=entry["right"])
        elif entry.get("skip"):
            fact.update(kind="pass", skip=True)
        else:
            fact.update(text=entry["text"], struck=entry["struck"])
        return fact

    def vote_facts(self, r: dict[str, Any], viewer: int | None) -> list[dict[str, Any]]:
        """The votes of round ``r`` this viewer may know, in seat order; target None is an abstention."""
        facts = []
        for voter in r["voters"]:
            target = r["votes"][voter]
            if target is None or (voter != viewer and not self.votes_public()):
                continue
            chosen = None if target == ABSTAINED else target
            facts.append({**self._person(voter, viewer), "round": r["n"], "target": chosen,
                          "target_name": None if chosen is None else self.game.seat_name(chosen)})
        return facts

    def outcome_fact(self, r: dict[str, Any]) -> dict[str, Any] | None:
        """Round ``r``'s count (None before it): kind "out", "all_tied", "runoff", "reset" or "none" (no candidate
        left), the leaders, and the votes each candidate received where votes are public (else tally None)."""
        outcome = r["outcome"]
        if outcome is None:
            return None
        name = self.game.seat_name
        tally = None
        if outcome["k"] != "none" and self.votes_public():
            tally = [{"seat": c, "name": name(c), "votes": outcome["tally"][c]} for c in r["candidates"]]
        return {"kind": outcome["k"], "leaders": list(outcome["leaders"]),
                "leader_names": [name(s) for s in outcome["leaders"]], "tally": tally}

    def round_facts(self, r: dict[str, Any], viewer: int | None) -> dict[str, Any]:
        return {
            "number": r["n"],
            "runoff": r["runoff"],
            "order": list(r["order"]),
            "talk": [self.talk_fact(entry, viewer) for entry in r["talk"]],
            "candidates": list(r["candidates"]),
            "voters": list(r["voters"]),
            "voted": [v for v in r["voters"] if r["votes"][v] is not None],
            "votes": self.vote_facts(r, viewer),
            "outcome": self.outcome_fact(r),
        }
