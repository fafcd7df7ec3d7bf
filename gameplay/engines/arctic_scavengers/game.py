"""Arctic Scavengers as a pure engine: the round loop (draw, resource gathering, skirmish) over per-seat zones.

A seat's resource turn is a chain of small structured actions so that a person can click cards one by one and a
random agent always finishes: pick an action (DRAW/DIG/HUNT start a group of cards, HIRE names a mercenary, TRASH
names a first card), add cards to it, confirm it, and finally ``end_turn``. In a skirmish round the seat then
drops cards it does not want to fight with (face up, to its discard pile) and ``keep``s the rest face down. Once
every seat has kept, all kept cards are revealed together; Saboteurs and Sniper Teams act in Initiator order;
then strengths are compared. Cards are plain keys (``cards.CARDS``), so action ids never carry a hidden card:
every card an id names is played face up.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ..api import Action, ActionLabels, Game, GameSpec, MeasureSpec, Observation, OptionSpec, State
from . import flow, knowledge, sampling
from .cards import CARDS, people
from .evaluation import evaluate
from .rules import RULES
from .text import action_label, dig_view, hand_cards, observation_data, observation_text, topics_for

SEAT_NAMES = ("North Tribe", "East Tribe", "South Tribe", "West Tribe", "Far Tribe")


class ArcticState(flow.RoundFlow, State):
    game: ArcticGame

    def __init__(self, game: ArcticGame, seed: int):
        State.__init__(self, game, seed)
        self.setup()

    # --- contract ----------------------------------------------------------------------------------------
    def current_seats(self) -> list[int]:
        seat = self.acting_seat()
        return [] if seat is None else [seat]

    def legal_actions(self, seat: int) -> list[Action]:
        if seat != self.acting_seat():
            return []
        return [Action(aid, action_label(self, seat, aid)) for aid in self.legal_ids(seat)]

    def legal_action_ids(self, seat: int) -> list[str]:
        # Checking a move and searching need no labels.
        return list(self.legal_ids(seat)) if seat == self.acting_seat() else []

    def _apply(self, seat: int, action_id: str, text: str | None) -> None:
        labels = self.action_labels(seat, action_id)
        self.last_public[seat] = labels.public
        self.perform(seat, action_id)

    def is_terminal(self) -> bool:
        return self.phase == flow.OVER

    def final_people(self) -> list[int]:
        return [people(self.owned(seat)) for seat in range(self.game.num_seats)]

    def winners(self) -> list[int]:
        counts = self.final_people()
        best = max(counts)
        tied = [s for s, c in enumerate(counts) if c == best]
        if self.game.options["tiebreak_skirmishes"] and len(tied) > 1:
            most = max(self.skirmishes_won[s] for s in tied)
            tied = [s for s in tied if self.skirmishes_won[s] == most]
        return tied

    def scores(self) -> list[float]:
        n = self.game.num_seats
        if not self.is_terminal():
            return [1.0 / n] * n
        tied = self.winners()
        return [1.0 / len(tied) if s in tied else 0.0 for s in range(n)]

    def evaluation(self) -> list[float]:
        """Estimated scores of an unfinished game from each tribe's projected people (``evaluation.py``); the
        scores themselves once it is over."""
        return evaluate(self)

    def result_text(self) -> str | None:
        """The board's last line, agreeing with the page's status line: a draw when every tribe shares the top
        (scores all equal), otherwise the tribes with the top score win."""
        if not self.is_terminal():
            return None
        counts = self.final_people()
        tally = self._tally(range(self.game.num_seats), counts)
        tied = self.winners()
        if len(tied) == self.game.num_seats:
            return f"A draw: every tribe ends with {counts[0]} people."
        if len(tied) == 1:
            if counts.count(max(counts)) > 1:
                return f"{self._names(tied)} wins the tie for most people on skirmishes won ({tally} people)."
            return f"{self._names(tied)} wins with the most people ({tally})."
        return f"Shared win for {self._names(tied)} ({tally} people)."

    def end_reason(self) -> str | None:
        """The contested pile ran out (the only way the game ends), then who had the most people, and the
        skirmishes won when they broke a tie. Final people counts and skirmishes won are public at the end."""
        if not self.is_terminal():
            return None
        n = self.game.num_seats
        counts = self.final_people()
        best = max(counts)
        top = [s for s in range(n) if counts[s] == best]
        ended = f"The contested pile ran out after round {self.round}"
        if len(top) == 1:
            return f"{ended}; {self._names(top)} has the most people ({self._tally(range(n), counts)})."
        tied = self.winners()
        if len(top) == n:
            people_tie = f"{ended} with every tribe on {best} people"
        else:
            people_tie = f"{ended} with {self._names(top)} tied on {best} people"
        if not self.game.options["tiebreak_skirmishes"]:
            return f"{people_tie}."
        won = self.skirmishes_won
        if tied == top:
            each = won[top[0]]
            return f"{people_tie} and {each} skirmish{'' if each == 1 else 'es'} won each."
        return f"{people_tie}; most skirmishes won breaks the tie ({self._tally(top, won)})."

    def _names(self, seats) -> str:
        named = [self.game.seat_name(s) for s in seats]
        return named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]

    def _tally(self, seats, values) -> str:
        return ", ".join(f"{self.game.seat_name(s)} {values[s]}" for s in seats)

    def measures(self, seat: int) -> dict[str, Any]:
        return {"people": people(self.owned(seat)), "skirmishes_won": self.skirmishes_won[seat],
                "rounds": self.round}

    def rule_topics(self, seat: int, action_id: str) -> tuple[str, ...]:
        return topics_for(action_id)

    def action_labels(self, seat: int, action_id: str, text: str | None = None) -> ActionLabels:
        """Only ``keep`` reads differently: its player sees which cards went face down, the others how many."""
        own = action_label(self, seat, action_id, viewer=seat)
        public = action_label(self, seat, action_id, viewer=None)
        return ActionLabels(by_seat=tuple(own if s == seat else public for s in range(self.game.num_seats)),
                            public=public)

    def observation(self, seat: int | None) -> Observation:
        data = observation_data(self, seat)
        return Observation(seat, data, observation_text(self, data, seat))

    def secrets(self) -> dict[int, list[str]]:
        """Per seat: its hand, its face-down skirmish cards, its deck order, the junkyard cards it is digging
        through and (for the Initiator) the contested resource it peeked at, each as the observation writes it."""
        result: dict[int, list[str]] = {}
        for seat in range(self.game.num_seats):
            values = [flow.fragment("my_hand", flow.sorted_cards(self.hands[seat])),
                      flow.fragment("my_hand_cards", hand_cards(self, seat)),
                      flow.fragment("deck_order", self.decks[seat])]
            if self.hands[seat]:
                values.append(flow.hand_line(self.hands[seat]))
            if self.kept[seat] and not self.revealed:
                values.append(flow.fragment("my_kept", flow.sorted_cards(self.kept[seat])))
            if self.step.get("mode") == "dig" and seat == self.acting_seat():
                values.append(flow.fragment("dig_view", dig_view(self.step["cards"])))
            if self.peek is not None and seat == self.initiator:
                values.append(flow.fragment("contested_peek", [self.peek, CARDS[self.peek].name]))
            result[seat] = values
        return result

    # --- persistence -------------------------------------------------------------------------------------
    PAYLOAD_FIELDS = (
        "round", "phase", "supply", "junkyard", "contested", "removed", "decks", "discards", "hands",
        "kept", "revealed", "initiator", "turn_pos", "step", "used", "food", "peek", "specials_used",
        "skirmishes_won", "last_skirmish", "last_public"
    )

    def _payload(self) -> dict:
        return {**super()._payload(), "held_known": self.held_known, "junk_known": self.junk_known}

    def _load_payload(self, payload: Mapping[str, Any]) -> None:
        super()._load_payload(payload)
        # States stored before these were kept: nothing known beyond each seat's view (weaker bounds, still true).
        held, junk = knowledge.fresh(self.game.num_seats)
        self.held_known = payload.get("held_known", held)
        self.junk_known = payload.get("junk_known", junk)

    # --- search ------------------------------------------------------------------------------------------
    def _draw_information_state(self, seat: int, rng: random.Random) -> ArcticState:
        # Other tribes' hands and face-down cards, every deck's order, the junkyard and contested pile, drawn anew.
        return sampling.sample_state(self, seat, rng)


class ArcticGame(Game):
    spec = GameSpec(
        id="arctic_scavengers",
        name="Arctic Scavengers",
        description=(
            "Deck-building survival for 2-5 tribes (Rio Grande, base game): draw five cards a round, use them to "
            "draw, dig through the junkyard, hunt, hire mercenaries and trash, keep the rest face down for the "
            "skirmish over a contested resource; the tribe with the most people at the end wins."
        ),
        min_seats=2,
        max_seats=5,
        reasoning_categories=("abstract_strategy", "non_deterministic", "hidden_information"),
        perfect_information=False,
        has_chance=True,
        information_sampling=True,
        has_evaluation=True,
        options=(
            OptionSpec("gamebench_rounds", False,
                       "GameBench's short game: a contested pile of only 5 (Wolf Pack, Grenade, Sled Team, Field "
                       "Crew, Tribe Family of 5) and a skirmish every round from round 1, so 5 rounds.",
                       label="GameBench: short game"),
            OptionSpec("contested_count", 14,
                       "Platform option for short matches and tests: keep only this many contested resources "
                       "(after the shuffle). 14 is the published game.", type=int, choices=tuple(range(1, 15)),
                       short_value=2, label="Contested resources"),
            OptionSpec("gamebench_fight_sum", False,
                       "GameBench's skirmish strength: every FIGHT number on the kept cards added up (tools and "
                       "Group Leaders count without a person to carry them, any number per person).",
                       label="GameBench: skirmish strength"),
            OptionSpec("tiebreak_skirmishes", False,
                       "Break a tie for most people by most skirmishes won (otherwise the tied tribes share the "
                       "win).", label="Break ties by skirmishes won"),
        ),
        seat_names=SEAT_NAMES,
        measures=(
            MeasureSpec("people", "People on every card the tribe owns (the final count once the game is over)."),
            MeasureSpec("skirmishes_won", "Skirmishes this tribe won."),
            MeasureSpec("rounds", "Rounds played so far."),
        ),
    )
    state_class = ArcticState
    rules = RULES

    def contested_size(self) -> int:
        return min(self.options["contested_count"], 5 if self.options["gamebench_rounds"] else 14)

    def total_rounds(self) -> int:
        """One skirmish per round once skirmishes start, each taking one contested resource."""
        quiet = 0 if self.options["gamebench_rounds"] else flow.QUIET_ROUNDS
        return self.contested_size() + quiet

    def max_actions(self) -> int:
        return flow.ACTIONS_PER_SEAT_ROUND * self.num_seats * self.total_rounds()

