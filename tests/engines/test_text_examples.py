"""Every text action's declared example (``TextAction.example``) is a text the engine accepts, and gives nothing away.

Programs that play a person's seat without a language (the studies' bots) send the example; a refused example
would leave them with nothing to say (issue 38: a Codenames clue refused and re-sent forever). For every registered
game, seeded random playouts that pick among structured and text actions alike and write each text action's
example, at every decision of every acting seat: each example is non-empty, fits ``max_length``, is accepted by
``validate_text``, carries no other seat's secret, and one of them, chosen at random, is applied through
``apply_action`` (so a Who is Spy table fills up with descriptions and its examples must keep differing). Presets:
the defaults, every bool option flipped on a larger table, and every bounded number option at its low bound (the
strictest word limits); each with the options' declared ``short_value``s, which the last test checks on their own.
"""

from __future__ import annotations

import random

import pytest

from gameplay.engines.api import Game, InvalidOptionsError, State
from gameplay.engines.registry import GAMES

PLAYOUTS = 6
BASE_SEED = 3800


def short_options(cls) -> dict:
    """The options a game declares to keep a match short (``OptionSpec.short_value``)."""
    return {o.name: o.short_value for o in cls.spec.options if o.short_value is not None}


def has_text_actions(cls) -> bool:
    """Whether the game's State offers text actions at all (overrides ``State.text_actions``)."""
    return cls.state_class.text_actions is not State.text_actions


def presets(cls) -> list[tuple[str, dict, int]]:
    """The defaults as they are (whole games: a Who is Spy table of seven rounds of descriptions), every bool flipped
    on a larger table and every bounded number at its low bound, those two kept short."""
    spec, short = cls.spec, short_options(cls)
    flipped = {o.name: not o.default for o in spec.options if o.type is bool}
    lows = {o.name: o.bounds[0] for o in spec.options if o.bounds is not None}
    larger = min(spec.max_seats, spec.min_seats + 2)
    return [("default", {}, spec.min_seats), ("bools-flipped", {**flipped, **short}, larger),
            ("lows", {**lows, **short}, spec.min_seats)]


# Games without text actions have no example to check.
CASES = [pytest.param(game_id, options, seats, id=f"{game_id}-{label}")
         for game_id, cls in sorted(GAMES.items()) if has_text_actions(cls) for label, options, seats in presets(cls)]


def make_game(cls, options: dict, seats: int) -> Game:
    try:
        return cls(options, num_seats=seats)
    except InvalidOptionsError:  # a variant bound to one table size (Two Rooms' GameBench version: 6 players)
        return cls(options, num_seats=cls.spec.min_seats)


def check_examples(state: State, seat: int) -> int:
    """Every example of ``seat``'s text actions is valid and leak-free; returns how many were checked."""
    secrets = {int(k): {str(v) for v in values if v} for k, values in state.secrets().items()}
    foreign = set().union(*(v for s, v in secrets.items() if s != seat)) - secrets.get(seat, set())
    specs = state.text_actions(seat)
    for spec in specs:
        where = f"{state.game.spec.id} seat {seat} {spec.id!r} after {len(state.log)} actions"
        assert spec.example.strip(), f"{where}: no example declared"
        assert len(spec.example) <= spec.max_length, f"{where}: example longer than max_length"
        state.validate_text(seat, spec.id, spec.example)  # raises IllegalActionError when refused
        leaked = [value for value in foreign if value in spec.example]
        assert not leaked, f"{where}: the example {spec.example!r} carries another seat's secret {leaked}"
    return len(specs)


def playout(game: Game, seed: int) -> int:
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    checked = 0
    while not state.is_terminal():
        assert len(state.log) <= game.max_actions(), f"playout over max_actions (seed {seed})"
        if state.awaiting_verdict():
            state.apply_verdict(state.fallback_verdict(), "rule")
            continue
        seats = state.current_seats()
        for seat in seats:
            checked += check_examples(state, seat)
        seat = rng.choice(seats)
        choices = [(a.id, None) for a in state.legal_actions(seat)]
        choices += [(t.id, t.example) for t in state.text_actions(seat)]
        action_id, text = rng.choice(choices)
        state.apply_action(seat, action_id, text)  # an example the engine refuses fails here too
    return checked


@pytest.mark.parametrize("game_id,options,seats", CASES)
def test_every_example_is_accepted_and_leaks_nothing(game_id, options, seats):
    game = make_game(GAMES[game_id], options, seats)
    checked = sum(playout(game, BASE_SEED + i) for i in range(PLAYOUTS))
    print(f"{game_id}: {checked} examples checked")


@pytest.mark.parametrize("game_id", sorted(g for g, cls in GAMES.items() if has_text_actions(cls)))
def test_a_game_with_text_actions_reaches_them(game_id):
    """A guard against checking nothing: every game whose State offers text actions (overrides
    ``State.text_actions``) shows some in the default preset's playouts, so its examples were looked at."""
    cls = GAMES[game_id]
    game = cls(short_options(cls), num_seats=cls.spec.min_seats)
    assert sum(playout(game, BASE_SEED + i) for i in range(PLAYOUTS)) > 0


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_short_values_are_valid_options_and_shorten_the_game(game_id):
    """``OptionSpec.short_value`` is accepted by the option's own checks and bounds the match at least as tightly
    as the default does (fewer or as many actions at most)."""
    cls = GAMES[game_id]
    short = short_options(cls)
    for name, value in short.items():
        cls({name: value}, num_seats=cls.spec.min_seats)  # InvalidOptionsError when out of bounds or choices
    if short:
        default, shortened = cls(num_seats=cls.spec.min_seats), cls(short, num_seats=cls.spec.min_seats)
        assert shortened.max_actions() <= default.max_actions()


# --- what two games' examples are made of: public facts only ------------------------------------------------------


def test_who_is_spy_examples_fit_any_secret_word():
    """No stock description (nor a numbered one) contains a word of the pair list, nor is the stock guess one: so
    which example a seat is offered depends on the descriptions given so far, never on its own word."""
    from gameplay.engines.who_is_spy.words import (
        EXAMPLE_GUESS,
        NUMBERED_DESCRIPTION,
        STOCK_DESCRIPTIONS,
        word_pairs,
    )

    words = {w for pair in word_pairs() for w in pair}
    texts = [*STOCK_DESCRIPTIONS, *(NUMBERED_DESCRIPTION.format(n) for n in range(2, 500))]
    assert not [(t, w) for t in texts for w in words if w in t.lower()]
    assert EXAMPLE_GUESS not in words and all(len(t.split()) <= 3 for t in texts)


def test_a_codenames_example_clue_is_the_same_whatever_the_key():
    """Both Spymasters see the key, but the example clue is worked out from the visible words alone."""
    from gameplay.engines.codenames.game import CLUE

    state = GAMES["codenames"]().new_initial_state(11)
    other = state.clone()
    other.key = list(reversed(other.key))
    (example,) = [t.example for t in state.text_actions(state.current_seats()[0])]
    assert [t.example for t in other.text_actions(other.current_seats()[0]) if t.id == CLUE] == [example]
    word = example.split(",")[0]
    assert word not in state.words and example.endswith(",1")
