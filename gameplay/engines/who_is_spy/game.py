"""Who is Spy (SpyGame of seed 002) as a pure engine: describe your secret word, vote out the spy.

Flow: each round the speakers (everyone still in, or only the tied players in a run-off) describe their word one at
a time in a freshly shuffled order; then the voters vote at once and in secret (``spec.simultaneous``: every voter
who has not voted yet is current). The count puts out the single most-voted player or resolves a tie (views.py words
everything per viewer; rules.py explains it to players).

Chance: the pair (option ``pair_index``, -1 draws it), which word of the pair is the spy word (option ``spy_word``),
the word-to-seat deal (option ``spy_seat`` fixes the spy's seat), the speaking order of every round and, for every
voter, the order of its vote options. All of it comes from ``self.rng()`` at the moment it happens and is stored, so
legal actions never draw. The options and the deal are setup.py's; the round machinery (speaking order, vote,
count, eliminations, the end) is rounds.py's.

Names: the seed found anonymous, shuffled "Player k" names the least biased. The seats themselves are assigned to
players at random and the words are dealt to seats at random, so the default "Player 1".."Player N" in seat order
already is such an assignment; no second shuffle of names is needed. A run that fixes the spy's seat should vary that
seat from match to match (agents_app/evaluations/spy_design.py does), or the spy's name never changes. Option
``seat_names`` gives the seed's other two naming methods, for studies of name bias.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..api import (
    Action,
    Game,
    GameSpec,
    IllegalActionError,
    MeasureSpec,
    State,
    TextAction,
)
from .rounds import ABSTAINED, DESCRIBE, OVER, SPIES, VILLAGERS, VOTE, RoundFlow
from .rules import DESCRIBING, ENDING, INFERRING, RULES, VOTING, WORDS
from .setup import CONTENT_FREE_TEXT, OPTIONS, checked_setup, deal, seat_name
from .views import SeatViews
from .wording import names_and
from .words import (
    EXAMPLE_GUESS,
    MAX_DESCRIPTION_CHARS,
    MAX_GUESS_CHARS,
    check_description,
    check_guess,
    example_description,
    guess_names,
    normalise,
)

# The turn timer's actions (options describe_seconds and vote_seconds): offered only while that limit is on, to every
# seat it times, and applied by the platform for a person whose time runs out. An abstention is stored as ABSTAINED.
SKIP_DESCRIBE, ABSTAIN = "skip_describe", "vote:none"


class SpyState(SeatViews, RoundFlow, State):
    game: SpyGame

    def __init__(self, game: SpyGame, seed: int):
        super().__init__(game, seed)
        n = game.num_seats
        self.pair_index, self.villager_word, self.spy_word, dealt = deal(game.options, game.pairs, n, self.rng())
        self.words = dealt
        self.spies = [s for s in range(n) if dealt[s] == self.spy_word]
        self.out_round: list[int | None] = [None] * n  # the round in which a seat went out
        self.out_how: list[str | None] = [None] * n  # "vote" or "guess"
        self.partial_ties = 0  # partial ties in a row (the second one resets to a normal round)
        self.said: list[str] = []  # every description so far, normalised, for the repeat rule
        self.rounds: list[dict[str, Any]] = []  # every round so far; the last one is the current round
        self.phase = DESCRIBE
        self.winners = ""  # SPIES or VILLAGERS once over
        self.ending = ""  # how the game ended: "out", "guess" or "cap" (saved as "end_reason")
        self._start_round(self.alive_seats(), self.alive_seats(), self.alive_seats(), runoff=False)

    # --- helpers ---------------------------------------------------------------------------------
    def alive(self, seat: int) -> bool:
        return self.out_round[seat] is None

    def alive_seats(self) -> list[int]:
        return [s for s in range(self.game.num_seats) if self.alive(s)]

    @property
    def round(self) -> dict[str, Any]:
        return self.rounds[-1]

    def is_repeat(self, cleaned: str) -> bool:
        return normalise(cleaned) in self.said

    def guess_is_right(self, seat: int, guess: str) -> bool:
        """Whether ``seat``'s spy_guess wins: a spy naming the villagers' word (compared as words are: guess_names)."""
        return seat in self.spies and guess_names(guess, self.villager_word)

    def content_free(self, seat: int) -> bool:
        """Whether ``seat``'s descriptions read as "..." whatever it writes (option content_free)."""
        return seat in self.game.content_free_seats

    # --- the contract --------------------------------------------------------------------------
    def current_seats(self) -> list[int]:
        if self.phase == DESCRIBE:
            return [self.round["order"][self.round["next"]]]
        if self.phase == VOTE:
            return [v for v in self.round["voters"] if self.round["votes"][v] is None]
        return []

    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.current_seats():
            return []
        if self.phase == DESCRIBE:
            timed = self.game.options["describe_seconds"]
            return [Action(SKIP_DESCRIBE, "Give no description (pass)")] if timed else []
        name = self.game.seat_name
        actions = [Action(f"vote:{c}", f"Vote for {name(c)}") for c in self.round["ballots"][seat]]
        if self.game.options["vote_seconds"]:
            actions.append(Action(ABSTAIN, "Abstain (vote for nobody)"))
        return actions

    # --- turn timer (options describe_seconds and vote_seconds) ------------------------------------------------
    def time_limit(self, seat: int) -> int:
        if seat not in self.current_seats():
            return 0
        return int(self.game.options["describe_seconds" if self.phase == DESCRIBE else "vote_seconds"])

    def timeout_action(self, seat: int) -> tuple[str, str | None] | None:
        # A speaker out of time gives no description; a voter out of time abstains.
        if not self.time_limit(seat):
            return None
        return (SKIP_DESCRIBE, None) if self.phase == DESCRIBE else (ABSTAIN, None)

    def text_actions(self, seat: int) -> list[TextAction]:
        if self.phase != DESCRIBE or seat not in self.current_seats():
            return []
        limit = self.game.options["max_description_words"]
        if self.content_free(seat):
            # The seed's content-free table: whatever the seat writes, the others read "...".
            actions = [TextAction("describe", "Describe your word (the table reads '...')",
                                  hint="anything: in this game your descriptions are shown as '...'",
                                  max_length=MAX_DESCRIPTION_CHARS, example=CONTENT_FREE_TEXT)]
        else:
            actions = [TextAction("describe", "Describe your word",
                                  hint=f"one sentence of at most {limit} words that does not contain your word",
                                  max_length=MAX_DESCRIPTION_CHARS,
                                  example=example_description(self.words[seat], self.said, limit))]
        if self.game.options["spy_guess"]:
            # Offered to every speaker: offering it to spies only would tell them their camp.
            actions.append(TextAction("spy_guess", "Claim to be a spy and guess the villagers' word",
                                      hint="the villagers' word and nothing more; right: the spies win, "
                                      "anything else: you are out",
                                      max_length=MAX_GUESS_CHARS, example=EXAMPLE_GUESS))
        return actions

    def validate_text(self, seat: int, action_id: str, text: str) -> str:
        if action_id == "describe" and self.content_free(seat):
            return CONTENT_FREE_TEXT  # nothing of what was written is kept
        if action_id == "describe":
            cleaned = check_description(text, self.words[seat], self.game.options["max_description_words"])
            if self.game.options["repeat_rule"] == "reject" and self.is_repeat(cleaned):
                raise IllegalActionError("that description was already given in this game: say something new")
            return cleaned
        if action_id == "spy_guess" and self.game.options["spy_guess"]:
            return check_guess(text, self.words[seat])
        raise IllegalActionError(f"{action_id!r} takes no text")

    def _apply(self, seat: int, action_id: str, text: str | None) -> None:
        r = self.round
        if action_id == "describe" and self.content_free(seat):
            # Never a repeat: every content-free description is the same "...", and it says nothing to repeat.
            r["talk"].append({"s": seat, "text": CONTENT_FREE_TEXT, "struck": False})
            self._advance_speaker()
        elif action_id == "describe":
            struck = self.game.options["repeat_rule"] == "strike" and self.is_repeat(text)
            r["talk"].append({"s": seat, "text": text, "struck": struck})
            if not self.is_repeat(text):
                self.said.append(normalise(text))
            self._advance_speaker()
        elif action_id == "spy_guess":
            right = self.guess_is_right(seat, text)
            r["talk"].append({"s": seat, "guess": text, "right": right})
            if right:
                self._finish(SPIES, "guess")
                return
            self._eliminate(seat, "guess")
            if self.phase != OVER:
                self._advance_speaker()
        elif action_id == SKIP_DESCRIBE:
            r["talk"].append({"s": seat, "skip": True})
            self._advance_speaker()
        elif action_id == ABSTAIN:
            r["votes"][seat] = ABSTAINED
            if all(r["votes"][v] is not None for v in r["voters"]):
                self._count()
        else:
            r["votes"][seat] = int(action_id.split(":", 1)[1])
            if all(r["votes"][v] is not None for v in r["voters"]):
                self._count()

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def end_reason(self) -> str | None:
        """The deciding fact (everything is revealed at the end, so it may name the spies): a spy named the
        villagers' word, the round limit with spies still in, the last spy out, or the spies no longer outnumbered."""
        if self.phase != OVER:
            return None
        name = self.game.seat_name
        r = self.round
        if self.ending == "guess":
            return f"{name(r['talk'][-1]['s'])}, a spy, named the villagers' word, {self.villager_word}."
        if self.ending == "cap":
            still = [s for s in self.spies if self.alive(s)]
            limit = f"The round limit of {self.game.options['max_rounds']} rounds was reached"
            if len(self.spies) == 1:
                return f"{limit} with the spy, {name(still[0])}, still in."
            still_in = names_and([name(s) for s in still])
            return f"{limit} with {len(still)} of the {len(self.spies)} spies still in ({still_in})."
        # An elimination decided it: the round's count put the last seat out, or else a wrong spy_guess did.
        if r["outcome"] is not None and r["outcome"]["k"] == "out":
            last = r["outcome"]["leaders"][0]
        else:
            last = r["talk"][-1]["s"]
        how = (f"was voted out in round {self.out_round[last]}" if self.out_how[last] == "vote" else
               f"went out in round {self.out_round[last]} with a wrong guess of the villagers' word")
        if self.winners == VILLAGERS:
            return f"Every spy is out: {name(last)} {how}."
        spies_in = sum(1 for s in self.spies if self.alive(s))
        villagers_in = len(self.alive_seats()) - spies_in
        than = "as many as" if spies_in == villagers_in else "more than"
        return (f"The spies still in are {than} the villagers ({spies_in} to {villagers_in}) after "
                f"{name(last)} {how}.")

    def scores(self) -> list[float]:
        n = self.game.num_seats
        if self.phase != OVER:
            return [1.0 / n] * n
        team = self.spies if self.winners == SPIES else [s for s in range(n) if s not in self.spies]
        return [1.0 / len(team) if s in team else 0.0 for s in range(n)]

    def result_teams(self) -> list[int]:
        # The camps for the ratings (villagers 0, spies 1), only once the game is over: during play they are the
        # secret of the game, so Game.teams() stays one team per seat.
        if self.phase != OVER:
            return self.game.teams()
        return [1 if s in self.spies else 0 for s in range(self.game.num_seats)]

    def rule_topics(self, seat: int, action_id: str) -> tuple[str, ...]:
        if action_id in ("describe", SKIP_DESCRIBE):
            return (DESCRIBING, WORDS, INFERRING)
        if action_id == "spy_guess":
            return (ENDING, INFERRING, WORDS)
        return (VOTING, ENDING, INFERRING)

    def measures(self, seat: int) -> dict[str, Any]:
        over = self.phase == OVER
        rounds = len(self.rounds) if over else len(self.rounds) - 1  # rounds finished so far
        survived = self.out_round[seat] - 1 if self.out_round[seat] is not None else rounds
        # Seed 002's Round ("the rounds the guest survives"), as SpyGame counts it: the round a seat goes out in is one
        # it played (SpyGame's counter has moved on when the elimination is checked), so a spy voted out in round 1
        # played 1 round and one who outlasted two villagers played 2. rounds_survived leaves the last round out: at 4
        # players without ties a lost game then counts at most 1 round and a won one 2, so the seed's Win 0.16 would
        # come with a Round of at most 1.16, not its 1.99.
        played = self.out_round[seat] if self.out_round[seat] is not None else rounds
        received = sum(1 for r in self.rounds for target in r["votes"] if target == seat) if over else None
        # Camp, result and votes are hidden during play, so those measures are known only at the end.
        return {
            "is_spy": seat in self.spies if over else None,
            "won": (seat in self.spies) == (self.winners == SPIES) if over else None,
            "rounds_survived": survived,
            "rounds_played": played,
            "votes_received": received,
            "voted_out": self.out_how[seat] == "vote",
        }

    # --- JSON ----------------------------------------------------------------------------------
    PAYLOAD_FIELDS = (
        "pair_index", "villager_word", "spy_word", "words", "spies", "out_round", "out_how", "partial_ties",
        "said", "rounds", "phase", "winners"
    )

    def _payload(self) -> dict:
        # How the game ended is saved under its old key (the attribute was renamed when State.end_reason came).
        return {**super()._payload(), "end_reason": self.ending}

    def _load_payload(self, payload: Mapping[str, Any]) -> None:
        super()._load_payload(payload)
        self.ending = payload.get("end_reason", "")


class SpyGame(Game):
    spec = GameSpec(
        id="who_is_spy",
        name="Who is Spy",
        description="Describe your secret word without saying it, and vote out the players whose word differs.",
        min_seats=4,
        max_seats=10,
        reasoning_categories=("hidden_information", "language_communication", "social_deduction"),
        perfect_information=False,
        simultaneous=True,  # the vote: every voter chooses at once, in secret
        has_chance=True,
        turn_timer=True,  # options describe_seconds and vote_seconds (State.time_limit); both off by default
        options=OPTIONS,  # setup.py: each option with its description
        measures=(
            MeasureSpec("is_spy", "Whether the seat held the spy word (known at the end).", "bool"),
            MeasureSpec("won", "Whether the seat's side won (known at the end).", "bool"),
            MeasureSpec("rounds_survived", "Rounds the seat finished still in the game (the round it went out in "
                        "not counted)."),
            MeasureSpec("rounds_played", "Rounds the seat took part in: those it finished still in the game plus "
                        "the one it went out in (seed 002's Round)."),
            MeasureSpec("votes_received", "Votes cast against the seat over the whole game (known at the end)."),
            MeasureSpec("voted_out", "Whether the seat was voted out.", "bool"),
        ),
    )
    state_class = SpyState
    rules = RULES

    def __init__(self, options: Mapping[str, Any] | None = None, num_seats: int | None = None):
        super().__init__(options, num_seats)
        # The pair list in play (built in, or option word_pairs read) and the content-free seats: read once here,
        # where the options are checked against the table.
        self.pairs, self.content_free_seats = checked_setup(self.options, self.num_seats)

    def seat_name(self, seat: int) -> str:
        return seat_name(self.options["seat_names"], seat) or super().seat_name(seat)

    # teams() keeps its default, one team per seat: the camps are secret during play and the platform shows
    # teams openly, so declaring them would tell every player who the spies are. The camp of each seat is in the
    # final observation and in the is_spy measure; scores give the winning camp's seats equal shares.

    def max_actions(self) -> int:
        # A round has at most one description and one vote per seat, and there are at most max_rounds rounds.
        return 2 * self.num_seats * self.options["max_rounds"]
