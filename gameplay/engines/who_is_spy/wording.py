"""Who is Spy's sentences, written from the facts of one viewer's observation (facts.py) and from nothing else: the
observation text language models read, and the board page, say the same thing in the same words.

The viewer is "You" in its own talk and votes ("you" set on the fact); everybody else is their seat name. A fact
leaves out what its viewer may not know (another seat's wrong guess during play, other seats' votes while votes are
secret), so no sentence written here can tell it either.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

STRUCK_NOTE = " (a repeat of an earlier description: struck)"


def word_sentence(word: str) -> str:
    return f"Your secret word is {word}."


def vote_sentence(round_number: int, target: str) -> str:
    return f"In round {round_number} you voted for {target}."


def abstain_sentence(round_number: int) -> str:
    return f"In round {round_number} you abstained."


def guess_sentence(guess: str) -> str:
    return f"You claimed to be a spy and guessed that the villagers' word is '{guess}'."


def names_and(names: Sequence[str]) -> str:
    """'A', 'A and B', 'A, B and C'."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _who(fact: Mapping[str, Any]) -> str:
    return "You" if fact["you"] else fact["name"]


def talk_sentence(entry: Mapping[str, Any]) -> str:
    """One talk entry (a description, a pass or a spy guess) as the round's line."""
    who = _who(entry)
    if entry["kind"] == "guess":
        if entry["right"]:
            return f"{who} claimed to be a spy and named the villagers' word, '{entry['text']}': right."
        if entry["you"]:
            return guess_sentence(entry["text"]) + " Wrong: you are out."
        if entry["text"] is not None:  # shown to others only once the game is over
            return (f"{who} claimed to be a spy and guessed that the villagers' word is '{entry['text']}': "
                    f"wrong, {who} is out.")
        return f"{who} claimed to be a spy and guessed the villagers' word: wrong, {who} is out."
    if entry["skip"]:  # a pass (turn timer: given, or a person's time ran out)
        return f"{who} gave no description."
    return f"{who} said: {entry['text']}" + (STRUCK_NOTE if entry["struck"] else "")


def vote_line(vote: Mapping[str, Any]) -> str:
    """One vote this viewer may know (its own; everyone's with show_votes or at the end); target None: abstained."""
    number = vote["round"]
    if vote["you"]:
        return abstain_sentence(number) if vote["target"] is None else vote_sentence(number, vote["target_name"])
    if vote["target"] is None:
        return f"In round {number} {vote['name']} abstained."
    return f"In round {number} {vote['name']} voted for {vote['target_name']}."


def outcome_sentence(outcome: Mapping[str, Any] | None) -> str:
    """A round's count ("" before it); the votes each candidate received only where the fact carries them."""
    if outcome is None:
        return ""
    leaders = names_and(outcome["leader_names"])
    kind = outcome["kind"]
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
    if outcome["tally"] is not None:
        line += " Votes received: " + "; ".join(f"{t['name']}: {t['votes']}" for t in outcome["tally"]) + "."
    return line
