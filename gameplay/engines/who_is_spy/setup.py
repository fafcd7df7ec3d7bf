"""Who is Spy's options and what they set up before the first word is said: the pair list (built in, or a
researcher's own as option data), the deal of the words (which pair, which of its words is the spy's, which seat
holds it), the players' names and the seats whose descriptions are content-free.

Seed 002 evaluates a "guest" model as the spy among "host" models, each pair played twice with each of its words once
as the spy word (options ``pair_index``, ``spy_word`` and ``spy_seat`` let a run fix all three per match); it studied
the bias of the players' names with three naming methods (its Table 2: option ``seat_names``) and measured biases on a
content-free table where descriptions say nothing, only "..." (option ``content_free``).

Every option is off (random, built in, "Player k", nobody content-free) by default, and the deal draws chance exactly
as it did before these options existed, so stored matches replay unchanged.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from ..api import InvalidOptionsError, OptionSpec
from .words import pairs_json, parse_pairs, word_pairs

REPEAT_RULES = ("strike", "reject", "allow")
SPY_WORDS = ("random", "first", "second")
MAX_SEATS = 10
CONTENT_FREE_TEXT = "..."  # what a content-free seat's description reads as, whatever it wrote

# Seed 002's Table 2 gives four names per method; the names past the fourth continue each pattern (this project's own
# choice): method 2 a first name with the initial of its position and the number in words, method 3 short first names.
# None of them is or contains a word of the built-in pair list.
SEAT_NAMES: dict[str, tuple[str, ...] | None] = {
    "player": None,  # method 1: "Player 1".."Player N", the Game's default names
    "name_number": ("Aaron One", "Barbara Two", "Charlie Three", "David Four", "Emily Five", "Frank Six",
                    "Grace Seven", "Henry Eight", "Irene Nine", "James Ten"),
    "first_name": ("Jack", "Mary", "Alice", "Tom", "Lucy", "Sam", "Emma", "Ben", "Kate", "Paul"),
}

OPTIONS = (
    # A short list, not bounds: the largest count fits only larger tables (checked in checked_setup), while bounds
    # promise that both ends work at any seat count.
    OptionSpec("spies", 1, "Number of spies; there must be fewer spies than villagers (2 spies need 5 "
               "players, 3 need 7, 4 need 9).", int, choices=(1, 2, 3, 4), label="Spies"),
    OptionSpec("pair_index", -1, "Which word pair of the list to play (0-based; of word_pairs when given, its first "
               f"{len(word_pairs())} pairs); -1 draws one at random.", int, bounds=(-1, len(word_pairs()) - 1),
               label="Word pair"),
    OptionSpec("spy_word", "random", "Which word of the pair is the spy word: 'first' or 'second' as the pair is "
               "listed, or 'random' (drawn per game). Seed 002 plays each pair twice, each word once as the spy word.",
               str, choices=SPY_WORDS, label="Spy word"),
    # Choices, not bounds, for the same reason as spies: a seat past the table's size is refused in checked_setup.
    OptionSpec("spy_seat", -1, "The seat holding the spy word, counted from 0 in seat order (with several spies, one "
               "of them; the others are dealt at random); -1 deals it at random. Seed 002's guest is always the spy.",
               int, choices=tuple(range(-1, MAX_SEATS)), label="Spy's seat"),
    OptionSpec("word_pairs", "", "Your own word pairs instead of the built-in list, as JSON: a list of two-word "
               'lists such as [["BERT", "GPT"], ["cat", "dog"]] (at most 1000 pairs, words of at most 40 characters). '
               "Empty: the built-in list.", pairs_json, label="Your own word pairs"),
    OptionSpec("max_description_words", 10, "Most words a description may have.", int, bounds=(3, 30),
               label="Most words per description"),
    # SpyGame's rule by default: a repeat is refused and the speaker says something new (the platform's
    # random players and language-model agents replace a refused text). 'strike' accepts a repeat but
    # marks it as saying nothing; 'allow' lets repeats count.
    OptionSpec("repeat_rule", "reject", "A description repeating an earlier one: 'reject' (refused, as in "
               "SpyGame), 'strike' (accepted, but struck: it counts as saying nothing) or 'allow'.",
               str, choices=REPEAT_RULES, label="Repeated descriptions"),
    OptionSpec("show_votes", False, "Show every vote to everyone as it is cast (SpyGame keeps votes "
               "secret and announces only the result).", label="Show votes as they are cast"),
    OptionSpec("spy_guess", False, "Variant: a speaker may instead claim to be a spy and name the "
               "villagers' word; right wins the game for the spies, wrong puts that speaker out.",
               label="Spies may guess the word"),
    OptionSpec("max_rounds", 7, "Rounds before the game stops; the spies then win.", int, bounds=(1, 20),
               short_value=1, label="Round cap"),
    OptionSpec("describe_seconds", 0, "Timer: seconds a person has to describe (0: no limit). With a limit a "
               "speaker may also pass, and one whose time runs out passes: no description.", int,
               bounds=(0, 600), label="Seconds to describe"),
    OptionSpec("vote_seconds", 0, "Timer: seconds a person has to vote (0: no limit). With a limit a voter "
               "may also abstain, and one whose time runs out abstains: a vote for nobody.", int,
               bounds=(0, 600), label="Seconds to vote"),
    OptionSpec("seat_names", "player", "The players' names, seed 002's three naming methods (its Table 2): "
               "'player' (Player 1, Player 2, ...; method 1, the least biased), 'name_number' (Aaron One, Barbara "
               "Two, ...; method 2) or 'first_name' (Jack, Mary, Alice, Tom, ...; method 3).", str,
               choices=tuple(SEAT_NAMES), label="Player names"),
    OptionSpec("content_free", "", "Bias experiments (seed 002): the seats whose descriptions are content-free, "
               "shown as '...' whatever they write: 'all', or seat numbers counted from 0 separated by commas "
               "('0,2'). Empty: none.", str, label="Content-free seats"),
)


def checked_setup(options: Mapping[str, Any], num_seats: int) -> tuple[tuple[tuple[str, str], ...], frozenset[int]]:
    """The pair list and the content-free seats of these options at this table, or InvalidOptionsError saying which
    option does not fit (the shared checks have already typed them and checked their choices and bounds)."""
    spies = options["spies"]
    if 2 * spies >= num_seats:
        raise InvalidOptionsError(f"{spies} spies need at least {2 * spies + 1} players (spies must be fewer "
                                  f"than villagers); this game has {num_seats}")
    if options["spy_seat"] >= num_seats:
        raise InvalidOptionsError(f"option spy_seat: seat {options['spy_seat']} is not at this table of {num_seats} "
                                  f"players (seats 0 to {num_seats - 1}, or -1 for a random seat)")
    pairs = word_pairs()
    if options["word_pairs"].strip():
        try:
            pairs = parse_pairs(options["word_pairs"])
        except ValueError as err:
            raise InvalidOptionsError(f"option word_pairs: {err}") from None
    if options["pair_index"] >= len(pairs):
        raise InvalidOptionsError(f"option pair_index: {options['pair_index']} is past the end of word_pairs "
                                  f"({len(pairs)} pair(s), indices 0 to {len(pairs) - 1}, or -1 to draw one)")
    return pairs, content_free_seats(options["content_free"], num_seats)


def content_free_seats(text: str, num_seats: int) -> frozenset[int]:
    """Option content_free read: "" none, "all" every seat, else seat numbers (from 0) separated by commas."""
    text = text.strip().lower()
    if not text:
        return frozenset()
    if text == "all":
        return frozenset(range(num_seats))
    seats = set()
    for part in text.split(","):
        part = part.strip()
        if not part.isdigit() or int(part) >= num_seats:
            raise InvalidOptionsError(f"option content_free: {part!r} is not a seat of this table (write 'all' or "
                                      f"seat numbers from 0 to {num_seats - 1} separated by commas, such as '0,2')")
        seats.add(int(part))
    return frozenset(seats)


def seat_name(naming: str, seat: int) -> str | None:
    """The name of ``seat`` under option seat_names; None: the Game's default ("Player k")."""
    names = SEAT_NAMES[naming]
    return names[seat] if names is not None else None


def deal(options: Mapping[str, Any], pairs: Sequence[tuple[str, str]], num_seats: int,
         rng: random.Random) -> tuple[int, str, str, list[str]]:
    """(pair index, villager word, spy word, every seat's word) for a new game.

    The draws are those the engine made before spy_word and spy_seat existed, in the same order and whatever those
    options say (the pair, then which word is the spy's, then the deal), so with the defaults every seed deals what it
    always dealt, and fixing an option to what chance would have chosen changes nothing else."""
    index = options["pair_index"] if options["pair_index"] >= 0 else rng.randrange(len(pairs))
    first, second = pairs[index]
    second_is_spy = rng.random() < 0.5
    if options["spy_word"] != "random":
        second_is_spy = options["spy_word"] == "second"
    villager_word, spy_word = (first, second) if second_is_spy else (second, first)
    dealt = [spy_word] * options["spies"] + [villager_word] * (num_seats - options["spies"])
    rng.shuffle(dealt)
    fixed = options["spy_seat"]
    if fixed >= 0 and dealt[fixed] != spy_word:
        # The fixed seat takes the spy word from a spy seat drawn at random, so several spies' other seats stay a
        # uniform draw among the remaining seats.
        other = rng.choice([s for s in range(num_seats) if dealt[s] == spy_word])
        dealt[fixed], dealt[other] = dealt[other], dealt[fixed]
    return index, villager_word, spy_word, dealt
