"""The word list (``fixtures/codenames_words.txt``, this project's own, CC0) and the deal of a grid and its key.

A key gives each card an identity: an agent of Red or Blue, an innocent bystander or the assassin. The starting
team holds one agent more than the other (the double agent of the printed game).
"""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

WORDS_PATH = Path(__file__).resolve().parents[3] / "fixtures" / "codenames_words.txt"

RED, BLUE = 0, 1
TEAM_NAMES = ("Red", "Blue")
TEAM_KEYS = ("red", "blue")  # identities of agent cards, indexed by team
BYSTANDER, ASSASSIN = "bystander", "assassin"
IDENTITY_NAMES = {"red": "Red agent", "blue": "Blue agent", BYSTANDER: "innocent bystander", ASSASSIN: "assassin"}

# (cards, starting team's agents, other team's agents, bystanders, assassins)
OFFICIAL = (25, 9, 8, 7, 1)
GAMEBENCH = (21, 9, 8, 3, 1)  # GameBench's codenames/config.py: bystanders cut from 7 to 3, no 5x5 grid


@cache
def word_list() -> tuple[str, ...]:
    words = tuple(line.strip().upper() for line in WORDS_PATH.read_text(encoding="utf-8").splitlines())
    return tuple(w for w in words if w)


def deal(rng: random.Random, layout: tuple[int, int, int, int, int], starting: int) -> tuple[list[str], list[str]]:
    """The grid's words and its key (identity per card), both drawn by chance."""
    cards, first, second, bystanders, assassins = layout
    words = rng.sample(word_list(), cards)
    key = ([TEAM_KEYS[starting]] * first + [TEAM_KEYS[1 - starting]] * second
           + [BYSTANDER] * bystanders + [ASSASSIN] * assassins)
    rng.shuffle(key)
    return words, key
