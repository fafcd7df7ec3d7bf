"""What each seat of Who is Spy sees: observations (data and text), per-viewer action labels and the secrets the
leak checks look for. A mixin over SpyState: it only reads the state.

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
from .words import clean, normalise


def word_sentence(word: str) -> str:
    return f"Your secret word is {word}."


def vote_sentence(round_number: int, target: str) -> str:
    return f"In round {round_number} you voted for {target}."


def abstain_sentence(round_number: int) -> str:
    return f"In round {round_number} you abstained."


def guess_sentence(guess: str) -> str:
    return f"You claimed to be a spy and guessed that the villagers' word is '{guess}'."


def _names(names: list[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


class SeatViews:
    # --- wording ---------------------------------------------------------------------------------
    def _who(self, seat: int, viewer: int | None) -> str:
        return "You" if seat == viewer else self.game.seat_name(seat)

    def _votes_public(self) -> bool:
        return self.game.options["show_votes"] or self.is_terminal()

    def _talk_line(self, entry: dict[str, Any], viewer: int | None) -> str:
        seat = entry["s"]
        who = self._who(seat, viewer)
        if "guess" in entry:
            if entry["right"]:
                return f"{who} claimed to be a spy and named the villagers' word, '{entry['guess']}': right."
            if viewer == seat:
                return guess_sentence(entry["guess"]) + " Wrong: you are out."
            if self.is_terminal():
                return (f"{who} claimed to be a spy and guessed that the villagers' word is '{entry['guess']}': "
                        f"wrong, {who} is out.")
            return f"{who} claimed to be a spy and guessed the villagers' word: wrong, {who} is out."
        if entry.get("skip"):  # a pass (turn timer: given, or a person's time ran out)
            return f"{who} gave no description."
        line = f"{who} said: {entry['text']}"
        if entry["struck"]:
            line += " (a repeat of an earlier description: struck)"
        return line

    def _outcome_line(self, r: dict[str, Any]) -> str:
        outcome = r["outcome"]
        if outcome is None:
            return ""
        name = self.game.seat_name
        leaders = _names([name(s) for s in outcome["leaders"]])
        kind = outcome["k"]
        if kind == "out":
            line = f"{leaders} received the most votes and is out."
        elif kind == "all_tied":
            line = "Everyone still in received the same number of votes: nobody is out."
        elif kind == "runoff":
            line = f"{leaders} tied for the most votes: the next round is a run-off between them."
        elif kind == "reset":
            line = f"{leaders} tied again: the next round is a normal round with everyone."
        else:
            return "Every run-off candidate was out before the vote: no vote this round."
        if self._votes_public():
            line += " Votes received: " + "; ".join(f"{name(c)}: {outcome['tally'][c]}" for c in r["candidates"]) + "."
        return line

    def _vote_lines(self, r: dict[str, Any], viewer: int | None) -> list[str]:
        name = self.game.seat_name
        lines = []
        for voter in r["voters"]:
            target = r["votes"][voter]
            if target is None:
                continue
            if target < 0:  # an abstention (turn timer), secret like a vote
                if voter == viewer:
                    lines.append(abstain_sentence(r["n"]))
                elif self._votes_public():
                    lines.append(f"In round {r['n']} {name(voter)} abstained.")
                continue
            if voter == viewer:
                lines.append(vote_sentence(r["n"], name(target)))
            elif self._votes_public():
                lines.append(f"In round {r['n']} {name(voter)} voted for {name(target)}.")
        return lines

    def _round_view(self, r: dict[str, Any], viewer: int | None) -> dict[str, Any]:
        name = self.game.seat_name
        return {
            "number": r["n"],
            "runoff": r["runoff"],
            "order": [name(s) for s in r["order"]],
            "talk": [self._talk_line(entry, viewer) for entry in r["talk"]],
            "candidates": [name(s) for s in r["candidates"]],
            "voters": [name(s) for s in r["voters"]],
            "voted": [name(v) for v in r["voters"] if r["votes"][v] is not None],
            "votes": self._vote_lines(r, viewer),
            "outcome": self._outcome_line(r),
        }

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
            "waiting": [name(s) for s in current],
            "rounds": [self._round_view(each, seat) for each in self.rounds],
        }
        if seat is not None:
            data["word"] = self.words[seat]
            data["word_text"] = word_sentence(self.words[seat])
        if self.is_terminal():
            data["reveal"] = {"villager_word": self.villager_word, "spy_word": self.spy_word,
                              "spies": [name(s) for s in self.spies], "winners": self.winners,
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
        still_in = [name(s) + (" (you)" if s == seat else "") for s in range(data["num_players"]) if self.alive(s)]
        lines.append("Still in: " + ", ".join(still_in) + ".")
        gone = [f"{name(s)} ({'voted out' if self.out_how[s] == 'vote' else 'wrong guess'} in round "
                f"{self.out_round[s]})" for s in range(data["num_players"]) if not self.alive(s)]
        if gone:
            lines.append("Out: " + ", ".join(gone) + ".")
        for each in data["rounds"]:
            kind = " (run-off)" if each["runoff"] else ""
            lines.append(f"Round {each['number']}{kind}, speaking order: {', '.join(each['order'])}.")
            lines.extend("  " + line for line in each["talk"])
            lines.extend("  " + line for line in each["votes"])
            if each["outcome"]:
                lines.append("  Result: " + each["outcome"])
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
        if action_id == "describe" and text is not None:
            said = clean(text)
            struck = self.game.options["repeat_rule"] == "strike" and self.is_repeat(said)
            note = " (a repeat of an earlier description: struck)" if struck else ""
            public = f"{who} describes their word: {said}{note}"
            mine = f"You describe your word: {said}{note}"
        elif action_id == "spy_guess" and text is not None:
            guess = normalise(text)
            right = seat in self.spies and guess == self.villager_word
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
        spies = _names([name(s) for s in self.spies])
        if self.end_reason == "guess":
            guesser = self.round["talk"][-1]["s"]
            how = f"{name(guesser)} was a spy and named the villagers' word: the spies win."
        elif self.end_reason == "cap":
            how = f"No decision within {self.game.options['max_rounds']} rounds: the spies survived and win."
        elif self.winners == "villagers":
            how = "Every spy is out: the villagers win."
        else:
            how = "The spies still in are as many as the villagers still in: the spies win."
        return (f"{how} The villagers' word was {self.villager_word}, the spy word was {self.spy_word}; "
                f"{'the spy was' if len(self.spies) == 1 else 'the spies were'} {spies}.")
