"""Conformance of ``State.sample_information_state`` (``spec.information_sampling``, or perfect information).

The property a search agent relies on: a sample is drawn from what its seat has seen and from the generator alone.
Checked at a state A for a seat:

- **deterministic**: the same generator seed gives the same sample;
- **consistent**: the sample looks to the seat exactly as A does (its observation, its legal and text actions, who
  acts, whether the game is over, the log's length and the seat's own records in it), every seat due to act has a
  move in it, and it round-trips through JSON;
- **blind**: for B, itself a sample of A for the seat (so B looks the same to the seat, with its hidden values
  drawn anew), A and B give the same sample for the same generator. A sampler that keeps any of A's true hidden
  values, even sometimes, or draws them from a generator seeded by them, gives A's values from A and B's from B;
- **it draws**: over a playout, where another seat holds a secret (``State.secrets``) the seat does not see, some
  sample gives that seat other secrets than the truth. A sampler that returns the true state is blind by the check
  above (B is then A), and caught here;
- **playable**: a sample plays on to the end with random legal moves.

Plain functions raising AssertionError, like ``conformance.py``, so that a test can show they catch a bad sampler.
"""

from __future__ import annotations

import json
import random

from gameplay.engines.api import HIDDEN_ACTION, EngineError, Game, State

from .conformance import DEFAULT_TEXTS, with_numbered_variants

_TEXTS = tuple(with_numbered_variants(DEFAULT_TEXTS))


def _dump(state: State) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def _looks(state: State, seat: int) -> dict:
    """Everything the seat sees of a state."""
    return {
        "observation": json.dumps(state.observation(seat).to_json(), sort_keys=True, ensure_ascii=False),
        "legal": [(a.id, a.label, a.path) for a in state.legal_actions(seat)],
        "text": [(t.id, t.label, t.hint, t.max_length) for t in state.text_actions(seat)],
        "current": state.current_seats(),
        "terminal": state.is_terminal(),
        "log_length": len(state.log),
        "own_records": [(i, r.action_id, r.text) for i, r in enumerate(state.log) if r.seat == seat],
    }


def _other_secrets(state: State, seat: int) -> dict[int, list[str]]:
    """The other seats' secrets the seat does not see in its own observation."""
    seen = json.dumps(state.observation(seat).to_json(), ensure_ascii=False)
    return {
        other: sorted(value for value in values if value not in seen)
        for other, values in state.secrets().items()
        if other != seat
    }


def check_sample(state: State, seat: int, *, generators: int = 3) -> bool:
    """Check the sampler at ``state`` for ``seat``; True when some sample drew other secrets than the truth."""
    looks = _looks(state, seat)
    drew = False
    for g in range(generators):
        sample = state.sample_information_state(seat, random.Random(f"sample:{g}"))
        assert sample is not state, "a sample must be a new state"
        again = state.sample_information_state(seat, random.Random(f"sample:{g}"))
        assert _dump(sample) == _dump(again), "the same generator gave two different samples"
        assert _looks(sample, seat) == looks, f"a sample looks different to seat {seat} than the state it came from"
        for deciding in sample.current_seats():
            assert sample.legal_actions(deciding) or sample.text_actions(deciding), (
                f"seat {deciding} must act in a sample for seat {seat} but has no move there")
        restored = sample.game.state_from_json(json.loads(_dump(sample)))
        assert _dump(restored) == _dump(sample), "a sample does not round-trip through JSON"
        for i, record in enumerate(sample.log):
            if record.action_id == HIDDEN_ACTION:
                assert record.seat != seat, f"a sample hides seat {seat}'s own record {i} from it"
        truth = _other_secrets(state, seat)
        if any(truth.values()) and _other_secrets(sample, seat) != truth:
            drew = True
        twin = sample  # looks the same to the seat, its hidden values drawn anew
        for h in range(generators):
            from_state = state.sample_information_state(seat, random.Random(f"blind:{h}"))
            from_twin = twin.sample_information_state(seat, random.Random(f"blind:{h}"))
            assert _dump(from_state) == _dump(from_twin), (
                f"two states that look the same to seat {seat} gave different samples for one generator: "
                "the sampler reads something the seat has not seen"
            )
    return drew


def check_evaluation(state: State) -> None:
    """``spec.has_evaluation``: scores-like estimates (each in [0, 1], summing to 1); undeclared, the even split."""
    values = state.evaluation()
    seats = state.game.num_seats
    assert len(values) == seats, f"evaluation() gave {len(values)} values for {seats} seats"
    assert all(0.0 <= v <= 1.0 for v in values), f"evaluation() out of [0, 1]: {values}"
    assert abs(sum(values) - 1.0) < 1e-9, f"evaluation() does not sum to 1: {values}"
    if not state.game.spec.has_evaluation:
        assert values == [1.0 / seats] * seats, "evaluation() overridden without spec.has_evaluation"


def act_randomly(state: State, rng: random.Random) -> bool:
    """One random legal move of a random current seat (a text action with the engine's example or the usual
    shapes); False when the seat's text was refused every time."""
    seat = rng.choice(state.current_seats())
    actions = state.legal_actions(seat)
    if actions:
        state.apply_action(seat, rng.choice(actions).id)
        return True
    spec = state.text_actions(seat)[0]
    for text in ([spec.example] if spec.example else []) + list(_TEXTS):
        try:
            state.apply_action(seat, spec.id, text)
            return True
        except EngineError:  # try the next text shape, as the conformance playouts do
            continue
    return False


def play_on(state: State, rng: random.Random, limit: int = 60) -> None:
    """Play up to ``limit`` random legal moves from ``state`` (a sample must be a playable state)."""
    for _ in range(limit):
        if state.is_terminal() or state.awaiting_verdict() or not act_randomly(state, rng):
            return


def check_information_sets(game: Game, seed: int, *, every: int = 5, steps: int = 150) -> bool:
    """Play one seeded random game (its first ``steps`` actions), checking the sampler every ``every`` steps for every
    seat; True when some sample drew hidden values anew (a game with hidden information must, somewhere)."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    step = 0
    drew = False
    while not state.is_terminal() and step < steps:
        if state.awaiting_verdict():
            state.apply_verdict(state.fallback_verdict(), "rule")
            continue
        if step % every == 0:
            check_evaluation(state)
            for seat in range(game.num_seats):
                drew = check_sample(state, seat, generators=2) or drew
            sample = state.sample_information_state(rng.randrange(game.num_seats), random.Random(step))
            play_on(sample, random.Random(step))
        assert act_randomly(state, rng), "no text of the usual shapes was accepted"
        step += 1
    return drew


def check_secrets_move_at_start(game: Game, seed: int, generators: int = 6) -> None:
    """At the start, each seat's hidden values are drawn anew: for every seat holding secrets, some other seat's
    samples move one of them away from it. A sampler that copies a seat's true hand unchanged (and redraws the rest)
    is caught here, which the blind check cannot do (its twin inherits the copied values). One observer may know a
    seat's values by deduction (a Wizard of five knows the other Wizard's alignment is the opposite of its own), so
    it takes every observer's samples keeping them to call them copied; values every start has alike (no damage yet)
    are no secret then, and are left out."""
    state = game.new_initial_state(seed)
    others = [game.new_initial_state(seed + k).secrets() for k in range(1, 7)]
    stuck: dict[int, list[int]] = {}  # seat -> the observers whose every sample kept its values
    observers: dict[int, int] = {}
    for seat in range(game.num_seats):
        truth = _other_secrets(state, seat)
        samples = [_other_secrets(state.sample_information_state(seat, random.Random(f"start:{g}")), seat)
                   for g in range(generators)]
        for other, values in truth.items():
            if not values or all(sorted(start.get(other, [])) == sorted(state.secrets()[other]) for start in others):
                continue
            observers[other] = observers.get(other, 0) + 1
            if not any(set(values) - set(sample.get(other, [])) for sample in samples):
                stuck.setdefault(other, []).append(seat)
    for other, seats in stuck.items():
        assert len(seats) < observers[other], (
            f"seat {other}'s hidden values stayed where they truly are in every sample of every other seat "
            f"({seats}): the sampler copies them")


def check_sampling_game(make_game, seeds=range(3)) -> None:
    """``check_information_sets`` over seeded playouts (``make_game(seed)`` builds each game); a game with hidden
    information must draw some other seat's secrets anew somewhere."""
    drew = False
    game = None
    for seed in seeds:
        game = make_game(seed)
        check_secrets_move_at_start(game, seed)
        drew = check_information_sets(game, seed) or drew
    if game is not None and not game.spec.perfect_information:
        assert drew, f"{game.spec.id}: no sample ever drew another seat's hidden values anew"
