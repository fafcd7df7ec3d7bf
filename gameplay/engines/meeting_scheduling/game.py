"""Meeting Scheduling as a pure engine (rules sheet §5): each turn is one text action whose id is the structured move
(``propose:<day>``, ``accept``, ``walk_away``, ``talk``) and whose text is the message.

Each seat's schedule (out-of-office days and a value per weekday) is private until the game ends; everything said
and proposed is public. The scenario is OpenSpiel's fixed Bob/Suzy one or sampled from the seed. With
``openspiel_opening`` the thread starts with seat 0's opening message proposing a day, and seat 1 moves first, as in
OpenSpiel; the opening is part of the initial state (rebuilt from the options), not an action, and uses no turn.
"""

from __future__ import annotations

from typing import Any

from ..api import (
    ActionLabels,
    Game,
    GameSpec,
    IllegalActionError,
    MeasureSpec,
    OptionSpec,
    State,
    TextAction,
)
from ..dialogue import clean_message, scores_from_payoffs
from . import text
from .rules import (
    DAYS,
    DIALOGUE,
    FIXED_OPENING_DAY,
    FIXED_PROFILES,
    PAYOFF,
    PAYOFF_BOUNDS,
    PROPOSING,
    RULES,
    SCHEDULE,
    TURN_LIMIT,
)

PROPOSE = "propose:"
ACCEPT = "accept"
WALK_AWAY = "walk_away"
TALK = "talk"


def sample_profiles(rng) -> list[dict[str, Any]]:
    """Two schedules (2-3 out-of-office days, values 0-15 each), drawn again until some day suits both."""
    while True:
        profiles = []
        for _ in range(2):
            ooo = sorted(rng.sample(DAYS, rng.randint(2, 3)), key=DAYS.index)
            profiles.append({"ooo": ooo, "prefs": {day: rng.randint(0, 15) for day in DAYS}})
        if common_days(profiles):
            return profiles


def common_days(profiles) -> list[str]:
    """The days every seat can attend, in weekday order."""
    return [d for d in DAYS if all(d not in p["ooo"] for p in profiles)]


class MeetingState(State):
    game: MeetingGame

    def __init__(self, game: MeetingGame, seed: int):
        super().__init__(game, seed)
        options = game.options
        if options["scenario"] == "fixed":
            self.profiles = [{"ooo": list(p["ooo"]), "prefs": dict(p["prefs"])} for p in FIXED_PROFILES]
        else:
            self.profiles = sample_profiles(self.rng())
        self.thread: list[dict[str, Any]] = []  # {"seat", "move", "day", "text"} per message, oldest first
        self.proposals: list[str | None] = [None, None]  # each seat's standing proposal
        self.turns_taken = [0, 0]
        self.to_move = 0
        self.outcome = ""  # "", "agreement", "walked_away" or "turn_limit"
        self.agreed_day: str | None = None
        if options["openspiel_opening"]:
            day = FIXED_OPENING_DAY if options["scenario"] == "fixed" else self._best_day(0)
            self.thread.append({"seat": 0, "move": "propose", "day": day, "text": text.opening_message(day)})
            self.proposals[0] = day
            self.to_move = 1

    def _best_day(self, seat: int) -> str:
        """The day ``seat`` values most among those it can attend (the opener's natural first proposal)."""
        profile = self.profiles[seat]
        return max((d for d in DAYS if d not in profile["ooo"]), key=lambda d: (profile["prefs"][d], -DAYS.index(d)))

    # --- turns ---------------------------------------------------------------------------------------------
    def current_seats(self) -> list[int]:
        return [] if self.is_terminal() else [self.to_move]

    def legal_actions(self, seat):
        return []

    def text_actions(self, seat: int) -> list[TextAction]:
        if self.is_terminal() or seat != self.to_move:
            return []
        limit = DIALOGUE.max_message_length
        hint = "your message"
        ooo = self.profiles[seat]["ooo"]
        actions = [TextAction(f"{PROPOSE}{d}", f"Propose {d.title()}", hint, limit, example=f"How about {d.title()}?")
                   for d in DAYS if d not in ooo]
        standing = self.proposals[1 - seat]
        if standing is not None and standing not in ooo:
            actions.append(TextAction(ACCEPT, f"Accept {standing.title()}", hint, limit,
                                      example=f"{standing.title()} works for me."))
        actions.append(TextAction(WALK_AWAY, "Walk away", hint, limit, example="No day suits me, so let us stop here."))
        actions.append(TextAction(TALK, "Just talk", hint, limit, example="Which days would suit you best?"))
        return actions

    def validate_text(self, seat: int, action_id: str, message: str) -> str:
        return clean_message(message, DIALOGUE.max_message_length)

    def _apply(self, seat: int, action_id: str, message: str | None) -> None:
        if action_id not in {a.id for a in self.text_actions(seat)}:
            raise IllegalActionError(f"{action_id!r} is not a legal move now")
        entry = {"seat": seat, "move": action_id, "day": None, "text": message}
        if action_id.startswith(PROPOSE):
            day = action_id[len(PROPOSE):]
            entry.update(move="propose", day=day)
            self.proposals[seat] = day
        elif action_id == ACCEPT:
            entry["day"] = self.proposals[1 - seat]
            self.outcome = "agreement"
            self.agreed_day = entry["day"]
        elif action_id == WALK_AWAY:
            self.outcome = "walked_away"
        self.thread.append(entry)
        self.turns_taken[seat] += 1
        self.to_move = 1 - seat
        if not self.outcome and min(self.turns_taken) >= self.game.options["max_turns_per_seat"]:
            self.outcome = "turn_limit"

    def is_terminal(self) -> bool:
        return bool(self.outcome)

    # --- outcome -----------------------------------------------------------------------------------------
    def payoffs(self) -> list[int]:
        """Each seat's raw payoff: its own value of the agreed day, 0 without an agreement (or before the end)."""
        if self.outcome != "agreement":
            return [0, 0]
        return [p["prefs"][self.agreed_day] for p in self.profiles]

    def scores(self) -> list[float]:
        if not self.is_terminal():
            return [0.5, 0.5]
        return scores_from_payoffs(self.payoffs(), PAYOFF_BOUNDS)

    def measures(self, seat: int) -> dict[str, Any]:
        return {
            "payoff": self.payoffs()[seat],
            "agreement": self.outcome == "agreement",
            "messages": sum(1 for m in self.thread if m["seat"] == seat),
        }

    def result_text(self) -> str | None:
        if not self.is_terminal():
            return None
        return text.result_sentence(self, None)

    def end_reason(self) -> str | None:
        return text.end_reason(self)

    def turns_left(self, seat: int) -> int:
        return 0 if self.is_terminal() else self.game.options["max_turns_per_seat"] - self.turns_taken[seat]

    # --- information -------------------------------------------------------------------------------------
    def secrets(self) -> dict[int, list[str]]:
        # Both schedules are revealed once the game is over, so only a running game has secrets.
        if self.is_terminal():
            return {}
        return {seat: [text.ooo_phrase(p), text.prefs_phrase(p)] for seat, p in enumerate(self.profiles)}

    def observation(self, seat: int | None):
        return text.observation(self, seat)

    def action_labels(self, seat: int, action_id: str, message: str | None = None) -> ActionLabels:
        # Moves and messages are public, so every viewer reads the same words.
        label = text.move_label(self, seat, action_id, message)
        return ActionLabels(by_seat=(label, label), public=label)

    def rule_topics(self, seat: int, action_id: str) -> tuple[str, ...]:
        if action_id.startswith(PROPOSE):
            return (PROPOSING, SCHEDULE)
        if action_id == ACCEPT:
            return (PROPOSING, PAYOFF)
        if action_id == WALK_AWAY:
            return (PAYOFF,)
        return (TURN_LIMIT,)

    # --- persistence ---------------------------------------------------------------------------------------
    PAYLOAD_FIELDS = ("profiles", "thread", "proposals", "turns_taken", "to_move", "outcome", "agreed_day")


class MeetingGame(Game):
    spec = GameSpec(
        id="meeting_scheduling",
        name="Meeting Scheduling",
        description=("Agree by message on a weekday to meet. Each of you privately knows your out-of-office days "
                     "and how much you like each day; an agreement pays each your own value for the day."),
        min_seats=2,
        max_seats=2,
        reasoning_categories=("hidden_information", "language_communication", "cooperation"),
        perfect_information=False,
        has_chance=True,
        seat_names=("Player 1", "Player 2"),
        options=(
            OptionSpec("scenario", "fixed", "fixed: OpenSpiel's Bob/Suzy schedules; random: schedules drawn from the "
                       "seed (2-3 out-of-office days, values 0-15, at least one day both can attend)", str,
                       choices=("fixed", "random"), label="Scenario"),
            OptionSpec("max_turns_per_seat", 3, "Turns each player has before the game ends without agreement", int,
                       bounds=(1, 10), short_value=2, label="Turns per player"),
            OptionSpec("openspiel_opening", False, "Start, as OpenSpiel does, with Player 1's opening message "
                       "proposing a day already sent; Player 2 then moves first",
                       label="Start with OpenSpiel's opening message"),
        ),
        measures=(
            MeasureSpec("payoff", "The player's own value of the agreed day (0 without an agreement), 0-20"),
            MeasureSpec("agreement", "The players agreed on a day", kind="bool"),
            MeasureSpec("messages", "Messages the player wrote (the opening message included)"),
        ),
        dialogue=DIALOGUE,
    )
    state_class = MeetingState
    rules = RULES

    def max_actions(self) -> int:
        return 2 * self.options["max_turns_per_seat"]
