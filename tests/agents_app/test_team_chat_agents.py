"""Agents read and answer only the chat lines their seat may read (GameSpec.team_chat, ``payload["audience"]``): the
recent chat an agent is shown, the lines it owes an answer and the answer itself (posted to its own team), on the
throwaway four-seat team game of tests/support/team_game.py (teams North+South, East+West; South may not write)."""

from __future__ import annotations

import pytest

from agents_app import chat_services, context_selectors
from agents_app.services import turn_view
from gameplay.engines import registry
from gameplay.models import Event, Match
from gameplay.reads.selectors import game_of
from gameplay.writes import services
from gameplay.writes.services import SeatController
from tests.agents_app.llm_match_support import eager_celery, llm_config  # noqa: F401 (fixture)
from tests.support.openai_server import ScriptedReply, scripted_openai_server
from tests.support.team_game import TeamRaceGame

HUMAN = SeatController("human")
NORTH_LINE = "West, we go left"  # North's team line (North and South read it), naming West
EAST_LINE = "West, what now?"  # East's team line (East and West read it)
ANSWER = "Pass and wait for them."


@pytest.fixture
def team_race(monkeypatch):
    monkeypatch.setitem(registry.GAMES, TeamRaceGame.spec.id, TeamRaceGame)
    return TeamRaceGame


def texts(lines) -> list[str]:
    return [line.text for line in lines]


@pytest.mark.django_db
def test_an_agent_is_shown_and_owes_only_the_lines_of_its_audience(team_race):
    match = services.create_match(TeamRaceGame.spec.id, [HUMAN] * 4, seed=1, host_seat=None)
    services.post_message(match.pk, 0, NORTH_LINE)
    services.post_message(match.pk, 1, EAST_LINE)
    game = game_of(match)
    assert texts(context_selectors.recent_chat(match, game, 3)) == [EAST_LINE]
    assert texts(context_selectors.recent_chat(match, game, 2)) == [NORTH_LINE]
    assert texts(context_selectors.match_context(match, game, 3).chat_log) == [EAST_LINE]
    owed = context_selectors.owed_answer(match, game, 3, limit=1)
    assert owed is not None and texts(owed.lines) == [EAST_LINE]  # North's line names West, but West cannot read it
    assert texts(context_selectors.recent_chat(match, game, 0, limit=1)) == [NORTH_LINE]


@pytest.mark.django_db(transaction=True)  # the answer is queued when the line's transaction commits
@pytest.mark.usefixtures("eager_celery")
def test_an_llm_seat_answers_its_team_with_only_its_teams_lines_in_the_prompt(team_race):
    prompts: list[str] = []

    def model(body) -> ScriptedReply:
        prompts.append("\n".join(str(m.get("content")) for m in body["messages"]))
        return ScriptedReply.text({"message": ANSWER})

    with scripted_openai_server(model) as server:
        llm_config("teammate", server.base_url, chat_replies=1)
        match = services.create_match(
            TeamRaceGame.spec.id, [HUMAN, HUMAN, HUMAN, SeatController("agent", agent_name="teammate")],
            seed=1, host_seat=None,
        )
        services.post_message(match.pk, 0, NORTH_LINE)  # West is named but may not read it: no answer
        assert not prompts
        services.post_message(match.pk, 1, EAST_LINE)
        match = Match.objects.get(pk=match.pk)
        lines = [(e.seat, e.payload["text"], e.payload["audience"])
                 for e in Event.objects.filter(match=match, kind=Event.Kind.MESSAGE).order_by("seq")]
    assert lines == [(0, NORTH_LINE, [0, 2]), (1, EAST_LINE, [1, 3]), (3, ANSWER, [1, 3])]
    assert prompts and all(EAST_LINE in p and NORTH_LINE not in p for p in prompts)
    assert chat_services.answer_chat(match.pk) == 0  # answered already: nothing more to say


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("eager_celery")
def test_an_llm_seat_that_may_not_chat_is_not_asked_to_answer(team_race):
    prompts: list[str] = []

    def model(body) -> ScriptedReply:
        prompts.append("asked")
        return ScriptedReply.text({"message": ANSWER})

    with scripted_openai_server(model) as server:
        llm_config("listener", server.base_url, chat_replies=1)
        match = services.create_match(
            TeamRaceGame.spec.id, [HUMAN, HUMAN, SeatController("agent", agent_name="listener"), HUMAN],
            seed=1, host_seat=None,
        )
        services.post_message(match.pk, 0, "South, we go left")  # South reads it, but may not write
        assert chat_services.answer_chat(match.pk) == 0
    assert not prompts
    assert Event.objects.filter(match=match, kind=Event.Kind.MESSAGE).count() == 1


def test_a_muted_seat_is_not_offered_a_message_with_its_move():
    state = TeamRaceGame().new_initial_state(1)
    assert turn_view(state.seat_view(0), 1).chat is True
    assert turn_view(state.seat_view(2), 1).chat is False


def test_an_llm_operative_is_told_its_chat_reaches_its_team_only():
    from agents_app.agents.llm import prompts
    from gameplay.engines.registry import create_game

    state = create_game("codenames", {}, 4).new_initial_state(5)
    spymaster = state.current_seats()[0]
    assert not turn_view(state.seat_view(spymaster), 0).chat  # a Spymaster may not write: no message with a clue
    state.apply_action(spymaster, "clue", "zephyr,1")
    guesser = state.current_seats()[0]  # the team's Operative
    operative = turn_view(state.seat_view(guesser), 0)
    assert operative.chat and operative.team_chat
    assert "your team in its team chat (the other team never reads it)" in prompts.system_prompt(operative, 0)
    santorini = create_game("santorini").new_initial_state(0)
    assert not turn_view(santorini.seat_view(0), 0).team_chat
