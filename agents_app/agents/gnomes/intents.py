"""Partner message -> intent flag (seeds/003 §4.2): the parser interface, a rule-based parser and ``combine``.

The paper parses messages with a few-shot LLM prompt (see ``llm.py``). ``RuleBasedParser`` is the deterministic
fallback and offline baseline: it never touches the network and always returns a flag.

How a message is read, in order of precedence:
1. an explicit move request (the first one in reading order; plans give their first step) -> that move;
2. otherwise a question about the game state -> INQUIRY;
3. otherwise a bare "wait" / "hold on" -> STAY;
4. otherwise a refusal, an inability or a wall report -> REJECT;
5. otherwise agreement -> ACCEPT;
6. otherwise NONE.
Directions inside a question about the state ("is there a wall on the left?"), inside a wall report
("wall on my right"), after a negation ("don't go left") or in a report of the partner's own move after an
agreement ("ok going right") are not move requests.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from agents_app.agents.gnomes.flags import Flag


class IntentParser(Protocol):
    def parse(self, message: str) -> Flag: ...


def combine(flags: Sequence[Flag]) -> Flag:
    """One flag for all partner messages since the agent's last turn: the latest one that is not NONE.

    People correct themselves across messages ("go left" ... "no wait, up"), so the newest intent is the one
    that stands; chit-chat sent afterwards ("lol sorry") carries no intent and must not erase it.
    """
    for flag in reversed(flags):
        if flag is not Flag.NONE:
            return flag
    return Flag.NONE


# --- Lexicon -------------------------------------------------------------------------------------------------


def _words(text: str) -> frozenset[str]:
    """A word set written as one string, so long lists stay readable."""
    return frozenset(text.split())


_DIRECTION_WORDS = {
    "right": Flag.RIGHT,
    "rightward": Flag.RIGHT,
    "rightwards": Flag.RIGHT,
    "east": Flag.RIGHT,
    "left": Flag.LEFT,
    "leftward": Flag.LEFT,
    "leftwards": Flag.LEFT,
    "west": Flag.LEFT,
    "up": Flag.UP,
    "upward": Flag.UP,
    "upwards": Flag.UP,
    "north": Flag.UP,
    "top": Flag.UP,
    "down": Flag.DOWN,
    "downward": Flag.DOWN,
    "downwards": Flag.DOWN,
    "south": Flag.DOWN,
    "bottom": Flag.DOWN,
    "stay": Flag.STAY,
    "remain": Flag.STAY,
    "pass": Flag.STAY,
    "skip": Flag.STAY,
}
# Targets for typo repair. "up" is short, so only three-letter words can reach it (the length rule below).
_TYPO_TARGETS = {"right": Flag.RIGHT, "left": Flag.LEFT, "down": Flag.DOWN, "up": Flag.UP}
# Real words one edit away from a direction that must not be "repaired" into one.
_NOT_TYPOS = frozenset({"let", "lest", "lift", "loft", "lent", "dawn", "don", "drown", "own"})
# One-letter abbreviations are read only when they are the whole message or follow "go"/"move":
# elsewhere "u" means "you" ("can u go right") and "d"/"r" are noise.
_LETTERS = {"r": Flag.RIGHT, "l": Flag.LEFT, "u": Flag.UP, "d": Flag.DOWN}
_MOVE_VERBS = frozenset({"go", "move", "head", "step", "try"})

# Idioms where a direction word is not a direction, keyed by the direction word: the words that may precede it.
_IDIOM_BEFORE = {
    "right": frozenset({"thats", "youre", "all", "exactly", "be"}),  # "be right back", "you might be right"
    # Plural counts only: "moves left" is what remains, "move left" is a request.
    "left": _words(
        "moves turns steps time minutes seconds tries rounds have has had are were was whats nothing anything "
        "something none"
    ),
    "up": _words(
        "hurry give gave whats sup opens open ended end set pick picked mess messed catch shut wake speed show "
        "showed cheer made make mixed"
    ),
    "down": frozenset({"calm", "slow", "narrow", "write", "wrote", "shut", "cool", "settle", "count", "upside"}),
}
_WEAK_STAY = frozenset({"wait", "hold", "hang"})

_NEGATORS = frozenset({"not", "dont", "cant", "cannot", "never", "wont", "shouldnt", "couldnt", "avoid", "stop"})
_NEGATION_REACH = 4  # a negator governs the first direction within this many following words

_REFUSAL_WORDS = frozenset({"no", "nope", "nah", "negative", "cant", "cannot", "impossible", "unable", "nay"})
_REFUSAL_PHRASES = ("not possible", "can not", "wont work", "doesnt work", "not allowed", "no way")
# "no" that does not refuse: "no problem" agrees, "no idea" is just talk.
_NO_EXCEPTIONS = frozenset({"problem", "prob", "probs", "worries", "worry", "idea", "clue"})
_WALL_WORDS = frozenset({"wall", "blocked", "block", "blocking", "obstacle"})

_ACCEPT_WORDS = _words(
    "ok okay okey okie oki okk k kk sure yes yep yup yeah ya yea alright fine done roger agreed agree aye "
    "affirmative ofc cool certainly"
)
_ACCEPT_PHRASES = (
    "will do", "on it", "got it", "sounds good", "can do", "no problem", "no prob", "no worries", "of course",
    "i can", "doing it", "lets do it", "all right", "thats right", "good idea", "will try",
)  # fmt: skip
# Words that make a direction a report of the partner's own move ("ok going right") rather than a request.
_OWN_MOVE_MARKERS = frozenset({"going", "moving", "heading", "ill", "im"})

_WH_WORDS = frozenset({"where", "wheres", "what", "whats", "which", "how", "hows", "when", "why"})
_AUX_WORDS = _words("is are am do does did can could would will should shall have has any isnt arent")
_STATE_WORDS = _words(
    "treasure gem goal prize chest wall walls see know tell where which what whats wheres open blocked position turns"
)
_LEADING_FILLERS = frozenset({"ok", "okay", "so", "hey", "hmm", "wait", "and", "um", "well", "oh", "now", "but"})
_CONNECTIVES = frozenset({"but", "then", "so", "instead"})

_SYMBOLS = (
    (re.compile(r"-+>|=+>|[→➡]"), " right "),
    (re.compile(r"<-+|<=+|[←⬅]"), " left "),
    (re.compile(r"[↑⬆^]"), " up "),
    (re.compile(r"[↓⬇]"), " down "),
    (re.compile(r"[👍👌]"), " ok "),
)


# --- Tokenising ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Clause:
    words: tuple[str, ...]
    is_question: bool


def _clauses(message: str) -> list[_Clause]:
    """Split into clauses at punctuation and at connectives; a clause ended by '?' is a question."""
    text = message.lower()
    for pattern, word in _SYMBOLS:
        text = pattern.sub(word, text)
    # Apostrophes go so that "can't" and "cant" (both common) become the same word.
    text = re.sub(r"['’`]", "", text)
    clauses: list[_Clause] = []
    for body, ending in re.findall(r"([^,.;:!?]*)([,.;:!?]*)", text):
        words = re.findall(r"[a-z0-9]+", body)
        pieces: list[list[str]] = [[]]
        for word in words:
            if word in _CONNECTIVES:
                pieces.append([])
            else:
                pieces[-1].append(word)
        pieces = [p for p in pieces if p]
        for index, piece in enumerate(pieces):
            # Only the last piece before the '?' carries it: "ok so where to now?" asks in "where to now".
            clauses.append(_Clause(tuple(piece), "?" in ending and index == len(pieces) - 1))
    return clauses


def _edit_distance(a: str, b: str) -> int:
    """Optimal-string-alignment distance: insertions, deletions, substitutions and adjacent swaps cost 1."""
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        current = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                current[j] = min(current[j], previous2[j - 2] + 1)
        previous2, previous = previous, current
    return previous[len(b)]


def _typo_direction(word: str) -> Flag | None:
    """A misspelt direction ("rihgt", "dwon", "lft", "upp"); short words are skipped to avoid false hits."""
    if len(word) < 3 or word in _NOT_TYPOS:
        return None
    allowed = 1 if len(word) <= 5 else 2
    for target, flag in _TYPO_TARGETS.items():
        # Typos keep the first letter far more often than not; requiring it rules out "might", "own", "cup".
        if word[0] == target[0] and _edit_distance(word, target) <= allowed:
            return flag
    return None


def _direction_at(words: Sequence[str], i: int, whole_message: bool) -> Flag | None:
    """The direction word ``words[i]`` names, or None (including idioms such as "hurry up", "moves left")."""
    word = words[i]
    before = words[i - 1] if i > 0 else ""
    if word in _LETTERS:
        return _LETTERS[word] if whole_message or before in _MOVE_VERBS else None
    flag = _DIRECTION_WORDS.get(word)
    if flag is None:
        flag = _typo_direction(word)
    if flag is None:
        return None
    idioms = _IDIOM_BEFORE.get(flag.action or "", frozenset())
    if before in idioms:
        return None
    if flag is Flag.UP and tuple(words[i + 1 : i + 3]) in {("to", "you"), ("to", "u")}:
        return None  # "up to you"
    return flag


# --- Clause readings -----------------------------------------------------------------------------------------


def _is_state_question(clause: _Clause) -> bool:
    """Does this clause ask for information about the game (not ask for a move)?"""
    words = list(clause.words)
    while words and words[0] in _LEADING_FILLERS:
        words.pop(0)
    if not words:
        return False
    first, second = words[0], (words[1] if len(words) > 1 else "")
    if first in _WH_WORDS:
        if second == "about" or (first == "why" and second in {"dont", "not"}):
            return False  # "how about right?", "why don't you go up?" are suggestions
        if first in {"how", "hows"} and second in {"are", "r", "is", "u", "you", "it", "was", "going"}:
            return False  # "how are you?" is small talk
        # "what's up" is a greeting, not a question about the board.
        return not (first == "whats" and second == "up")
    if not (clause.is_question or first in _AUX_WORDS):
        return False
    if any(word in _STATE_WORDS for word in words):
        return True
    # "left or right?" offers alternatives: it asks which, it does not request either.
    return any(
        words[i] == "or" and _direction_at(words, i - 1, False) and _direction_at(words, i + 1, False)
        for i in range(1, len(words) - 1)
    )


def _contains_phrase(words: Sequence[str], phrase: str) -> bool:
    return f" {phrase} " in f" {' '.join(words)} "


def _refuses(words: Sequence[str]) -> bool:
    for i, word in enumerate(words):
        if word == "no" and i + 1 < len(words) and words[i + 1] in _NO_EXCEPTIONS:
            continue
        if word in _REFUSAL_WORDS or word in _WALL_WORDS:
            return True
    return any(_contains_phrase(words, phrase) for phrase in _REFUSAL_PHRASES)


def _agrees(words: Sequence[str]) -> bool:
    return any(word in _ACCEPT_WORDS for word in words) or any(
        _contains_phrase(words, phrase) for phrase in _ACCEPT_PHRASES
    )


def _requests(clause: _Clause, whole_message: bool, agreed: bool) -> list[Flag]:
    """The moves this clause asks for, in order; empty for wall reports and state questions."""
    words = clause.words
    if any(word in _WALL_WORDS for word in words):
        return []  # "wall on my right": the direction says where the obstacle is, not where to go
    found: list[Flag] = []
    negated_until = -1  # index up to which a pending negator still reaches
    for i, word in enumerate(words):
        if i > 0 and words[i - 1] == "why" and word in {"dont", "not"}:
            continue  # "why don't you go left?" suggests left rather than forbidding it
        if word in _NEGATORS or (word == "not" and i > 0 and words[i - 1] == "do"):
            negated_until = i + _NEGATION_REACH
            # "don't move" / "do not move" with no direction after it asks to stay put.
            if (word == "dont" or (word == "not" and i > 0 and words[i - 1] == "do")) and _stays_put(words, i):
                found.append(Flag.STAY)
            continue
        flag = _direction_at(words, i, whole_message)
        if flag is None:
            continue
        if i <= negated_until:
            negated_until = -1  # the negator is used up by the first direction it reaches
            continue
        if agreed and any(w in _OWN_MOVE_MARKERS for w in words[max(0, i - 2) : i]):
            continue  # "ok going right" reports the partner's own move
        found.append(flag)
    return found


def _stays_put(words: Sequence[str], negator_index: int) -> bool:
    rest = words[negator_index + 1 :]
    if not rest or rest[0] not in {"move", "go", "moving"}:
        return False
    return not any(_direction_at(words, j, False) for j in range(negator_index + 1, len(words)))


# --- The parser ----------------------------------------------------------------------------------------------


class RuleBasedParser:
    """Deterministic keyword-and-rule intent parser; see the module docstring for the precedence."""

    def parse(self, message: str) -> Flag:
        if not message or not message.strip():
            return Flag.NONE
        clauses = _clauses(message)
        all_words = [word for clause in clauses for word in clause.words]
        if not all_words:
            return Flag.NONE
        whole_message = len(all_words) == 1
        agreed = _agrees(all_words)
        asks_state = False
        for clause in clauses:
            if _is_state_question(clause):
                asks_state = True
                continue
            moves = _requests(clause, whole_message, agreed)
            if moves:
                return moves[0]
        if asks_state:
            return Flag.INQUIRY
        if any(word in _WEAK_STAY for word in all_words):
            return Flag.STAY
        if _refuses(all_words):
            return Flag.REJECT
        if agreed:
            return Flag.ACCEPT
        return Flag.NONE
