"""Conditions say who plays every seat (``seats``) and which options they merge over every round (``options``)
instead of the two-seat partner/agent_name/show_chat/show_hints/participant_seat fields; the Gnomes defaults
of Study.game_id and pairing_fallback_agent go.

Existing rows are converted to the same matches they produced before: a human-partner condition becomes two
participant seats; an agent condition the participant in its old seat and the agent in the other; show_chat and
show_hints become the game options "chat" and "show_hints" where the study's game has such options (before,
they reached the game only for Gnomes at Night, whose options they are).
"""

from django.db import migrations, models


def _game_options(game_id: str) -> set[str]:
    from gameplay.engines.registry import GAMES

    game = GAMES.get(game_id)
    return {o.name for o in game.spec.options} if game is not None else set()


def forwards(apps, schema_editor):
    Condition = apps.get_model("studies", "Condition")
    for c in Condition.objects.select_related("study"):
        if c.partner == "human":
            seats = [{"kind": "participant"}, {"kind": "participant"}]
        else:
            seats = [{"kind": "agent", "agent": c.agent_name}, {"kind": "agent", "agent": c.agent_name}]
            seats[min(c.participant_seat, 1)] = {"kind": "participant"}
        known = _game_options(c.study.game_id)
        options = {
            name: value for name, value in (("chat", c.show_chat), ("show_hints", c.show_hints)) if name in known
        }
        c.seats, c.options = seats, options
        c.save(update_fields=["seats", "options"])


def backwards(apps, schema_editor):
    Condition = apps.get_model("studies", "Condition")
    for c in Condition.objects.all():
        seats = c.seats or []
        mine = next((i for i, s in enumerate(seats) if s.get("kind") == "participant"), 0)
        agents = [s.get("agent", "") for s in seats if s.get("kind") == "agent"]
        c.partner = "agent" if agents else "human"
        c.agent_name = agents[0] if agents else ""
        c.participant_seat = mine
        c.show_chat = bool((c.options or {}).get("chat", True))
        c.show_hints = bool((c.options or {}).get("show_hints", False))
        c.save()


class Migration(migrations.Migration):

    dependencies = [
        ("studies", "0001_studies"),
    ]

    operations = [
        migrations.AddField(
            model_name="condition",
            name="seats",
            field=models.JSONField(
                default=list,
                help_text='Who plays each seat: [{"kind": "participant"}, {"kind": "agent", "agent": "random"}, …].',
            ),
        ),
        migrations.AddField(
            model_name="condition",
            name="options",
            field=models.JSONField(
                blank=True, default=dict, help_text='Game options merged over every round\'s, e.g. {"chat": false}.'
            ),
        ),
        migrations.RunPython(forwards, backwards),
        migrations.RemoveField(model_name="condition", name="agent_name"),
        migrations.RemoveField(model_name="condition", name="participant_seat"),
        migrations.RemoveField(model_name="condition", name="partner"),
        migrations.RemoveField(model_name="condition", name="show_chat"),
        migrations.RemoveField(model_name="condition", name="show_hints"),
        migrations.AlterField(
            model_name="participantround",
            name="partner_agent",
            field=models.CharField(blank=True, help_text="The first agent seat's agent name, if any.", max_length=100),
        ),
        migrations.AlterField(
            model_name="participantround",
            name="partner_participant",
            field=models.ForeignKey(
                blank=True,
                help_text="One other participant in the match (the first by seat), if any.",
                null=True,
                on_delete=models.deletion.SET_NULL,
                related_name="+",
                to="studies.participant",
            ),
        ),
        migrations.AlterField(
            model_name="study",
            name="game_id",
            field=models.CharField(help_text="A registered game id, e.g. gnomes or santorini.", max_length=64),
        ),
        migrations.AlterField(
            model_name="study",
            name="pairing_fallback_agent",
            field=models.CharField(
                blank=True, help_text="Agent that takes the missing participant seats when pairing times out.",
                max_length=100,
            ),
        ),
    ]
