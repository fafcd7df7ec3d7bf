"""Who is Spy's board (templates/games/who_is_spy/board.html): one viewer's facts arranged for the page.

Everything comes from the seat view: its facts (the viewer's own observation data: seats, talk entries, the votes
it may know, each count's outcome) and its own legal and text actions. The board can therefore show nothing the
observation does not. Sentences (a spy guess, a vote, a count) are written from the facts by the engine's own
wording (gameplay/engines/who_is_spy/wording.py), so the page says what a language model reads, in the same words.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gameplay.boards.base import BoardPresenter
from gameplay.engines.seat_view import SeatView
from gameplay.engines.who_is_spy.wording import outcome_sentence, talk_sentence, vote_line

# The engine's action ids (gameplay/engines/who_is_spy/game.py): a vote names its target's seat after the colon.
VOTE, ABSTAIN, SKIP = "vote", "vote:none", "skip_describe"
DESCRIBE, GUESS = "describe", "spy_guess"


def talk_rows(round_facts: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One round's talk as lines: who spoke ("You" for the viewer), what they said, whether it was a pass or a
    struck repeat; a spy guess is ``other``, its ``text`` the whole sentence (what this viewer may know of it)."""
    rows = []
    for entry in round_facts.get("talk") or ():
        guess = entry["kind"] == "guess"
        rows.append({"seat": entry["seat"], "who": "You" if entry["you"] else entry["name"], "mine": entry["you"],
                     "kind": entry["kind"], "text": talk_sentence(entry) if guess else entry["text"],
                     "struck": entry["struck"], "skip": entry["skip"], "other": guess})
    return rows


class WhoIsSpyBoard(BoardPresenter):
    template = "games/who_is_spy/board.html"
    rules_template = "games/who_is_spy/rules.html"
    css = ("css/who_is_spy.css",)
    js = ("js/who_is_spy.js",)

    def context(self, view: SeatView) -> dict[str, Any]:
        facts = view.facts
        rounds = [self._round(view, r) for r in facts.get("rounds") or ()]
        current = rounds[-1] if rounds else None
        final = self._final(view)
        return {
            "seat": view.seat,
            "status": facts.get("status"),
            "phase": facts.get("phase"),
            "my_turn": bool(facts.get("my_turn")),
            "round": facts.get("round"),
            "max_rounds": facts.get("max_rounds"),
            "runoff": bool(facts.get("runoff")),
            "num_players": facts.get("num_players"),
            "num_spies": facts.get("num_spies"),
            "max_description_words": facts.get("max_description_words"),
            "repeat_rule": facts.get("repeat_rule"),
            "show_votes": bool(facts.get("show_votes")),
            "word": None if final else facts.get("word"),  # the viewer's own card, while the game runs
            "waiting": self._names(view, facts.get("waiting")),
            "final": final,
            "order": self._order(view, facts.get("rounds") or ()),
            "rows": self._players(view),
            "vote": self._vote(view, current),
            "ballot": self._ballot(view),
            "describe": next((t for t in view.text_actions if t.id == DESCRIBE), None),
            "guess": next((t for t in view.text_actions if t.id == GUESS), None),
            "last": self._last_outcome(rounds),
            "current": current,
            # The rounds before the current one, oldest first (at the end the last round is the current one).
            "earlier": rounds[:-1],
        }

    # --- pieces ------------------------------------------------------------------------------------
    @staticmethod
    def _names(view: SeatView, seats: Sequence[int] | None) -> list[str]:
        return [view.seat_name(s) for s in seats or ()]

    def _round(self, view: SeatView, r: Mapping[str, Any]) -> dict[str, Any]:
        return {
            "number": r["number"],
            "runoff": r["runoff"],
            "order": self._names(view, r["order"]),
            "candidates": self._names(view, r["candidates"]),
            "voters": list(r["voters"]),
            "voted": list(r["voted"]),
            "talk": talk_rows(r),
            "votes": [vote_line(v) for v in r["votes"]],
            # The viewer's own vote in this round, as its line and as a fact (target None: it abstained).
            "mine": [vote_line(v) for v in r["votes"] if v["you"]],
            "my_votes": [{"round": v["round"], "target": v["target"]} for v in r["votes"] if v["you"]],
            "outcome": outcome_sentence(r["outcome"]),
        }

    @staticmethod
    def _order(view: SeatView, rounds: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
        """The current round's speaking order: each speaker has spoken ("done"), is speaking ("now") or is to come
        ("next"); everyone in the order has spoken once the vote has begun."""
        if not rounds:
            return []
        current = rounds[-1]
        spoken = len(current["talk"])
        describing = view.facts.get("phase") == "describe"
        rows = []
        for i, seat in enumerate(current["order"]):
            state = "done" if (i < spoken or not describing) else ("now" if i == spoken else "next")
            rows.append({"position": i + 1, "seat": seat, "name": view.seat_name(seat), "you": seat == view.seat,
                         "state": state})
        return rows

    @staticmethod
    def _players(view: SeatView) -> list[dict[str, Any]]:
        """One row per player: in or out (and how), speaking now, and in the vote whether a candidate, a voter, and
        has voted (public: who has voted, never for whom)."""
        facts = view.facts
        rounds = facts.get("rounds") or ()
        current = rounds[-1] if rounds else {}
        phase = facts.get("phase")
        waiting = set(facts.get("waiting") or ())
        voted, voters = set(current.get("voted") or ()), set(current.get("voters") or ())
        candidates = set(current.get("candidates") or ())
        rows = []
        for p in facts.get("players") or ():
            seat, out = p["seat"], ""
            if not p["in"]:
                how = "voted out" if p["out_how"] == "vote" else "out after a wrong guess"
                out = f"{how} in round {p['out_round']}"
            rows.append({"seat": seat, "name": p["name"], "you": p["you"], "in": p["in"], "out": out,
                         "speaking": phase == "describe" and seat in waiting,
                         "voting": phase == "vote" and seat in voters, "voted": phase == "vote" and seat in voted,
                         "candidate": phase == "vote" and seat in candidates})
        return rows

    @staticmethod
    def _vote(view: SeatView, current: Mapping[str, Any] | None) -> dict[str, Any]:
        """The viewer's part in the current vote: whether it votes, has voted (and its own vote's line and fact), or
        is only a candidate (a run-off's tied players do not vote); who is still to vote."""
        current = current or {}
        me = view.seat
        me_in = any(p["you"] and p["in"] for p in view.facts.get("players") or ())
        return {"voter": me is not None and me in (current.get("voters") or ()), "in": me_in,
                "voted": me is not None and me in (current.get("voted") or ()), "mine": current.get("mine") or [],
                "my_votes": current.get("my_votes") or [], "candidates": current.get("candidates") or [],
                "waiting": WhoIsSpyBoard._names(view, view.facts.get("waiting"))}

    @staticmethod
    def _ballot(view: SeatView) -> dict[str, Any]:
        """The viewer's legal actions for the board's controls, in the order the engine gives them (each voter's vote
        options are shuffled for it: never sorted here): the vote choices, abstaining and passing when offered."""
        ballot: dict[str, Any] = {"votes": [], "abstain": None, "skip": None}
        for action in view.legal_actions:
            kind, _, arg = action.id.partition(":")
            if kind == VOTE and arg.isdigit():
                ballot["votes"].append({"id": action.id, "seat": int(arg), "name": view.seat_name(int(arg)),
                                        "label": action.label})
            elif action.id == ABSTAIN:
                ballot["abstain"] = action
            elif action.id == SKIP:
                ballot["skip"] = action
        return ballot

    @staticmethod
    def _final(view: SeatView) -> dict[str, Any] | None:
        """The end, from the final observation's reveal: both words, the spies, the winning side and every player's
        camp and word (all public now)."""
        reveal = view.facts.get("reveal")
        if not reveal:
            return None
        spies = set(reveal["spies"])
        spies_won = reveal["winners"] == "spies"
        rows = []
        for p in view.facts.get("players") or ():
            spy = p["seat"] in spies
            rows.append({"seat": p["seat"], "name": p["name"], "you": p["you"], "spy": spy,
                         "word": reveal["spy_word"] if spy else reveal["villager_word"], "winner": spy == spies_won,
                         "in": p["in"]})
        return {"villager_word": reveal["villager_word"], "spy_word": reveal["spy_word"],
                "spies": [view.seat_name(s) for s in reveal["spies"]], "side": "spies" if spies_won else "villagers",
                "winners": [r["name"] for r in rows if r["winner"]], "rows": rows, "result": reveal.get("result") or ""}

    @staticmethod
    def _last_outcome(rounds: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
        """The newest counted vote (number, run-off or not, its outcome): the previous round's while a new round is
        being described, the current one's once the game is over; None before the first count."""
        for r in reversed(rounds):
            if r["outcome"]:
                return {"number": r["number"], "runoff": r["runoff"], "outcome": r["outcome"]}
        return None
