"""The pure agent interface: an agent sees one seat's view (built from its SeatView) and legal actions, nothing else."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from gameplay.engines.api import Action, Observation, Rules, TextAction


@dataclass(frozen=True)
class ModelCall:
    """One request an agent made to a language model, for the match's transcript.

    ``request_messages`` are the messages as sent, except that images are replaced by a short
    description (kind, size, digest); API keys never appear here.
    """

    purpose: str  # "move", "explain", "correction", "reason", "rap-action", "rap-state", "rap-reward", ...
    request_messages: list
    raw_reply: str = ""
    parsed_action: str = ""
    error: str = ""
    latency_ms: int | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    # What a search made of the reply, for the transcript (RAP: the probabilities read, the values it computed).
    details: dict | None = None


@dataclass(frozen=True)
class Decision:
    """What an agent chose: an action id (with text for a text action) and an optional chat message.

    ``calls`` is the transcript of model calls behind the decision (empty for agents without a model).
    ``fallback_reason`` is set when the agent itself gave up (e.g. the model kept replying invalid moves)
    and chose a random legal action instead; the platform records the decision as a fallback.
    """

    action_id: str
    text: str | None = None
    message: str | None = None
    calls: tuple[ModelCall, ...] = ()
    fallback_reason: str | None = None
    # Something the agent wants on record with this move (e.g. which of its parsers it trusted); kept in the move's
    # event as "agent_note" and in a study's rounds.csv (agent_notes).
    note: str | None = None


@dataclass(frozen=True)
class ChatLine:
    """One line of a match's chat as an agent reads it: who said it (seat and the game's name for it) and what."""

    seat: int
    speaker: str
    text: str


@dataclass(frozen=True)
class ChatAnswer:
    """What an agent says between its own moves: a message, or None to stay quiet (``problem`` says why, when it
    meant to speak but could not), with the model calls behind it."""

    message: str | None
    calls: tuple[ModelCall, ...] = ()
    problem: str | None = None


@dataclass(frozen=True)
class TurnView:
    """Everything an agent may use for one decision."""

    game_id: str
    seat: int
    observation: Observation
    legal_actions: tuple[Action, ...]
    text_actions: tuple[TextAction, ...] = ()
    rules: Rules | None = None
    # Seed for any randomness the agent uses, derived by the caller from match seed, version and seat,
    # so that a match replays identically.
    seed: int = 0
    extra: dict = field(default_factory=dict)
    # A PNG of the observation (Game.observation_image), filled in only for agents that set
    # ``accepts_images = True`` and only for games that draw one; None otherwise.
    image: bytes | None = None
    # The match's chat is open to this seat (the game declares chat and its options leave it on): an agent
    # may send one message with its move (``Decision.message``).
    chat: bool = False
    # The chat is the seat's team's alone (``spec.team_chat``): the other team never reads it.
    team_chat: bool = False
    # Every seat is on one team (``Game.teams``): the players win or lose together, nobody plays against them.
    cooperative: bool = False
    # The match's recent chat, oldest first, for games that keep chat outside their state (``chat_in_state`` off);
    # where the state keeps it, the observation already holds it and this stays empty.
    chat_log: tuple[ChatLine, ...] = ()
    # Who acts after each legal action (action id -> "you", the seats' names, or "nobody: the game ends"), for agents
    # that set ``wants_next_actors`` (a planner predicting the next position needs to know whose move it is: in
    # Santorini a move is followed by the same player's build). Only where that is public knowledge (no hidden
    # information, chance or simultaneous choice: gameplay.engines.seat_view.public_next_actors); empty elsewhere,
    # since in Codenames or Who is Spy the answer would give a secret away.
    next_actors: dict = field(default_factory=dict)
    # The rule topics the legal actions depend on (State.rule_topics, in first-seen order): what to ask about.
    move_topics: tuple[str, ...] = ()
    # The match's latest moves as this seat reads them ("Gnome A: moved right"), oldest first, at most
    # HISTORY_LIMIT; an agent shows as many as it is configured to (LLM: ``history_moves``).
    history: tuple[str, ...] = ()
    # For agents that set ``wants_search_root`` in games that can sample a seat's information set
    # (``GameSpec.samples_information_sets``): a whole state drawn from this seat's information set by the engine
    # (``sample_information_state``), never the match's own state. By the engine's conformance it depends only on what
    # the seat has seen, and a sample of it is a sample of the seat's information set: a search plays on such samples.
    search_root: Any = None


class Agent(ABC):
    """Base class. Subclasses set ``name`` and implement ``decide``."""

    name: str = ""
    # What people read for this agent in forms and tables ("Search, level 3"); empty: its name. The name stays the
    # value everywhere it is stored or typed (seats, protocol files, commands).
    label: str = ""
    description: str = ""
    # The games this agent knows how to play; None: any game (it plays from the observation and the legal
    # actions alone, as the random agent and language-model agents do). The new-match form offers an agent only
    # for its games, and a match cannot be created with an agent on another game (gameplay.reads.agent_directory).
    games: frozenset[str] | None = None
    # Vision-capable agents set this to receive TurnView.image (drawing it costs time, so it is opt-in).
    accepts_images: bool = False
    # Agents that set this receive TurnView.next_actors (one trial move per legal action: opt-in as well).
    wants_next_actors: bool = False
    # Agents that set this receive TurnView.chat_log and TurnView.history (read from the match log) and
    # TurnView.move_topics (asked of the engine per legal action): opt-in too.
    reads_match_context: bool = False
    # Agents that set this receive TurnView.search_root (a sampled state to search from): opt-in, as sampling costs.
    wants_search_root: bool = False
    # How many chat lines the agent may send between two of its own moves, the one sent with a move included;
    # 0: it speaks only with its moves. The platform asks ``answer`` when a partner wrote to it since.
    chat_replies_per_turn: int = 0
    # The engine's check of a free text (action id, text) -> None when accepted, else the reason; the platform sets
    # it on every agent it builds for a decision, so an agent can replace a text the engine would refuse.
    text_validator: Callable[[str, str], str | None] | None = None

    @classmethod
    def plays(cls, game_id: str) -> bool:
        """Whether this agent knows how to play ``game_id``: from ``games`` by default; an agent that plays whatever
        games declare a capability it needs answers from their specs."""
        return cls.games is None or game_id in cls.games

    @abstractmethod
    def decide(self, view: TurnView) -> Decision:
        """Choose one of ``view.legal_actions`` (or a text action with its text)."""

    def answer(self, view: TurnView, lines: tuple[ChatLine, ...]) -> ChatAnswer:
        """Answer chat ``lines`` addressed to this seat while another seat is to move (``view.legal_actions`` is
        then empty). Only called for agents with ``chat_replies_per_turn`` above 0; the default stays quiet."""
        return ChatAnswer(None)
