"""An LLM player answers the chat between its own moves (issue 22, point 1): a partner asks on its own turn, the
model is asked with its seat's observation and the question, and its answer goes through the match service like a
person's line, with the model call stored against that line. A per-turn limit, the version guard and the
seat-to-move rule keep it from talking over the game."""

from __future__ import annotations

import json
import re

import pytest

from agents_app import chat_services, context_selectors
from agents_app.agents.base import ChatLine
from agents_app.agents.llm import prompts
from agents_app.models import AgentCall
from agents_app.services import turn_view
from gameplay.engines.registry import create_game
from gameplay.models import Event, Match
from gameplay.reads.selectors import state_of
from gameplay.writes import services
from gameplay.writes.services import SeatController, ServiceError
from tests.agents_app.llm_match_support import eager_celery, first_listed_action, llm_config  # noqa: F401 (fixture)
from tests.support.openai_server import ScriptedReply, scripted_openai_server

ANSWER = "The treasure is two cells up from me, past the wall on my left."
QUESTION = "Where is the treasure on your side?"


def answering_model(body) -> ScriptedReply:
    """Moves with the first listed action; asked to answer the chat (no action list), it answers."""
    prompt = "\n".join(str(m.get("content")) for m in body["messages"])
    if "Available actions" in prompt:
        return first_listed_action(body)
    return ScriptedReply.text({"message": ANSWER})


def gnomes_with_llm(name: str, first_seat: int = 0) -> Match:
    match = services.create_match(
        "gnomes", [SeatController("human"), SeatController("agent", agent_name=name)], seed=4,
        options={"round": 2, "first_seat": first_seat},
    )
    match.refresh_from_db()
    return match


def lines_of(match: Match) -> list[tuple[int, str]]:
    events = Event.objects.filter(match=match, kind=Event.Kind.MESSAGE).order_by("seq")
    return [(e.seat, e.payload["text"]) for e in events]


@pytest.mark.django_db(transaction=True)  # the answer is queued when the question's transaction commits
@pytest.mark.usefixtures("eager_celery")
def test_an_llm_partner_answers_a_question_asked_on_its_partners_turn():
    with scripted_openai_server(answering_model) as server:
        llm_config("talker", server.base_url)
        match = gnomes_with_llm("talker")
        assert state_of(match).current_seats() == [0]  # the person's turn
        services.post_message(match.pk, 0, QUESTION)
        assert lines_of(match) == [(0, QUESTION), (1, ANSWER)]
        asked = server.requests[-1].prompt_text
        assert QUESTION in asked and "<state>" in asked and "Available actions" not in asked
        answer_event = Event.objects.get(match=match, kind=Event.Kind.MESSAGE, seat=1)
        call = AgentCall.objects.get(match=match)
        assert (call.purpose, call.event_id, call.seat, call.error) == ("answer", answer_event.pk, 1, "")
        assert json.loads(call.raw_reply) == {"message": ANSWER}

        # One line per turn (the default): asked again before it moved, it says nothing and costs no call.
        services.post_message(match.pk, 0, "Hello?")
        assert len(server.requests) == 1 and lines_of(match)[-1] == (0, "Hello?")

        # After its next move the count starts again: the line sent with that move is one, so no more now.
        services.submit_action(match.pk, 0, state_of(match).legal_actions(0)[0].id, expected_version=match.version)
        match.refresh_from_db()
        assert Event.objects.filter(match=match, kind=Event.Kind.ACTION, seat=1).exists()  # the model moved
        services.post_message(match.pk, 0, "Which way now?")
        assert lines_of(match)[-1] == (1, ANSWER)  # answered: its move carried no line, so one is left


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("eager_celery")
def test_an_llm_set_to_talk_only_with_its_moves_is_not_asked():
    with scripted_openai_server(answering_model) as server:
        llm_config("quiet", server.base_url, chat_replies=0)
        match = gnomes_with_llm("quiet")
        services.post_message(match.pk, 0, QUESTION)
    assert lines_of(match) == [(0, QUESTION)] and server.requests == []


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("eager_celery")
def test_a_model_that_cannot_answer_properly_stays_quiet_and_its_calls_are_kept():
    with scripted_openai_server(lambda body: ScriptedReply.text("sure, it is up there")) as server:
        llm_config("garbled", server.base_url, retries=3)
        match = gnomes_with_llm("garbled")
        services.post_message(match.pk, 0, QUESTION)
    assert lines_of(match) == [(0, QUESTION)]
    calls = list(AgentCall.objects.filter(match=match).order_by("pk"))
    assert len(server.requests) == len(calls) == 2  # the answer and one correction, no more
    assert all(c.event is None and c.error.startswith("invalid reply (malformed)") for c in calls)
    assert "Your reply was invalid" in server.requests[1].prompt_text


@pytest.mark.django_db
def test_a_seat_that_is_to_move_does_not_answer_between_moves():
    # Without a commit no turn is played: the LLM seat stays to move, and answers with that move instead.
    with scripted_openai_server(answering_model) as server:
        llm_config("talker", server.base_url)
        match = gnomes_with_llm("talker", first_seat=1)
        services.post_message(match.pk, 0, QUESTION)
        assert chat_services.answer_chat(match.pk) == 0
    assert server.requests == [] and lines_of(match) == [(0, QUESTION)]


@pytest.mark.django_db
def test_an_answer_written_for_an_old_position_or_already_given_is_refused_and_changes_nothing():
    match = services.create_match(
        "gnomes", [SeatController("human"), SeatController("human")], seed=4, options={"round": 2, "first_seat": 0}
    )
    match.refresh_from_db()
    question = services.post_message(match.pk, 0, QUESTION)
    services.submit_action(match.pk, 0, state_of(match).legal_actions(0)[0].id, expected_version=match.version)
    with pytest.raises(ServiceError, match="moved on"):
        services.post_message(match.pk, 1, ANSWER, expected_version=match.version)
    services.post_message(match.pk, 1, ANSWER, unless_spoke_after=question.seq)
    with pytest.raises(ServiceError, match="already spoken"):
        services.post_message(match.pk, 1, "again", unless_spoke_after=question.seq)
    assert lines_of(match) == [(0, QUESTION), (1, ANSWER)]
    match.refresh_from_db()
    assert len(state_of(match).observation(0).data["chat"]) == 2


class _ThreeSeats:
    num_seats = 3

    @staticmethod
    def seat_name(seat: int) -> str:
        return ("Red", "Blue", "Green")[seat]


def test_with_more_than_one_partner_only_lines_naming_the_seat_are_addressed_to_it():
    game = _ThreeSeats()
    assert context_selectors.addressed_to("blue, where are you going?", game, 1)
    assert not context_selectors.addressed_to("Green, where are you going?", game, 1)


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("eager_celery")
def test_in_a_game_that_keeps_chat_outside_its_state_the_model_reads_the_chat_from_the_log():
    with scripted_openai_server(answering_model) as server:
        llm_config("talker", server.base_url)
        match = services.create_match(
            "santorini", [SeatController("human"), SeatController("agent", agent_name="talker")], seed=3,
        )
        match.refresh_from_db()
        assert state_of(match).current_seats() == [0]
        services.post_message(match.pk, 0, "Good luck, you will need it")
        assert lines_of(match)[-1] == (1, ANSWER)
        assert '"Good luck, you will need it"' in server.requests[0].prompt_text
        while state_of(match).current_seats() == [0]:  # the person places workers until the model's turn comes
            services.submit_action(match.pk, 0, state_of(match).legal_actions(0)[0].id, expected_version=match.version)
            match.refresh_from_db()
        move_prompt = server.requests[1].prompt_text
    assert "Available actions" in move_prompt and "Recent chat, oldest first:" in move_prompt
    assert ANSWER in move_prompt


def test_the_answer_prompts_show_a_concrete_example_and_no_placeholder():
    state = create_game("gnomes", {"round": 2}).new_initial_state(4)
    view = turn_view(state.seat_view(1), 5)
    texts = [
        prompts.answer_system_prompt(view),
        prompts.answer_request(view, (ChatLine(0, "Gnome A", QUESTION),)),
        prompts.answer_correction("the reply was empty"),
    ]
    for text in texts:
        assert not re.search(r"<(?!/?state>)[^<>]{1,40}>", text), text
    assert '{"message": "I can see a wall' in texts[0] and '{"message": ""}' in texts[0]
    assert f'Gnome A: "{QUESTION}"' in texts[1]
