"""The debate engine: seats "For" (0) and "Against" (1) alternate arguments, then a judge gives the verdict.

Every turn is one text action ``argue:<style>`` whose text is the argument. After the last argument no seat is to
act and the state waits for a verdict (``awaiting_verdict``); the platform asks a judge model or applies the rule
(``judging.py``) through ``apply_verdict``. The verdict is logged as an action of the pseudo seat ``num_seats`` (the
judge), so a state replayed from its seed and log reaches the same result.
"""

from __future__ import annotations

from typing import Any

from gameplay.engines.api import (
    ActionLabels,
    ActionRecord,
    Game,
    GameSpec,
    IllegalActionError,
    MeasureSpec,
    Observation,
    OptionSpec,
    State,
    TextAction,
)
from gameplay.engines.dialogue import ANY, DialogueSpec, InstructionSet, clean_message, scores_from_payoffs

from . import judging
from .rules import RULES, STYLE_MEANINGS, STYLES
from .topics import TOPICS

SIDES = ("For", "Against")
ARGUE = "argue:"
VERDICT = "verdict:"
# Room for max_words at their upper bound; the platform caps any text at MAX_CHAT_LENGTH (1000) characters anyway.
MAX_ARGUMENT_CHARS = 1000
# TextAction.example of each style: at most 10 words (the smallest max_words), for either side of any topic.
EXAMPLE_ARGUMENTS = {
    "logos": "The evidence and the numbers point clearly to my side.",
    "ethos": "Fair judges and trusted experts stand behind my position.",
    "pathos": "Think of those affected: my side serves them best.",
    "mixed": "Reason, trust and care for people all favour my side.",
}

STYLE_SET = InstructionSet(
    name="style",
    instructions=("logos", "ethos", "pathos", ANY),
    template="Make your argument mainly through {}.",
    any_text="Make your argument in whatever style you think best.",
    descriptions=STYLE_MEANINGS,
)

SPEC = GameSpec(
    id="debate",
    name="Debate",
    description="Argue for or against a statement in turns; a judge decides who argued better.",
    min_seats=2,
    max_seats=2,
    reasoning_categories=("language_communication",),
    perfect_information=True,
    has_chance=True,
    seat_names=SIDES,
    options=(
        OptionSpec("topic", -1, "Topic number (0-19), or -1 to draw one by chance", int, bounds=(-1, len(TOPICS) - 1),
                   label="Topic"),
        OptionSpec("rounds_per_side", 2, "Arguments each side makes", int, bounds=(1, 10), short_value=1,
                   label="Arguments per side"),
        OptionSpec("openspiel_order", False, "The Against side opens (as in OpenSpiel); otherwise For opens",
                   label="OpenSpiel's speaking order"),
        OptionSpec("max_words", 150, "Most words in one argument (longer ones are refused)", int, bounds=(10, 150),
                   label="Most words per argument"),
        OptionSpec("judging", judging.SINGLE, "single: one winner or a draw; openspiel: each side judged on its own",
                   str, choices=judging.JUDGING_MODES, label="Judging"),
    ),
    measures=(
        MeasureSpec("payoff", "The side's judged payoff: 1 won, 0 lost, 0.5 a draw (single judging)"),
        MeasureSpec("won", "The judge declared this side a winner (a draw is not a win)", kind="bool"),
        MeasureSpec("arguments", "Arguments this side made"),
    ),
    dialogue=DialogueSpec(
        instruction_sets=(STYLE_SET,), payoff_bounds=(0.0, 1.0), judged=True, max_message_length=MAX_ARGUMENT_CHARS
    ),
)


class DebateGame(Game):
    spec = SPEC
    rules = RULES

    def max_actions(self) -> int:
        return 2 * self.options["rounds_per_side"] + 1  # every argument and the verdict

    @property
    def first_seat(self) -> int:
        return 1 if self.options["openspiel_order"] else 0


class DebateState(State):
    def __init__(self, game: DebateGame, seed: int):
        super().__init__(game, seed)
        topic = game.options["topic"]
        self.topic = topic if topic >= 0 else self.rng().randrange(len(TOPICS))
        self.arguments: list[dict] = []  # {"seat", "style", "text"} in the order spoken
        self.verdict: str | None = None
        self.verdict_source = ""

    # --- turn structure --------------------------------------------------------------------------------------
    @property
    def total_arguments(self) -> int:
        return 2 * self.game.options["rounds_per_side"]

    def _to_move(self) -> int | None:
        if len(self.arguments) >= self.total_arguments:
            return None
        return (self.game.first_seat + len(self.arguments)) % 2

    def current_seats(self) -> list[int]:
        seat = self._to_move()
        return [] if seat is None else [seat]

    def legal_actions(self, seat: int) -> list:
        return []

    def text_actions(self, seat: int) -> list[TextAction]:
        if seat != self._to_move():
            return []
        words = self.game.options["max_words"]
        return [
            TextAction(f"{ARGUE}{style}", f"Argue ({style})", hint=f"your argument, at most {words} words",
                       max_length=MAX_ARGUMENT_CHARS, example=EXAMPLE_ARGUMENTS[style])
            for style in STYLES
        ]

    def validate_text(self, seat: int, action_id: str, text: str) -> str:
        cleaned = clean_message(text, MAX_ARGUMENT_CHARS)
        words = len(cleaned.split())
        limit = self.game.options["max_words"]
        if words > limit:
            raise IllegalActionError(f"the argument has {words} words; at most {limit} are allowed")
        return cleaned

    def _apply(self, seat: int, action_id: str, text: str | None) -> None:
        self.arguments.append({"seat": seat, "style": action_id[len(ARGUE):], "text": text})

    def apply_action(self, seat: int, action_id: str, text: str | None = None) -> None:
        # The judge's logged verdict (pseudo seat num_seats) replays through here, so Game.replay and the platform's
        # event replay need no judge-specific code.
        if seat == self.game.num_seats and isinstance(action_id, str) and action_id.startswith(VERDICT):
            self.apply_verdict(action_id[len(VERDICT):], text or "")
            return
        super().apply_action(seat, action_id, text)

    def is_terminal(self) -> bool:
        return self.verdict is not None

    # --- judging ---------------------------------------------------------------------------------------------
    @property
    def mode(self) -> str:
        return self.game.options["judging"]

    def awaiting_verdict(self) -> bool:
        return self.verdict is None and len(self.arguments) >= self.total_arguments

    def verdict_request(self) -> tuple[str, tuple[str, ...]]:
        verdicts = judging.VERDICTS[self.mode]
        lines = [f"Statement under debate: {TOPICS[self.topic]}",
                 "Side 'for' argues the statement is true; side 'against' argues it is false.", "", "The debate:"]
        for number, arg in enumerate(self.arguments, start=1):
            lines.append(f"{number}. {SIDES[arg['seat']].lower()} (declared style {arg['style']}): {arg['text']}")
        lines.append("")
        if self.mode == judging.SINGLE:
            lines.append("Which side argued better? Answer 'for', 'against' or 'draw' if they argued equally well.")
        else:
            lines.append("Judge each side on its own: did it argue convincingly? Answer 'both', 'for' (only the for "
                         "side), 'against' (only the against side) or 'neither'.")
        return "\n".join(lines), verdicts

    def fallback_verdict(self) -> str:
        if not self.awaiting_verdict():
            raise IllegalActionError("no verdict is awaited")
        return judging.rule_verdict(self.mode, self.rule_totals())

    def rule_totals(self) -> list[int]:
        return judging.rule_totals([(a["seat"], a["text"]) for a in self.arguments])

    def apply_verdict(self, verdict: str, source: str) -> None:
        if not self.awaiting_verdict():
            raise IllegalActionError("no verdict is awaited now")
        if verdict not in judging.VERDICTS[self.mode]:
            offered = ", ".join(judging.VERDICTS[self.mode])
            raise IllegalActionError(f"{verdict!r} is not a verdict; give one of {offered}")
        if not isinstance(source, str) or not source.strip():
            raise IllegalActionError("say who gave the verdict")
        self.verdict = verdict
        self.verdict_source = source.strip()[:100]
        self.log.append(ActionRecord(self.game.num_seats, f"{VERDICT}{verdict}", self.verdict_source))

    def verdict_text(self) -> str:
        """The verdict in words, e.g. "For wins" (empty before it)."""
        if self.verdict is None:
            return ""
        return {"for": "For wins", "against": "Against wins", "draw": "a draw", "both": "both sides win",
                "neither": "neither side wins"}[self.verdict]

    # --- outcome ---------------------------------------------------------------------------------------------
    def payoffs(self) -> tuple[float, float] | None:
        return None if self.verdict is None else judging.PAYOFFS[self.mode][self.verdict]

    def scores(self) -> list[float]:
        payoffs = self.payoffs()
        if payoffs is None:
            return [0.5, 0.5]
        return scores_from_payoffs(payoffs, self.game.spec.dialogue.payoff_bounds)

    def measures(self, seat: int) -> dict[str, Any]:
        payoffs = self.payoffs()
        return {
            "payoff": None if payoffs is None else payoffs[seat],
            "won": None if payoffs is None else payoffs[seat] == 1.0,
            "arguments": sum(1 for a in self.arguments if a["seat"] == seat),
        }

    def result_text(self) -> str | None:
        if self.verdict is None:
            return None
        judge = "the rule" if self.verdict_source == "rule" else f"the judge ({self.verdict_source})"
        # The verdict, then its grounds (the rule's points or the judge's finding): a verdict alone left players
        # guessing how the rule had counted (issue 39, point 1).
        return f"Verdict by {judge}: {self.verdict_text()}. {self.end_reason()}"

    def end_reason(self) -> str | None:
        """Why the debate ended as it did: after every argument, the rule's points or the judge's finding (None
        before the verdict). Everything in a debate is public."""
        if self.verdict is None:
            return None
        rounds = self.game.options["rounds_per_side"]
        after = f"After {rounds} argument{'' if rounds == 1 else 's'} per side"
        totals = self.rule_totals()
        if self.verdict_source == "rule" and judging.rule_verdict(self.mode, totals) == self.verdict:
            if totals[0] == totals[1]:
                return f"{after}, the judging rule gave both sides {_points(totals[0])}."
            return f"{after}, the judging rule gave For {_points(totals[0])} and Against {_points(totals[1])}."
        judge = "the judging rule" if self.verdict_source == "rule" else f"the judge ({self.verdict_source})"
        finding = {
            judging.SINGLE: {"for": "For argued better", "against": "Against argued better",
                             "draw": "both sides argued equally well"},
            judging.OPENSPIEL: {"both": "both sides argued convincingly", "for": "only For argued convincingly",
                                "against": "only Against argued convincingly",
                                "neither": "neither side argued convincingly"},
        }[self.mode][self.verdict]
        return f"{after}, {judge} found that {finding}."

    # --- what seats see --------------------------------------------------------------------------------------
    def rule_topics(self, seat: int, action_id: str) -> tuple[str, ...]:
        return ("Topic and sides", "Argument styles", "Turn order and length")

    def action_labels(self, seat: int, action_id: str, text: str | None = None) -> ActionLabels:
        style = action_id[len(ARGUE):] if action_id.startswith(ARGUE) else action_id
        label = f"argues ({style}): {text}" if text is not None else f"argues ({style})"
        return ActionLabels(by_seat=(label, label), public=label)

    def observation(self, seat: int | None) -> Observation:
        to_move = self._to_move()
        thread = [
            {"seat": a["seat"], "side": SIDES[a["seat"]], "style": a["style"], "text": a["text"],
             "mine": seat is not None and a["seat"] == seat}
            for a in self.arguments
        ]
        done = [sum(1 for a in self.arguments if a["seat"] == s) for s in (0, 1)]
        rounds = self.game.options["rounds_per_side"]
        data = {
            "topic": TOPICS[self.topic],
            "topic_index": self.topic,
            "side": SIDES[seat] if seat is not None else None,
            "thread": thread,
            "to_move": SIDES[to_move] if to_move is not None else None,
            "arguments_left": [rounds - d for d in done],
            "max_words": self.game.options["max_words"],
            "judging": self.mode,
            "awaiting_verdict": self.awaiting_verdict(),
            "verdict": self.verdict,
            "verdict_text": self.verdict_text(),
            "verdict_source": self.verdict_source,
            "styles": [{"id": s, "meaning": dict(STYLE_MEANINGS).get(s, "any mix of the three")} for s in STYLES],
        }
        lines = [f"Statement: {TOPICS[self.topic]}"]
        if seat is not None:
            claim = "it is true" if seat == 0 else "it is false"
            lines.append(f"You argue {SIDES[seat].upper()} the statement ({claim}).")
        lines.append("Debate so far:" if thread else "No argument yet.")
        for entry in thread:
            who = "You" if entry["mine"] else entry["side"]
            lines.append(f"- {who} [{entry['style']}]: {entry['text']}")
        if seat is not None:
            lines.append(f"Arguments left for you: {rounds - done[seat]}; at most {data['max_words']} words each.")
        if self.verdict is not None:
            lines.append(f"Verdict: {self.verdict_text()}.")
        elif self.awaiting_verdict():
            lines.append("All arguments are in: waiting for the judge.")
        elif to_move is not None:
            lines.append(f"To argue now: {SIDES[to_move]}.")
        return Observation(seat=seat, data=data, text="\n".join(lines))

    # --- persistence -----------------------------------------------------------------------------------------
    PAYLOAD_FIELDS = ("topic", "arguments", "verdict", "verdict_source")


def _points(n: int) -> str:
    return f"{n} point{'' if n == 1 else 's'}"


DebateGame.state_class = DebateState
