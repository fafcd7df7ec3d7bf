"""Issue 22, points 1-2, as issue 42 revised them: prompts a model can follow without a real action id to copy (the
reply's shape with placeholders; a model copied the example's real id in 73-100% of its decisions), cooperative games
framed as cooperation and talking turns (an LLM player's chat message goes through
the match service like a person's, reaches its partner's page and the study export's event log)."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from agents_app import services as agent_services
from agents_app.agents.llm import prompts
from agents_app.agents.llm.replies import InvalidReply, parse_reply
from gameplay.engines.registry import GAMES, create_game
from gameplay.models import Event
from gameplay.reads.selectors import state_of
from gameplay.writes import services
from gameplay.writes.services import SeatController
from tests.agents_app.llm_match_support import eager_celery, first_listed_action, llm_config  # noqa: F401
from tests.support.openai_server import ScriptedReply, scripted_openai_server

SHAPE_VALUES = {prompts.ACTION_PLACEHOLDER}


def view_of(game_id: str, seed: int = 3):
    state = create_game(game_id).new_initial_state(seed)
    seat = state.current_seats()[0]
    return agent_services.turn_view(state.seat_view(seat), seed)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_format_and_correction_texts_show_the_replys_shape_and_no_action_of_this_turn(game_id):
    view = view_of(game_id)
    legal = {a.id for a in view.legal_actions} | {t.id for t in view.text_actions}
    texts = {
        "system": prompts.system_prompt(view, explain_limit=3),
        "cot answer": prompts.cot_answer_request(view),
        "correction": prompts.correction(view, "the reply was empty"),
    }
    for name, text in texts.items():
        body = text.replace(view.rules.summary, "") if view.rules else text  # the game's own rules text aside
        shown = {obj.get("action") for obj in map(json.loads, re.findall(r'\{"action"[^{}]*\}', body))}
        assert shown == SHAPE_VALUES, (game_id, name, shown)
        assert not shown & legal
    # One line on open-ended actions, however many there are (a Fruit Trading basket has more than a hundred).
    assert texts["system"].count('"text"') <= 1


def test_a_cooperative_game_is_framed_as_cooperation_and_a_competitive_one_is_not():
    gnomes, santorini = view_of("gnomes"), view_of("santorini")
    assert gnomes.cooperative and not santorini.cooperative
    assert "cooperative game" in prompts.system_prompt(gnomes, 3)
    assert prompts.cot_prompt(gnomes).endswith(prompts.COT_SENTENCE_COOPERATIVE)
    assert "cooperative" not in prompts.system_prompt(santorini, 3)
    assert prompts.cot_prompt(santorini).endswith(prompts.COT_SENTENCE)  # GameBench's sentence, verbatim


def test_the_reply_format_offers_a_message_only_where_the_chat_is_open():
    gnomes = view_of("gnomes")
    assert gnomes.chat and '"message"' in prompts.reply_format(gnomes)
    muted = agent_services.turn_view(create_game("gnomes", {"chat": False}).new_initial_state(3).seat_view(0), 3)
    assert not muted.chat and '"message"' not in prompts.reply_format(muted)
    move = next(a.id for a in gnomes.legal_actions)
    reply = parse_reply(json.dumps({"action": move, "message": "  Which   way?  "}), gnomes)
    assert (reply.action_id, reply.message) == (move, "Which way?")
    assert parse_reply(json.dumps({"action": move, "message": "hi"}), muted).message is None
    long = parse_reply(json.dumps({"action": move, "message": "word " * 200}), gnomes).message
    assert len(long) <= prompts.MAX_MESSAGE_CHARS and long.endswith("…")
    with pytest.raises(InvalidReply, match="message"):
        parse_reply(json.dumps({"action": move, "message": ["not", "text"]}), gnomes)


def _talking_model(body) -> ScriptedReply:
    """Plays the first listed move and says where it stands."""
    reply = first_listed_action(body).content  # {"action": ...}
    return ScriptedReply.text({**reply, "message": "I can go right from here. Where is the treasure on your side?"})


@pytest.mark.django_db(transaction=True)  # agent turns are queued when the move's transaction commits
@pytest.mark.usefixtures("eager_celery")
def test_an_llm_player_in_gnomes_talks_through_the_match_service_and_its_partner_sees_it():
    with scripted_openai_server(_talking_model) as server:
        llm_config("talker", server.base_url)
        match = services.create_match(
            "gnomes", [SeatController("human"), SeatController("agent", agent_name="talker")], seed=4,
            options={"round": 2, "first_seat": 0},
        )
        match.refresh_from_db()
        human = match.seats.get(index=0)
        move = state_of(match).legal_actions(0)[0].id
        services.submit_action(match.pk, 0, move, expected_version=match.version)
    lines = list(Event.objects.filter(match=match, kind=Event.Kind.MESSAGE).values_list("seat", "payload"))
    assert lines == [(1, {"text": "I can go right from here. Where is the treasure on your side?"})]
    client = Client()
    page = client.get(f"/play/{human.token}/").content.decode()
    assert "Where is the treasure on your side?" in page  # the partner's page shows the line
