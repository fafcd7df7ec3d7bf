"""Whose turn it is in Two Rooms and a Boom and what they may do: the phases, the seat to act in each, the ids of
its legal actions (labelled per seat by views.py) and its text actions (say, whisper, parley) with the check on
their words. A mixin over TwoRoomsState that only reads the state; game.py applies what is chosen.
"""

from __future__ import annotations

from itertools import combinations

from ..api import Action, IllegalActionError, TextAction
from .cards import ROOM_NAMES

TALK, CHOOSE, PARLEY, GAMBLE, OVER = "talk", "hostages", "parley", "gamble", "over"
MAX_TEXT = 300
# TextAction.example for each kind of talk: words that claim no card and fit any seat.
EXAMPLE_SAY = "Who is willing to share a card with me?"
EXAMPLE_WHISPER = "Shall we show each other our colours?"
EXAMPLE_PARLEY = "Let us each send a hostage we can spare."


class SeatMoves:
    def current_seats(self) -> list[int]:
        if self.phase == TALK:
            return [self.order[self.cursor]]
        if self.phase == CHOOSE:
            return [self.leaders[0] if self.chosen[0] is None else self.leaders[1]]
        if self.phase == PARLEY:
            return [self.parley_queue[0]]
        if self.phase == GAMBLE:
            return [self._gambler()]
        return []

    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.current_seats():
            return []
        return [Action(i, self._own_label(seat, i)) for i in self._legal_ids(seat)]

    def legal_action_ids(self, seat: int) -> list[str]:
        # Without the labels, which cost twice what the ids do: a search asks for the ids hundreds of thousands of
        # times a match.
        if seat not in self.current_seats():
            return []
        return self._legal_ids(seat)

    def _legal_ids(self, seat: int) -> list[str]:
        if self.phase == CHOOSE:
            room = self.rooms[seat]
            pool = [s for s in self.members(room) if s != seat]
            return ["hostages:" + ",".join(map(str, c)) for c in combinations(pool, self.hostage_count())]
        if self.phase == PARLEY:
            return ["parley_pass"]
        if self.phase == GAMBLE:
            return ["gamble:red", "gamble:blue"]
        ids: list[str] = []
        room = self.rooms[seat]
        here = self.members(room)
        others = [s for s in here if s != seat]
        leader = self.leaders[room]
        if not self.game.simplified:
            if leader is None:
                ids += [f"nominate_leader:{t}" for t in others if t not in self.abdicated]
            offers = self.offers
            for t in others:
                for how in ("card", "color"):
                    if [seat, t, how] not in offers:
                        ids.append(f"offer_share:{t}:{how}")
            ids += [f"accept_share:{o}" for o, t, _ in offers if t == seat]
            me = str(seat)
            if any(self.known[m].get(me) != "card" for m in others):
                ids.append("reveal_public")
            if leader is not None:
                voted = self.votes.get(me)
                ids += [f"vote_usurp:{t}" for t in here if t != leader and t not in self.abdicated and voted != t]
            if leader == seat:
                ids += [f"abdicate:{t}" for t in others]
        ids.append("done")
        return ids

    def text_actions(self, seat: int) -> list[TextAction]:
        if seat not in self.current_seats():
            return []
        if self.phase == PARLEY:
            return [TextAction("parley_say", "Say to the other Leader (parley)", "your message", MAX_TEXT,
                               example=EXAMPLE_PARLEY)]
        if self.phase != TALK:
            return []
        name = self.game.seat_name
        room = self.rooms[seat]
        result = [TextAction("say", f"Say to everyone in {ROOM_NAMES[room]}", "your message", MAX_TEXT,
                             example=EXAMPLE_SAY)]
        result += [TextAction(f"whisper:{t}", f"Whisper to {name(t)}", "your message", MAX_TEXT,
                              example=EXAMPLE_WHISPER)
                   for t in self.members(room) if t != seat]
        return result

    def validate_text(self, seat: int, action_id: str, text: str) -> str:
        if action_id not in {t.id for t in self.text_actions(seat)}:
            raise IllegalActionError(f"{action_id!r} takes no text now")
        cleaned = " ".join(str(text).split())
        if not cleaned:
            raise IllegalActionError("the message is empty")
        return cleaned
