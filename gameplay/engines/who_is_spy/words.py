"""The word pairs and the checks on what players say: pure functions, no state.

The built-in pairs live in ``fixtures/who_is_spy_pairs.json`` (this project's own list, CC0; see fixtures/README.md).
The file is read relative to the repository, so the engine loads it without Django, once per process. A researcher's
own pairs come as option data (option ``word_pairs``, checked by ``check_pairs``): the engine never reads their file,
so a stored match replays with the pairs it was played with.

Words are compared in one normalised form (``word_key``): letter case, punctuation, hyphens and runs of spaces aside,
so "Spider-Man", "spider man" and "SPIDER MAN!" are one word, for a description's check and for a spy's guess alike.
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
# A researcher's pairs: a word must fit in a spy guess (or the villagers' word could never be named), and a list is
# kept to a size a match's stored options carry easily.
MAX_WORD_CHARS = MAX_GUESS_CHARS
MAX_PAIRS = 1000
PAIRS_EXAMPLE = '[["BERT", "GPT"], ["cat", "dog"]]'


@lru_cache(maxsize=1)
def word_pairs() -> tuple[tuple[str, str], ...]:
    """Every pair as (first, second), lower case; which of the two is the spy word is drawn per game."""
    with PAIRS_PATH.open(encoding="utf-8") as handle:
        data = json.load(handle)
    return tuple((str(a).lower(), str(b).lower()) for a, b in data)


def pairs_json(value) -> str:
    """Option ``word_pairs`` as it is stored: JSON text. Text is kept as given (``check_pairs`` reads it); a list,
    as JSON options or a command hand it over, is written as JSON text."""
    if value is None:
        return ""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def parse_pairs(text: str) -> tuple[tuple[str, str], ...]:
    """The pairs of JSON text such as ``[["BERT", "GPT"], ["cat", "dog"]]``; ValueError says what is wrong."""
    try:
        data = json.loads(text)
    except ValueError as err:
        where = f" (line {err.lineno}, column {err.colno})" if isinstance(err, json.JSONDecodeError) else ""
        raise ValueError(f"not valid JSON{where}: write a list of pairs such as {PAIRS_EXAMPLE}") from None
    return check_pairs(data)


def check_pairs(data) -> tuple[tuple[str, str], ...]:
    """Word pairs read from JSON (a list of two-word lists), each word cleaned of extra spaces and kept in its own
    letter case; ValueError names the first pair that is wrong (counted from 0, as option pair_index counts)."""
    if not isinstance(data, list) or not data:
        raise ValueError(f"expected a non-empty list of pairs such as {PAIRS_EXAMPLE}")
    if len(data) > MAX_PAIRS:
        raise ValueError(f"{len(data)} pairs; at most {MAX_PAIRS} are allowed")
    pairs = []
    for number, pair in enumerate(data):
        where = f"pair {number} ({json.dumps(pair, ensure_ascii=False)[:60]})"
        if not isinstance(pair, list | tuple) or len(pair) != 2:
            raise ValueError(f"{where}: a pair is a list of exactly two words")
        words = []
        for word in pair:
            if not isinstance(word, str):
                raise ValueError(f"{where}: each word must be text in quotes")
            cleaned = clean(word)
            if not any(ch.isalnum() for ch in cleaned):
                raise ValueError(f"{where}: a word needs at least one letter or digit")
            if len(cleaned) > MAX_WORD_CHARS:
                raise ValueError(f"{where}: a word may have at most {MAX_WORD_CHARS} characters (a spy must be able "
                                 "to name it in a guess)")
            words.append(cleaned)
        if word_key(words[0]) == word_key(words[1]):
            raise ValueError(f"{where}: the two words are the same word (letter case, punctuation and spaces aside)")
        pairs.append((words[0], words[1]))
    return tuple(pairs)


def clean(text: str) -> str:
    """One line with single spaces: a description is one sentence, so line breaks become spaces."""
    return " ".join(str(text).split())


def normalise(text: str) -> str:
    """The form repeats are compared in: lower case, letters and digits only, single spaces."""
    return " ".join(re.sub(r"[^\w\s]|_", " ", text.lower()).split())


def word_key(word: str) -> str:
    """The form a secret word is compared in (a guess against the villagers' word, a description against its
    speaker's word): ``normalise``d, so hyphens and punctuation count as spaces. The built-in words are single
    lower-case words, which this leaves as they are: their games compare exactly as before."""
    return normalise(word)


def check_description(text: str, own_word: str, max_words: int) -> str:
    """The cleaned description, or IllegalActionError saying what is wrong (repeats are the state's business)."""
    cleaned = clean(text)
    if not any(ch.isalnum() for ch in cleaned):
        raise IllegalActionError("the description is empty: say something about your word")
    count = len(cleaned.split())
    if count > max_words:
        raise IllegalActionError(f"the description has {count} words; at most {max_words} are allowed")
    # A substring test on purpose: a word hidden inside a longer one ('scary' for 'car') still gives it away. Both
    # sides normalised, so "spider man" gives away "Spider-Man"; for a single plain word this is the same test as a
    # case-blind substring test (punctuation only ever splits letters apart, never joins them).
    # The error names no word, so a message shown to the wrong person can carry nothing either.
    if word_key(own_word) in normalise(cleaned):
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
    """A spy_guess, normalised (lower case, no punctuation). Only the villagers' word is right (``guess_names``);
    any other text is accepted as a wrong guess rather than refused, so a player (or a random test player with its
    stock sentences) can always complete the turn. Naming one's own word is refused: it can never be right."""
    guess = normalise(text)
    if guess_names(guess, own_word):
        raise IllegalActionError("name the other word, not your own: the spies' word differs from the villagers'")
    return guess


def guess_names(guess: str, word: str) -> bool:
    """Whether a spy guess names ``word``: both in the words' normalised form, so "ice cream" names "Ice-Cream"."""
    return normalise(guess) == word_key(word)
