"""A benchmark protocol file: what to run, read and checked before anything runs.

A protocol is a versioned JSON file (``fixtures/protocols/gamebench.json`` is GameBench's). It names the agents
(built-in ones by name, language-model configurations with their settings), the games with their options, seat
counts and seating, the matches per pairing, the seeds, the rating method and where the report goes, and the
price of each model's tokens. ``load`` reads it and returns a ``Protocol`` or raises ``ProtocolError`` with every
problem found, each naming the field it is about, so a researcher fixes the file once rather than once per run.

Strings may name environment variables as ``${NAME}`` or ``${NAME:-default}`` (an endpoint's URL differs from one
lab to the next; the file need not). Nothing here touches the database: ``services`` applies a loaded protocol.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FORMAT_VERSION = 1  # the file format this code reads ("format": 1); a later format is refused, never half-read
RATING_METHODS = ("connected", "paper")
TIE_RULES = ("skip", "half")
# The language-model settings a protocol may give, with their types; everything else about a configuration keeps
# its default. They are the stored configuration's fields (agents_app.models.AgentConfig), validated there too.
LLM_FIELDS: dict[str, type | tuple[type, ...]] = {
    "base_url": str,
    "model": str,
    "api_key_env": str,
    "description": str,
    "temperature": (int, float),
    "max_tokens": int,
    "timeout_s": (int, float),
    "retries": int,
    "http_retries": int,
    "explain_limit": int,
    "scaffold": str,
    "rap_depth": int,
    "rap_iterations": int,
    "vision": bool,
    "json_mode": bool,
    "chat_replies": int,
    "history_moves": int,
    "reply_format": str,
    "decision_deadline_s": (int, float),
    "context_tokens": int,
}
_ENV = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}")
_NAME = re.compile(r"^[-a-zA-Z0-9_]+$")


class ProtocolError(ValueError):
    """A protocol file that cannot be run; ``problems`` lists each problem, ``str(err)`` all of them."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("; ".join(problems))


@dataclass(frozen=True)
class AgentEntry:
    name: str
    llm: dict[str, Any] | None = None  # None: a built-in agent (agents_app.agents.registry)

    @property
    def model(self) -> str:
        """The model whose tokens this agent spends ("" for a built-in agent)."""
        return str(self.llm.get("model", "")) if self.llm else ""


@dataclass(frozen=True)
class GameEntry:
    game: str
    options: dict[str, Any] = field(default_factory=dict)
    seats: int | None = None  # None: the tournament's default (two where the game allows, else its minimum)
    seating: str = ""  # "" alternates the pair's agents seat by seat; "AABBB": the first agent on seats 0-1
    agents: tuple[str, ...] = ()  # () : every protocol agent that plays the game
    matches_per_pair: int | None = None  # None: the protocol's


@dataclass(frozen=True)
class RatingSpec:
    method: str = "connected"
    bootstrap: int = 1000
    seed: int = 0
    ties: str = "skip"


@dataclass(frozen=True)
class Price:
    """US dollars per million tokens."""

    prompt: float
    completion: float


@dataclass(frozen=True)
class Protocol:
    name: str
    version: str
    description: str
    agents: tuple[AgentEntry, ...]
    games: tuple[GameEntry, ...]
    matches_per_pair: int
    seeds: tuple[int, ...]
    rating: RatingSpec
    output_dir: str
    prices: dict[str, Price]
    stale_after_s: float
    sha256: str  # of the file's bytes, as read: the report's provenance
    source: str  # the path it was read from
    # Go on with an agent measured slower than its decision deadline on a game (check_agent --game); refused if not.
    allow_slow_agents: bool = False

    def agent(self, name: str) -> AgentEntry:
        return next(a for a in self.agents if a.name == name)


def load(path: str | Path) -> Protocol:
    """Read and check a protocol file; raises ProtocolError listing every problem."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as err:
        raise ProtocolError([f"cannot read {path}: {err.strerror or err}"]) from None
    try:
        data = json.loads(raw)
    except ValueError as err:
        raise ProtocolError([f"{path} is not valid JSON: {err}"]) from None
    return parse(data, sha256=hashlib.sha256(raw).hexdigest(), source=str(path))


def parse(data: Any, *, sha256: str = "", source: str = "") -> Protocol:
    """A Protocol from the file's decoded JSON (environment references expanded)."""
    problems: list[str] = []
    if not isinstance(data, dict):
        raise ProtocolError(["a protocol file holds one JSON object"])
    data = _expand(data, problems)
    fmt = data.get("format")
    if fmt != FORMAT_VERSION:
        problems.append(f"format: this platform reads format {FORMAT_VERSION}, the file says {fmt!r}")
    known = {"format", "name", "version", "description", "agents", "games", "matches_per_pair", "seeds", "rating",
             "output", "prices", "stale_after_s", "allow_slow_agents"}
    problems += [f"{key}: not a protocol field (known: {', '.join(sorted(known))})" for key in data if key not in known]
    name = _text(data, "name", problems, required=True)
    if name and not _NAME.match(name):
        problems.append("name: letters, digits, '-' and '_' only (it names the output folder)")
    agents = _agents(data.get("agents"), problems)
    matches = _positive_int(data.get("matches_per_pair", 2), "matches_per_pair", problems)
    games = _games(data.get("games"), {a.name for a in agents}, problems)
    seeds = _seeds(data.get("seeds", [0]), problems)
    rating = _rating(data.get("rating", {}), problems)
    prices = _prices(data.get("prices", {}), problems)
    output = data.get("output", {})
    if not isinstance(output, dict) or not isinstance(output.get("directory", ""), str):
        problems.append('output: an object such as {"directory": "protocol_runs/gamebench"}')
        output = {}
    stale = data.get("stale_after_s", 600)
    if not isinstance(stale, int | float) or isinstance(stale, bool) or stale <= 0:
        problems.append("stale_after_s: seconds (> 0) after which a match nobody moves is played again")
        stale = 600
    allow_slow = data.get("allow_slow_agents", False)
    if not isinstance(allow_slow, bool):
        problems.append("allow_slow_agents: true or false (true: play agents measured slower than their deadline)")
    if problems:
        raise ProtocolError(problems)
    return Protocol(
        name=name,
        version=str(data.get("version", "")),
        description=str(data.get("description", "")),
        agents=tuple(agents),
        games=tuple(games),
        matches_per_pair=matches,
        seeds=tuple(seeds),
        rating=rating,
        output_dir=output.get("directory") or f"protocol_runs/{name}",
        prices=prices,
        stale_after_s=float(stale),
        sha256=sha256,
        source=source,
        allow_slow_agents=allow_slow,
    )


# --- parts ---------------------------------------------------------------------


def _expand(value: Any, problems: list[str]) -> Any:
    """``${NAME}`` / ``${NAME:-default}`` in every string of the file, from the environment."""
    if isinstance(value, str):
        def replace(m: re.Match) -> str:
            found = os.environ.get(m.group(1))
            if found:
                return found
            if m.group(2) is None:
                problems.append(f"${{{m.group(1)}}}: the environment variable is not set and has no default")
                return ""
            return m.group(2)

        return _ENV.sub(replace, value)
    if isinstance(value, list):
        return [_expand(v, problems) for v in value]
    if isinstance(value, dict):
        return {k: _expand(v, problems) for k, v in value.items()}
    return value


def _agents(raw: Any, problems: list[str]) -> list[AgentEntry]:
    if not isinstance(raw, list) or len(raw) < 2:
        problems.append("agents: a list of at least two agents")
        return []
    agents: list[AgentEntry] = []
    for n, item in enumerate(raw):
        where = f"agents[{n}]"
        if isinstance(item, str):
            item = {"name": item}
        if not isinstance(item, dict) or not isinstance(item.get("name"), str) or not _NAME.match(item["name"]):
            problems.append(f"{where}: a name (letters, digits, '-', '_') or an object with one")
            continue
        unknown = set(item) - {"name", "llm"}
        if unknown:
            problems.append(f"{where}: unknown fields {', '.join(sorted(unknown))} (an agent has a name and, for a "
                            "language model, an llm object)")
        llm = item.get("llm")
        if llm is not None:
            llm = _llm(llm, f"{where}.llm", problems)
        if any(a.name == item["name"] for a in agents):
            problems.append(f"{where}: the agent {item['name']!r} is named twice")
            continue
        agents.append(AgentEntry(item["name"], llm))
    return agents


def _llm(raw: Any, where: str, problems: list[str]) -> dict[str, Any] | None:
    if not isinstance(raw, dict):
        problems.append(f"{where}: an object of model settings")
        return None
    for key in ("base_url", "model"):
        if not isinstance(raw.get(key), str) or not raw.get(key):
            problems.append(f"{where}.{key}: required")
    for key, value in raw.items():
        expected = LLM_FIELDS.get(key)
        if expected is None:
            problems.append(f"{where}.{key}: not a model setting (known: {', '.join(LLM_FIELDS)})")
        elif not isinstance(value, expected) or (isinstance(value, bool) and expected is not bool):
            problems.append(f"{where}.{key}: wrong type ({type(value).__name__})")
    return dict(raw)


def _games(raw: Any, agent_names: set[str], problems: list[str]) -> list[GameEntry]:
    if not isinstance(raw, list) or not raw:
        problems.append("games: a list of at least one game")
        return []
    games = []
    for n, item in enumerate(raw):
        where = f"games[{n}]"
        if isinstance(item, str):
            item = {"game": item}
        if not isinstance(item, dict) or not isinstance(item.get("game"), str):
            problems.append(f"{where}: a game id or an object with one")
            continue
        unknown = set(item) - {"game", "options", "seats", "seating", "agents", "matches_per_pair"}
        if unknown:
            problems.append(f"{where}: unknown fields {', '.join(sorted(unknown))}")
        options = item.get("options", {})
        if not isinstance(options, dict):
            problems.append(f"{where}.options: a JSON object")
            options = {}
        seats = item.get("seats")
        if seats is not None and (not isinstance(seats, int) or isinstance(seats, bool)):
            problems.append(f"{where}.seats: a whole number")
            seats = None
        seating = item.get("seating", "")
        if not isinstance(seating, str) or (seating and not re.fullmatch(r"[AB]+", seating)):
            problems.append(f"{where}.seating: letters A and B, one per seat (e.g. \"AABBB\")")
            seating = ""
        if seating and seats is not None and len(seating) != seats:
            problems.append(f"{where}.seating: {len(seating)} letters for {seats} seats")
        agents = item.get("agents", [])
        if not isinstance(agents, list) or not all(isinstance(a, str) for a in agents):
            problems.append(f"{where}.agents: a list of agent names")
            agents = []
        for name in agents:
            if name not in agent_names:
                problems.append(f"{where}.agents: {name!r} is not one of the protocol's agents")
        per_pair = item.get("matches_per_pair")
        if per_pair is not None:
            per_pair = _positive_int(per_pair, f"{where}.matches_per_pair", problems)
        games.append(GameEntry(item["game"], options, seats or (len(seating) if seating else None), seating,
                               tuple(agents), per_pair))
    return games


def _seeds(raw: Any, problems: list[str]) -> list[int]:
    if not isinstance(raw, list) or not raw or not all(isinstance(s, int) and not isinstance(s, bool) for s in raw):
        problems.append("seeds: a list of whole numbers (one tournament per game and seed)")
        return []
    if len(set(raw)) != len(raw):
        problems.append("seeds: each seed once (a seed names its matches: repeating it repeats them)")
    return list(raw)


def _rating(raw: Any, problems: list[str]) -> RatingSpec:
    if not isinstance(raw, dict):
        problems.append("rating: an object such as {\"method\": \"paper\", \"bootstrap\": 10000, \"seed\": 0}")
        return RatingSpec()
    spec = RatingSpec(
        method=raw.get("method", "connected"),
        bootstrap=raw.get("bootstrap", 1000),
        seed=raw.get("seed", 0),
        ties=raw.get("ties", "skip"),
    )
    if spec.method not in RATING_METHODS:
        problems.append(f"rating.method: one of {', '.join(RATING_METHODS)}, not {spec.method!r}")
    if spec.ties not in TIE_RULES:
        problems.append(f"rating.ties: one of {', '.join(TIE_RULES)}, not {spec.ties!r}")
    _positive_int(spec.bootstrap, "rating.bootstrap", problems)
    if not isinstance(spec.seed, int) or isinstance(spec.seed, bool):
        problems.append("rating.seed: a whole number")
    return spec


def _prices(raw: Any, problems: list[str]) -> dict[str, Price]:
    if not isinstance(raw, dict):
        problems.append('prices: {"<model>": {"prompt_per_million": 30, "completion_per_million": 60}, ...}')
        return {}
    prices = {}
    for model, item in raw.items():
        try:
            prompt, completion = float(item["prompt_per_million"]), float(item["completion_per_million"])
        except (TypeError, KeyError, ValueError):
            problems.append(f"prices.{model}: prompt_per_million and completion_per_million, in US dollars")
            continue
        if prompt < 0 or completion < 0:
            problems.append(f"prices.{model}: prices cannot be negative")
        prices[model] = Price(prompt, completion)
    return prices


def _text(data: dict, key: str, problems: list[str], required: bool = False) -> str:
    value = data.get(key, "")
    if not isinstance(value, str) or (required and not value):
        problems.append(f"{key}: {'required, ' if required else ''}a string")
        return ""
    return value


def _positive_int(value: Any, where: str, problems: list[str]) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        problems.append(f"{where}: a whole number of at least 1")
        return 1
    return value
