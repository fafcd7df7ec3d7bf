"""The steered dialogue agents in the platform: a configuration with ``dialogue_steering`` becomes a DialogueAgent,
plays dialogue games only, records its instruction with each move, never sees the other seat's secrets, and
deploy_dialogue_policy puts a solved policy on it. Fruit Trading is the dialogue game played here.
"""

from __future__ import annotations

import json
import random
import re

import pytest
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command

from agents_app import selectors
from agents_app.agents.dialogue import prompts as turn_prompts
from agents_app.agents.dialogue.agent import MESSAGE_INDEX_KEY, DialogueAgent
from agents_app.agents.llm import LLMAgent
from agents_app.services import turn_view
from gameplay.engines.registry import GAMES, create_game
from gameplay.models import Event
from gameplay.reads.agent_directory import agent_choices, agent_plays
from gameplay.writes import services
from gameplay.writes.services import SeatController
from tests.agents_app.llm_match_support import eager_celery, llm_config  # noqa: F401 (fixture)
from tests.agents_app.prompt_leaks_support import foreign_secrets
from tests.support.openai_server import ScriptedReply, scripted_openai_server

GAME = "fruit_trading"
_LEGAL = "Your legal moves (id: meaning):\n"


def fruit_policy(**overrides) -> dict:
    return {
        "game": GAME,
        "options": {"scenario": "fixed", "max_turns_per_seat": 3, "openspiel_opening": False, "max_offer_units": 3},
        "instruction_set": "tone",
        "instructions": ["calm", "assertive", "submissive", "any"],
        "by_turn": {"1:0": {"calm": 1.0}, "1:1": {"assertive": 1.0}, "1:2": {"submissive": 1.0}},
        "by_infostate": {},
        **overrides,
    }


def talking_model(body) -> ScriptedReply:
    """Talks on every turn where it may (so the game runs to its turn limit; a debate has no message-only move, so
    there it makes its first listed argument), naming the instruction it was given."""
    text = body["messages"][-1]["content"]
    instruction = text.split("Instruction for your message: ", 1)[1].split("\n", 1)[0]
    moves = re.findall(r"^- (\S+): ", text.split(_LEGAL, 1)[1], re.MULTILINE)
    move = "talk" if "talk" in moves else moves[0]
    return ScriptedReply.text({"move": move, "message": f"Noted: {instruction}"[:200]})


@pytest.mark.django_db
def test_a_steered_configuration_becomes_a_dialogue_agent_and_plays_dialogue_games_only():
    guided = llm_config("guided", "http://127.0.0.1:9/v1", dialogue_steering="solver", dialogue_policy=fruit_policy())
    control = llm_config("control", "http://127.0.0.1:9/v1", dialogue_steering="any")
    plain = llm_config("plain", "http://127.0.0.1:9/v1")
    built = selectors.build_agent("guided")
    assert isinstance(built, DialogueAgent) and built.steering == "solver" and built.policy == fruit_policy()
    assert isinstance(selectors.build_agent("control"), DialogueAgent)
    assert type(selectors.build_agent("plain")) is LLMAgent
    assert agent_plays("guided", GAME) and agent_plays("control", GAME) and agent_plays("plain", GAME)
    assert not agent_plays("guided", "santorini") and not agent_plays("control", "santorini")
    assert {"guided", "control", "plain"} <= {name for name, _ in agent_choices(GAME)}
    assert "plain" in {name for name, _ in agent_choices("santorini")}
    assert not {"guided", "control"} & {name for name, _ in agent_choices("santorini")}
    with pytest.raises(services.ServiceError, match="does not play"):
        services.create_match("santorini", [SeatController("human"), SeatController("agent", agent_name="control")],
                              seed=1)
    assert guided.plays_game(None) and plain.plays_game("santorini") and not control.plays_game("santorini")


@pytest.mark.django_db
def test_solver_steering_needs_a_valid_policy_for_the_game():
    with pytest.raises(ValidationError, match="needs a deployed policy"):
        llm_config("guided", "http://127.0.0.1:9/v1", dialogue_steering="solver")
    with pytest.raises(ValidationError, match="sum to 1"):
        llm_config("guided", "http://127.0.0.1:9/v1", dialogue_steering="solver",
                   dialogue_policy=fruit_policy(by_turn={"1:0": {"calm": 0.3}}))
    other = llm_config("other", "http://127.0.0.1:9/v1", dialogue_steering="solver",
                       dialogue_policy=fruit_policy(game="meeting_scheduling"))
    assert not other.plays_game(GAME)  # solved for another game: not offered for this one


@pytest.mark.django_db(transaction=True)
def test_the_guided_agent_plays_a_match_and_each_move_records_its_instruction(eager_celery):  # noqa: F811
    with scripted_openai_server(talking_model) as model:
        llm_config("guided", model.base_url, dialogue_steering="solver", dialogue_policy=fruit_policy())
        match = services.create_match(
            GAME, [SeatController("agent", agent_name="random"), SeatController("agent", agent_name="guided")],
            seed=1, host_seat=None,
        )
    match.refresh_from_db()
    assert match.status == "finished"
    moves = [e for e in Event.objects.filter(match=match, kind="action").order_by("seq") if e.seat == 1]
    notes = [e.payload.get("agent_note") for e in moves]
    assert notes[:3] == ["instruction: calm (policy: turn)", "instruction: assertive (policy: turn)",
                         "instruction: submissive (policy: turn)"][: len(notes)]
    assert len(notes) >= 2 and all(n for n in notes)
    assert not [e.payload.get("fallback_reason") for e in moves if e.payload.get("fallback")]
    prompts = [r.body["messages"][-1]["content"] for r in model.requests]
    assert "Write your message in a calm tone." in prompts[0]
    if len(prompts) > 1:
        assert "Write your message in a assertive tone." in prompts[1]


DIALOGUE_GAMES = sorted(game_id for game_id, cls in GAMES.items() if cls.spec.dialogue is not None)


@pytest.mark.parametrize("game_id", DIALOGUE_GAMES)
@pytest.mark.django_db(transaction=True)
def test_the_control_always_writes_with_any_in_every_dialogue_game(eager_celery, game_id):  # noqa: F811
    with scripted_openai_server(talking_model) as model:
        llm_config("control", model.base_url, dialogue_steering="any")
        match = services.create_match(
            game_id, [SeatController("agent", agent_name="control"), SeatController("agent", agent_name="random")],
            seed=3, host_seat=None,
        )
    moves = [e for e in Event.objects.filter(match=match, kind="action") if e.seat == 0]
    assert {e.payload.get("agent_note") for e in moves} == {"instruction: any (control)"}
    assert not [e.payload.get("fallback_reason") for e in moves if e.payload.get("fallback")]
    any_text = GAMES[game_id].spec.dialogue.default_set.any_text  # each game words its control instruction
    assert all(any_text in r.prompt_text for r in model.requests)


def test_the_agent_never_sees_the_other_seats_private_information():
    """The turn prompt the agent sends, along seeded random playouts of both scenarios, carries none of the other
    seat's secrets (its basket and valuations)."""
    checked = 0
    for options in ({"scenario": "fixed"}, {"scenario": "random"}, {"scenario": "fixed", "openspiel_opening": True}):
        game = create_game(GAME, options)
        for seed in range(4):
            rng = random.Random(seed)
            state = game.new_initial_state(seed)
            while not state.is_terminal():
                seat = state.current_seats()[0]
                view = turn_view(state.seat_view(seat), seed)
                assert view.extra[MESSAGE_INDEX_KEY] == sum(1 for r in state.log if r.seat == seat)
                hidden = foreign_secrets(state, seat)
                assert hidden, "the check needs secrets to look for"
                for message in turn_prompts.build_turn_messages(view, "Write your message in a calm tone."):
                    leaked = [value for value in hidden if value in message["content"]]
                    assert not leaked, f"seat {seat}'s prompt carries the other seat's secret {leaked[:1]}"
                checked += 1
                action = rng.choice(state.text_actions(seat))
                state.apply_action(seat, action.id, "Hello.")
    assert checked > 10


@pytest.mark.django_db
def test_deploy_dialogue_policy_copies_a_policy_file_onto_a_configuration(tmp_path, capsys):
    llm_config("guided", "http://127.0.0.1:9/v1")
    path = tmp_path / "policy.json"
    path.write_text(json.dumps(fruit_policy()))
    call_command("deploy_dialogue_policy", "--policy-file", str(path), "--agent", "guided")
    config = selectors.agent_config("guided")
    assert (config.dialogue_steering, config.dialogue_policy) == ("solver", fruit_policy())
    assert "solver-guided on fruit_trading" in capsys.readouterr().out
    path.write_text(json.dumps(fruit_policy(by_turn={"1:0": {"loud": 1.0}})))
    with pytest.raises(CommandError, match="unknown instruction"):
        call_command("deploy_dialogue_policy", "--policy-file", str(path), "--agent", "guided")
    with pytest.raises(CommandError, match="no agent configuration"):
        call_command("deploy_dialogue_policy", "--policy-file", str(path), "--agent", "random")


@pytest.mark.django_db
def test_the_admin_edits_the_steering_and_refuses_a_solver_agent_without_a_policy(admin_client):
    config = llm_config("guided", "http://127.0.0.1:9/v1")
    url = f"/admin/agents_app/agentconfig/{config.pk}/change/"
    page = admin_client.get(url)
    assert page.status_code == 200
    assert b'name="dialogue_steering"' in page.content and b'name="dialogue_policy"' in page.content
    form = {k: v for k, v in page.context["adminform"].form.initial.items() if v is not None}
    form.update({"dialogue_steering": "solver", "dialogue_policy": "{}", "capabilities": "{}"})
    refused = admin_client.post(url, {k: (json.dumps(v) if isinstance(v, dict) else v) for k, v in form.items()})
    assert refused.status_code == 200 and b"needs a deployed policy" in refused.content


@pytest.mark.django_db
def test_a_steered_agent_speaks_only_with_its_moves():
    llm_config("control", "http://127.0.0.1:9/v1", dialogue_steering="any", chat_replies=2)
    assert selectors.chat_replies_per_turn("control") == 0
    agent = selectors.build_agent("control")
    assert agent.chat_replies_per_turn == 0 and agent.answer(None, ()).message is None


@pytest.mark.django_db
def test_a_study_condition_takes_a_steered_agent_only_for_a_dialogue_game():
    from gameplay.studies.presets import PresetError, load_preset, read_preset

    call_command("loaddata", "fixtures/studies/fruit_guided_agents.json", verbosity=0)
    preset = read_preset("fixtures/studies/fruit_guided_vs_unguided.json")
    study, created = load_preset(preset)
    assert created and [c.key for c in study.conditions.order_by("key")] == ["guided", "unguided"]
    santorini = {**preset, "slug": "santorini-steered", "game_id": "santorini", "rounds": [{}]}
    with pytest.raises(PresetError, match="fruit-guided"):
        load_preset(santorini)


@pytest.mark.django_db
def test_deploy_dialogue_policy_copies_a_finished_solver_runs_policy():
    from django.apps import apps

    config = llm_config("guided", "http://127.0.0.1:9/v1")
    try:
        model = apps.get_model("agents_app", "SolverRun")
    except LookupError:  # before the solver pipeline is installed, runs cannot be named
        with pytest.raises(CommandError, match="use --policy-file"):
            call_command("deploy_dialogue_policy", "--run", "1", "--agent", "guided")
        return
    pending = model.objects.create(game_id=GAME, agent=config)
    with pytest.raises(CommandError, match="has no policy"):
        call_command("deploy_dialogue_policy", "--run", str(pending.pk), "--agent", "guided")
    done = model.objects.create(game_id=GAME, agent=config, status="done", result={"policy": fruit_policy()})
    call_command("deploy_dialogue_policy", "--run", str(done.pk), "--agent", "guided")
    config.refresh_from_db()
    assert (config.dialogue_steering, config.dialogue_policy) == ("solver", fruit_policy())
