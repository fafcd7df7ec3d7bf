"""Reusable conformance checks for any engine built on gameplay.engines.api.

Every game in the registry must pass ``check_playouts``; the checks are plain
functions raising AssertionError so that tests (including the ones proving the
checker can fail) can call them on throwaway games too.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable

from gameplay.engines.api import Game, IllegalActionError, State, TextAction

# Texts tried, in order, when a seat can only answer with free text. Engines
# validate text, so a generic checker tries a few plausible shapes.
DEFAULT_TEXTS = ("hello", "yes", "ok 1", "word,1", "1")


def _dump(state: State) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def check_round_trip(state: State) -> State:
    """JSON round trip must reproduce to_json exactly; returns the restored state."""
    dumped = _dump(state)
    restored = state.game.state_from_json(json.loads(dumped))
    assert _dump(restored) == dumped, "to_json differs after a JSON round trip"
    return restored


def _observation_dumps(state: State) -> dict:
    """JSON text of every seat's observation and the public one (key None)."""
    dumps = {}
    for seat in [*range(state.game.num_seats), None]:
        obs = state.observation(seat)
        assert obs.seat == seat, f"observation({seat}) reports seat {obs.seat}"
        assert isinstance(obs.text, str), "observation text must be a string"
        dumps[seat] = json.dumps(obs.to_json(), ensure_ascii=False)
    return dumps


def check_observation_images(state: State) -> None:
    """Where a game draws observations, each image is a PNG made from that observation alone."""
    for seat in [*range(state.game.num_seats), None]:
        image = state.game.observation_image(state.observation(seat))
        if image is not None:
            assert isinstance(image, bytes) and image.startswith(b"\x89PNG\r\n\x1a\n"), "image must be PNG bytes"


def check_observation_leaks(state: State, dumps: dict | None = None) -> None:
    """No seat's observation may carry another seat's secrets; the public view carries none."""
    secrets = {int(k): [str(v) for v in vals] for k, vals in state.secrets().items()}
    if not any(secrets.values()):
        return
    dumps = dumps if dumps is not None else _observation_dumps(state)
    for seat in range(state.game.num_seats):
        seen = dumps[seat]
        own = set(secrets.get(seat, ()))
        for other, values in secrets.items():
            if other == seat:
                continue
            for value in values:
                # A value this seat legitimately holds too (e.g. the same word
                # dealt twice) is not evidence of a leak.
                if value and value not in own:
                    assert value not in seen, (
                        f"observation for seat {seat} leaks seat {other}'s secret {value!r}"
                    )
    for values in secrets.values():
        for value in values:
            assert not value or value not in dumps[None], f"public observation leaks secret {value!r}"


def check_terminal_scores(state: State) -> None:
    scores = state.scores()
    assert len(scores) == state.game.num_seats, f"expected one score per seat, got {scores}"
    for s in scores:
        assert 0.0 <= s <= 1.0, f"score out of range: {scores}"
    assert abs(sum(scores) - 1.0) <= 1e-9, f"scores do not sum to 1: {scores}"


def check_rejects_illegal(state: State) -> None:
    """Illegal ids and out-of-turn seats raise IllegalActionError and change nothing."""
    before = _dump(state)
    current = state.current_seats()
    for seat in current[:1]:
        try:
            state.apply_action(seat, "__not_an_action__")
        except IllegalActionError:
            pass
        else:
            raise AssertionError("an unknown action id was accepted")
        assert _dump(state) == before, "state changed after a rejected action"
    for seat in range(state.game.num_seats):
        if seat in current:
            continue
        legal = state.legal_actions(current[0]) if current else []
        probe = legal[0].id if legal else "__not_an_action__"
        try:
            state.apply_action(seat, probe)
        except IllegalActionError:
            pass
        else:
            raise AssertionError(f"seat {seat} acted out of turn")
        assert _dump(state) == before, "state changed after an out-of-turn action"
        break


def _submit_text(state: State, seat: int, specs: list[TextAction], rng: random.Random,
                 texts: tuple[str, ...]) -> None:
    spec = rng.choice(specs)
    for text in texts:
        try:
            state.apply_action(seat, spec.id, text)
            return
        except IllegalActionError:
            continue
    raise AssertionError(f"no default text was accepted for text action {spec.id!r}")


def random_playout(game: Game, seed: int, texts: tuple[str, ...] = DEFAULT_TEXTS,
                   probe_every: int = 7) -> State:
    """Play one seeded random game, checking the contract at every step."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    limit = game.max_actions()
    step = 0
    while True:
        # Continue from the restored copy: any data missing from the payload
        # then changes how the game continues and the replay check catches it.
        state = check_round_trip(state)
        check_observation_leaks(state, _observation_dumps(state))
        if state.is_terminal():
            assert state.current_seats() == [], "terminal state still has seats to act"
            check_observation_images(state)  # once per playout: drawing is costly and tested on its own
            break
        assert len(state.log) < limit, f"playout exceeded max_actions()={limit} (seed {seed})"
        seats = state.current_seats()
        assert seats, "non-terminal state has no current seats"
        for s in seats:
            assert state.legal_actions(s) or state.text_actions(s), f"seat {s} must act but cannot"
        if step % probe_every == 0:
            check_rejects_illegal(state)
        seat = rng.choice(seats)
        actions = state.legal_actions(seat)
        if actions:
            state.apply_action(seat, rng.choice(actions).id)
        else:
            _submit_text(state, seat, state.text_actions(seat), rng, texts)
        step += 1
    check_terminal_scores(state)
    replayed = game.replay(seed, state.log)
    assert _dump(replayed) == _dump(state), f"replay from seed {seed} and log differs"
    return state


def check_playouts(game_factory: Callable[[], Game], n_playouts: int = 200, base_seed: int = 0,
                   texts: tuple[str, ...] = DEFAULT_TEXTS) -> list[State]:
    """Run ``n_playouts`` seeded random playouts of fresh games; returns the final states."""
    finals = []
    for i in range(n_playouts):
        finals.append(random_playout(game_factory(), base_seed + i, texts))
    return finals
