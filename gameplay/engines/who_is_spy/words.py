"""The word pairs and the checks on what players say: pure functions, no state.

The pairs live in ``fixtures/who_is_spy_pairs.json`` (this project's own list, CC0; see fixtures/README.md). The file
is read relative to the repository, so the engine loads it without Django, once per process.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from itertools import chain
from pathlib import Path

from ..api import IllegalActionError

PAIRS_PATH = Path(__file__).resolve().parents[3] / "fixtures" / "who_is_spy_pairs.json"

# A text box's limit; the word limit (an option) is the real constraint on a description.
MAX_DESCRIPTION_CHARS = 200
MAX_GUESS_CHARS = 40


@lru_cache(maxsize=1)
def word_pairs() -> tuple[tuple[str, str], ...]:
    """Every pair as (first, second), lower case; which of the two is the spy word is drawn per game."""
    with PAIRS_PATH.open(encoding="utf-8") as handle:
        data = json.load(handle)
    return tuple((str(a).lower(), str(b).lower()) for a, b in data)


def clean(text: str) -> str:
    """One line with single spaces: a description is one sentence, so line breaks become spaces."""
    return " ".join(str(text).split())


def normalise(text: str) -> str:
    """The form repeats are compared in: lower case, letters and digits only, single spaces."""
    return " ".join(re.sub(r"[^\w\s]|_", " ", text.lower()).split())


def check_description(text: str, own_word: str, max_words: int) -> str:
    """The cleaned description, or IllegalActionError saying what is wrong (repeats are the state's business)."""
    cleaned = clean(text)
    if not any(ch.isalnum() for ch in cleaned):
        raise IllegalActionError("the description is empty: say something about your word")
    count = len(cleaned.split())
    if count > max_words:
        raise IllegalActionError(f"the description has {count} words; at most {max_words} are allowed")
    # A substring test on purpose: a word hidden inside a longer one ('scary' for 'car') still gives it away.
    # The error names no word, so a message shown to the wrong person can carry nothing either.
    if own_word.lower() in cleaned.lower():
        raise IllegalActionError("the description contains your own secret word (also refused inside a longer "
                                 "word, in any letter case); describe it without saying it")
    return cleaned


# The texts a seat is offered as examples (TextAction.example). None names or contains a word of the pair list (a
# test checks), so they fit any secret word: which one a seat is offered depends only on the descriptions already
# given (public), never on its word. Three words at most: the smallest max_description_words.
STOCK_DESCRIPTIONS = ("I know it", "Easy to picture", "Seen it often", "Hard to miss", "Most know it",
                      "Rather common", "Simple to recognise", "Quite ordinary")
NUMBERED_DESCRIPTION = "Observation number {}"
EXAMPLE_GUESS = "nothing"


def example_description(own_word: str, said: list[str], max_words: int) -> str:
    """A description ``check_description`` accepts and no one has given yet (``said`` holds them normalised): the
    first stock one not said, then numbered ones."""
    numbered = (NUMBERED_DESCRIPTION.format(n) for n in range(2, 10_000))
    for text in chain(STOCK_DESCRIPTIONS, numbered):  # lazily: unpacking the numbered ones wrote 10,000 texts a call
        if normalise(text) in said or len(text.split()) > max_words:
            continue
        try:
            return check_description(text, own_word, max_words)
        except IllegalActionError:  # only for a word outside the pair list that hides in the text
            continue
    raise ValueError("no example description is left")


def check_guess(text: str, own_word: str) -> str:
    """A spy_guess, normalised (lower case, no punctuation). Only the exact villagers' word is right; any other
    text is accepted as a wrong guess rather than refused, so a player (or a random test player with its stock
    sentences) can always complete the turn. Naming one's own word is refused: it can never be right."""
    guess = normalise(text)
    if guess == own_word.lower():
        raise IllegalActionError("name the other word, not your own: the spies' word differs from the villagers'")
    return guess
