"""Play one round of any game over the match websocket, with a move policy as the bot's brain.

The bot behaves like the browser page: it reads its seat's observation (GET /play/<token>/observation.json),
decides with its policy, and sends the same frames the page sends: {"kind": "chat"} for a message (only when
the page has a chat box), then {"kind": "action"} with the version it saw. The server pushes HTML fragments
after every change; the bot only uses them as a signal to read its observation again (the fragments are for
people, the JSON is the contract).

Policies (``--bot-agent`` of run_study_bots): "random" plays a seeded random legal action of any game;
"gnomes-partner" is the simulated Gnomes at Night partner (a pure agent that plays a side like a cooperative
person and talks). The policy is chosen by the command, never by the study's game id.
"""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Callable
from dataclasses import dataclass

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from gameplay.engines.api import Action, Observation
from gameplay.engines.seeding import derive_seed

from .client import BotClient, BotError, Page

# Without a pushed frame for this long the bot reads its observation anyway (a lost push must not stall it).
IDLE_POLL_S = 1.0
_DATA_VERSION = re.compile(r'data-version="(\d+)"')
OPEN_TIMEOUT_S = 10.0
HEARTBEAT_S = 25.0


@dataclass
class RoundPlay:
    """What the bot saw of one round: enough for the progress lines and the run's summary."""

    round_number: int
    seat: int
    status: str  # the game's own final status when it reports one (Gnomes: found / out_of_turns), else the match's
    turns: int
    my_moves: int
    my_messages: int
    partner_messages: int
    seconds: float
    reads: int = 0  # observation.json requests: what the bot cost the server beyond its moves
    # The bot's side reached the goal: the treasure found (cooperative Gnomes) or the bot's seat named winner.
    succeeded: bool = False


def seat_token(page: Page) -> str:
    """The seat token from the match page's ws-connect attribute (/ws/play/<seat token>/)."""
    paths = page.attributes.get("ws-connect") or []
    if not paths:
        raise BotError(f"no ws-connect attribute on {page.path}; is it a live match page?")
    parts = [p for p in paths[0].split("/") if p]
    if len(parts) < 3 or parts[:2] != ["ws", "play"]:
        raise BotError(f"unexpected websocket path {paths[0]!r} on {page.path}")
    return parts[2]


def chat_enabled(page: Page) -> bool:
    """A person can chat only when the page has the chat form (its hidden kind=chat field); mute conditions don't."""
    return any(f.name == "kind" and f.value == "chat" for form in page.forms for f in form.fields)


def legal_actions(payload: dict) -> list[Action]:
    legal = []
    for entry in payload.get("legal_actions") or ():
        if isinstance(entry, dict):
            legal.append(Action(str(entry["id"]), str(entry.get("label", entry["id"]))))
        else:
            legal.append(Action(str(entry), str(entry)))
    return legal


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


def text_actions(payload: dict) -> list[dict]:
    """The open-ended actions of observation.json ({id, label, hint, max_length}): a dialogue game's moves."""
    return [t for t in payload.get("text_actions") or () if isinstance(t, dict) and t.get("id")]


def can_act(payload: dict) -> bool:
    return bool(payload.get("legal_actions") or text_actions(payload))


# What a bot writes with an open-ended action (a dialogue game's message), as a person would type something short.
BOT_LINES = ("Hello! Shall we find a deal?", "That sounds fair to me.", "Let me think about it.",
             "I would like something in return.")


@dataclass(frozen=True)
class Decision:
    action_id: str
    message: str | None = None
    text: str | None = None  # the text of an open-ended action


Policy = Callable[[dict, int], Decision]


def random_policy() -> Policy:
    """A seeded random legal action of any game (the same seed in the same spot makes the same choice); where the
    game's moves are open-ended (text actions), one of those with a short line."""

    def decide(payload: dict, seed: int) -> Decision:
        rng = random.Random(seed)
        legal = legal_actions(payload)
        if legal:
            return Decision(rng.choice(legal).id)
        chosen = rng.choice(text_actions(payload))
        return Decision(str(chosen["id"]), text=rng.choice(BOT_LINES)[: int(chosen.get("max_length") or 200)])

    return decide


def gnomes_partner_policy() -> Policy:
    """The simulated Gnomes at Night partner: moves and chat messages like a cooperative person."""
    from agents_app.agents.gnomes.partner import SimulatedPartner

    brain = SimulatedPartner()

    def decide(payload: dict, seed: int) -> Decision:
        decision = brain.decide(turn_view(payload, seed, "gnomes"))
        return Decision(decision.action_id, decision.message or None)

    return decide


POLICIES: dict[str, Callable[[], Policy]] = {"random": random_policy, "gnomes-partner": gnomes_partner_policy}


def decision_seed(bot_seed: int, round_number: int, version: int) -> int:
    """A stable per-decision seed, so a bot run with the same --seed makes the same choices in the same spots."""
    return derive_seed("bot", bot_seed, round_number, version)


class RoundPlayer:
    def __init__(
        self, client: BotClient, page: Page, *, bot_seed: int, deadline: float, policy: str = "random",
        round_number: int = 0,
    ):
        self.client = client
        self.token = seat_token(page)
        self.can_chat = chat_enabled(page)
        self.bot_seed = bot_seed
        self.deadline = deadline
        self.round_number = round_number
        # Like the page's htmx heartbeat: presence while the round runs (partner-gone detection reads it).
        self.heartbeat_url = next((u for u in page.attributes.get("hx-post") or () if u.endswith("/heartbeat/")), "")
        self.heartbeat_at = time.monotonic()
        try:
            self.brain = POLICIES[policy]()
        except KeyError:
            raise BotError(f"unknown bot policy {policy!r}; known: {', '.join(POLICIES)}") from None
        self.observation_path = f"/play/{self.token}/observation.json"

    def play(self) -> RoundPlay:
        started = time.monotonic()
        ws_url = "ws" + self.client.origin[len("http") :] + f"/ws/play/{self.token}/"
        try:
            # Origin must match ALLOWED_HOSTS (the server's origin validator); the cookies are sent as a browser would.
            with connect(
                ws_url,
                origin=self.client.origin,
                open_timeout=OPEN_TIMEOUT_S,
                additional_headers={"Cookie": self.client.cookie_header()},
            ) as ws:
                payload, moves, messages, reads = self._loop(ws)
        except ConnectionClosed as err:
            raise BotError(f"the match websocket closed during the round: {err}") from None
        except (OSError, TimeoutError) as err:
            raise BotError(f"match websocket {ws_url}: {err}") from None
        data = payload["observation"]
        seat = int(payload.get("seat", data.get("side", 0)))
        chat = data.get("chat") if isinstance(data.get("chat"), list) else []
        partner_lines = sum(1 for line in chat if isinstance(line, dict) and line.get("seat") != seat)
        game_status = data.get("status")
        return RoundPlay(
            round_number=self.round_number,
            seat=seat,
            status=str(game_status if isinstance(game_status, str) else payload.get("status")),
            turns=int(data.get("turn") or 0),
            my_moves=moves,
            my_messages=messages,
            partner_messages=partner_lines,
            seconds=time.monotonic() - started,
            reads=reads,
            succeeded=game_status == "found" or (data.get("winner") == seat and data.get("winner") is not None),
        )

    def _loop(self, ws: ClientConnection) -> tuple[dict, int, int, int]:
        acted_at: int | None = None  # the version we last acted on: never act twice on one position
        last_action = ""
        moves = messages = reads = 0
        quiet = False
        while True:
            payload = self.client.get_json(self.observation_path)
            reads += 1
            if self.heartbeat_url and time.monotonic() - self.heartbeat_at >= HEARTBEAT_S:
                self.client.post(self.heartbeat_url, [], {"HX-Request": "true"})
                self.heartbeat_at = time.monotonic()
            if payload.get("status") != "active":  # the match is over (finished or aborted)
                return payload, moves, messages, reads
            version = int(payload["version"])
            if can_act(payload) and version != acted_at:
                decision = self.brain(payload, decision_seed(self.bot_seed, self.round_number, version))
                # The message first, like a person who types and then moves: the partner (an agent moving
                # right after our move) then reads it with the move.
                if decision.message and self.can_chat:
                    ws.send(json.dumps({"kind": "chat", "text": decision.message}))
                    messages += 1
                frame = {"kind": "action", "action_id": decision.action_id, "version": version}
                if decision.text is not None:
                    frame["text"] = decision.text
                last_action = json.dumps(frame)
                ws.send(last_action)
                acted_at = version
                moves += 1
            elif can_act(payload) and quiet:
                # Still our turn at the version we acted on, after a quiet spell: the move did not land (a
                # rejected frame answers with the unchanged view). Sending it again is safe: the server applies
                # an action only at the version it names.
                ws.send(last_action)
            quiet = self._wait_for_news(ws, version)

    def _wait_for_news(self, ws: ClientConnection, seen_version: int) -> bool:
        """Block until the server pushes a view newer than ``seen_version``; True when nothing came for
        IDLE_POLL_S (the caller reads anyway: a lost push must not stall the bot).

        A pushed view carries its match version (data-version). One not newer than the observation already
        read was rendered for a position the bot has seen: each change is rendered separately, often after
        the bot has read past it (our move and the agent's reply land before the first push). Skipping those
        halves the bot's requests. Pushes without a version (errors) count as news.
        """
        quiet_at = time.monotonic() + IDLE_POLL_S
        while True:
            now = time.monotonic()
            if now >= self.deadline:
                raise BotError("timed out during the round")
            try:
                frame = ws.recv(timeout=min(quiet_at, self.deadline) - now)
            except TimeoutError:
                if time.monotonic() >= quiet_at:
                    return True
                continue
            pushed = pushed_version(frame)
            if pushed is None or pushed > seen_version:
                return False


def pushed_version(frame: str | bytes) -> int | None:
    """The newest match version a pushed HTML fragment was rendered at, if it says."""
    text = frame.decode(errors="replace") if isinstance(frame, bytes) else frame
    versions = [int(v) for v in _DATA_VERSION.findall(text)]
    return max(versions) if versions else None


def play_round(
    client: BotClient, page: Page, *, bot_seed: int, deadline: float, policy: str = "random", round_number: int = 0
) -> RoundPlay:
    return RoundPlayer(
        client, page, bot_seed=bot_seed, deadline=deadline, policy=policy, round_number=round_number
    ).play()
