"""Running agents for match seats: build the seat's view, ask the agent, fall back if it fails.

Also the writes of this app: storing the model calls behind each decision, and the pre-flight check a
tournament runs before it starts LLM seats.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from agents_app import measurements, selectors
from agents_app.agents.base import ChatLine, Decision, ModelCall, TurnView
from agents_app.agents.random_agent import RandomAgent
from agents_app.context_selectors import MatchContext
from agents_app.models import AgentCall
from gameplay.engines.registry import create_game
from gameplay.engines.seat_view import RefusalChecker, SeatView
from gameplay.engines.seeding import derive_seed
from gameplay.models import Event
from gameplay.writes.services import ServiceError

logger = logging.getLogger(__name__)

RAP_WITHOUT_LOGPROBS = "RAP needs logprobs: this endpoint gives none — the agent will not start"


class AgentNotReady(ServiceError):
    """An agent that cannot play as configured (e.g. RAP against an endpoint without logprobs)."""


@dataclass(frozen=True)
class AgentTurn:
    decision: Decision
    fallback: bool
    reason: str = ""
    think_ms: int = 0
    # The model calls behind the decision, kept even when the platform had to fall back.
    calls: tuple[ModelCall, ...] = ()


def decision_seed(match_seed: int, version: int, seat: int) -> int:
    """A per-decision seed: the same match seed gives the same moves, run after run."""
    return derive_seed("decision", match_seed, version, seat)


def turn_view(
    view: SeatView,
    seed: int,
    *,
    with_image: bool = False,
    chat_log: tuple[ChatLine, ...] = (),
    history: tuple[str, ...] = (),
) -> TurnView:
    """An agent's view for one decision, made of the seat's SeatView (the only thing the platform shows an agent of a
    seat) and what the match log adds: ``chat_log`` the recent chat where the game keeps it outside its state
    (agents_app.context_selectors.recent_chat), ``history`` the latest moves as this seat read them. ``with_image``
    adds the game's picture of that same observation."""
    return TurnView(
        game_id=view.game_id,
        seat=view.seat,
        observation=view.observation,
        legal_actions=view.legal_actions,
        text_actions=view.text_actions,
        rules=view.rules,
        seed=seed,
        image=_image_of(view) if with_image else None,
        # A seat the game mutes in its team chat (State.may_chat) is not offered a message with its move.
        chat=view.chat_open,
        team_chat=view.spec.team_chat,
        cooperative=view.cooperative,
        chat_log=chat_log,
        next_actors=dict(view.next_actors),
        move_topics=view.move_topics,
        history=history,
        extra=_dialogue_extra(view),
    )


def _dialogue_extra(view: SeatView) -> dict:
    """For a dialogue game, how many messages this seat has sent (its moves: public, since every message is): a
    steered agent's policy is indexed by it (agents_app.agents.dialogue.agent.MESSAGE_INDEX_KEY); and the match's
    options (public too), which its policy must have been solved under (OPTIONS_KEY)."""
    if view.spec.dialogue is None:
        return {}
    return {"dialogue_message_index": view.own_moves, "dialogue_options": dict(view.options)}


def _image_of(view: SeatView) -> bytes | None:
    try:
        game = create_game(view.game_id, view.options, num_seats=view.num_seats)
        return game.observation_image(view.observation)
    except Exception:  # a picture is a nicety: never stall a match over it
        logger.exception("observation_image failed for %s", view.game_id)
        return None


def decide(
    agent_name: str,
    view: SeatView,
    seed: int,
    *,
    refusal: RefusalChecker,
    context: Callable[[], MatchContext] | None = None,
    search_root=None,
) -> AgentTurn:
    """Ask the named agent for the seat seen through ``view``; if it raises or proposes an illegal action, a random
    legal one is used (logged). ``refusal`` is the engine's answer to a proposed action or text (None: accepted, else
    why not): the one question about the match an agent may ask beyond its view.

    ``search_root`` is a sample of the seat's information set (``AgentSeat.search_root``), handed only to an agent
    that searches (``Agent.wants_search_root``).

    ``context`` reads the match's recent chat and moves; it is called only for an agent that reads them
    (``Agent.reads_match_context``), so the built-in agents' turns cost no extra query.

    An agent that gave up by itself (``Decision.fallback_reason``) already chose a random legal action;
    that counts as a fallback too, with the agent's reason.
    """
    started = time.monotonic()
    agent = decision = None
    try:
        agent = selectors.build_agent(agent_name, text_validator=refusal)
    except Exception as err:  # an unknown or broken agent must never stall a match
        problem = f"{type(err).__name__}: {err}"
    reads_context = agent is not None and agent.reads_match_context
    extra = context() if context is not None and reads_context else MatchContext()
    turn = turn_view(
        view,
        seed,
        with_image=bool(getattr(agent, "accepts_images", False)),
        chat_log=extra.chat_log,
        history=extra.history,
    )
    if not reads_context:
        turn = replace(turn, move_topics=())
    if search_root is not None and agent is not None and agent.wants_search_root:
        turn = replace(turn, search_root=search_root)
    if agent is not None:
        try:
            decision = agent.decide(turn)
            problem = _problem_with(decision, turn, refusal)
        except Exception as err:
            decision, problem = None, f"{type(err).__name__}: {err}"
    think_ms = int((time.monotonic() - started) * 1000)
    calls = tuple(decision.calls) if isinstance(decision, Decision) else ()
    if problem is None:
        if decision.fallback_reason:
            logger.warning("agent %s gave up for seat %s (%s)", agent_name, view.seat, decision.fallback_reason)
            return AgentTurn(decision, fallback=True, reason=decision.fallback_reason, think_ms=think_ms, calls=calls)
        return AgentTurn(decision, fallback=False, think_ms=think_ms, calls=calls)
    logger.warning("agent %s failed for seat %s (%s); falling back to a random action", agent_name, view.seat, problem)
    stand_in = RandomAgent()
    stand_in.text_validator = refusal
    fallback = stand_in.decide(replace(turn, seed=random.Random(seed).getrandbits(62)))
    return AgentTurn(fallback, fallback=True, reason=problem, think_ms=think_ms, calls=calls)


def _problem_with(decision: Decision, view: TurnView, refusal: RefusalChecker) -> str | None:
    if not isinstance(decision, Decision):
        return f"agent returned {type(decision).__name__}, not a Decision"
    if decision.action_id in {a.id for a in view.legal_actions}:
        return None
    if decision.action_id in {t.id for t in view.text_actions}:
        why = refusal(decision.action_id, decision.text)
        return None if why is None else f"text rejected: {why}"
    return f"illegal action {decision.action_id!r}"


# --- transcripts ----------------------------------------------------------------------------------------


def record_calls(
    *,
    match_id: int,
    event: Event | None,
    seat: int,
    agent_name: str,
    version: int,
    calls: Sequence[ModelCall],
    fallback: bool,
    not_applied: str = "",
    what: str = "action",
) -> list[AgentCall]:
    """Store the model calls of one decision, in the order they were made.

    ``event`` is the action event the decision produced; None when the action was rejected, in which case
    ``not_applied`` says why and is noted on every row.
    """
    note = f"{what} not applied: {not_applied}" if not_applied else ""
    rows = [
        AgentCall(
            match_id=match_id,
            event=event,
            seat=seat,
            agent_name=agent_name,
            version=version,
            seq=seq,
            purpose=(call.purpose or "")[:24],
            request_messages=list(call.request_messages or []),
            raw_reply=call.raw_reply or "",
            parsed_action=(call.parsed_action or "")[:200],
            error="; ".join(part for part in (call.error, note) if part),
            fallback=fallback,
            latency_ms=_non_negative(call.latency_ms),
            prompt_tokens=_non_negative(call.prompt_tokens),
            completion_tokens=_non_negative(call.completion_tokens),
            details=dict(call.details or {}),
        )
        for seq, call in enumerate(calls, start=1)
    ]
    return AgentCall.objects.bulk_create(rows)


def _non_negative(value) -> int | None:
    # The columns are unsigned; a clock step or an odd server could hand back a negative number.
    return max(int(value), 0) if value is not None else None


# --- before an agent plays: tournaments, play_match, the new-match form, studies ----------------------------


def preflight(name: str, game_id: str | None = None, *, allow_slow: bool = False) -> None:
    """Raise AgentNotReady when the named agent cannot play: unknown, RAP on an endpoint without logprobs, vision on
    an endpoint that refuses images, or (``game_id``) a model whose known context cannot hold the game's opening
    prompt even cut down, or one whose decisions on that game were measured slower than its deadline
    (``check_agent NAME --game G``; p95 against the configuration's current deadline) unless ``allow_slow``.

    Only configurations that need a capability are probed, so checking ordinary seats costs no request; a
    configuration never measured on the game is not refused for its speed.
    """
    if not selectors.agent_exists(name):
        raise AgentNotReady(f"unknown agent {name!r}")
    config = selectors.agent_config(name)
    if config is None:
        return  # built-in agents need nothing from outside
    from agents_app.agents.llm import blocking_problems, probe, requires_logprobs

    settings = selectors.llm_settings(config)
    if game_id is not None and settings.context_length():
        problem = opening_prompt_problem(settings, game_id)
        if problem:
            raise AgentNotReady(f"{name}: {problem}")
    if game_id is not None and not allow_slow:
        problem = measurements.slow_problem(name, settings, game_id)
        if problem:
            raise AgentNotReady(problem)
    if not (requires_logprobs(settings) or settings.vision):
        return
    report = probe(settings)
    if requires_logprobs(settings) and not report.logprobs:
        raise AgentNotReady(f"{name}: {RAP_WITHOUT_LOGPROBS}")
    problems = blocking_problems(settings, report)  # probed anyway: refuse what else cannot work
    if problems:
        raise AgentNotReady(f"{name}: {'; '.join(problems)}")


def store_capabilities(config, capabilities: dict) -> None:
    """Keep what a probe found on the configuration (its agent reads it: reply format, context), with the
    measurements of its decisions kept (agents_app.measurements). Saved without touching ``updated_at``, so it is not
    taken for an edit of the configuration."""
    capabilities = measurements.with_measurements(config, capabilities)
    type(config).objects.filter(pk=config.pk).update(capabilities=capabilities)
    config.capabilities = capabilities


def opening_prompt_problem(settings, game_id: str) -> str | None:
    """Why the first prompt of a ``game_id`` match (its default options, the first seat to act) cannot fit the
    model's context, or None."""
    from agents_app.agents.llm import LLMAgent

    state = create_game(game_id).new_initial_state(0)  # a fresh game of its own, not a match's
    view = turn_view(state.seat_view(state.current_seats()[0]), 0)
    return LLMAgent(settings).prompt_problem(view)


# A verdict is kept this long, so a form posted twice or a study's many rounds do not probe the endpoint each time;
# a configuration edited in the admin is probed afresh (its updated_at is part of the key), and so is one measured
# again on the game (its measurement's time is part of the key).
READINESS_TTL_S = 60.0
_readiness: dict[tuple[str, str, str, str, bool], tuple[float, str | None]] = {}


def readiness_problem(name: str, game_id: str | None = None, *, allow_slow: bool = False) -> str | None:
    """Why the agent cannot play as configured (preflight's reason), or None; probes at most once a minute."""
    config = selectors.agent_config(name)
    if config is None:
        return None if selectors.agent_exists(name) else f"unknown agent {name!r}"
    measured = measurements.measured(config.capabilities, game_id) if game_id else None
    key = (name, config.updated_at.isoformat(), game_id or "", (measured or {}).get("measured_at", ""), allow_slow)
    now = time.monotonic()
    cached = _readiness.get(key)
    if cached is not None and now - cached[0] < READINESS_TTL_S:
        return cached[1]
    try:
        preflight(name, game_id, allow_slow=allow_slow)
        problem = None
    except AgentNotReady as err:
        problem = str(err)
    _readiness[key] = (now, problem)
    return problem
