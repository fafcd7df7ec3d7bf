"""How an LLM agent reaches its model and plays: one frozen settings object per configured agent.

The settings hold the NAME of the environment variable with the API key, never the key itself, so they can be
printed, logged and stored freely. The base URL is still redacted in the repr because a URL can embed credentials.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from urllib.parse import urlsplit, urlunsplit

SCAFFOLDS = ("base", "cot", "rap")
# How a move is asked for (agents_app.agents.llm.reply_formats): "auto" picks the most constrained format the
# probed endpoint supports; the others force one.
REPLY_FORMATS = ("auto", "schema", "json", "text")
DEFAULT_DECISION_DEADLINE_S = 30.0

# Which environment variables may hold an agent's key. The key is sent as a Bearer token to an admin-chosen URL,
# so naming any variable would let whoever edits a configuration read it. The platform builds its policy from
# settings LLM_KEY_ENV_PATTERN and LLM_KEY_ENV_DENYLIST (agents_app.key_policy.key_env_policy) and hands it to the
# agent's settings; this package never reads Django's settings itself. By default only names shaped like a key
# are allowed (OPENAI_API_KEY, HF_TOKEN, MY_KEY_2): HOME, PATH or a deployment's other variables are refused even
# when they are not on the deny-list below. Production may narrow it (CONFIGURATION.md: ``^[A-Z][A-Z0-9_]*_API_KEY$``).
DEFAULT_KEY_ENV_PATTERN = r"^[A-Z][A-Z0-9_]*_(KEY|TOKEN)(_[0-9]+)?$"
# The project's own secrets and service URLs, never a key whatever the pattern says.
PROJECT_SECRET_ENV = frozenset(
    {
        "SECRET_KEY",
        "DATABASE_URL",
        "REDIS_URL",
        "CELERY_BROKER_URL",
        "INTEGRATION_DATABASE_URL",
        "INTEGRATION_REDIS_URL",
    }
)
# Name shapes that hold credentials of the platform's own services: Django's, URLs/DSNs (which embed passwords),
# passwords and secrets, PostgreSQL's libpq variables.
_SECRET_SHAPES = re.compile(r"^DJANGO_|^PG|_URL$|_DSN$|PASSWORD|SECRET|PASSWD", re.IGNORECASE)


@dataclass(frozen=True)
class KeyEnvPolicy:
    """Which environment variables may hold an agent's API key: a name pattern plus names always refused."""

    pattern: str = DEFAULT_KEY_ENV_PATTERN
    denied: frozenset[str] = frozenset()

    def problem(self, name: str) -> str:
        """Why ``name`` may not hold an agent's API key, or "" when it may (an empty name means no key)."""
        if not name:
            return ""
        upper = name.upper()
        if upper in PROJECT_SECRET_ENV or upper in self.denied or _SECRET_SHAPES.search(name):
            return f"{name} holds one of the platform's own secrets; name a variable that holds only this model's key."
        if not re.fullmatch(self.pattern, name):
            return f"{name} does not match the allowed key variable names (LLM_KEY_ENV_PATTERN {self.pattern!r})."
        return ""

    @classmethod
    def from_values(cls, pattern: str | None, denied: object = ()) -> KeyEnvPolicy:
        """A policy from configuration values (an empty pattern keeps the default); names compared upper-case."""
        names = frozenset(str(n).strip().upper() for n in (denied or ()) if str(n).strip())
        return cls(pattern=pattern or DEFAULT_KEY_ENV_PATTERN, denied=names)


@dataclass(frozen=True)
class LLMAgentSettings:
    """One LLM player: endpoint, model, sampling, robustness limits and scaffold."""

    name: str
    base_url: str
    model: str
    api_key_env: str = "OPENAI_API_KEY"  # the NAME of the variable holding the key; "" means no key
    temperature: float = 0.0
    max_tokens: int = 512
    timeout_s: float = 30.0
    retries: int = 3  # invalid replies corrected per move before falling back
    http_retries: int = 3  # retries after 429, 5xx, timeouts and connection errors
    explain_limit: int = 3  # rule explanations per move; they do not use up ``retries``
    scaffold: str = "base"  # "base", "cot" or "rap"
    rap_depth: int = 2
    rap_iterations: int = 10
    vision: bool = False
    json_mode: bool = True
    # Chat lines between two of its own moves (the one sent with a move included) when a partner writes to it;
    # 0: it talks only with its moves.
    chat_replies: int = 1
    # How many of the match's latest moves the prompt lists (0: none; the observation alone).
    history_moves: int = 8
    # Beyond this many actions in a game whose actions have parts (GameSpec.composed_actions), a move is chosen part by
    # part (agents_app.agents.llm.composing), so no prompt lists more; 0: always list every action.
    max_listed_actions: int = 40
    reply_format: str = "auto"  # see REPLY_FORMATS
    # The hard limit on one decision's wall time: every attempt, correction, explanation and RAP simulation of it.
    # When it passes the move falls back at once (flagged). Without it, retries x corrections x timeouts kept a
    # person waiting 105-124 s on one slow endpoint (issue 21).
    decision_deadline_s: float = DEFAULT_DECISION_DEADLINE_S
    # The model's context length in tokens; 0: as the probe found it (``capabilities``), else unknown (not fitted).
    context_tokens: int = 0
    # What the endpoint supports, as the probe last found it (agents_app.agents.llm.probe.ProbeReport.capabilities):
    # json_schema, schema_style, json_mode, logprobs, images, context_tokens, tokenizer. Empty: never probed.
    capabilities: Mapping = field(default_factory=dict)
    # Checked when the client is made and again before every request; the platform injects its own.
    key_env_policy: KeyEnvPolicy = KeyEnvPolicy()

    def __post_init__(self) -> None:
        if self.scaffold not in SCAFFOLDS:
            raise ValueError(f"unknown scaffold {self.scaffold!r}; known: {', '.join(SCAFFOLDS)}")
        if self.timeout_s <= 0:
            raise ValueError("timeout_s must be positive")
        for name in ("retries", "http_retries", "explain_limit", "chat_replies", "history_moves", "max_listed_actions"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must not be negative")
        if self.rap_depth < 1 or self.rap_iterations < 1:
            raise ValueError("rap_depth and rap_iterations must be at least 1")
        if self.reply_format not in REPLY_FORMATS:
            raise ValueError(f"unknown reply format {self.reply_format!r}; known: {', '.join(REPLY_FORMATS)}")
        if self.decision_deadline_s <= 0:
            raise ValueError("decision_deadline_s must be positive")
        if self.context_tokens < 0:
            raise ValueError("context_tokens must not be negative")

    @classmethod
    def from_config(cls, config: object, key_env_policy: KeyEnvPolicy | None = None) -> LLMAgentSettings:
        """Settings from any object with same-named attributes (e.g. the AgentConfig model); missing ones default."""
        values = {}
        for spec in fields(cls):
            if spec.name != "key_env_policy" and hasattr(config, spec.name):
                values[spec.name] = getattr(config, spec.name)
        values["api_key_env"] = (values.get("api_key_env") or "").strip()
        values["capabilities"] = dict(values.get("capabilities") or {})
        if key_env_policy is not None:
            values["key_env_policy"] = key_env_policy
        return cls(**values)

    def key_env_problem(self) -> str:
        """Why this agent's key variable may not be used, or "" (see KeyEnvPolicy)."""
        return self.key_env_policy.problem(self.api_key_env)

    @property
    def display_url(self) -> str:
        return redact_url(self.base_url)

    def decision_budget_s(self) -> float:
        """The hard wall-time bound of one decision (``decision_deadline_s``)."""
        return self.decision_deadline_s

    def context_length(self) -> int:
        """The model's context in tokens: as configured, else as probed; 0 when unknown."""
        return self.context_tokens or int(self.capabilities.get("context_tokens") or 0)

    def __repr__(self) -> str:
        shown = {spec.name: getattr(self, spec.name) for spec in fields(self)}
        shown["base_url"] = self.display_url
        return "LLMAgentSettings(" + ", ".join(f"{name}={value!r}" for name, value in shown.items()) + ")"


def redact_url(url: str) -> str:
    """The URL without user:password and query string, which may carry credentials."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if parts.port:
        host = f"{host}:{parts.port}"
    if parts.username or parts.password:
        host = f"***@{host}"
    return urlunsplit((parts.scheme, host, parts.path, "***" if parts.query else "", ""))
