"""Two Rooms and a Boom (basic game) as a pure, turn-based engine.

The printed game runs on a timer with everybody talking at once. Here each round gives every seat a budget of talk
actions (3, 2, 1 by default, in proportion to the 3-, 2- and 1-minute rounds) taken one at a time in a rotating order
that alternates between the rooms, so a share offered on one turn can be accepted on the partner's next turn. Every
talk action, offers and usurp votes included, spends budget, which bounds a round. When all budgets are spent each
Leader picks the round's hostages (one combined action), the Leaders parley, and the hostages swap rooms at once.
After the third exchange the Gambler, if any, bets on the winner and every card is revealed.

Hidden information: each seat knows its own card, plus what shares and public reveals showed it (``known``). Events
record which seats witnessed them, and observations and labels (views.py, text.py) word each event per viewer.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ..api import (
    Game,
    GameSpec,
    InvalidOptionsError,
    MeasureSpec,
    OptionSpec,
    State,
)
from .cards import (
    BLUE,
    BOMBER,
    GAMBLER,
    PRESIDENT,
    RED,
    ROOM_NAMES,
    ROUNDS,
    TEAM_NUMBER,
    deal,
    hostage_counts,
    split_rooms,
    team_of,
)
from .knowledge import note_reveal, note_share
from .moves import CHOOSE, GAMBLE, OVER, PARLEY, TALK, SeatMoves
from .rules import HOSTAGES, LEADERS, ROOMS, RULES, SHARING, TEAMS, WINNING
from .sampling import sample_state
from .views import SeatViews


class TwoRoomsState(SeatViews, SeatMoves, State):
    game: TwoRoomsGame

    def __init__(self, game: TwoRoomsGame, seed: int):
        super().__init__(game, seed)
        n = game.num_seats
        self.cards = deal(n, self.rng())
        self.rooms = split_rooms(n, self.rng())
        self.leaders: list[int | None] = [None, None]
        self.led = [False] * n  # the was_leader measure
        self.sent = [0] * n  # times each seat was sent as a hostage
        self.known: list[dict[str, str]] = [{} for _ in range(n)]  # viewer -> {seat: "card"|"color"}
        self.events: list[dict[str, Any]] = []
        self.round = 1
        self.phase = TALK
        self.guess: str | None = None
        if game.simplified:  # GameBench: one Leader per room, drawn once for the whole game
            for room in (0, 1):
                self._set_leader(room, self.rng().choice(self.members(room)))
        self._start_round()

    # --- helpers -------------------------------------------------------------------------------
    def members(self, room: int) -> list[int]:
        return [s for s, r in enumerate(self.rooms) if r == room]

    def hostage_count(self) -> int:
        return self.game.hostages[self.round - 1]

    def _set_leader(self, room: int, seat: int) -> None:
        self.leaders[room] = seat
        self.led[seat] = True

    def _start_round(self) -> None:
        n = self.game.num_seats
        self.budgets = [self.game.budget(self.round)] * n
        a, b = self.members(0), self.members(1)
        order = [s for pair in zip(a, b, strict=False) for s in pair] + a[len(b):] + b[len(a):]
        shift = (self.round - 1) % n  # a different seat opens each round
        self.order = order[shift:] + order[:shift]
        self.cursor = 0
        self.offers: list[list] = []  # [from, to, "card"|"color"], at most one per ordered pair
        self.votes: dict[str, int] = {}
        self.abdicated: list[int] = []
        self.chosen: list[list[int] | None] = [None, None]
        self.parley_queue: list[int] = []

    def _gambler(self) -> int | None:
        return self.cards.index(GAMBLER) if GAMBLER in self.cards else None

    def red_wins(self) -> bool:
        return self.rooms[self.cards.index(PRESIDENT)] == self.rooms[self.cards.index(BOMBER)]

    def winning_seats(self) -> list[int]:
        team = RED if self.red_wins() else BLUE
        winners = [s for s, c in enumerate(self.cards) if team_of(c) == team]
        if self.guess == team:
            winners.append(self._gambler())
        return sorted(winners)

    # --- the contract --------------------------------------------------------------------------
    def _event_for(self, seat: int, action_id: str, text_in: str | None) -> dict[str, Any]:
        """The structured event an action makes, worked out before it is applied (labels use it too)."""
        kind, *rest = action_id.split(":")
        room = self.rooms[seat]
        here = self.members(room)
        event: dict[str, Any] = {"k": kind, "r": self.round, "s": seat, "room": room, "see": here}
        if kind in ("say", "parley_say", "whisper"):
            event["text"] = text_in
            if kind == "whisper":
                event.update(t=int(rest[0]), see=[seat, int(rest[0])])
            if kind == "parley_say":
                event.update(k="parley", see=sorted(self.leaders))
        elif kind == "parley_pass":
            event["see"] = sorted(self.leaders)
        elif kind == "offer_share":
            event.update(k="offer", t=int(rest[0]), how=rest[1], see=[seat, int(rest[0])])
        elif kind == "accept_share":
            offerer = int(rest[0])
            how = next(h for o, t, h in self.offers if o == offerer and t == seat)
            event.update(k="share", a=offerer, b=seat, how=how, ca=self.cards[offerer], cb=self.cards[seat])
        elif kind == "reveal_public":
            event.update(k="reveal", c=self.cards[seat])
        elif kind == "nominate_leader":
            event.update(k="nominate", t=int(rest[0]), see=None)
        elif kind == "vote_usurp":
            target = int(rest[0])
            votes = {**self.votes, str(seat): target}
            event.update(k="vote", t=target, won=2 * sum(votes.get(str(m)) == target for m in here) > len(here))
            if event["won"]:
                event["see"] = None  # a change of Leader is public
        elif kind == "abdicate":
            event.update(t=int(rest[0]), see=None)
        elif kind == "hostages":
            event["seats"] = [int(s) for s in rest[0].split(",")]
        elif kind == "gamble":
            event.update(guess=rest[0], see=None)
        return event

    def _apply(self, seat: int, action_id: str, text_in: str | None) -> None:
        event = self._event_for(seat, action_id, text_in)
        self.events.append(event)
        kind = event["k"]
        if self.phase == TALK:
            self._apply_talk(seat, event)
            self.budgets[seat] = 0 if kind == "done" else self.budgets[seat] - 1
            self._advance_talk()
        elif kind == "hostages":
            self.chosen[event["room"]] = event["seats"]
            if self.chosen[1 - event["room"]] is not None:
                if self.game.options["parley_messages"] and not self.game.simplified:
                    self.phase = PARLEY
                    self.parley_queue = [self.leaders[0], self.leaders[1]] * self.game.options["parley_messages"]
                else:
                    self._exchange()
        elif kind in ("parley", "parley_pass"):
            self.parley_queue.pop(0)
            if not self.parley_queue:
                self._exchange()
        elif kind == "gamble":
            self.guess = event["guess"]
            self.phase = OVER

    def _apply_talk(self, seat: int, event: dict[str, Any]) -> None:
        kind, room = event["k"], event["room"]
        if kind == "offer":
            self.offers = [o for o in self.offers if not (o[0] == seat and o[1] == event["t"])]
            self.offers.append([seat, event["t"], event["how"]])
        elif kind == "share":
            self.offers = [o for o in self.offers if not (o[0] == event["a"] and o[1] == event["b"])]
            note_share(self.known, event)
        elif kind == "reveal":
            note_reveal(self.known, event)  # its witnesses are the room
        elif kind == "nominate":
            self._set_leader(room, event["t"])
        elif kind == "vote":
            self.votes[str(seat)] = event["t"]
            if event["won"]:
                self._set_leader(room, event["t"])
                self.votes = {v: t for v, t in self.votes.items() if self.rooms[int(v)] != room}
        elif kind == "abdicate":
            self.abdicated.append(seat)
            self._set_leader(room, event["t"])

    def _advance_talk(self) -> None:
        n = len(self.order)
        for step in range(1, n + 1):
            index = (self.cursor + step) % n
            if self.budgets[self.order[index]] > 0:
                self.cursor = index
                return
        # Everybody has spent their budget: open offers and votes lapse, rooms without a Leader get one at random,
        # then hostages are chosen.
        self.offers, self.votes = [], {}
        for room in (0, 1):
            if self.leaders[room] is None:
                pick = self.rng().choice(self.members(room))
                self._set_leader(room, pick)
                self.events.append({"k": "auto_leader", "r": self.round, "room": room, "t": pick, "see": None})
        self.phase = CHOOSE

    def _exchange(self) -> None:
        moves = [list(self.chosen[0] or []), list(self.chosen[1] or [])]
        for room, seats in enumerate(moves):
            for s in seats:
                self.rooms[s] = 1 - room
                self.sent[s] += 1
        self.events.append({"k": "exchange", "r": self.round, "moves": moves, "see": None})
        if self.round < ROUNDS:
            self.round += 1
            self.phase = TALK
            self._start_round()
        else:
            self.phase = GAMBLE if self._gambler() is not None else OVER

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def scores(self) -> list[float]:
        n = self.game.num_seats
        if self.phase != OVER:
            return [1.0 / n] * n
        winners = self.winning_seats()
        return [1.0 / len(winners) if s in winners else 0.0 for s in range(n)]

    def result_teams(self) -> list[int]:
        """The camps for the ratings and the studies' ``won``, once the game is over (Blue 0, Red 1): during play
        they are the game's secret, so ``Game.teams()`` stays one team per seat. The Gambler sides with the team it
        bet on, and wins exactly when that team does; seated alone, a right bet's share (1/4 with four winners)
        would rank below the winning team's whole result and read as a loss."""
        if self.phase != OVER:
            return self.game.teams()
        return [TEAM_NUMBER[self.guess if card == GAMBLER else team_of(card)] for card in self.cards]

    def rule_topics(self, seat: int, action_id: str) -> tuple[str, ...]:
        kind = action_id.split(":")[0]
        if kind in ("nominate_leader", "vote_usurp", "abdicate"):
            return (LEADERS, ROOMS)
        if kind in ("offer_share", "accept_share", "reveal_public"):
            return (SHARING, ROOMS)
        if kind in ("hostages", "parley_say", "parley_pass"):
            return (HOSTAGES, LEADERS)
        if kind == "gamble":
            return (WINNING, TEAMS)
        return (ROOMS, TEAMS)

    def measures(self, seat: int) -> dict[str, Any]:
        over = self.phase == OVER
        return {"team_won": (seat in self.winning_seats()) if over else None, "hostage_moves": self.sent[seat],
                "was_leader": self.led[seat], "team": self.team_number(seat) if over else None}

    def result_text(self) -> str | None:
        if self.phase != OVER:
            return None
        name = self.game.seat_name
        president, bomber = self.cards.index(PRESIDENT), self.cards.index(BOMBER)
        if self.red_wins():
            line = (f"Red wins: the Bomber ({name(bomber)}) is in {ROOM_NAMES[self.rooms[bomber]]} with the President "
                    f"({name(president)}).")
        else:
            line = (f"Blue wins: the President ({name(president)}) is in {ROOM_NAMES[self.rooms[president]]}, away "
                    f"from the Bomber ({name(bomber)}).")
        gambler = self._gambler()
        if gambler is not None:
            right = self.guess == (RED if self.red_wins() else BLUE)
            outcome = "wins" if right else "loses"
            line += f" The Gambler ({name(gambler)}) bet on {str(self.guess).title()} and {outcome}."
        return line

    def end_reason(self) -> str | None:
        """The deciding fact, once every card is revealed: where the President and the Bomber are after the last
        hostage exchange, and the Gambler's bet when there is one."""
        if self.phase != OVER:
            return None
        name = self.game.seat_name
        president, bomber = self.cards.index(PRESIDENT), self.cards.index(BOMBER)
        if self.red_wins():
            reason = (f"After the last hostage exchange the Bomber ({name(bomber)}) is in "
                      f"{ROOM_NAMES[self.rooms[bomber]]} with the President ({name(president)}).")
        else:
            reason = (f"After the last hostage exchange the President ({name(president)}) is in "
                      f"{ROOM_NAMES[self.rooms[president]]}, away from the Bomber ({name(bomber)}).")
        gambler = self._gambler()
        if gambler is not None:
            right = self.guess == (RED if self.red_wins() else BLUE)
            reason += (f" The Gambler ({name(gambler)}) bet on {str(self.guess).title()} and was "
                       f"{'right' if right else 'wrong'}.")
        return reason

    # --- search ---------------------------------------------------------------------------------
    def _draw_information_state(self, seat: int, rng: random.Random) -> TwoRoomsState:
        return sample_state(self, seat, rng)

    # --- JSON ----------------------------------------------------------------------------------
    PAYLOAD_FIELDS = (
        "cards", "rooms", "leaders", "led", "sent", "known", "events", "round", "phase", "guess", "budgets",
        "order", "cursor", "offers", "votes", "abdicated", "chosen", "parley_queue"
    )


class TwoRoomsGame(Game):
    spec = GameSpec(
        id="two_rooms_and_a_boom",
        name="Two Rooms and a Boom",
        description="Hidden teams in two rooms: talk, share cards and trade hostages so the Bomber meets the "
                    "President (Red) or never does (Blue).",
        min_seats=6,
        max_seats=30,
        reasoning_categories=(
            "non_deterministic", "hidden_information", "language_communication", "social_deduction", "cooperation"
        ),
        perfect_information=False,
        has_chance=True,
        information_sampling=True,
        options=(
            OptionSpec("talk_budget", 1, "Talk actions per player in the last round; round r of 3 gives (4 - r) "
                       "times as many (3, 2, 1 by default, like the 3-, 2- and 1-minute rounds).", int, bounds=(1, 5),
                       label="Talk actions in the last round"),
            OptionSpec("parley_messages", 1, "Messages (or passes) each Leader has in the parley before each "
                       "exchange; 0 skips the parley.", int, bounds=(0, 3), short_value=0,
                       label="Parley messages per Leader"),
            OptionSpec("gamebench_simplified", False, "GameBench's version (6 players only): 3 per room, one Leader "
                       "per room drawn at random for the whole game, players told only their team colour, no "
                       "nominating, usurping, sharing or parley, 1 hostage per room per round.",
                       label="GameBench: simplified game"),
        ),
        measures=(
            MeasureSpec("team_won", "Whether the seat won: its team won, or it is the Gambler and bet right.", "bool"),
            MeasureSpec("hostage_moves", "How many times the seat was sent to the other room as a hostage."),
            MeasureSpec("was_leader", "Whether the seat was a room's Leader at some point.", "bool"),
            MeasureSpec("team", "The seat's team, known once the game is over: 0 Blue, 1 Red, 2 Gambler."),
        ),
    )
    state_class = TwoRoomsState
    rules = RULES

    def __init__(self, options: Mapping[str, Any] | None = None, num_seats: int | None = None):
        super().__init__(options, num_seats)
        self.simplified = bool(self.options["gamebench_simplified"])
        if self.simplified and self.num_seats != 6:
            raise InvalidOptionsError(f"gamebench_simplified is for 6 players, got {self.num_seats}")
        self.hostages = (1, 1, 1) if self.simplified else hostage_counts(self.num_seats)

    def budget(self, round_number: int) -> int:
        return self.options["talk_budget"] * (ROUNDS + 1 - round_number)

    # The teams are hidden until the end, so the platform is not told them: the default (one team per seat) stays.
    # Each seat's team is in its measures and in the final observation, and State.result_teams gives the camps once
    # the game is over.

    def max_actions(self) -> int:
        talk = self.num_seats * sum(self.budget(r) for r in range(1, ROUNDS + 1))  # every talk action spends budget
        per_round_end = 2 + 2 * self.options["parley_messages"]  # two hostage choices and the parley
        return talk + ROUNDS * per_round_end + 1  # + the Gambler's bet
