"""Conformance of ``GameSpec.composed_actions``: the parts of a seat's actions (``Action.parts``) must let an agent
choose part by part and always arrive at exactly one action.

Declared, every structured and open-ended action of the seats to act carries parts (non-empty strings); no two
actions have the same parts, and no action's parts begin another's (the agent must know when it has chosen a whole
action). Undeclared, no action carries parts, so nothing reads a half-made declaration.
"""

from __future__ import annotations

from gameplay.engines.api import State


def check_composed_actions(state: State) -> None:
    spec = state.game.spec
    for seat in state.current_seats():
        actions = [*state.legal_actions(seat), *state.text_actions(seat)]
        if not spec.composed_actions:
            carrying = [a.id for a in actions if a.parts]
            assert not carrying, f"{spec.id} does not declare composed_actions but {carrying[:3]} carry parts"
            continue
        paths: dict[tuple[str, ...], str] = {}
        for action in actions:
            assert action.parts, f"{spec.id}: action {action.id!r} of seat {seat} has no parts"
            assert all(isinstance(p, str) and p.strip() for p in action.parts), (
                f"{spec.id}: action {action.id!r} has an empty part: {action.parts!r}")
            other = paths.setdefault(action.parts, action.id)
            assert other == action.id, f"{spec.id}: actions {other!r} and {action.id!r} have the same parts"
        for parts, action_id in paths.items():
            for cut in range(1, len(parts)):
                assert parts[:cut] not in paths, (
                    f"{spec.id}: the parts of {paths[parts[:cut]]!r} begin those of {action_id!r}: choosing part by "
                    "part could not tell them apart")
