"""Celery tasks: agents take their turns. Eager in-process by default, on workers when REDIS_URL is set."""

from __future__ import annotations

import logging

from celery import shared_task

from agents_app import chat_services, turns

logger = logging.getLogger(__name__)


# Acknowledged only after it ran, and re-queued when its pool process dies (also the project-wide setting; stated
# here because this task depends on it): a turn killed with its process is played again, not lost.
@shared_task(name="agents_app.play_agent_turns", acks_late=True, reject_on_worker_lost=True)
def play_agent_turns(match_id: int) -> int:
    """Play every pending agent decision of a match until a human must act or the match ends (agents_app.turns).

    Loops instead of re-queuing itself after each action, so long agent-vs-agent
    matches do not recurse in eager mode. Returns the number of actions applied.

    Idempotent, so it may run twice for one turn (a redelivered message, the stalled-turn watchdog of
    gameplay.writes.watchdog, two moves announcing the same agent): every decision is made for the version it read and
    submitted with ``expected_version``, so of two tasks deciding the same turn only the first move is applied;
    the other is refused with the match untouched (its model calls are kept, marked not applied), re-reads the
    match and plays only what is still pending. A task that finds no agent to move does nothing.
    """
    return turns.play_pending_turns(match_id)


# Like a turn: acknowledged after it ran. An answer lost with its process is not re-queued by the watchdog (chat
# is optional); a partner who asks again is answered then.
@shared_task(name="agents_app.answer_chat", acks_late=True, reject_on_worker_lost=True)
def answer_chat(match_id: int) -> int:
    """Agents answer the chat lines written to them while another seat is to move (agents_app.chat_services)."""
    return chat_services.answer_chat(match_id)


@shared_task(name="agents_app.judge_match", acks_late=True, reject_on_worker_lost=True)
def judge_match(match_id: int) -> str | None:
    """A judged dialogue game's verdict (agents_app.judging): the judge model's, else the game's rule."""
    from agents_app import judging

    return judging.judge_match(match_id)


@shared_task(name="agents_app.solve_dialogue", acks_late=True)
def solve_dialogue(run_id: int) -> str:
    """Solve a pending dialogue solver run (agents_app.solver_services.run_solver); returns its status."""
    # Late: the solver loads open_spiel, which agent turns never need.
    from agents_app.models import SolverRun
    from agents_app.solver_services import run_solver

    run = SolverRun.objects.filter(pk=run_id).first()
    if run is None or run.status != SolverRun.Status.PENDING:
        return "skipped"
    return run_solver(run).status


# Tournament tasks live in their package; importing them here registers them with Celery's autodiscovery.
from agents_app.tournaments import tasks as tournament_tasks  # noqa: E402, F401
