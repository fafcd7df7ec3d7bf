"""A solved dialogue policy as deployed: which instruction a steered seat uses, as a probability per instruction.

A solver's tree has one information state per distinct dialogue it generated; a live conversation with a person
leaves that tree after the first message a person writes. So a policy keeps two views of the solution:

- ``by_infostate``: the solver's own policy at each information state, keyed by ``infostate_key`` (the seat and a
  digest of that seat's observation text, which is its private information plus the public thread). A live
  dialogue that is word for word one the solver generated is steered exactly as solved.
- ``by_turn``: for each seat and each of its message indexes, the average of the solver's policies at that seat's
  information states for that message, each weighted by the probability of reaching it under the solved profile.
  Everything else is steered by this.

Failing both (a turn deeper than the solved tree), every instruction is equally likely.

A policy is an answer to one game under one set of options over one instruction set: it records the options it was
solved under (the game's options, defaults filled in) and the instruction set, and ``applicability_problem`` refuses
it for a match of another game, with an option of another value (e.g. without ``openspiel_opening`` when solved with
it: every message index shifts), or for a game whose set of that name is not the one it was solved over. A
hand-written policy may record fewer options: it then holds for any value of those it leaves out.

The format (JSON, kept with a solver run and copied to an agent configuration)::

    {"game": "fruit_trading", "options": {"scenario": "fixed", "max_turns_per_seat": 3, ...},
     "instruction_set": "tone", "instructions": ["calm", ..., "any"],
     "by_turn": {"1:0": {"calm": 0.2, ...}, ...}, "by_infostate": {"1:ab12...": {"calm": 0.2, ...}, ...}}
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Mapping

from gameplay.engines.dialogue import DialogueSpec


class PolicyError(ValueError):
    pass


def infostate_key(seat: int, observation_text: str) -> str:
    return f"{seat}:{hashlib.sha256(observation_text.encode('utf-8')).hexdigest()[:24]}"


def turn_key(seat: int, message_index: int) -> str:
    return f"{seat}:{message_index}"


def validate_policy(policy: Mapping) -> None:
    """Raise PolicyError unless ``policy`` has the format above, with each distribution over known instructions
    summing to 1."""
    try:
        instructions = list(policy["instructions"])
        tables = [policy["by_turn"], policy["by_infostate"]]
        str(policy["game"]), str(policy["instruction_set"])
    except (KeyError, TypeError) as err:
        raise PolicyError(f"not a dialogue policy: missing {err}") from None
    if not isinstance(policy.get("options"), Mapping):
        raise PolicyError(
            'the policy records no game options ("options"): solve it again, or add the options it was solved under'
        )
    if not instructions or len(set(instructions)) != len(instructions):
        raise PolicyError("a policy needs distinct instructions")
    for table in tables:
        for key, dist in table.items():
            if set(dist) - set(instructions):
                raise PolicyError(f"{key}: unknown instruction(s) {sorted(set(dist) - set(instructions))}")
            if any(p < 0 for p in dist.values()) or abs(sum(dist.values()) - 1.0) > 1e-6:
                raise PolicyError(f"{key}: probabilities must be non-negative and sum to 1")


def distribution(policy: Mapping, seat: int, message_index: int, observation_text: str) -> tuple[dict, str]:
    """The instruction distribution for ``seat``'s message number ``message_index`` (0 for its first), and which
    view answered: "infostate", "turn" or "uniform"."""
    exact = policy["by_infostate"].get(infostate_key(seat, observation_text))
    if exact:
        return dict(exact), "infostate"
    by_turn = policy["by_turn"].get(turn_key(seat, message_index))
    if by_turn:
        return dict(by_turn), "turn"
    instructions = policy["instructions"]
    return {name: 1.0 / len(instructions) for name in instructions}, "uniform"


def sample(dist: Mapping[str, float], rng: random.Random) -> str:
    """One instruction drawn from ``dist`` (in its key order, so a seeded draw is reproducible)."""
    names = list(dist)
    return rng.choices(names, weights=[dist[n] for n in names], k=1)[0]


def _shown(options: Mapping) -> str:
    return ", ".join(f"{name}={json.dumps(value)}" for name, value in options.items())


def applicability_problem(policy: Mapping, game_id: str, options: Mapping | None, dialogue: DialogueSpec) -> str | None:
    """Why ``policy`` may not steer a seat of a ``game_id`` match played with ``options`` (the match's options,
    defaults filled in; None: not known), or None when it may: the game, every option it records and its instruction
    set must be the ones it was solved under."""
    solved_for = str(policy.get("game", ""))
    if solved_for != game_id:
        return f"the policy was solved for {solved_for!r}, not {game_id!r}"
    recorded = policy.get("options")
    if not isinstance(recorded, Mapping):
        return "the policy records no game options, so it cannot be checked against this match: solve it again"
    if options is None:
        return "this match's options are unknown, so the policy cannot be checked against them"
    differing = [name for name, value in recorded.items() if name not in options or options[name] != value]
    if differing:
        here = {name: options.get(name, "(no such option)") for name in differing}
        return (f"the policy was solved under {_shown({n: recorded[n] for n in differing})}; this match has "
                f"{_shown(here)}")
    name = str(policy.get("instruction_set", ""))
    try:
        family = dialogue.instruction_set(name)
    except KeyError as err:
        return f"the policy was solved over the instruction set {name!r}: {err.args[0]}"
    missing = [i for i in family.instructions if i not in policy.get("instructions", ())]
    if missing:
        return (f"the policy's instructions ({', '.join(policy.get('instructions', ()))}) are not the {name!r} set's "
                f"({', '.join(family.instructions)}): it was solved over another set")
    return None
