"""Writes for dialogue solvers (seed 004): a solver run is created, solved with its generating model and stored.

The solve itself is pure (agents_app.agents.dialogue.pipeline); this module supplies the game (from the registry),
the model (the one LLM client stack, configured by an AgentConfig) and the cache of generations (DialogueGeneration
rows), then keeps the result, the counts and any error on the SolverRun.
"""

from __future__ import annotations

import logging
import time
from dataclasses import replace

from django.db import IntegrityError, transaction
from django.utils import timezone

from agents_app import selectors
from agents_app.agents.dialogue import pipeline
from agents_app.agents.dialogue.generation import CachedModel, ModelCaller, chat_model_caller
from agents_app.agents.dialogue.tree import TreeOptions
from agents_app.models import AgentConfig, DialogueGeneration, SolverRun
from gameplay.engines.registry import create_game

logger = logging.getLogger(__name__)

# Failed requests kept on a run's result (the successful ones are DialogueGeneration rows).
FAILED_CALLS_KEPT = 50
FALLBACKS_KEPT = 200


class SolverRunError(ValueError):
    pass


class StoredGenerations:
    """The generation cache in the database: one DialogueGeneration per key."""

    def get(self, key: str) -> str | None:
        row = DialogueGeneration.objects.filter(key=key).only("reply").first()
        return row.reply if row is not None else None

    def put(self, key: str, model: str, messages: list, reply: str) -> None:
        try:
            with transaction.atomic():
                DialogueGeneration.objects.create(key=key, model=model, request_messages=messages, reply=reply)
        except IntegrityError:
            pass  # another run stored the same generation first; the first reply stays the cached one


def create_solver_run(
    *,
    game_id: str,
    agent: str,
    solver: str = "cfr",
    options: dict | None = None,
    instruction_set: str = "",
    depth: int = 2,
    llm_seeds: int = 2,
    init_states: int = 1,
    iterations: int = 100,
    psro_iterations: int = 3,
    seed: int = 0,
    judge_agent: str = "",
    temperature: float | None = None,
) -> SolverRun:
    """A pending run, checked: the game is a dialogue game, the instruction set is one of its sets, the agent is an
    LLM configuration, the sizes are positive and the temperature (None: the agent's) is between 0 and 2."""
    config = AgentConfig.objects.filter(name=agent).first()
    if config is None:
        raise SolverRunError(f"no LLM agent configuration {agent!r}")
    judge = None
    if judge_agent:
        judge = AgentConfig.objects.filter(name=judge_agent).first()
        if judge is None:
            raise SolverRunError(f"no LLM agent configuration {judge_agent!r} to judge")
    if solver not in pipeline.SOLVERS:
        raise SolverRunError(f"unknown solver {solver!r}; known: {', '.join(pipeline.SOLVERS)}")
    try:
        game = create_game(game_id, options or {})
    except Exception as err:  # unknown game or invalid options: the engine's message says which
        raise SolverRunError(str(err)) from None
    if game.spec.dialogue is None:
        raise SolverRunError(f"{game.spec.name} is not a dialogue game")
    if judge is not None and not game.spec.dialogue.judged:
        raise SolverRunError(f"{game.spec.name} is not judged: it needs no judge model")
    if instruction_set:
        try:
            game.spec.dialogue.instruction_set(instruction_set)
        except KeyError as err:
            raise SolverRunError(err.args[0]) from None
    for name, value in (("depth", depth), ("llm_seeds", llm_seeds), ("init_states", init_states),
                        ("iterations", iterations)):
        if value < 1:
            raise SolverRunError(f"{name} must be at least 1")
    if temperature is not None and not 0.0 <= temperature <= 2.0:
        raise SolverRunError("temperature must be between 0 and 2")
    return SolverRun.objects.create(
        game_id=game_id, options=dict(game.options), solver=solver, instruction_set=instruction_set, depth=depth,
        llm_seeds=llm_seeds, init_states=init_states, iterations=iterations, psro_iterations=psro_iterations,
        seed=seed, agent=config, judge_agent=judge, temperature=temperature,
    )


def _model_caller(config: AgentConfig, temperature: float | None = None) -> tuple[str, float, ModelCaller]:
    """(model name, the temperature it samples at, its caller): the configuration's settings, at ``temperature``
    when given."""
    from agents_app.agents.llm.client import ChatCaller, make_openai_client  # late: openai only when solving

    settings = selectors.llm_settings(config)
    if temperature is not None:
        settings = replace(settings, temperature=temperature)
    client = make_openai_client(settings)
    return settings.model, settings.temperature, chat_model_caller(lambda: ChatCaller(client, settings))


def run_solver(run: SolverRun, *, caller: ModelCaller | None = None) -> SolverRun:
    """Solve ``run`` and store the outcome on it (status done, or failed with the error). ``caller`` replaces the
    model (tests); by default the run's agent configuration is called through the LLM client stack."""
    run.status, run.started_at, run.error = SolverRun.Status.RUNNING, timezone.now(), ""
    run.model_calls = run.cache_hits = 0
    run.save(update_fields=["status", "started_at", "error", "model_calls", "cache_hits"])
    started = time.monotonic()
    model = judge = None
    try:
        model_name, temperature, default_caller = _model_caller(run.agent, run.temperature)
        model = CachedModel(model_name, caller or default_caller, StoredGenerations(), seed=run.seed,
                            temperature=temperature)
        if run.judge_agent is not None:
            judge_name, judge_temperature, judge_caller = _model_caller(run.judge_agent)
            judge = CachedModel(judge_name, caller or judge_caller, StoredGenerations(), seed=run.seed,
                                temperature=judge_temperature)
        game = create_game(run.game_id, run.options)
        result = pipeline.solve(
            game,
            model,
            solver=run.solver,
            instruction_set=run.instruction_set,
            options=TreeOptions(depth=run.depth, llm_seeds=run.llm_seeds, init_states=run.init_states, seed=run.seed),
            iterations=run.iterations,
            psro_iterations=run.psro_iterations,
            judge=judge,
        )
        result["fallbacks"] = result["fallbacks"][:FALLBACKS_KEPT]
        calls = model.stats.calls + (judge.stats.calls if judge is not None else [])
        result["failed_calls"] = [
            {"purpose": call.purpose, "error": call.error} for call in calls if call.error
        ][:FAILED_CALLS_KEPT]
        run.result, run.status = result, SolverRun.Status.DONE
    except Exception as err:  # a solve must end recorded, whatever broke
        logger.exception("solver run %s failed", run.pk)
        run.status, run.error = SolverRun.Status.FAILED, f"{type(err).__name__}: {err}"[:2000]
    for used in (model, judge):
        if used is not None:
            run.model_calls += used.stats.model_calls
            run.cache_hits += used.stats.cache_hits
    run.elapsed_s = round(time.monotonic() - started, 3)
    run.finished_at = timezone.now()
    run.save()
    return run
