"""Conformance checks of what leaves a state: its JSON, which must rebuild the state exactly, and what each seat is
shown of it (its observation, the labels of the actions taken), which must carry no other seat's secret
(``State.secrets``). Part of ``check_playouts`` (tests/engines/conformance.py), callable alone on throwaway games."""

from __future__ import annotations

import json
from collections.abc import Mapping

from gameplay.engines.api import ActionLabels, State


def _dump(state: State) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def check_round_trip(state: State) -> State:
    """JSON round trip must reproduce to_json exactly; returns the restored state."""
    dumped = _dump(state)
    restored = state.game.state_from_json(json.loads(dumped))
    assert _dump(restored) == dumped, "to_json differs after a JSON round trip"
    return restored


def observation_dumps(state: State) -> dict:
    """JSON text of every seat's observation and the public one (key None)."""
    dumps = {}
    for seat in [*range(state.game.num_seats), None]:
        obs = state.observation(seat)
        assert obs.seat == seat, f"observation({seat}) reports seat {obs.seat}"
        assert isinstance(obs.text, str), "observation text must be a string"
        dumps[seat] = json.dumps(obs.to_json(), ensure_ascii=False)
    return dumps


def check_observation_leaks(state: State, dumps: dict | None = None) -> None:
    """No seat's observation may carry another seat's secrets; the public view carries none."""
    secrets = {int(k): [str(v) for v in vals] for k, vals in state.secrets().items()}
    if not any(secrets.values()):
        return
    dumps = dumps if dumps is not None else observation_dumps(state)
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


def check_label_leaks(state: State, labels: ActionLabels, before: Mapping, after: Mapping) -> None:
    """No seat's label of an action carries another seat's secret (from ``secrets()`` before or after the
    action), and the public label carries no secret at all."""
    num_seats = state.game.num_seats
    assert isinstance(labels, ActionLabels), "action_labels must return ActionLabels"
    assert len(labels.by_seat) == num_seats, f"action_labels must word the action for each of {num_seats} seats"
    assert all(isinstance(label, str) for label in labels.by_seat), "labels must be strings"
    assert isinstance(labels.public, str) and labels.public, "the public label must be a non-empty string"
    secrets: dict[int, set[str]] = {}
    for source in (before, after):
        for seat, values in source.items():
            secrets.setdefault(int(seat), set()).update(str(v) for v in values if v)
    for viewer in range(num_seats):
        seen = labels.for_viewer(viewer)
        own = secrets.get(viewer, set())
        for other, values in secrets.items():
            if other == viewer:
                continue
            for value in values:
                if value not in own:  # a value this seat holds too is not evidence of a leak
                    assert value not in seen, (
                        f"label for seat {viewer} leaks seat {other}'s secret {value!r}: {seen!r}"
                    )
    for values in secrets.values():
        for value in values:
            assert value not in labels.public, f"public label leaks secret {value!r}: {labels.public!r}"


def apply_checked(state: State, seat: int, action_id: str, text: str | None = None) -> None:
    """Apply an action after reading its labels, then leak-check the labels against the secrets of the states
    before and after it. Raises IllegalActionError (state unchanged) like apply_action."""
    labels = state.action_labels(seat, action_id, text)
    before = state.secrets()
    state.apply_action(seat, action_id, text)
    check_label_leaks(state, labels, before, state.secrets())
