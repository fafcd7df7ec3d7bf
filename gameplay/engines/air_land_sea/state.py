"""The state of a game of Air, Land & Sea: battles to 6 cards a side, the game to 12 VP (or 18).

A turn is one play (face up: Deploy, face down: Improvise) or a withdrawal. Abilities that need a choice become
decisions: after a play, the seat that owns the triggered card (or, for Disrupt's second flip, its opponent)
gets that choice as its legal actions, one step at a time, until every triggered Instant has resolved in the
order it was triggered (a FIFO queue). Only then does the turn pass.

Action ids never name a card that is hidden from the other seat: a play names the hand slot (hands are kept in
their random deal order, so a slot says nothing about the card), flips and moves name board positions.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ..api import Action, ActionLabels, Game, Observation, State
from . import board, sampling, text
from .cards import (
    AERODROME,
    AIR_DROP,
    ALL_IDS,
    AMBUSH,
    BATTLE_WIN_VP,
    CARDS,
    DISRUPT,
    HAND_SIZE,
    INSTANT,
    MANEUVERS,
    REDEPLOY,
    REINFORCE,
    TRANSPORT,
    TYPES,
    neighbours,
    withdraw_points,
)
from .evaluation import evaluate
from .rules import topics_for

# The secrets() key of values no seat may see (the deck's cards): a seat index no player holds, so the
# conformance leak checks test every seat's view (and the public one) against them.
NOBODY = 2
EVENTS_KEPT = 30


class AirLandSeaState(State):
    def __init__(self, game: Game, seed: int):
        super().__init__(game, seed)
        order = list(TYPES)
        self.rng().shuffle(order)
        self.theaters: list[str] = order
        self.first = self.rng().randrange(2)  # the seat holding the 1st Player Supreme Commander card
        self.vp = [0, 0]
        self.battle = 0
        self.history: list[dict] = []  # one entry per finished battle
        self.over = False
        self.winner_seat: int | None = None
        self._new_battle()

    # --- battle setup and end ----------------------------------------------------------------------------
    def _new_battle(self) -> None:
        self.battle += 1
        cards = list(ALL_IDS)
        self.rng().shuffle(cards)
        # Hands keep this random order: an action id naming a slot then reveals nothing about the card.
        self.hands: list[list[str]] = [cards[:HAND_SIZE], cards[HAND_SIZE:2 * HAND_SIZE]]
        self.deck: list[str] = cards[2 * HAND_SIZE:]  # index 0 is the top
        self.stacks = board.empty_stacks()
        self.seen: list[str] = []  # cards shown face up (or named publicly) this battle: no longer secret
        self.turn_seat = self.first
        self.decision: dict | None = None
        self.queue: list[dict] = []  # triggered Instants waiting to resolve, oldest first
        self.airdrop = [False, False]
        self.events: list[dict] = []
        # Face-down cards each seat saw destroyed from its side (into the deck, or out of the game with
        # gamebench_destroyed_vanish): the seat still knows where they are (sampling.py).
        self.buried: list[list[str]] = [[], []]
        self.between = False  # the battle is over and waits for the next one to be started

    def _end_battle(self, winner: int, points: int, how: str) -> None:
        self.vp[winner] += points
        self.history.append({"battle": self.battle, "winner": winner, "points": points, "how": how})
        self.decision, self.queue = None, []
        self._event(winner, "battle", text.battle_result(self, self.history[-1]))
        if self.vp[winner] >= self.game.options["target_vp"]:
            self.over, self.winner_seat = True, winner
            return
        # The finished battle stays on the table until the next 1st Player starts the next one: people see how it
        # ended, and no label of the battle's last action is read against the secrets of a fresh deal.
        self.between = True

    def _start_next_battle(self) -> None:
        t = self.theaters
        # Official: the rightmost board moves to the far left; GameBench moves the leftmost to the right end.
        self.theaters = [t[1], t[2], t[0]] if self.game.options["gamebench_rotation"] else [t[2], t[0], t[1]]
        self.first = 1 - self.first
        self._new_battle()
        self._event(self.first, "battle", text.battle_start(self))

    # --- whose move and what they may do -----------------------------------------------------------------
    def acting_seat(self) -> int | None:
        if self.is_terminal():
            return None
        if self.between:
            return 1 - self.first  # the next battle's 1st Player starts it
        return self.decision["seat"] if self.decision else self.turn_seat

    def current_seats(self) -> list[int]:
        seat = self.acting_seat()
        return [] if seat is None else [seat]

    def is_terminal(self) -> bool:
        return self.over or len(self.log) >= self.game.options["action_cap"]

    def face_up_theaters(self, seat: int, card_id: str, aerodrome: bool | None = None) -> list[int]:
        """Positions where ``seat`` may deploy ``card_id`` face up now (``aerodrome``: whether ``seat`` has a
        face-up Aerodrome, when the caller already knows)."""
        card = CARDS[card_id]
        if aerodrome is None:
            aerodrome = bool(board.face_up_anywhere(self.stacks, AERODROME, seat))
        anywhere = self.airdrop[seat] or (card.strength <= 3 and aerodrome)
        return [p for p in range(3) if anywhere or self.theaters[p] == card.type]

    def play_actions(self, seat: int) -> list[Action]:
        actions = []
        aerodrome = bool(board.face_up_anywhere(self.stacks, AERODROME, seat))
        doom = {(pos, up): board.destroyed_on_play(self.stacks, pos, up) for pos in range(3) for up in (True, False)}
        for slot, card_id in enumerate(self.hands[seat]):
            ups = self.face_up_theaters(seat, card_id, aerodrome)
            for pos in range(3):
                for up in (True, False) if pos in ups else (False,):
                    face = "up" if up else "down"
                    label = text.play_label(self, seat, slot, pos, up, doom[pos, up])
                    actions.append(Action(f"play:{slot}:{pos}:{face}", label, (f"hand:{slot}", f"theater:{pos}", face)))
        return actions

    def flip_targets(self) -> list[tuple[int, int]]:
        d = self.decision
        if d["kind"] == "maneuver":
            return board.maneuver_targets(self.stacks, d["pos"])
        if d["kind"] == "ambush":
            return board.uncovered(self.stacks, range(3), (0, 1))
        return board.uncovered(self.stacks, range(3), (d["side"],))  # disrupt: the side that flips its own

    def legal_actions(self, seat: int) -> list[Action]:
        if seat != self.acting_seat():
            return []
        if self.between:
            return [Action("next_battle", f"Start battle {self.battle + 1}")]
        d = self.decision
        if d is None:
            return [*self.play_actions(seat), Action("withdraw", text.withdraw_label(self, seat))]
        kind = d["kind"]
        if kind in ("maneuver", "ambush", "disrupt"):
            return [Action(f"flip:{p}:{s}", text.flip_label(self, seat, p, s)) for p, s in self.flip_targets()]
        if kind == "transport":
            moves = [
                Action(f"move:{p}:{i}:{q}", text.move_label(self, seat, p, i, q))
                for p in range(3) for i in range(len(self.stacks[p][seat])) for q in range(3) if q != p
            ]
            return [*moves, Action("skip", "Do not move a card (Transport)")]
        if kind == "redeploy":
            returns = [
                Action(f"return:{p}:{i}", text.return_label(self, seat, p, i))
                for p in range(3) for i, c in enumerate(self.stacks[p][seat]) if not c["up"]
            ]
            return [*returns, Action("skip", "Do not return a card (Redeploy)")]
        if kind == "redeploy_play":
            return self.play_actions(seat)
        if kind == "reinforce":
            return [Action(f"reinforce:{p}", text.reinforce_label(self, seat, p)) for p in neighbours(d["pos"])]
        raise AssertionError(f"unknown decision {kind}")

    # --- applying actions --------------------------------------------------------------------------------
    def _apply(self, seat: int, action_id: str, text_: str | None) -> None:
        parts = action_id.split(":")
        verb = parts[0]
        d, self.decision = self.decision, None
        if verb == "withdraw":
            self._withdraw(seat)
            return
        if verb == "next_battle":
            self._start_next_battle()
            return
        if verb == "play":
            slot, pos, up = int(parts[1]), int(parts[2]), parts[3] == "up"
            card_id = self.hands[seat].pop(slot)
            self._play(seat, card_id, pos, up, "hand")
        elif verb == "flip":
            pos, side = int(parts[1]), int(parts[2])
            self._flip(seat, pos, side)
            if d["kind"] == "disrupt" and d["step"] == 1:
                self._disrupt_step(d["owner"], 2)
        elif verb == "move":
            p, i, q = (int(x) for x in parts[1:])
            card = self.stacks[p][seat].pop(i)
            self.stacks[q][seat].append(card)
            self._event(seat, "moves", text.moved_text(self, seat, card, p, q))
        elif verb == "return":
            self._redeploy_return(seat, int(parts[1]), int(parts[2]))
        elif verb == "reinforce":
            card_id = self.deck.pop(0)
            self._play(seat, card_id, int(parts[1]), False, "deck")
        elif verb == "skip":
            self._event(seat, "skips", f"{self.game.seat_name(seat)} uses no {CARDS[d['card']].name} effect.")
        self._advance()

    def _withdraw(self, seat: int) -> None:
        points = withdraw_points(seat == self.first, len(self.hands[seat]))
        self._event(seat, "withdraws", f"{self.game.seat_name(seat)} withdraws holding {len(self.hands[seat])} "
                    f"card(s): {self.game.seat_name(1 - seat)} scores {points} VP.")
        self._end_battle(1 - seat, points, "withdrawal")

    def _play(self, seat: int, card_id: str, pos: int, up: bool, source: str) -> None:
        """Resolve one play (from hand, or Reinforce's from the deck): destroy checks, then the card's effect."""
        self.airdrop[seat] = False  # any play, used or not, uses up a pending Air Drop
        skip_checks = source == "deck" and self.game.options["gamebench_reinforce_unchecked"]
        reason = None if skip_checks else board.destroyed_on_play(self.stacks, pos, up)
        if up and card_id not in self.seen:
            self.seen.append(card_id)
        self._event(seat, "plays", text.played_text(self, seat, card_id, pos, up, source, reason))
        if reason:
            if not self.game.options["gamebench_destroyed_vanish"]:
                self.deck.append(card_id)  # destroyed cards go face down to the bottom of the deck
            if not up:
                self.buried[seat].append(card_id)
            return
        self.stacks[pos][seat].append({"id": card_id, "up": up})
        if up and CARDS[card_id].kind == INSTANT:
            self.queue.append({"card": card_id, "owner": seat, "pos": pos})

    def _flip(self, seat: int, pos: int, side: int) -> None:
        card = self.stacks[pos][side][-1]
        card["up"] = not card["up"]
        if card["up"] and card["id"] not in self.seen:
            self.seen.append(card["id"])
        self._event(seat, "flips", text.flipped_text(self, seat, pos, side))
        if card["up"] and CARDS[card["id"]].kind == INSTANT:
            self.queue.append({"card": card["id"], "owner": side, "pos": pos})

    def _disrupt_order(self, owner: int) -> tuple[int, int]:
        """The sides that flip one of their own uncovered cards, in order: the 2020 rulebook has the Disrupt
        player first; the alternate printing (option) has the opponent first."""
        return (1 - owner, owner) if self.game.options["alt_disrupt_opponent_first"] else (owner, 1 - owner)

    def _disrupt_step(self, owner: int, step: int) -> None:
        """Offer Disrupt's flip number ``step`` (1 or 2), skipping a side with no uncovered card."""
        while step <= 2:
            side = self._disrupt_order(owner)[step - 1]
            if board.uncovered(self.stacks, range(3), (side,)):
                # Each side chooses its own flip; GameBench let the Disrupt player choose the opponent's too.
                chooser = owner if self.game.options["gamebench_disrupt_chooser"] else side
                self.decision = {"kind": "disrupt", "seat": chooser, "side": side, "owner": owner, "step": step,
                                 "card": DISRUPT, "pos": None}
                return
            step += 1

    def _redeploy_return(self, seat: int, pos: int, index: int) -> None:
        card = self.stacks[pos][seat].pop(index)
        # A random slot, so the returned card cannot be traced when it is played again.
        self.hands[seat].insert(self.rng().randrange(len(self.hands[seat]) + 1), card["id"])
        self._event(seat, "returns", text.returned_text(self, seat, card["id"], pos))
        self.decision = {"kind": "redeploy_play", "seat": seat, "card": REDEPLOY}

    def _start_trigger(self, trigger: dict) -> None:
        """Begin resolving one triggered Instant: either it needs a choice (a decision) or it happens now."""
        card_id, owner = trigger["card"], trigger["owner"]
        where = board.locate(self.stacks, card_id)
        pos = where[0] if where else trigger["pos"]
        base = {"seat": owner, "card": card_id, "pos": pos, "owner": owner}
        if card_id in MANEUVERS or card_id == AMBUSH:
            kind = "ambush" if card_id == AMBUSH else "maneuver"
            self.decision = {**base, "kind": kind}
            if not self.flip_targets():
                self.decision = None
        elif card_id == DISRUPT:
            self._disrupt_step(owner, 1)
        elif card_id == AIR_DROP:
            self.airdrop[owner] = True
        elif card_id == TRANSPORT:
            self.decision = {**base, "kind": "transport"}
        elif card_id == REDEPLOY:
            if any(not c["up"] for p in range(3) for c in self.stacks[p][owner]):
                self.decision = {**base, "kind": "redeploy"}
        elif card_id == REINFORCE and self.deck:
            self.decision = {**base, "kind": "reinforce"}

    def _advance(self) -> None:
        """Resolve queued Instants until one needs a choice; once none is left, the turn passes."""
        while self.decision is None and not self.over:
            if self.queue:
                self._start_trigger(self.queue.pop(0))
                continue
            if not self.hands[0] and not self.hands[1]:
                winner = board.battle_winner(self.stacks, self.first)
                self._end_battle(winner, BATTLE_WIN_VP, "control")
            else:
                self.turn_seat = 1 - self.turn_seat
            return

    def _event(self, seat: int, verb: str, wording) -> None:
        """Keep what just happened, worded per viewer: ``wording`` is one text or (actor's, others') texts."""
        own, others = (wording, wording) if isinstance(wording, str) else wording
        self.events.append({"seat": seat, "texts": [own if s == seat else others for s in (0, 1)], "public": others})
        del self.events[:-EVENTS_KEPT]

    # --- scores, secrets, views ---------------------------------------------------------------------------
    def scores(self) -> list[float]:
        if not self.is_terminal():
            return [0.5, 0.5]
        if self.game.options["gamebench_vp_share_scores"]:
            total = sum(self.vp)
            return [v / total for v in self.vp] if total else [0.5, 0.5]
        if self.winner_seat is not None:
            return [1.0 if s == self.winner_seat else 0.0 for s in (0, 1)]
        if self.vp[0] == self.vp[1]:  # stopped by the platform's action cap: more VP wins
            return [0.5, 0.5]
        return [1.0, 0.0] if self.vp[0] > self.vp[1] else [0.0, 1.0]

    def evaluation(self) -> list[float]:
        """Estimated scores of an unfinished game: the battle's theaters and hands, the withdrawal values and the
        race to the target VP (``evaluation.py``); the scores once it is over."""
        return evaluate(self)

    def secrets(self) -> dict[int, list[str]]:
        hidden: dict[int, list[str]] = {0: [], 1: [], NOBODY: []}
        if self.is_terminal():
            return {}
        for seat in (0, 1):
            hidden[seat] += [c for c in self.hands[seat] if c not in self.seen]
            hidden[seat] += [c["id"] for p in range(3) for c in self.stacks[p][seat]
                             if not c["up"] and c["id"] not in self.seen]
        deck = [c for c in self.deck if c not in self.seen]
        for seat in (0, 1):  # a seat knows the face-down cards it saw destroyed into the deck
            hidden[seat] += [c for c in deck if c in self.buried[seat]]
            deck = [c for c in deck if c not in self.buried[seat]]
        peek = self.peek()
        if peek is not None:
            hidden[self.decision["seat"]].append(peek)
            deck = [c for c in deck if c != peek]
        hidden[NOBODY] = deck
        return hidden

    def peek(self) -> str | None:
        """The deck's top card while a Reinforce decision shows it to the deciding seat."""
        if self.decision and self.decision["kind"] == "reinforce" and self.deck:
            return self.deck[0]
        return None

    def _draw_information_state(self, seat: int, rng: random.Random) -> AirLandSeaState:
        """The unknown cards dealt anew to the places ``seat`` cannot see, the rest kept (sampling.py)."""
        return sampling.sample_state(self, seat, rng)

    def observation(self, seat: int | None) -> Observation:
        data = text.observation_data(self, seat)
        return Observation(seat, data, text.observation_text(self, seat, data))

    def action_labels(self, seat: int, action_id: str, text_: str | None = None) -> ActionLabels:
        return text.action_labels(self, seat, action_id)

    def rule_topics(self, seat: int, action_id: str) -> tuple[str, ...]:
        return topics_for(action_id, self.decision)

    def measures(self, seat: int) -> dict[str, Any]:
        return {
            "vp": self.vp[seat],
            "battles": len(self.history),
            "battles_won": sum(1 for h in self.history if h["winner"] == seat),
            "withdrawals": sum(1 for h in self.history if h["how"] == "withdrawal" and h["winner"] != seat),
        }

    def result_text(self) -> str | None:
        if not self.is_terminal():
            return None
        return text.result_text(self)

    def end_reason(self) -> str | None:
        if not self.is_terminal():
            return None
        return text.end_reason(self)

    PAYLOAD_FIELDS = ("theaters", "first", "vp", "battle", "history", "over", "hands", "deck", "stacks", "seen",
                      "turn_seat", "decision", "queue", "airdrop", "events", "buried", "between")

    def _payload(self) -> dict:
        return {**super()._payload(), "winner": self.winner_seat}

    def _load_payload(self, payload: Mapping[str, Any]) -> None:
        super()._load_payload(payload)
        self.winner_seat = payload["winner"]
