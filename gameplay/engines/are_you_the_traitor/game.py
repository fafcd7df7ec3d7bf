"""Are You the Traitor? as a pure engine: rounds of secret characters, turn-based talk, one Stop call, treasure.

The table talk of the published game is free and simultaneous; here it runs in ticks (the fact sheet's adaptation):
in each tick every seat, one at a time in a rotation whose first seat moves on by one every round, says a public
message, passes or calls Stop. The first Stop ends the round at once. After ``ticks_before_handoff`` full ticks
without a Stop the Keyholder must hand the Key to a Wizard (a platform rule, so that talk ends). Then the winning
team draws treasure, and a Magic Ring step follows in which every seat may act at once, holder or not, so that who is
asked never tells who holds a ring; a turn timer (option ``ring_seconds``) ends it by itself for the people who do not
act, so a player without a ring has nothing to click (as at the table, where nobody speaks up unless using a ring).
The game ends after a round in which someone reaches the target, or after ``max_rounds`` rounds (a platform rule, so
that random play ends); ending.py words how it ended.

Hidden information (views.py words it per viewer): each seat's character (Wizards are public as Wizards, their
alignment is not), the reveals of the eyes-closed steps, and every treasure card. A round's characters become
public when it ends.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ..api import Action, Game, GameSpec, IllegalActionError, MeasureSpec, OptionSpec, State, TextAction
from ..dialogue import clean_message
from .deck import (
    EVIL,
    GAMEBENCH_ALIGNMENTS,
    GAMEBENCH_CHARACTERS,
    KEYHOLDER,
    RING,
    TRAITOR,
    WIZARD,
    alignments_offered,
    characters_for,
    points,
    sorted_cards,
    team_of,
    treasure_deck,
    winning_team,
)
from .ending import EndWords
from .knowledge import note_public_draw, note_steal
from .rules import KNOWLEDGE, OUTCOMES, ROLES, RULES, STOP, TREASURE, WINNING
from .sampling import sample_state
from .views import SeatViews

TALK, HANDOFF, RING_STEP, OVER = "talk", "handoff", "ring", "over"
SAY, PASS, KEEP_RING = "say", "pass", "keep_ring"
MAX_SAY = 200
EXAMPLE_SAY = "Who would like to tell us what they hold?"  # TextAction.example: claims nothing about any role
HISTORY_KEPT = 8  # public one-line summaries of earlier rounds shown in observations


class TraitorState(SeatViews, EndWords, State):
    game: TraitorGame

    def __init__(self, game: TraitorGame, seed: int):
        super().__init__(game, seed)
        n = game.num_seats
        self.deck = treasure_deck()
        self.rng().shuffle(self.deck)
        self.discard: list[str] = []
        self.hands: list[list[str]] = [[] for _ in range(n)]
        self.rounds_won = [0] * n
        self.round_no = 1
        self.characters: list[str] = []
        self.alignments: list[str | None] = []
        self.set_aside: list[str] = []
        self.history: list[str] = []
        self.last: dict[str, Any] | None = None  # the latest resolved round, in full (worded per viewer)
        self.ring_order: list[int] = []  # the Magic Ring step's seats, from the caller round
        self.ring_done: list[int] = []  # the seats that have acted in it (used, kept or went on), in the order they did
        self.protected: int | None = None
        self.winners: list[int] = []
        self.ending = ""  # how the game ended: "target" or "max_rounds" (saved as "end_reason")
        self.card_facts: list[list] = []  # cards each seat (and the public) is sure others hold: knowledge.py
        self.reshuffled = False  # spent Magic Rings were reshuffled into a deck: it holds only rings since
        self._deal_round()

    # --- rounds ----------------------------------------------------------------------------------------------
    def _deal_round(self) -> None:
        n = self.game.num_seats
        fixed = self.game.options["gamebench_fixed_roles"]
        if fixed and n == 5:
            self.characters = list(GAMEBENCH_CHARACTERS)
            self.alignments = list(GAMEBENCH_ALIGNMENTS)
        elif not (fixed and self.characters):  # fixed roles at other seat counts: the first deal stays
            characters = characters_for(n)
            self.rng().shuffle(characters)
            offered = alignments_offered(n)
            self.rng().shuffle(offered)
            self.characters = characters
            self.alignments = [None] * n
            for seat in (s for s in range(n) if characters[s] == WIZARD):
                self.alignments[seat] = offered.pop()
            self.set_aside = offered  # alignment cards nobody sees (4 and 10 seats)
        self.start = (self.round_no - 1) % n
        self.tick = 1
        self.turn = 0
        self.talk: list[dict[str, Any]] = []
        self.phase = HANDOFF if self.game.options["ticks_before_handoff"] == 0 else TALK
        self.ring_order, self.ring_done, self.protected = [], [], None

    def keyholder(self) -> int:
        return self.characters.index(KEYHOLDER)

    def wizards(self) -> list[int]:
        return [s for s, c in enumerate(self.characters) if c == WIZARD]

    def team(self, seat: int) -> str:
        return team_of(self.characters[seat], self.alignments[seat])

    def totals(self) -> list[int]:
        return [points(hand) for hand in self.hands]

    def _from(self, first: int) -> list[int]:
        n = self.game.num_seats
        return [(first + i) % n for i in range(n)]

    def _draw(self) -> str | None:
        if not self.deck and self.discard:
            self.deck, self.discard = self.discard, []  # the discards are the spent Magic Rings
            self.rng().shuffle(self.deck)
            self.reshuffled = True
        return self.deck.pop() if self.deck else None  # every card held: nothing left to draw

    def _resolve(self, caller: int, target: int) -> None:
        team = winning_team(self.characters[caller], self.alignments[caller], self.characters[target],
                            self.alignments[target])
        order = self._from(caller)
        winners = [s for s in order if self.team(s) == team]
        draws = []
        for seat in winners:
            self.rounds_won[seat] += 1
            card = self._draw()
            if card is not None:
                self.hands[seat] = sorted_cards([*self.hands[seat], card])
                if self.reshuffled:  # a deck of Magic Rings only: everybody knows what was drawn
                    self.card_facts = note_public_draw(self.card_facts, self.game.num_seats, seat, card)
            draws.append([seat, card])
        # A caller whose Stop won the round "declared victory": no Magic Ring may be used on it this round.
        self.protected = caller if self.team(caller) == team else None
        self.last = {"round": self.round_no, "caller": caller, "target": target, "team": team,
                     "characters": list(self.characters), "alignments": list(self.alignments),
                     "set_aside": list(self.set_aside), "draws": draws, "rings": []}
        name = self.game.seat_name
        self.history = [*self.history[-(HISTORY_KEPT - 1):],
                        f"Round {self.round_no}: {name(caller)} called Stop on {name(target)}; {team.capitalize()} "
                        f"won ({', '.join(name(s) for s in sorted(winners))})."]
        if any(self.hands):  # public condition (card counts), so skipping the step tells nobody anything
            self.phase, self.ring_order, self.ring_done = RING_STEP, order, []
        else:
            self._end_round()

    def _end_round(self) -> None:
        totals = self.totals()
        if max(totals) >= self.game.options["target_points"]:
            self._finish("target")
        elif self.round_no >= self.game.options["max_rounds"]:
            self._finish("max_rounds")
        else:
            self.round_no += 1
            self._deal_round()

    def _finish(self, reason: str) -> None:
        self.phase, self.ending = OVER, reason
        totals = self.totals()
        leaders = [s for s, t in enumerate(totals) if t == max(totals)]
        if self.game.options["gamebench_team_win"]:
            # GameBench: the leader's team (as dealt in the last round) wins together.
            teams = {self.team(s) for s in leaders}
            self.winners = [s for s in range(self.game.num_seats) if self.team(s) in teams]
        else:
            self.winners = leaders

    # --- the contract ----------------------------------------------------------------------------------------
    def current_seats(self) -> list[int]:
        if self.phase == TALK:
            return [(self.start + self.turn) % self.game.num_seats]
        if self.phase == HANDOFF:
            return [self.keyholder()]
        if self.phase == RING_STEP:
            # Everyone at once, holder or not: asking only the holders would tell the table who holds a ring.
            return [s for s in self.ring_order if s not in self.ring_done]
        return []

    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.current_seats():
            return []
        name = self.game.seat_name
        if self.phase == RING_STEP:
            if RING not in self.hands[seat]:
                return [Action(KEEP_RING, "Go on (you hold no Magic Ring)")]
            targets = [t for t in range(self.game.num_seats) if t != seat and t != self.protected and self.hands[t]]
            return [*(Action(f"ring:{t}", f"Use a Magic Ring: take a random card from {name(t)} "
                                          f"({len(self.hands[t])} cards)") for t in targets),
                    Action(KEEP_RING, "Keep your Magic Ring")]
        character = self.characters[seat]
        if character == KEYHOLDER:
            stops = [Action(f"stop:{w}", f"Hand the Key to {name(w)} (a Wizard): Stop") for w in self.wizards()]
        elif character == TRAITOR:
            stops = []  # Traitors may never call Stop
        else:
            stops = [Action(f"stop:{t}", f"Call Stop on {name(t)}")
                     for t in range(self.game.num_seats) if t != seat]
        if self.phase == HANDOFF:
            return stops  # talk time is over: the Keyholder's only moves hand over the Key
        return [Action(PASS, "Pass"), *stops]

    def text_actions(self, seat: int) -> list[TextAction]:
        if self.phase != TALK or seat not in self.current_seats():
            return []
        return [TextAction(SAY, "Say to the table", "a short public message (what you claim, ask or suspect)",
                           MAX_SAY, example=EXAMPLE_SAY)]

    def validate_text(self, seat: int, action_id: str, text: str) -> str:
        if action_id != SAY:
            raise IllegalActionError(f"{action_id!r} takes no text")
        # One line of printable text: line breaks become spaces, control characters are refused.
        return " ".join(clean_message(text, MAX_SAY).split())

    def _apply(self, seat: int, action_id: str, text: str | None) -> None:
        kind, _, arg = action_id.partition(":")
        if kind in (SAY, PASS):
            self.talk.append({"k": kind, "s": seat, "t": text} if kind == SAY else {"k": kind, "s": seat})
            self.turn += 1
            if self.turn == self.game.num_seats:
                self.turn, self.tick = 0, self.tick + 1
                if self.tick > self.game.options["ticks_before_handoff"]:
                    self.phase = HANDOFF
        elif kind == "stop":
            self._resolve(seat, int(arg))
        else:
            if kind == "ring":
                self._steal(seat, int(arg))
            self.ring_done.append(seat)
            if len(self.ring_done) == len(self.ring_order):
                self._end_round()

    def _steal(self, thief: int, victim: int) -> None:
        self.hands[thief].remove(RING)
        self.discard.append(RING)
        card = self.hands[victim][self.rng().randrange(len(self.hands[victim]))]
        self.card_facts = note_steal(self.card_facts, self.game.num_seats, thief, victim, card,
                                     len(self.hands[victim]))
        self.hands[victim].remove(card)
        self.hands[thief] = sorted_cards([*self.hands[thief], card])
        assert self.last is not None
        self.last["rings"].append([thief, victim, card])

    # --- turn timer (option ring_seconds) ----------------------------------------------------------------------
    def time_limit(self, seat: int) -> int:
        # Only the Magic Ring step is timed: when the time is up, whoever has not acted keeps their ring or, holding
        # none, simply goes on. Talk and the Key hand-off wait for their player as before.
        if self.phase != RING_STEP or seat not in self.current_seats():
            return 0
        return int(self.game.options["ring_seconds"])

    def timeout_action(self, seat: int) -> tuple[str, str | None] | None:
        return (KEEP_RING, None) if self.time_limit(seat) else None

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def scores(self) -> list[float]:
        n = self.game.num_seats
        if self.phase != OVER:
            return [1.0 / n] * n
        return [1.0 / len(self.winners) if s in self.winners else 0.0 for s in range(n)]

    def rule_topics(self, seat: int, action_id: str) -> tuple[str, ...]:
        kind = action_id.split(":")[0]
        if kind == "stop":
            return (STOP, OUTCOMES, ROLES)
        if kind in ("ring", KEEP_RING):
            return (TREASURE, WINNING)
        return (STOP, KNOWLEDGE, ROLES)

    def measures(self, seat: int) -> dict[str, Any]:
        return {"points": points(self.hands[seat]), "rounds_won": self.rounds_won[seat],
                "won": seat in self.winners if self.phase == OVER else None}

    # --- search -------------------------------------------------------------------------------------------------
    def _draw_information_state(self, seat: int, rng: random.Random) -> TraitorState:
        return sample_state(self, seat, rng)

    # --- JSON ------------------------------------------------------------------------------------------------
    PAYLOAD_FIELDS = (
        "deck", "discard", "hands", "rounds_won", "round_no", "characters", "alignments", "set_aside",
        "history", "last", "start", "tick", "turn", "talk", "phase", "ring_order", "ring_done", "protected",
        "winners", "card_facts", "reshuffled"
    )

    def _payload(self) -> dict:
        # How the game ended is saved under its old key (the attribute was renamed when State.end_reason came).
        return {**super()._payload(), "end_reason": self.ending}

    def _load_payload(self, payload: Mapping[str, Any]) -> None:
        # States stored before the card facts were kept: no facts (sound, only less precise samples).
        payload = {"card_facts": [], "reshuffled": False, **payload}
        if "ring_done" not in payload:  # stored while the Magic Ring step went one seat at a time from the caller
            payload["ring_done"] = payload["ring_order"][:payload.get("ring_pos", 0)]
        super()._load_payload(payload)
        self.ending = payload.get("end_reason", "")


class TraitorGame(Game):
    spec = GameSpec(
        id="are_you_the_traitor",
        name="Are You the Traitor?",
        description="Hidden-role party game: talk, bluff and call Stop to hand over the Key or unmask a Traitor.",
        min_seats=4,
        max_seats=10,
        reasoning_categories=("hidden_information", "language_communication", "social_deduction", "cooperation"),
        perfect_information=False,
        has_chance=True,
        information_sampling=True,
        simultaneous=True,  # the Magic Ring step: every seat may act at once
        # ... so a click there still counts when another seat's choice overtook the view it was made on. Only that step
        # has several seats acting, and it ends only once each of them has acted, so no view outlives it.
        concurrent_actions=True,
        turn_timer=True,  # option ring_seconds: the Magic Ring step ends by itself for people who do not act
        options=(
            OptionSpec("target_points", 10, "Points that end the game after the round in which someone reaches "
                       "them; the most points win.", int, bounds=(1, 60), label="Points to win"),
            OptionSpec("max_rounds", 20, "Platform rule: the game ends after this many rounds; the most points "
                       "win.", int, bounds=(1, 200), short_value=1, label="Round cap"),
            OptionSpec("ticks_before_handoff", 4, "Platform rule: full turns of talk before the Keyholder must hand "
                       "the Key to a Wizard (0: at once).", int, bounds=(0, 30), short_value=1,
                       label="Turns of talk before the Key is handed over"),
            OptionSpec("ring_seconds", 10, "Seconds people have in the Magic Ring step, where everyone may act at "
                       "once; when they run out, whoever has not acted keeps their ring or, holding none, simply goes "
                       "on (0: no clock, everyone clicks).", int, bounds=(0, 120),
                       label="Seconds for the Magic Ring step"),
            OptionSpec("gamebench_fixed_roles", False, "GameBench's version: the same roles every round (with 5 "
                       "players: Traitor, Evil Wizard, Good Wizard, Keyholder, Guard in seat order; otherwise the "
                       "first round's deal is kept).", label="GameBench: fixed roles"),
            OptionSpec("gamebench_team_win", False, "GameBench's result: the whole team (as in the last round) of "
                       "the player with the most points wins.", label="GameBench: team win"),
        ),
        measures=(
            MeasureSpec("points", "The seat's treasure points (at the end: its final total)."),
            MeasureSpec("rounds_won", "Rounds in which the seat was on the winning team."),
            MeasureSpec("won", "Whether the seat is among the game's winners (unknown until the end).", kind="bool"),
        ),
    )
    state_class = TraitorState
    rules = RULES

    def max_actions(self) -> int:
        # Per round: at most ticks * seats talk turns, the Key hand-off, and one Magic Ring turn per seat.
        per_round = self.options["ticks_before_handoff"] * self.num_seats + 1 + self.num_seats
        return self.options["max_rounds"] * per_round + 1

    def teams(self) -> list[int]:
        # Characters are re-dealt every round, so teams change and scores are individual: one team per seat (the
        # default). Only GameBench's fixed 5-seat roles with its team result make a standing team game.
        if self.options["gamebench_fixed_roles"] and self.options["gamebench_team_win"] and self.num_seats == 5:
            pairs = zip(GAMEBENCH_CHARACTERS, GAMEBENCH_ALIGNMENTS, strict=True)
            return [1 if c == TRAITOR or a == EVIL else 0 for c, a in pairs]
        return super().teams()

