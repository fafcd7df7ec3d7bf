"""The conditions migration keeps existing studies playing exactly as before: a human-partner condition becomes
two participant seats, an agent condition the participant in its old seat and the agent in the other, and
show_chat/show_hints become the game options they used to set (for a game that has them)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("studies", "0001_studies")]
AFTER = [("studies", "0002_condition_seats_and_options")]


def migrate_to(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_old_conditions_become_seats_and_options():
    apps = migrate_to(BEFORE)
    try:
        Study = apps.get_model("studies", "Study")
        Condition = apps.get_model("studies", "Condition")
        gnomes = Study.objects.create(slug="old-gnomes", title="Old", game_id="gnomes", rounds=[{"round": 1}],
                                      consent_text="c", instructions="i")
        santorini = Study.objects.create(slug="old-santorini", title="Old", game_id="santorini", rounds=[{}],
                                         consent_text="c", instructions="i")
        Condition.objects.create(study=gnomes, key="human", label="H", partner="human", show_chat=True)
        Condition.objects.create(study=gnomes, key="mute", label="M", partner="agent", agent_name="gnomes-mute",
                                 show_chat=False, show_hints=False, participant_seat=0)
        Condition.objects.create(study=gnomes, key="comm", label="C", partner="agent", agent_name="gnomes-comm",
                                 show_chat=True, show_hints=True, participant_seat=1)
        Condition.objects.create(study=santorini, key="random", label="R", partner="agent", agent_name="random")

        apps = migrate_to(AFTER)
        rows = {c.key: (c.seats, c.options) for c in apps.get_model("studies", "Condition").objects.all()}
        agent = lambda name: {"kind": "agent", "agent": name}  # noqa: E731
        me = {"kind": "participant"}
        assert rows == {
            "human": ([me, me], {"chat": True, "show_hints": False}),
            "mute": ([me, agent("gnomes-mute")], {"chat": False, "show_hints": False}),
            "comm": ([agent("gnomes-comm"), me], {"chat": True, "show_hints": True}),
            "random": ([me, agent("random")], {}),  # Santorini has neither option: nothing reached it before
        }
    finally:
        migrate_to(MigrationExecutor(connection).loader.graph.leaf_nodes())
