"""How a bot chooses its move from its seat's observation.json: the move policies of ``--bot-agent``.

A policy is called with the seat's observation (the JSON the server sends), a per-decision seed and the moves the
server has already refused at this position (each with the server's reason); it returns a ``Decision``. After a
refusal it must choose something else: a frame the server refused is never sent again.

Free text comes from the engine: each text action of observation.json carries ``example``, a text the engine would
accept from this seat now (a Codenames clue on no visible card, a Who is Spy description nobody has given). The
bots send that, so they play every game legally without a language of their own.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from gameplay.engines.api import Action, Observation

from .client import BotError

# Only for a text action that declares no example (an engine outside this project, an older server): what a person
# would type, as a try the server may refuse.
BOT_LINES = ("Hello! Shall we find a deal?", "That sounds fair to me.", "Let me think about it.",
             "I would like something in return.")


@dataclass(frozen=True)
class Decision:
    action_id: str
    message: str | None = None
    text: str | None = None  # the text of an open-ended action

    @property
    def move(self) -> tuple[str, str | None]:
        """What the action frame carries: two decisions with the same move are the same frame to the server."""
        return self.action_id, self.text


@dataclass(frozen=True)
class Refusal:
    """A move the server refused at the current position, and the reason it gave (its #flash message)."""

    decision: Decision
    reason: str


Policy = Callable[..., Decision]  # (payload, seed, refused: Sequence[Refusal] = ()) -> Decision


def legal_actions(payload: dict) -> list[Action]:
    legal = []
    for entry in payload.get("legal_actions") or ():
        if isinstance(entry, dict):
            legal.append(Action(str(entry["id"]), str(entry.get("label", entry["id"]))))
        else:
            legal.append(Action(str(entry), str(entry)))
    return legal


def text_actions(payload: dict) -> list[dict]:
    """The open-ended actions of observation.json ({id, label, hint, max_length, example}): a clue, a description,
    every move of a dialogue game."""
    return [t for t in payload.get("text_actions") or () if isinstance(t, dict) and t.get("id")]


def can_act(payload: dict) -> bool:
    return bool(payload.get("legal_actions") or text_actions(payload))


def text_for(action: dict, rng: random.Random) -> str:
    """The engine's example for a text action, or (none declared) a stock line, within its max_length."""
    limit = int(action.get("max_length") or 200)
    example = str(action.get("example") or "")
    return (example if example.strip() else rng.choice(BOT_LINES))[:limit]


def offered_moves(payload: dict, rng: random.Random) -> list[Decision]:
    """Every move the seat may make now: each structured legal action, and each text action with its text."""
    moves = [Decision(action.id) for action in legal_actions(payload)]
    moves += [Decision(str(action["id"]), text=text_for(action, rng)) for action in text_actions(payload)]
    return moves


def not_refused(moves: list[Decision], refused: Sequence[Refusal]) -> list[Decision]:
    """The moves not yet refused here; BotError naming the server's reasons when none is left."""
    tried = {r.decision.move for r in refused}
    left = [m for m in moves if m.move not in tried]
    if not left:
        reasons = "; ".join(dict.fromkeys(r.reason for r in refused))
        raise BotError(f"the server refused every move the bot could make here: {reasons}")
    return left


def random_policy() -> Policy:
    """A seeded random move of any game (the same seed in the same spot makes the same choice): every structured
    legal action and every text action (with the engine's example) equally likely; after a refusal, one of the
    others."""

    def decide(payload: dict, seed: int, refused: Sequence[Refusal] = ()) -> Decision:
        rng = random.Random(seed)
        return rng.choice(not_refused(offered_moves(payload, rng), refused))

    return decide


def turn_view(payload: dict, seed: int, game_id: str = "gnomes"):
    """The agent's view built from observation.json, as agents_app.services.turn_view builds it from a state."""
    from agents_app.agents.base import TurnView  # only the agent-backed policies need the agents app

    data = payload["observation"]
    seat = int(payload.get("seat", data.get("side", 0)))
    return TurnView(
        game_id=game_id,
        seat=seat,
        observation=Observation(seat, data, ""),
        legal_actions=tuple(legal_actions(payload)),
        seed=seed,
    )


def gnomes_partner_policy() -> Policy:
    """The simulated Gnomes at Night partner: moves and chat messages like a cooperative person. Should the server
    refuse its move, the bot falls back to a random one it has not tried."""
    from agents_app.agents.gnomes.partner import SimulatedPartner

    brain = SimulatedPartner()
    fallback = random_policy()

    def decide(payload: dict, seed: int, refused: Sequence[Refusal] = ()) -> Decision:
        if refused:
            return fallback(payload, seed, refused)
        decision = brain.decide(turn_view(payload, seed, "gnomes"))
        return Decision(decision.action_id, decision.message or None)

    return decide


POLICIES: dict[str, Callable[[], Policy]] = {"random": random_policy, "gnomes-partner": gnomes_partner_policy}
