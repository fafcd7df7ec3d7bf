"""Signal receivers of the agents app (connected in AgentsAppConfig.ready)."""

from __future__ import annotations

from celery import current_app
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db.models.deletion import ProtectedError
from django.db.models.signals import pre_delete, pre_save
from django.dispatch import receiver

from agents_app import turn_runner
from agents_app.models import AgentConfig
from gameplay.signals import agent_turn_due, chat_posted, verdict_awaited


def celery_is_eager() -> bool:
    """Celery runs tasks in the calling process (no broker): then turns go to agents_app.turn_runner's threads."""
    return bool(current_app.conf.task_always_eager)


@receiver(agent_turn_due, dispatch_uid="agents_app.queue_agent_turns")
def queue_agent_turns(sender, match_id: int, **kwargs) -> None:
    """An agent seat must act: queue the task that plays it, on a worker, or with eager Celery (no broker) on a
    thread of agents_app.turn_runner: never on the announcing thread, which may be a websocket consumer's.

    gameplay sends the signal only after the transaction that made the turn due has committed.
    """
    from agents_app.tasks import play_agent_turns  # here, not above: the tasks pull in every agent

    if celery_is_eager() and not settings.AGENT_TURNS_INLINE:
        turn_runner.runner().submit(match_id)
    else:
        play_agent_turns.delay(match_id)


@receiver(chat_posted, dispatch_uid="agents_app.queue_chat_answers")
def queue_chat_answers(sender, match_id: int, **kwargs) -> None:
    """A chat line committed in a match with an agent seat: let agents that are not to move answer it, off the
    announcing thread as for turns (agents_app.chat_services decides who owes an answer)."""
    from agents_app.tasks import answer_chat

    if celery_is_eager() and not settings.AGENT_TURNS_INLINE:
        turn_runner.chat_runner().submit(match_id)
    else:
        answer_chat.delay(match_id)


@receiver(verdict_awaited, dispatch_uid="agents_app.queue_judge")
def queue_judge(sender, match_id: int, **kwargs) -> None:
    """A judged game's last message committed (or the watchdog found it still waiting): queue the judge, off the
    announcing thread as for turns (a judge model call may take seconds)."""
    from agents_app.tasks import judge_match

    if celery_is_eager() and not settings.AGENT_TURNS_INLINE:
        turn_runner.judge_runner().submit(match_id)
    else:
        judge_match.delay(match_id)


@receiver(pre_save, sender=AgentConfig, dispatch_uid="agents_app.refuse_refused_key_variables")
def refuse_refused_key_variables(sender, instance: AgentConfig, **kwargs) -> None:
    """Refuse storing a configuration whose ``api_key_env`` the key policy refuses (e.g. SECRET_KEY), on every save.

    The model's clean only runs in forms: ``manage.py loaddata`` (a raw save, past ``Model.save`` too), ``create``
    and a plain ``save`` skipped it and stored a configuration naming the platform's own secret (issue 37). The
    runtime still refuses to send such a key; this keeps the row from existing at all. (``QuerySet.update`` and
    ``bulk_create`` send no signal: nothing in the project writes configurations that way.)
    """
    problem = instance.key_env_problem()
    if problem:
        raise ValidationError(
            {"api_key_env": f"LLM agent configuration {instance.name!r} was not saved: {problem}"}, code="refused"
        )


@receiver(pre_delete, sender=AgentConfig, dispatch_uid="agents_app.protect_played_configs")
def protect_played_configs(sender, instance: AgentConfig, **kwargs) -> None:
    """Refuse deleting a configuration that has played, also for queryset deletes.

    ``AgentConfig.delete()`` only guards single objects; ``QuerySet.delete()`` bypasses it. Having any
    pre_delete receiver also stops Django's fast path, so this runs for every row of a queryset delete.
    """
    if instance.has_matches():
        raise ProtectedError(f"agent {instance.name!r} has played matches and cannot be deleted", {instance})
