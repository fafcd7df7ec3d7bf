"""Play one round of any game over the match websocket, with a move policy as the bot's brain.

The bot behaves like the browser page: it reads its seat's observation (GET /play/<token>/observation.json),
decides with its policy, and sends the same frames the page sends: {"kind": "chat"} for a message (only when
the page has a chat box), then {"kind": "action"} with the version it saw (in a live match, a realtime game on the
clock, {"kind": "live"}: the input the clock applies at its next decision point). The server pushes HTML fragments
after every change; the bot only uses them as a signal to read its observation again (the fragments are for
people, the JSON is the contract).

Policies (``--bot-agent`` of run_study_bots, in policies.py): "random" plays a seeded random legal move of any
game, free text included (the engine's example); "gnomes-partner" is the simulated Gnomes at Night partner (a pure
agent that plays a side like a cooperative person and talks). The policy is chosen by the command, never by the
study's game id.

A refused move is answered on the socket with the unchanged board and the reason in the page's #flash message. The
bot reads that reason, never sends the refused frame again and chooses another move, at most
MAX_REFUSALS_PER_POSITION times at one position before it gives up with the reasons (a BotError). Only a frame that
got no answer at all is sent again, after a quiet spell (the server applies an action only at the version it names,
so a duplicate can do no harm).
"""

from __future__ import annotations

import html
import json
import re
import time
from dataclasses import dataclass, field

from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.sync.client import ClientConnection, connect

from gameplay.engines.seeding import derive_seed

from .client import BotClient, BotError, Page
from .policies import (  # noqa: F401  (re-exported: the bots' callers and tests know them from here)
    BOT_LINES,
    POLICIES,
    Decision,
    Policy,
    Refusal,
    can_act,
    gnomes_partner_policy,
    legal_actions,
    random_policy,
    text_actions,
    turn_view,
)

# Without a pushed frame for this long the bot reads its observation anyway (a lost push must not stall it).
IDLE_POLL_S = 1.0
_DATA_VERSION = re.compile(r'data-version="(\d+)"')
# The page's #flash message when it reports an error (gameplay/partials/flash.html): a refused move's reason.
_FLASH_ERROR = re.compile(r'<[^>]*\bid="flash"[^>]*\bclass="[^"]*\berror\b[^"]*"[^>]*>(.*?)</', re.S)
_TAG = re.compile(r"<[^>]+>")
# Moves the bot may have refused at one position, each a different one, before it stops with the reasons: a bot
# that keeps being refused has found a bug (an engine's example it refuses, a page offering what it refuses).
MAX_REFUSALS_PER_POSITION = 3
# A frame with no answer for this long (and nothing heard in the last IDLE_POLL_S) is sent again. The server answers
# every frame it reads; only one it dropped unread (over a seat's frames-per-second limit) goes unanswered. Long, so
# that a busy server's slow answer is not taken for none: a copy would be refused, and that refusal could arrive while
# the bot's next move is in flight.
RESEND_AFTER_S = 10.0
OPEN_TIMEOUT_S = 10.0
CONNECT_ATTEMPTS = 3
RECONNECT_PAUSE_S = 1.0
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
    refusals: int = 0  # moves the server refused (each followed by a different move, never the same frame again)
    refusal_reasons: tuple[str, ...] = ()  # the server's reasons, in order
    # Of those, moves refused while the match was still where the bot chose them (not overtaken by another seat's
    # move): a legal move or an engine's example refused. Zero in a sound game.
    refused_in_place: int = 0
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
            with self._connect(ws_url) as ws:
                payload, tally = self._loop(ws)
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
            my_moves=tally.moves,
            my_messages=tally.messages,
            partner_messages=partner_lines,
            seconds=time.monotonic() - started,
            reads=tally.reads,
            refusals=tally.refusals,
            refusal_reasons=tuple(tally.reasons),
            refused_in_place=tally.refused_in_place,
            succeeded=game_status == "found" or (data.get("winner") == seat and data.get("winner") is not None),
        )

    def _connect(self, ws_url: str) -> ClientConnection:
        """The match socket, opened like the page's: a handshake the server did not complete (a busy server closes
        one it cannot accept in time) is tried again after a pause, as the page's socket reconnects."""
        for attempt in range(1, CONNECT_ATTEMPTS + 1):
            try:
                # Origin must match ALLOWED_HOSTS (the server's origin validator); the cookies go as a browser's would.
                return connect(
                    ws_url,
                    origin=self.client.origin,
                    open_timeout=OPEN_TIMEOUT_S,
                    additional_headers={"Cookie": self.client.cookie_header()},
                )
            except (InvalidHandshake, OSError, TimeoutError) as err:
                if attempt == CONNECT_ATTEMPTS or time.monotonic() + RECONNECT_PAUSE_S >= self.deadline:
                    raise BotError(f"match websocket {ws_url}: {type(err).__name__}: {err} "
                                   f"(after {attempt} attempts)") from None
                time.sleep(RECONNECT_PAUSE_S)
        raise AssertionError("unreachable")

    def _loop(self, ws: ClientConnection) -> tuple[dict, Tally]:
        """Read, decide, send; until the match is over. One action frame is in flight at a time, so the server's
        answers (which come in the order of the frames) are never mistaken for one another."""
        tally = Tally()
        position: int | None = None  # the version the bot is deciding at
        refused: list[Refusal] = []  # moves refused at ``position``
        flight: InFlight | None = None
        news = News()
        while True:
            payload = self.client.get_json(self.observation_path)
            tally.reads += 1
            if self.heartbeat_url and time.monotonic() - self.heartbeat_at >= HEARTBEAT_S:
                self.client.post(self.heartbeat_url, [], {"HX-Request": "true"})
                self.heartbeat_at = time.monotonic()
            if payload.get("status") != "active":  # the match is over (finished or aborted)
                return payload, tally
            version = int(payload["version"])
            if payload.get("live"):
                self._hold(ws, payload, version, tally)
                news = self._wait_for_news(ws, version, expecting_answer=False)
                continue
            if version != position:
                position, refused = version, []
            if flight is not None and news.refusal is not None:
                # The answer to the frame in flight: refused, with the reason. Counted against this position only
                # when it was chosen here (a frame overtaken by other seats' moves was refused as out of date).
                tally.refusals += 1
                tally.reasons.append(news.refusal)
                if flight.version == position:
                    tally.refused_in_place += 1
                    refused.append(Refusal(flight.decision, news.refusal))
                    if len(refused) >= MAX_REFUSALS_PER_POSITION:
                        reasons = "; ".join(dict.fromkeys(r.reason for r in refused))
                        raise BotError(f"the server refused {len(refused)} moves in a row at version {position}: "
                                       f"{reasons}")
                flight = None
            elif flight is not None and int(payload.get("own_moves", 0)) > flight.own_moves:
                flight = None  # it landed
            if flight is None and can_act(payload):
                seed = decision_seed(self.bot_seed, self.round_number, version) + len(refused)
                decision = self.brain(payload, seed, tuple(refused))  # never a refused move again
                flight = self._send(ws, decision, version, int(payload.get("own_moves", 0)), tally)
            elif flight is not None and news.quiet and time.monotonic() - flight.sent_at >= RESEND_AFTER_S:
                # No answer at all (a frame the server dropped unread, e.g. over its frames-per-second limit): send
                # it again. Harmless if it was only slow: the server applies an action only at the version it
                # names, and refuses the copy.
                ws.send(flight.frame)
                flight.sent_at = time.monotonic()
            news = self._wait_for_news(ws, version, expecting_answer=flight is not None)

    def _hold(self, ws: ClientConnection, payload: dict, version: int, tally: Tally) -> None:
        """A live match (a realtime game on the clock): like the page, hold an input, which the clock applies at its
        next decision point (the seat's idle action without one). A new choice at each position the bot reads; the
        clock answers with its frames, never with a refusal."""
        if not can_act(payload) or version == tally.held_at:
            return
        decision = self.brain(payload, decision_seed(self.bot_seed, self.round_number, version))
        ws.send(json.dumps({"kind": "live", "action_id": decision.action_id, "seq": tally.moves}))
        tally.held_at = version
        tally.moves += 1

    def _send(self, ws: ClientConnection, decision: Decision, version: int, own_moves: int, tally: Tally) -> InFlight:
        # The message first, like a person who types and then moves: the partner (an agent moving right after our
        # move) then reads it with the move.
        if decision.message and self.can_chat:
            ws.send(json.dumps({"kind": "chat", "text": decision.message}))
            tally.messages += 1
        frame = {"kind": "action", "action_id": decision.action_id, "version": version}
        if decision.text is not None:
            frame["text"] = decision.text
        flight = InFlight(decision, json.dumps(frame), version, own_moves, time.monotonic())
        ws.send(flight.frame)
        tally.moves += 1
        return flight

    def _wait_for_news(self, ws: ClientConnection, seen_version: int, *, expecting_answer: bool) -> News:
        """Block until the server pushes a view newer than ``seen_version`` or, with a move in flight, refuses it;
        quiet news when nothing came for IDLE_POLL_S (the caller reads anyway: a lost push must not stall the bot).

        A pushed view carries its match version (data-version). One not newer than the observation already
        read was rendered for a position the bot has seen: each change is rendered separately, often after
        the bot has read past it (our move and the agent's reply land before the first push). Skipping those
        halves the bot's requests. Pushes without a version (chat lines, messages) count as news. A refusal is
        the board drawn again with an error in #flash (a flash alone answers a chat line or a flood).
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
                    return News(quiet=True)
                continue
            pushed = pushed_version(frame)
            reason = refusal_reason(frame) if pushed is not None else None
            if expecting_answer and reason:
                return News(refusal=reason)
            if pushed is None or pushed > seen_version:
                return News()


@dataclass
class Tally:
    moves: int = 0
    messages: int = 0
    reads: int = 0
    refusals: int = 0
    refused_in_place: int = 0
    reasons: list[str] = field(default_factory=list)
    held_at: int | None = None  # a live match: the version the bot last chose an input at


@dataclass
class InFlight:
    """The bot's action frame the server has not answered yet."""

    decision: Decision
    frame: str
    version: int  # the position it was chosen at
    own_moves: int  # the seat's actions before it: one more means it landed
    sent_at: float


@dataclass(frozen=True)
class News:
    """What the socket brought while the bot waited: a newer view, the refusal of its move (the server's reason)
    or nothing for IDLE_POLL_S (quiet)."""

    quiet: bool = False
    refusal: str | None = None


def refusal_reason(frame: str | bytes) -> str | None:
    """The error a pushed fragment shows in the page's #flash, as plain text, if it shows one."""
    text = frame.decode(errors="replace") if isinstance(frame, bytes) else frame
    found = _FLASH_ERROR.findall(text)
    if not found:
        return None
    return " ".join(html.unescape(_TAG.sub(" ", found[-1])).split()) or None


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
