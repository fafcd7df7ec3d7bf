"""Codenames (Czech Games Edition, 2015) as a pure engine: two teams, a secret key, one-word clues and guesses.

Seats alternate teams (even seats Red, odd seats Blue); seat 0 is Red's Spymaster and seat 1 Blue's, every other
seat a Field Operative. A team turn is a clue (a text action of the team's Spymaster) followed by guesses. At the
table the team agrees on each guess and one person touches the card; here one Operative per team turn is the
guesser, the role rotating through the team's Operatives turn by turn, and only that seat acts.

Hidden information is the key (the identity of every unrevealed card): both Spymasters see it, Operatives never do.
Observations, labels and secrets are in views.py; the clue check in clues.py; the deal in words.py.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..api import Action, Game, GameSpec, IllegalActionError, MeasureSpec, OptionSpec, State, TextAction
from . import clues
from .rules import CLUES, GUESSING, RULES, TURN_END, VALIDITY, WINNING
from .views import SeatViews
from .words import ASSASSIN, GAMEBENCH, OFFICIAL, RED, TEAM_KEYS, TEAM_NAMES, deal, word_list

CLUE, END_TURN, GUESS, COVER = "clue", "end_turn", "guess:", "cover:"
CLUE_HINT = "word,number (for example river,2; the number is 0 to 9 or unlimited)"
# GameBench's reader (clues.read_gamebench) takes any whole number from 0 and has no 'unlimited'.
GAMEBENCH_CLUE_HINT = "word,number (for example river,2; the number is a whole number, 0 for no limit)"
# Phases of a team turn; "cover" is the invalid-clue penalty (the opposing Spymaster covers one of its agents).
CLUE_PHASE, GUESS_PHASE, COVER_PHASE, OVER = "clue", "guess", "cover", "over"
GAMEBENCH_WIN_BONUS = 3
# The rule of GameBench's games/codenames/game.py (CodenamesGame.update_spymaster), as clues.read_gamebench plays it.
GAMEBENCH_CLUES = (
    "GameBench's clues, read as its code (games/codenames/game.py) reads them, with no clue rule checked: the text "
    "is split at every comma; unless that gives exactly two parts the clue is 'None' for 1 (so 'river 2' is "
    "'None' for 1). Otherwise the word is the first part as written and the number the second as Python's int() "
    "reads it, any whole number from 0 (0: no limit); a number int() cannot read ('river,unlimited') or a "
    "negative one stopped GameBench's game, so that text is refused."
)
EXAMPLE_STRIDE = 97  # how far the example clue moves through the word list from one team turn to the next


def agents(count: int) -> str:
    return f"{count} agent{'' if count == 1 else 's'}"


class CodenamesState(SeatViews, State):
    game: CodenamesGame

    def __init__(self, game: CodenamesGame, seed: int):
        super().__init__(game, seed)
        gamebench = game.options["gamebench_board"]
        rng = self.rng()
        self.starting = RED if gamebench else rng.randrange(2)  # GameBench: Red always starts (with the 9)
        self.words, self.key = deal(rng, GAMEBENCH if gamebench else OFFICIAL, self.starting)
        self.revealed = [False] * len(self.words)
        self.team = self.starting
        self.phase = CLUE_PHASE
        self.clue: dict[str, Any] | None = None  # {"w": word, "n": number or None for unlimited}
        self.guesses = 0  # guesses made this turn
        self.team_turns = [0, 0]  # turns each team has finished (rotates its guesser)
        self.turns_played = 0
        self.clues_given = [0, 0]
        self.history: list[dict[str, Any]] = []
        self.winning_team: int | None = None  # None while playing, or after a shared (capped) end
        self.ending = ""  # how the game ended: "agents", "assassin" or "cap" (saved as "end_reason")

    # --- seats ----------------------------------------------------------------------------------
    def spymaster(self, team: int) -> int:
        return team

    def guesser(self, team: int) -> int:
        operatives = self.game.operatives(team)
        return operatives[self.team_turns[team] % len(operatives)]

    def current_seats(self) -> list[int]:
        if self.phase == OVER:
            return []
        if self.phase == GUESS_PHASE:
            return [self.guesser(self.team)]
        if self.phase == COVER_PHASE:
            return [self.spymaster(1 - self.team)]
        return [self.spymaster(self.team)]

    # --- actions --------------------------------------------------------------------------------
    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.current_seats():
            return []
        if self.phase == GUESS_PHASE:
            actions = [Action(f"{GUESS}{c}", f"Guess {w}", path=(str(c),))
                       for c, w in enumerate(self.words) if not self.revealed[c]]
            if self.guesses or self.game.options["gamebench_end_turn_anytime"]:
                actions.append(Action(END_TURN, "End the turn (stop guessing)"))
            return actions
        if self.phase == COVER_PHASE:
            own = TEAM_KEYS[1 - self.team]
            return [Action(f"{COVER}{c}", f"Cover {w} (one of your agents)", path=(str(c),))
                    for c, w in enumerate(self.words) if not self.revealed[c] and self.key[c] == own]
        return []

    def text_actions(self, seat: int) -> list[TextAction]:
        if self.phase != CLUE_PHASE or seat not in self.current_seats():
            return []
        hint = GAMEBENCH_CLUE_HINT if self.game.options["gamebench_unchecked_clues"] else CLUE_HINT
        return [TextAction(CLUE, "Give a clue", hint=hint, max_length=60, example=self.example_clue())]

    def example_clue(self) -> str:
        """A valid clue from public facts only (the visible words, the word list, the turn count), starting at a
        different word each turn so a run of example clues does not repeat itself."""
        candidates = word_list()
        start = (self.turns_played * EXAMPLE_STRIDE + sum(self.revealed)) % len(candidates)
        return clues.example_clue(self.visible_words(), candidates, start).text()

    def visible_words(self) -> list[str]:
        return [w for c, w in enumerate(self.words) if not self.revealed[c]]

    def read_clue(self, text: str) -> tuple[clues.Clue, str]:
        """The clue and, when it breaks a rule that the penalty option punishes, why ("" if valid)."""
        checked = not self.game.options["gamebench_unchecked_clues"]
        try:
            return clues.read(text, self.visible_words(), checked), ""
        except clues.InvalidClue as err:
            if not self.game.options["invalid_clue_penalty"]:
                raise
            word, number = clues.parse(text)
            return clues.Clue(" ".join(word.split()).upper(), number), str(err)

    def validate_text(self, seat: int, action_id: str, text: str) -> str:
        if action_id != CLUE:
            raise IllegalActionError(f"{action_id!r} takes no text")
        try:
            clue, _ = self.read_clue(text)
        except (clues.ClueError, clues.InvalidClue) as err:
            raise IllegalActionError(f"invalid clue: {err}") from None
        return clue.text()

    def _apply(self, seat: int, action_id: str, text: str | None) -> None:
        team = self.team
        if action_id == CLUE:
            clue, why = self.read_clue(text or "")
            event = {"k": "clue", "t": team, "s": seat, "w": clue.word, "n": clue.number}
            if why:
                self.history.append({**event, "k": "invalid", "why": why})
                self.phase = COVER_PHASE
                return
            self.history.append(event)
            self.clues_given[team] += 1
            self.clue = {"w": clue.word, "n": clue.number}
            self.phase, self.guesses = GUESS_PHASE, 0
        elif action_id == END_TURN:
            self.history.append({"k": "stop", "t": team, "s": seat})
            self._end_turn()
        elif action_id.startswith(COVER):
            cell = int(action_id[len(COVER):])
            self.revealed[cell] = True
            self.history.append({"k": "cover", "t": 1 - team, "s": seat, "c": cell, "id": self.key[cell]})
            if not self._check_win():
                self._end_turn()
        else:
            self._guess(seat, int(action_id[len(GUESS):]))

    def _guess(self, seat: int, cell: int) -> None:
        team, identity = self.team, self.key[cell]
        self.revealed[cell] = True
        self.guesses += 1
        self.history.append({"k": "guess", "t": team, "s": seat, "c": cell, "id": identity})
        if identity == ASSASSIN:
            self._finish(1 - team, "assassin")
            return
        if self._check_win():
            return
        limit = clues.max_guesses(self.clue["n"]) if self.clue else None
        if identity != TEAM_KEYS[team] or (limit is not None and self.guesses >= limit):
            self._end_turn()

    def _check_win(self) -> bool:
        """A team wins the moment its last agent is revealed, whoever revealed it."""
        for team in (self.team, 1 - self.team):
            if self.agents_left(team) == 0:
                self._finish(team, "agents")
                return True
        return False

    def _end_turn(self) -> None:
        self.team_turns[self.team] += 1
        self.turns_played += 1
        if self.turns_played >= self.game.options["max_turns"]:
            left = [self.agents_left(t) for t in (0, 1)]
            self._finish(None if left[0] == left[1] else left.index(min(left)), "cap")
            return
        self.team = 1 - self.team
        self.phase, self.clue, self.guesses = CLUE_PHASE, None, 0

    def _finish(self, winning_team: int | None, reason: str) -> None:
        self.phase, self.winning_team, self.ending = OVER, winning_team, reason

    # --- counts and outcome ---------------------------------------------------------------------
    def agents_left(self, team: int) -> int:
        return sum(1 for c, k in enumerate(self.key) if k == TEAM_KEYS[team] and not self.revealed[c])

    def agents_found(self, team: int) -> int:
        return sum(1 for c, k in enumerate(self.key) if k == TEAM_KEYS[team] and self.revealed[c])

    def assassin_team(self) -> int | None:
        return next((e["t"] for e in self.history if e["k"] == "guess" and e["id"] == ASSASSIN), None)

    def guesses_left(self) -> int | None:
        limit = clues.max_guesses(self.clue["n"]) if self.clue else None
        return None if limit is None else limit - self.guesses

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def team_values(self) -> list[float]:
        """Each team's share before it is split among the team's seats."""
        if self.game.options["gamebench_scores"]:
            values = [float(self.agents_found(t)) for t in (0, 1)]
            if self.winning_team is not None:
                values[self.winning_team] += GAMEBENCH_WIN_BONUS
            if self.assassin_team() is not None:
                values[self.assassin_team()] = 0.0
        else:
            values = [0.5, 0.5] if self.winning_team is None else [float(t == self.winning_team) for t in (0, 1)]
        total = sum(values)
        return [v / total for v in values] if total else [0.5, 0.5]

    def scores(self) -> list[float]:
        n = self.game.num_seats
        if not self.is_terminal():
            return [1.0 / n] * n
        values, teams = self.team_values(), self.game.teams()
        sizes = [teams.count(0), teams.count(1)]
        return [values[t] / sizes[t] for t in teams]

    def result_text(self) -> str | None:
        if not self.is_terminal():
            return None
        if self.ending == "assassin":
            loser = TEAM_NAMES[1 - self.winning_team]
            return f"{loser} picked the assassin: {TEAM_NAMES[self.winning_team]} wins."
        if self.ending == "cap":
            left = f"agents left Red {self.agents_left(0)}, Blue {self.agents_left(1)}"
            top = self.top_team()
            who = "a draw" if top is None else f"{TEAM_NAMES[top]} wins"
            return f"The turn cap ended the game ({left}): {who}."
        return f"All {TEAM_NAMES[self.winning_team]} agents are revealed: {TEAM_NAMES[self.winning_team]} wins."

    def top_team(self) -> int | None:
        """The team with the higher value at the end (the page's winner), None when both are equal (a draw)."""
        values = self.team_values()
        return None if values[0] == values[1] else values.index(max(values))

    def end_reason(self) -> str | None:
        """The deciding fact: who picked the assassin, who revealed a team's last agent (a guess, or the penalty's
        cover), or the turn cap with the agents left (and GameBench's scores where they decide). The key is public
        at the end, so the cards may be named."""
        if not self.is_terminal():
            return None
        if self.ending == "cap":
            return self._cap_reason()
        name = self.game.seat_name
        last = self.history[-1]  # the guess or the penalty's cover that ended the game
        word = self.words[last["c"]]
        if self.ending == "assassin":
            return f"{name(last['s'])} picked the assassin, {word}."
        team = TEAM_NAMES[self.winning_team]
        count = self.key.count(TEAM_KEYS[self.winning_team])
        if last["k"] == "cover":
            return (f"All {count} {team} agents are revealed; {name(last['s'])} covered the last one, {word}, as the "
                    f"penalty for {TEAM_NAMES[1 - last['t']]}'s invalid clue.")
        return f"All {count} {team} agents are revealed; {name(last['s'])} guessed the last one, {word}."

    def _cap_reason(self) -> str:
        cap = f"The turn cap of {self.game.options['max_turns']} team turns was reached"
        left = [self.agents_left(t) for t in (0, 1)]
        top = self.top_team()
        if self.game.options["gamebench_scores"] and self.winning_team is None and top is not None:
            found = [self.agents_found(t) for t in (0, 1)]
            return (f"{cap} with {agents(left[0])} left to each team; by GameBench's scores {TEAM_NAMES[top]} "
                    f"found more ({agents(found[top])} to {found[1 - top]}).")
        if top is None:
            return f"{cap} with {agents(left[0])} left to each team."
        return (f"{cap}; {TEAM_NAMES[top]} has fewer agents left ({left[top]} to {left[1 - top]}).")

    def measures(self, seat: int) -> dict[str, Any]:
        team = self.game.teams()[seat]
        over = self.is_terminal()
        return {"agents_found": self.agents_found(team), "won": (self.winning_team == team) if over else None,
                "clues_given": self.clues_given[team],
                "hit_assassin": (self.assassin_team() == team) if over else None}

    # --- team chat (spec.team_chat) ------------------------------------------------------------------------
    def chat_audience(self, seat: int) -> tuple[int, ...]:
        """A line is read by the sender's whole team, its Spymaster included, and never by the other team."""
        team = seat % 2
        return tuple(s for s in range(self.game.num_seats) if s % 2 == team)

    def may_chat(self, seat: int) -> bool:
        """Spymasters give nothing but clues: they read their Operatives' talk but may not write."""
        return seat >= 2

    def rule_topics(self, seat: int, action_id: str) -> tuple[str, ...]:
        if action_id == CLUE:
            return (CLUES, VALIDITY)
        if action_id == END_TURN:
            return (TURN_END, GUESSING)
        if action_id.startswith(COVER):
            return (VALIDITY,)
        return (GUESSING, TURN_END, WINNING)

    # --- serialisation --------------------------------------------------------------------------
    PAYLOAD_FIELDS = (
        "starting", "words", "key", "revealed", "team", "phase", "clue", "guesses", "team_turns",
        "turns_played", "clues_given", "history", "winning_team"
    )

    def _payload(self) -> dict:
        # How the game ended is saved under its old key (the attribute was renamed when State.end_reason came).
        return {**super()._payload(), "end_reason": self.ending}

    def _load_payload(self, payload: Mapping[str, Any]) -> None:
        super()._load_payload(payload)
        self.ending = payload.get("end_reason", "")


class CodenamesGame(Game):
    spec = GameSpec(
        id="codenames",
        name="Codenames",
        description=("Two teams race to find their secret agents among the codewords: each team's Spymaster gives "
                     "one-word clues, its Operatives guess. 4-10 players."),
        min_seats=4,
        max_seats=10,
        reasoning_categories=("abstract_strategy", "language_communication", "cooperation"),
        perfect_information=False,
        has_chance=True,
        # Operatives talk within their team (the table's rule: they may discuss their guesses); the Spymaster hears
        # it but may not speak (State.may_chat), so the chat is the team's alone.
        has_chat=True,
        team_chat=True,
        options=(
            OptionSpec("invalid_clue_penalty", False, "An invalid clue is not refused: it ends the turn and the "
                       "opposing Spymaster covers one of their own agents (the rulebook's penalty).",
                       label="Penalty for an invalid clue"),
            OptionSpec("gamebench_board", False, "GameBench's board: 21 cards (9 Red, 8 Blue, 3 bystanders, "
                       "1 assassin); Red always starts.", label="GameBench: 21-card board"),
            OptionSpec("gamebench_unchecked_clues", False, GAMEBENCH_CLUES, label="GameBench: unchecked clues"),
            OptionSpec("gamebench_end_turn_anytime", False, "GameBench's turn: the guesser may end the turn before "
                       "any guess.", label="GameBench: end the turn before any guess"),
            OptionSpec("gamebench_scores", False, "GameBench's scores: revealed own agents, +3 for the winner, 0 "
                       "for the team that picked the assassin, as shares of the total.", label="GameBench: scores"),
            OptionSpec("max_turns", 50, "A platform cap on team turns (only reachable when turns may pass without "
                       "a guess); the team with fewer agents left then wins.", type=int, bounds=(10, 200),
                       short_value=10, label="Turn cap"),
        ),
        measures=(
            MeasureSpec("agents_found", "Agents of the seat's team revealed by the end (by either team)."),
            MeasureSpec("won", "The seat's team won.", kind="bool"),
            MeasureSpec("clues_given", "Valid clues the seat's team's Spymaster gave."),
            MeasureSpec("hit_assassin", "The seat's team picked the assassin.", kind="bool"),
        ),
    )
    state_class = CodenamesState
    rules = RULES

    def teams(self) -> list[int]:
        return [seat % 2 for seat in range(self.num_seats)]

    def operatives(self, team: int) -> list[int]:
        return [seat for seat in range(2, self.num_seats) if seat % 2 == team]

    def role(self, seat: int) -> str:
        return "Spymaster" if seat < 2 else "Operative"

    def team_name(self, team: int) -> str:
        return TEAM_NAMES[team]

    def seat_name(self, seat: int) -> str:
        return f"Player {seat + 1} ({TEAM_NAMES[seat % 2]} {self.role(seat)})"

    def card_count(self) -> int:
        return (GAMEBENCH if self.options["gamebench_board"] else OFFICIAL)[0]

    def max_actions(self) -> int:
        # Every team turn has one clue and at most one end_turn or cover; every guess reveals a card.
        return 2 * self.options["max_turns"] + self.card_count() + 1

