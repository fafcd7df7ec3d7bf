"""Shared helper of the prompt-leak tests (test_prompt_leaks.py, test_dialogue_agent_platform.py): the secrets a seat
may not see, every other seat's but those it holds too."""

from __future__ import annotations


def foreign_secrets(state, seat: int) -> list[str]:
    secrets = {int(k): [str(v) for v in values] for k, values in state.secrets().items()}
    own = set(secrets.get(seat, ()))
    return [v for other, values in secrets.items() if other != seat for v in values if v not in own]
