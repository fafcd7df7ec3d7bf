"""The round loop and every action's effect, as a mixin over the state's zones (kept JSON-safe).

Zones: per seat a deck (top first), a discard pile (face up), a hand, face-down skirmish cards; the mercenary
supply, the junkyard (top first), the contested pile (top first) and the Refugees trashed out of the game.
``step`` is the action in progress of the seat to act: {} (choosing), a group of cards being put together for
DRAW/DIG/HUNT ("build"), dug cards to choose from ("dig"), medicine still owed for a hire ("pay"), cards being
trashed ("trash"), or the skirmish commitment ("commit").
"""

from __future__ import annotations

import json

from . import knowledge
from .cards import (
    BUILT_ACTIONS,
    CARDS,
    DIG,
    DRAW,
    HAND_SIZE,
    HUNT,
    LEADER,
    MEDIC,
    MERCENARIES,
    PERSON,
    STARTING_DECK,
    TOOL,
    action_total,
    fight_strength,
    names,
    people,
    sort_keys,
)
from .setup import contested_cards, junkyard_cards, shuffled, supply_counts

RESOURCE, SKIRMISH, OVER = "resource", "skirmish", "over"
HIRE, TRASH = "HIRE", "TRASH"
QUIET_ROUNDS = 2  # rounds 1-2 have no skirmish in the published game
# A true bound on actions per seat and round: at most 5 action picks and confirmations, a dig choice, end_turn,
# keep and skirmish_done, plus one action per card that leaves a hand or a skirmish (a hand holds at most 5 + a
# DRAW of at most 5 x 2 + 2 x 2 cards), with a wide margin.
ACTIONS_PER_SEAT_ROUND = 100


def fragment(key: str, value) -> str:
    """How ``"key": value`` appears in an observation's JSON (json.dumps's default separators)."""
    return json.dumps({key: value}, ensure_ascii=False)[1:-1]


def sorted_cards(keys) -> list[str]:
    return sort_keys(keys)


def hand_line(hand) -> str:
    return f"Your hand: {names(hand)}."


class RoundFlow:
    # --- setup -------------------------------------------------------------------------------------------
    def setup(self) -> None:
        game = self.game
        n = game.num_seats
        self.round = 0
        self.phase = RESOURCE
        self.supply = supply_counts(n)
        self.junkyard = shuffled(junkyard_cards(n), self.rng())
        pile = shuffled(contested_cards(game.options["gamebench_rounds"]), self.rng())
        self.contested = pile[:game.contested_size()]
        self.removed: list[str] = []
        self.decks = [shuffled(list(STARTING_DECK), self.rng()) for _ in range(n)]
        self.discards: list[list[str]] = [[] for _ in range(n)]
        self.hands: list[list[str]] = [[] for _ in range(n)]
        self.kept: list[list[str]] = [[] for _ in range(n)]
        self.revealed = False
        self.initiator = self.rng().randrange(n)
        self.turn_pos = 0
        self.step: dict = {}
        self.used: list[str] = []
        self.food = 0
        self.peek: str | None = None
        self.specials_used = {"sabotage": 0, "snipe": 0}
        self.skirmishes_won = [0] * n
        self.last_skirmish: dict | None = None
        self.last_public = [""] * n
        self.held_known, self.junk_known = knowledge.fresh(n)  # for the information-set sampler
        self.start_round()

    # --- who acts ----------------------------------------------------------------------------------------
    def order(self) -> list[int]:
        n = self.game.num_seats
        return [(self.initiator + i) % n for i in range(n)]

    def acting_seat(self) -> int | None:
        if self.phase == OVER:
            return None
        return self.order()[self.turn_pos]

    def skirmish_round(self) -> bool:
        return self.game.options["gamebench_rounds"] or self.round > QUIET_ROUNDS

    def owned(self, seat: int) -> list[str]:
        cards = self.decks[seat] + self.discards[seat] + self.hands[seat] + self.kept[seat]
        if seat == self.acting_seat() and self.step.get("mode") in ("build", "pay", "trash"):
            cards = cards + self.step["cards"]
        return cards

    # --- rounds ------------------------------------------------------------------------------------------
    def start_round(self) -> None:
        self.round += 1
        gamebench = self.game.options["gamebench_rounds"]
        # The designer's FAQ: the first Initiator keeps the card through round 3, then it passes left each
        # round; GameBench alternates every round.
        if self.round > 1 and (gamebench or self.round > 3):
            self.initiator = (self.initiator + 1) % self.game.num_seats
        for seat in range(self.game.num_seats):
            self.discards[seat].extend(self.hands[seat] + self.kept[seat])
            self.hands[seat], self.kept[seat] = [], []
            knowledge.hand_emptied(self, seat)
            self.draw(seat, HAND_SIZE)
        self.revealed = False
        self.peek = self.contested[0] if self.round >= 3 and self.contested else None
        self.turn_pos = 0
        self.begin_turn()

    def begin_turn(self) -> None:
        self.step, self.used, self.food = {}, [], 0

    def draw(self, seat: int, count: int) -> None:
        deck, discard = self.decks[seat], self.discards[seat]
        for _ in range(count):
            if not deck:
                if not discard:
                    return
                deck.extend(shuffled(discard, self.rng()))
                discard.clear()
            self.hands[seat].append(deck.pop(0))
            if not deck:
                knowledge.deck_ran_out(self, seat)

    def end_resource_turn(self) -> None:
        self.turn_pos += 1
        self.begin_turn()
        if self.turn_pos < self.game.num_seats:
            return
        if not self.skirmish_round():
            self.start_round()
            return
        self.revealed = True
        for seat in range(self.game.num_seats):  # the face-down cards are public now
            knowledge.hand_emptied(self, seat)
        self.phase = SKIRMISH
        self.turn_pos = 0
        self.next_skirmisher()

    # --- legal action ids --------------------------------------------------------------------------------
    def legal_ids(self, seat: int) -> list[str]:
        mode = self.step.get("mode")
        hand = sort_keys(set(self.hands[seat]))
        if self.phase == SKIRMISH:
            return self.special_ids(seat)
        if mode == "build":
            return self.build_ids(hand)
        if mode == "dig":
            return [f"dig_keep:{k}" for k in sort_keys(set(self.step["cards"]))] + ["dig_none"]
        if mode == "pay":
            return [f"pay:{k}" for k in hand if CARDS[k].kind == MEDIC]
        if mode == "trash":
            return [f"trash:{k}" for k in hand] + (["trash_done"] if self.step["cards"] else [])
        if mode == "commit":
            return [f"drop:{k}" for k in hand] + ["keep"]
        ids = []
        for action in BUILT_ACTIONS:
            if action in self.used or not any(CARDS[k].kind == PERSON and CARDS[k].can(action) for k in hand):
                continue
            if action == DIG and not self.junkyard:
                continue
            ids.append(action.lower())
        if HIRE not in self.used:
            ids += [f"hire:{m}" for m in MERCENARIES if self.affordable(seat, m)]
        if TRASH not in self.used and hand:
            ids.append("trash")
        return ids + ["end_turn"]

    def build_ids(self, hand: list[str]) -> list[str]:
        action, cards = self.step["action"], self.step["cards"]
        carriers = sum(1 for k in cards if CARDS[k].kind == PERSON)
        tools = sum(1 for k in cards if CARDS[k].kind == TOOL)
        leaders = sum(1 for k in cards if CARDS[k].kind == LEADER)
        ids = []
        for key in hand:
            card = CARDS[key]
            if (card.kind == PERSON and card.can(action)
                    or card.kind == TOOL and card.boosts(action) and tools < carriers
                    or card.kind == LEADER and leaders < carriers):
                ids.append(f"add:{key}")
        return ids + (["go"] if carriers else [])

    def medicine_in_hand(self, seat: int) -> int:
        return sum(CARDS[k].medicine for k in self.hands[seat])

    def affordable(self, seat: int, merc: str) -> bool:
        card = CARDS[merc]
        if self.supply[merc] <= 0:
            return False
        med = self.medicine_in_hand(seat)
        if card.mixed_cost:
            return self.food + med >= card.mixed_cost
        return self.food >= card.food_cost and med >= card.med_cost

    # --- applying ----------------------------------------------------------------------------------------
    def perform(self, seat: int, action_id: str) -> None:
        verb, _, arg = action_id.partition(":")
        hand = self.hands[seat]
        if verb in ("draw", "dig", "hunt"):
            self.used.append(verb.upper())
            self.step = {"mode": "build", "action": verb.upper(), "cards": []}
        elif verb == "add":
            hand.remove(arg)
            knowledge.left_hand(self, seat, arg)
            self.step["cards"].append(arg)
        elif verb == "go":
            self.resolve_build(seat)
        elif verb in ("dig_keep", "dig_none"):
            dug = self.step["cards"]
            knowledge.dig_returned(self, len(dug), arg or None)
            if arg:
                dug.remove(arg)
                self.discards[seat].append(arg)
            self.junkyard.extend(dug)  # returned to the bottom, in order, unshuffled
            self.step = {}
        elif verb == "hire":
            self.start_hire(seat, arg)
        elif verb == "pay":
            hand.remove(arg)
            knowledge.left_hand(self, seat, arg)
            self.step["cards"].append(arg)
            self.step["owed"] -= CARDS[arg].medicine
            if self.step["owed"] <= 0:
                self.finish_hire(seat)
        elif verb == "trash" and not arg:
            self.used.append(TRASH)
            self.step = {"mode": "trash", "cards": []}
        elif verb == "trash":
            hand.remove(arg)
            knowledge.left_hand(self, seat, arg)
            self.step["cards"].append(arg)
        elif verb == "trash_done":
            self.finish_trash()
        elif verb == "end_turn":
            if self.skirmish_round() and hand:
                self.step = {"mode": "commit"}
            else:
                self.discards[seat].extend(hand)
                hand.clear()
                knowledge.hand_emptied(self, seat)
                self.end_resource_turn()
        elif verb == "drop":
            hand.remove(arg)
            knowledge.left_hand(self, seat, arg)
            self.discards[seat].append(arg)
        elif verb == "keep":
            self.kept[seat] = list(hand)
            hand.clear()
            self.end_resource_turn()
        else:
            self.perform_special(seat, verb, arg)

    def resolve_build(self, seat: int) -> None:
        action, cards = self.step["action"], self.step["cards"]
        total = action_total(action, cards)
        self.discards[seat].extend(cards)
        self.step = {}
        if action == DRAW:
            self.draw(seat, total)
        elif action == HUNT:
            self.food += total
        elif total > 0:
            knowledge.dug(self, seat, self.junkyard[:total], len(self.junkyard))
            dug, self.junkyard = self.junkyard[:total], self.junkyard[total:]
            self.step = {"mode": "dig", "cards": dug}

    def start_hire(self, seat: int, merc: str) -> None:
        card = CARDS[merc]
        self.used.append(HIRE)
        if card.mixed_cost:
            spent = min(self.food, card.mixed_cost)
            owed = card.mixed_cost - spent
        else:
            spent, owed = card.food_cost, card.med_cost
        self.food -= spent
        self.step = {"mode": "pay", "merc": merc, "owed": owed, "cards": []}
        if owed <= 0:
            self.finish_hire(seat)

    def finish_hire(self, seat: int) -> None:
        merc = self.step["merc"]
        self.discards[seat].extend(self.step["cards"])  # overpaid medicine is simply lost with the card
        self.supply[merc] -= 1
        self.discards[seat].append(merc)
        self.step = {}

    def finish_trash(self) -> None:
        for key in self.step["cards"]:
            # Trashed Refugees leave the game (open question 3); everything else joins the junkyard.
            (self.removed if key == "refugee" else self.junkyard).append(key)
        if any(k != "refugee" for k in self.step["cards"]):
            self.junkyard = shuffled(self.junkyard, self.rng())
            knowledge.shuffled(self, [k for k in self.step["cards"] if k != "refugee"])
        self.step = {}

    # --- skirmish ----------------------------------------------------------------------------------------
    def targets(self, seat: int, special: str) -> list[tuple[int, str]]:
        wanted = (lambda c: c.kind == TOOL) if special == "sabotage" else (lambda c: c.people > 0)
        return [(other, key) for other in self.order() if other != seat
                for key in sort_keys(set(self.kept[other])) if wanted(CARDS[key])]

    def units_left(self, seat: int, special: str) -> int:
        unit = "saboteur" if special == "sabotage" else "sniper_team"
        return self.kept[seat].count(unit) - self.specials_used[special]

    def special_ids(self, seat: int) -> list[str]:
        ids = []
        for special in ("sabotage", "snipe"):
            if self.units_left(seat, special) > 0:
                ids += [f"{special}:{other}:{key}" for other, key in self.targets(seat, special)]
        return ids + ["skirmish_done"]

    def next_skirmisher(self) -> None:
        """Skip seats with no Saboteur or Sniper Team able to act; resolve once every seat had its chance."""
        n = self.game.num_seats
        while self.turn_pos < n:
            seat = self.order()[self.turn_pos]
            if any(self.units_left(seat, s) > 0 and self.targets(seat, s) for s in ("sabotage", "snipe")):
                return
            self.turn_pos += 1
            self.specials_used = {"sabotage": 0, "snipe": 0}
        self.resolve_skirmish()

    def perform_special(self, seat: int, verb: str, arg: str) -> None:
        if verb in ("sabotage", "snipe"):
            other, key = arg.split(":")
            self.kept[int(other)].remove(key)
            knowledge.left_hand(self, int(other), key)
            self.discards[int(other)].append(key)
            self.specials_used[verb] += 1
            if any(self.units_left(seat, s) > 0 and self.targets(seat, s) for s in ("sabotage", "snipe")):
                return
        self.turn_pos += 1
        self.specials_used = {"sabotage": 0, "snipe": 0}
        self.next_skirmisher()

    def resolve_skirmish(self) -> None:
        n = self.game.num_seats
        carriers_needed = not self.game.options["gamebench_fight_sum"]
        strength = [fight_strength(self.kept[s], carriers_needed) for s in range(n)]
        crowd = [people(self.kept[s]) for s in range(n)]
        winner = skirmish_winner(strength, crowd)
        prize = self.contested.pop(0)
        if winner is None:
            self.junkyard = shuffled(self.junkyard + [prize], self.rng())
            knowledge.shuffled(self, [], seen_by=self.initiator if self.peek is not None else None, unseen=prize)
        else:
            self.discards[winner].append(prize)
            self.skirmishes_won[winner] += 1
        self.last_skirmish = {
            "round": self.round, "strength": strength, "people": crowd, "winner": winner,
            "prize": prize if winner is not None else None,
            "cards": [sort_keys(self.kept[s]) for s in range(n)],
        }
        for seat in range(n):
            self.discards[seat].extend(self.kept[seat])
            self.kept[seat] = []
            knowledge.hand_emptied(self, seat)
        self.peek = None
        if not self.contested:
            self.phase = OVER
            self.revealed = False
            return
        self.phase = RESOURCE
        self.start_round()


def skirmish_winner(strength: list[int], crowd: list[int]) -> int | None:
    """Highest fight strength; a tie goes to the tied seat with most people; still tied: nobody."""
    best = max(strength)
    tied = [s for s, v in enumerate(strength) if v == best]
    if len(tied) > 1:
        most = max(crowd[s] for s in tied)
        tied = [s for s in tied if crowd[s] == most]
    return tied[0] if len(tied) == 1 else None
