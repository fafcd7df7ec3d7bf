"""What each seat of Who is Spy sees: observations (data and text), per-viewer action labels and the secrets the
leak checks look for. A mixin over SpyState: it only reads the state.

The observation data are facts (facts.py: seats, talk entries, the votes a viewer may know, each count's outcome);
the text language models read is written from those same facts (wording.py), so it can say nothing the data do
not carry.

Public: the counts of players and spies, every speaking order, every description, who went out or who tied, and
who has voted. Private to one seat: its own word, its own votes (unless option show_votes) and the word of its own
wrong spy_guess. At the end everything is shown to everyone.

A seat's secrets are the exact sentences its observation shows them in ("Your secret word is pear."): a bare word
would also be found inside unrelated text ("pear" in "appears") and fail the leak checks for nothing, and the
villagers' sentence is the same for every villager, which the checks treat as shared, not leaked.
"""

from __future__ import annotations

from typing import Any

from ..api import ActionLabels, Observation
from .facts import SeatFacts
from .setup import CONTENT_FREE_TEXT
from .wording import (
    STRUCK_NOTE,
    abstain_sentence,
    guess_sentence,
    names_and,
    outcome_sentence,
    talk_sentence,
    vote_line,
    vote_sentence,
    word_sentence,
)
from .words import clean, normalise


class SeatViews(SeatFacts):
    # --- observation -----------------------------------------------------------------------------
    def observation(self, seat: int | None) -> Observation:
        name = self.game.seat_name
        opts = self.game.options
        r = self.round
        current = self.current_seats()
        data: dict[str, Any] = {
            "seat": seat,
            "status": "over" if self.is_terminal() else "playing",
            "phase": self.phase,
            "my_turn": seat is not None and seat in current,
            "num_players": self.game.num_seats,
            "num_spies": opts["spies"],
            "round": r["n"],
            "max_rounds": opts["max_rounds"],
            "runoff": r["runoff"],
            "max_description_words": opts["max_description_words"],
            "repeat_rule": opts["repeat_rule"],
            "show_votes": opts["show_votes"],
            "spy_guess": opts["spy_guess"],
            "players": [{"seat": s, "name": name(s), "in": self.alive(s), "you": s == seat,
                         "out_round": self.out_round[s], "out_how": self.out_how[s]}
                        for s in range(self.game.num_seats)],
            "waiting": list(current),  # the seats to act: the speaker, or the voters yet to vote
            "rounds": [self.round_facts(each, seat) for each in self.rounds],
        }
        if seat is not None:
            data["word"] = self.words[seat]
            data["word_text"] = word_sentence(self.words[seat])
        if self.is_terminal():
            data["reveal"] = {"villager_word": self.villager_word, "spy_word": self.spy_word,
                              "spies": list(self.spies), "winners": self.winners,
                              "result": self.result_text()}
        return Observation(seat, data, self._observation_text(data, seat))

    def _observation_text(self, data: dict[str, Any], seat: int | None) -> str:
        name = self.game.seat_name
        spies = data["num_spies"]
        lines = [f"Who is Spy: {data['num_players']} players, {spies} {'spy' if spies == 1 else 'spies'} among "
                 f"them. Round {data['round']} of at most {data['max_rounds']}"
                 f"{' (a run-off)' if data['runoff'] else ''}."]
        if seat is not None:
            lines.append(f"{data['word_text']} You are not told whether you are a villager or a spy.")
        content_free = sorted(self.game.content_free_seats)
        if content_free:  # option content_free (a bias experiment): public, like every option
            # Worded without "content": the texts players read name no word of the pair list, not even inside a
            # longer word ("tent" is one).
            who = "every player" if len(content_free) == data["num_players"] else names_and([
                name(s) + (" (you)" if s == seat else "") for s in content_free])
            lines.append(f"In this game the descriptions of {who} read '{CONTENT_FREE_TEXT}', whatever is written "
                         "(a setting for experiments).")
        still_in = [name(s) + (" (you)" if s == seat else "") for s in range(data["num_players"]) if self.alive(s)]
        lines.append("Still in: " + ", ".join(still_in) + ".")
        gone = [f"{name(s)} ({'voted out' if self.out_how[s] == 'vote' else 'wrong guess'} in round "
                f"{self.out_round[s]})" for s in range(data["num_players"]) if not self.alive(s)]
        if gone:
            lines.append("Out: " + ", ".join(gone) + ".")
        for each in data["rounds"]:
            kind = " (run-off)" if each["runoff"] else ""
            lines.append(f"Round {each['number']}{kind}, speaking order: {', '.join(map(name, each['order']))}.")
            lines.extend("  " + talk_sentence(entry) for entry in each["talk"])
            lines.extend("  " + vote_line(vote) for vote in each["votes"])
            if each["outcome"]:
                lines.append("  Result: " + outcome_sentence(each["outcome"]))
        if self.is_terminal():
            reveal = data["reveal"]
            lines.append(f"Game over. {reveal['result']}")
            if seat is not None:
                camp = "a spy" if seat in self.spies else "a villager"
                lines.append(f"You were {camp}; your side {'won' if self.scores()[seat] > 0 else 'lost'}.")
        else:
            lines.append(self._status_line(seat))
        return "\n".join(lines)

    def _status_line(self, seat: int | None) -> str:
        name = self.game.seat_name
        r = self.round
        if self.phase == "describe":
            speaker = r["order"][r["next"]]
            if speaker != seat:
                return f"Now {name(speaker)} is describing their word."
            limit = self.game.options["max_description_words"]
            line = (f"It is your turn to describe your word: one sentence of at most {limit} words, without your "
                    "word (not even inside a longer word) and not repeating an earlier description.")
            if self.content_free(seat):
                line = (f"It is your turn to describe your word. Whatever you write, the table reads "
                        f"'{CONTENT_FREE_TEXT}' (a setting for experiments).")
            if self.game.options["spy_guess"]:
                line += " Instead, you may claim to be a spy and guess the villagers' word (wrong: you are out)."
            if self.game.options["describe_seconds"]:
                line += (f" You have {self.game.options['describe_seconds']} seconds; you may also pass (give no "
                         "description), as happens when a person's time runs out.")
            return line
        candidates = ", ".join(name(c) for c in r["candidates"])
        waiting = ", ".join(name(s) for s in self.current_seats())
        if seat in self.current_seats():
            options = ", ".join(name(c) for c in r["ballots"][seat])
            line = f"It is your turn to vote (in secret) for one of: {options}. Still to vote: {waiting}."
            if self.game.options["vote_seconds"]:
                line += (f" You have {self.game.options['vote_seconds']} seconds; you may also abstain (a vote for "
                         "nobody), as happens when a person's time runs out.")
            return line
        return f"Voting. Candidates: {candidates}. Still to vote: {waiting}."

    # --- secrets and labels --------------------------------------------------------------------
    def secrets(self) -> dict[int, list[str]]:
        if self.is_terminal():
            return {}  # everything is revealed at the end
        name = self.game.seat_name
        result = {seat: [word_sentence(word)] for seat, word in enumerate(self.words)}
        for r in self.rounds:
            if not self.game.options["show_votes"]:
                for voter in r["voters"]:
                    target = r["votes"][voter]
                    if target is not None:
                        sentence = abstain_sentence(r["n"]) if target < 0 else vote_sentence(r["n"], name(target))
                        result[voter].append(sentence)
            for entry in r["talk"]:
                if "guess" in entry:
                    result[entry["s"]].append(guess_sentence(entry["guess"]))
        return result

    def action_labels(self, seat: int, action_id: str, text: str | None = None) -> ActionLabels:
        name = self.game.seat_name
        n = self.game.num_seats
        who = name(seat)
        if action_id == "describe" and text is not None and self.content_free(seat):
            public = f"{who} describes their word: {CONTENT_FREE_TEXT}"
            mine = f"You describe your word: {CONTENT_FREE_TEXT}"
        elif action_id == "describe" and text is not None:
            said = clean(text)
            struck = self.game.options["repeat_rule"] == "strike" and self.is_repeat(said)
            note = STRUCK_NOTE if struck else ""
            public = f"{who} describes their word: {said}{note}"
            mine = f"You describe your word: {said}{note}"
        elif action_id == "spy_guess" and text is not None:
            guess = normalise(text)
            right = self.guess_is_right(seat, guess)
            verdict = "right: the spies win" if right else f"wrong: {who} is out"
            public = f"{who} claims to be a spy and guesses the villagers' word: {verdict}"
            mine = f"You claim to be a spy and guess that the villagers' word is '{guess}': " + (
                "right: the spies win" if right else "wrong: you are out")
        elif action_id.startswith("vote:") and action_id.split(":", 1)[1].isdigit():
            target = name(int(action_id.split(":", 1)[1]))
            public = f"{who} votes for {target}" if self.game.options["show_votes"] else f"{who} has voted"
            mine = f"You vote for {target}"
        elif action_id == "skip_describe":  # the turn timer's pass (game.SKIP_DESCRIBE)
            public, mine = f"{who} gives no description", "You give no description"
        elif action_id == "vote:none":  # the turn timer's abstention (game.ABSTAIN): secret like a vote
            public = f"{who} abstains" if self.game.options["show_votes"] else f"{who} has voted"
            mine = "You abstain"
        else:
            return super().action_labels(seat, action_id, text)
        return ActionLabels(by_seat=tuple(mine if v == seat else public for v in range(n)), public=public)

    def result_text(self) -> str | None:
        if not self.is_terminal():
            return None
        name = self.game.seat_name
        spies = names_and([name(s) for s in self.spies])
        if self.ending == "guess":
            guesser = self.round["talk"][-1]["s"]
            how = f"{name(guesser)} was a spy and named the villagers' word: the spies win."
        elif self.ending == "cap":
            how = f"No decision within {self.game.options['max_rounds']} rounds: the spies survived and win."
        elif self.winners == "villagers":
            how = "Every spy is out: the villagers win."
        else:
            how = "The spies still in are as many as the villagers still in: the spies win."
        return (f"{how} The villagers' word was {self.villager_word}, the spy word was {self.spy_word}; "
                f"{'the spy was' if len(self.spies) == 1 else 'the spies were'} {spies}.")
