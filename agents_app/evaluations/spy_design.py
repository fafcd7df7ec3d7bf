"""Seed 002's SpyGame design as a plan of matches: every word pair played twice, each of its words once as the spy
word, with the evaluated "guest" model always on the spy's seat among "host" models (section 3.4: 50 pairs, 100
games per guest). Pure: no Django, no state; the ``spy_run`` command plays the plan.

The plan is deterministic from the run's seed: the order of the (pair, spy word) games is shuffled, and so is the
spy's seat, drawn so that every seat holds the spy about equally often. The engine names players by seat ("Player
1".."Player N"), so a guest always on one seat would always carry one name, and the seed found that names bias votes;
SpyGame shuffles the names over its seats for the same reason. Match k of a run has seed ``seed + k``, as
``play_match`` numbers them.

Each planned match carries its options: ``spy_word`` ("first" or "second" word of the pair as listed), ``spy_seat``
and the pair, by ``pair_index`` in the built-in list or, for a researcher's own list, as ``word_pairs`` holding just
that pair, so the stored match names the pair it was played with.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from gameplay.engines.who_is_spy.words import check_pairs

GAME_ID = "who_is_spy"
SPY_WORDS = ("first", "second")
# The options the plan sets for each match; a run's extra options may not set them too.
PLANNED_OPTIONS = ("pair_index", "spy_word", "spy_seat", "word_pairs")


class PairsFileError(ValueError):
    """A word-pair file that cannot be used (str(): what is wrong and where)."""


@dataclass(frozen=True)
class PlannedMatch:
    number: int  # 0-based within the run
    seed: int
    pair_index: int  # in the list the run plays
    pair: tuple[str, str]
    spy_word: str  # "first" or "second": which word of the pair is the spy's
    spy_seat: int
    built_in: bool  # the pair is the built-in list's (options name it by index) or the researcher's

    @property
    def spy_text(self) -> str:
        return self.pair[SPY_WORDS.index(self.spy_word)]

    @property
    def villager_text(self) -> str:
        return self.pair[1 - SPY_WORDS.index(self.spy_word)]

    def options(self, extra: dict | None = None) -> dict:
        """The game options of this match: ``extra`` (the run's other options) plus the planned ones."""
        pair = {"pair_index": self.pair_index} if self.built_in else {"word_pairs": [list(self.pair)], "pair_index": 0}
        return {**(extra or {}), **pair, "spy_word": self.spy_word, "spy_seat": self.spy_seat}

    def agents(self, guest: str, hosts: Sequence[str], seats: int) -> list[str]:
        """The agent of every seat: the guest on the spy's seat, the hosts on the others in seat order (a single
        host fills them all)."""
        if len(hosts) not in (1, seats - 1):
            raise ValueError(f"give one host, or one per other seat ({seats - 1}); got {len(hosts)}")
        others = iter(list(hosts) * (seats - 1) if len(hosts) == 1 else hosts)
        return [guest if seat == self.spy_seat else next(others) for seat in range(seats)]


def plan_run(pairs: Sequence[tuple[str, str]], *, seats: int, seed: int, built_in: bool) -> list[PlannedMatch]:
    """Two matches per pair, each word once as the spy's, in an order and with spy seats drawn from ``seed``."""
    if not pairs:
        raise ValueError("no word pairs to play")
    rng = random.Random(f"spy-design:{seed}")
    games = [(index, word) for index in range(len(pairs)) for word in SPY_WORDS]
    rng.shuffle(games)
    # Every seat about equally often: a shuffled round robin over the seats (remainders drawn without repeats).
    spy_seats = [k % seats for k in range(len(games))]
    rng.shuffle(spy_seats)
    return [PlannedMatch(number=k, seed=seed + k, pair_index=index, pair=tuple(pairs[index]), spy_word=word,
                         spy_seat=spy_seats[k], built_in=built_in)
            for k, (index, word) in enumerate(games)]


def read_pairs_file(path: str | Path) -> tuple[tuple[str, str], ...]:
    """The word pairs of a JSON file holding a list of two-word lists (as fixtures/who_is_spy_pairs.json and
    SpyGame's prompt/keyword_set.json do), checked as the engine checks option word_pairs."""
    try:
        raw = Path(path).read_text(encoding="utf-8")
    except OSError as err:
        raise PairsFileError(f"cannot read {path}: {err.strerror or err}") from None
    except UnicodeDecodeError:
        raise PairsFileError(f"{path} is not UTF-8 text") from None
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as err:
        raise PairsFileError(f"{path} is not valid JSON (line {err.lineno}, column {err.colno}: {err.msg}); "
                             'expected a list of pairs such as [["BERT", "GPT"], ["cat", "dog"]]') from None
    try:
        return check_pairs(data)
    except ValueError as err:
        raise PairsFileError(f"{path}: {err}") from None
