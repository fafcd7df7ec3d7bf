"""Reading and checking a Spymaster's clue: "WORD,N" (or "WORD N"), N being 0-9 or "unlimited".

At the table the opposing Spymaster judges whether a clue is fair; here a mechanical, deliberately cautious check
stands in for that judgement (the fact sheet's recommendation): one word of letters (an inner hyphen or apostrophe
allowed) that is neither a visible grid word nor a part or form of one, nor contains one. Forms are compared after
dropping the common English endings -s, -es, -ed, -ing and -er from both words, so RULES is refused while RULER is
visible. Meaning-based rules (no spelling or rhyme hints) cannot be checked by a program and are left to players.
GameBench's own reading, with no check at all, is ``read_gamebench`` (option gamebench_unchecked_clues).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

UNLIMITED = "unlimited"
MAX_NUMBER = 9
SUFFIXES = ("ing", "es", "ed", "er", "s")
# A stem shorter than this is compared for equality only: a three-letter stem inside a longer word (TIG of TIGER
# inside TIGHT) is a coincidence, not a form of the word.
MIN_STEM_FOR_PARTS = 4
_WORD = re.compile(r"^[a-z]+(?:[-'][a-z]+)*$")


class ClueError(ValueError):
    """The text is not a clue at all (no number, a bad number, no word): always refused."""


class InvalidClue(ValueError):
    """A well-formed clue that breaks a clue rule (the rulebook's penalty applies when that option is on)."""


@dataclass(frozen=True)
class Clue:
    word: str  # upper case, as shown
    number: int | None  # None for "unlimited"

    def text(self) -> str:
        return f"{self.word},{self.number_text()}"

    def number_text(self) -> str:
        return UNLIMITED if self.number is None else str(self.number)

    def max_guesses(self) -> int | None:
        return max_guesses(self.number)


def max_guesses(number: int | None) -> int | None:
    """Guesses a clue allows: its number + 1; no limit for 0 and for unlimited (None)."""
    return None if not number else number + 1


def parse(text: str) -> tuple[str, int | None]:
    """Split a clue into its word part (stripped, not yet checked) and its number; ClueError if impossible."""
    raw = text.strip()
    if "," in raw:
        word, number = raw.rsplit(",", 1)
    else:
        parts = raw.rsplit(None, 1)
        if len(parts) != 2:
            raise ClueError("a clue is a word and a number, written WORD,N (for example river,2)")
        word, number = parts
    word, number = word.strip(), number.strip().casefold()
    if not word:
        raise ClueError("the clue has no word before its number")
    if number == UNLIMITED:
        return word, None
    if not number.isdigit() or not 0 <= int(number) <= MAX_NUMBER:
        raise ClueError(f"the number must be 0 to {MAX_NUMBER} or 'unlimited', not {number!r}")
    return word, int(number)


def forms(word: str) -> set[str]:
    """A word (case-folded), its letters without hyphen or apostrophe, and those without a common ending."""
    base = word.casefold()
    letters = base.replace("-", "").replace("'", "")
    result = {base, letters}
    for suffix in SUFFIXES:
        if letters.endswith(suffix) and len(letters) - len(suffix) >= 3:
            result.add(letters[: -len(suffix)])
    return result


def clash(clue_word: str, grid_word: str) -> bool:
    """True when the clue is the grid word, a form of it, a part of it or contains it."""
    mine, theirs = forms(clue_word), forms(grid_word)
    if mine & theirs:
        return True
    whole_clue, whole_word = clue_word.casefold(), grid_word.casefold()
    if whole_clue in whole_word or whole_word in whole_clue:  # HORSE while HORSESHOE is visible, or the reverse
        return True
    for a in mine:
        for b in theirs:
            short, long_ = (a, b) if len(a) <= len(b) else (b, a)
            if len(short) >= MIN_STEM_FOR_PARTS and short in long_:
                return True
    return False


def check_word(word: str, visible: Iterable[str]) -> str:
    """The clue word in upper case; InvalidClue naming the rule it breaks."""
    if any(ch.isspace() for ch in word):
        raise InvalidClue(f"a clue must be a single word; {word!r} contains a space")
    folded = word.casefold()
    if not _WORD.match(folded):
        raise InvalidClue(f"{word!r} is not a word: use letters only (a hyphen or apostrophe inside the word is "
                          "allowed; no digits or other signs)")
    for grid_word in visible:
        if clash(word, grid_word):
            raise InvalidClue(f"{word.upper()!r} is, contains or is a part or form of the visible word "
                              f"{grid_word.upper()}; a covered word may be used")
    return word.upper()


def read(text: str, visible: Iterable[str], checked: bool = True) -> Clue:
    """The clue a text gives. ClueError when it cannot be read; InvalidClue when ``checked`` and it breaks a rule.
    Unchecked, the text is read as GameBench reads it (``read_gamebench``)."""
    if not checked:
        return read_gamebench(text)
    word, number = parse(text)
    return Clue(check_word(word, visible), number)


def read_gamebench(text: str) -> Clue:
    """A clue read as GameBench's code reads one (games/codenames/game.py, ``CodenamesGame.update_spymaster``).

    The text is split at every comma. Unless that gives exactly two parts the clue is "None" for 1 guess ("river 2"
    has one part, "river,2,3" three). Otherwise the first part is the word exactly as written (case, spaces and
    all; no clue rule is checked) and the second is read by Python's ``int``, which allows spaces around the
    number, a sign and an underscore between digits. Where ``int`` fails ("river,unlimited", "river,2.5",
    "river,") or the number is negative, GameBench's game stops with an error; here that is a ClueError, so the
    text is refused and the seat gives another. Any number from 0 up is taken as written: 0 allows any number of
    guesses, N > 0 up to N + 1, and there is no upper bound and no 'unlimited'.
    """
    parts = text.split(",")
    if len(parts) != 2:
        return Clue("None", 1)
    word, number_text = parts
    try:
        number = int(number_text)
    except ValueError:
        raise ClueError(f"GameBench reads the number after the comma with Python's int(), which cannot read "
                        f"{number_text!r}: give a whole number (0 for no limit)") from None
    if number < 0:
        raise ClueError(f"GameBench stops on a negative number ({number}): give a whole number from 0 up (0 for no "
                        "limit)")
    return Clue(word, number)


def example_clue(visible: Sequence[str], candidates: Sequence[str], start: int) -> Clue:
    """A clue the checked rules accept, for the seat that must give one: the first of ``candidates`` (from
    ``start`` on, wrapping round) that clashes with no visible word, for 1 guess. Only public facts go in (the
    visible words, the word list), so the example says nothing about the key."""
    count = len(candidates)
    for step in range(count):
        word = candidates[(start + step) % count]
        try:
            return Clue(check_word(word, visible), 1)
        except InvalidClue:
            continue
    raise ValueError("no candidate clue word clashes with none of the visible words")
