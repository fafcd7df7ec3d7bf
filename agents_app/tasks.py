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
    """Play every pending agent decision of a match (``agents_app.turns.play_pending_turns``: idempotent, so a
    redelivered or re-queued task is harmless); the number of actions applied."""
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
