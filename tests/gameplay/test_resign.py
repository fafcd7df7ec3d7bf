"""Resign, and give up in a cooperative game (issue 16.4): the match ends now with the engine's scores
(``State.resignation_scores``), the result reads in words for each seat, and nothing else can change it."""

from __future__ import annotations

import re

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from gameplay.engines.registry import create_game
from gameplay.models import Event, Match
from gameplay.reads import result_lines, selectors
from gameplay.reads.selectors import state_of
from gameplay.writes import match_endings, services
from tests.gameplay.ws_support import HUMAN, RANDOM, TIMEOUT, clickable, connect, new_match

NEW_SANTORINI = "/games/santorini/new/"


def test_the_default_resignation_scores():
    santorini = create_game("santorini", {}, num_seats=2).new_initial_state(1)
    assert santorini.resignation_scores(0) == [0.0, 1.0]
    assert santorini.resignation_scores(1) == [1.0, 0.0]
    gnomes = create_game("gnomes", {}, num_seats=2).new_initial_state(1)
    assert gnomes.resignation_scores(0) == [0.5, 0.5]  # one team: the game is given up together


@pytest.mark.django_db
def test_resigning_ends_the_match_with_the_other_seat_winning():
    match = services.create_match("santorini", [HUMAN, HUMAN], seed=3)
    version = match.version
    match_endings.resign(match.pk, 0)
    match.refresh_from_db()
    assert (match.status, match.scores, match.winner, match.resigned_seat) == (
        Match.Status.FINISHED, [0.0, 1.0], 1, 0
    )
    end = Event.objects.get(match=match, kind=Event.Kind.END)
    assert end.payload == {"scores": [0.0, 1.0], "winner": 1, "resigned": 0}
    assert match.version == version  # not a move
    names = {0: "Player 1", 1: "Player 2"}
    state = state_of(match)
    assert result_lines.result_text(match, names, 0, state) == "You resigned. Player 2 won."
    assert result_lines.result_text(match, names, 1, state) == "Player 1 resigned. You won!"
    assert selectors.public_result(match) == "Player 1 resigned. Player 2 won."
    # Over means over: no more moves, no second resignation.
    with pytest.raises(services.ActionRejected, match="over"):
        services.submit_action(match.pk, 1, state.legal_actions(0)[0].id if state.legal_actions(0) else "x",
                               expected_version=version)
    with pytest.raises(services.ServiceError, match="over"):
        match_endings.resign(match.pk, 1)


@pytest.mark.django_db
def test_giving_up_a_cooperative_game():
    match = services.create_match("gnomes", [HUMAN, HUMAN], seed=3)
    match_endings.resign(match.pk, 1)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.scores == [0.5, 0.5] and match.winner is None
    assert selectors.public_result(match) == "Gnome B gave up, so the game ended."


@pytest.mark.django_db
@pytest.mark.parametrize("case", ["agent seat", "study round"])
def test_who_may_not_resign(case):
    if case == "agent seat":
        match = services.create_match("santorini", [HUMAN, RANDOM], seed=3, schedule_agents=False)
        seat, message = 1, "only a person's seat"
    else:
        match = services.create_match("santorini", [HUMAN, HUMAN], seed=3, private=True)
        seat, message = 0, "study round"
    with pytest.raises(match_endings.ServiceError, match=message):
        match_endings.resign(match.pk, seat)
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE and match.resigned_seat is None
    assert not Event.objects.filter(match=match, kind=Event.Kind.END).exists()


@pytest.mark.django_db
def test_the_resign_button_of_the_match_page():
    host = Client()
    response = host.post(NEW_SANTORINI, {"seat_0": "you", "seat_1": "agent:random", "seed": "3"})
    token = re.fullmatch(r"/play/([^/]+)/", response["Location"]).group(1)
    page = host.get(f"/play/{token}/").content.decode()
    assert f'action="/play/{token}/resign/"' in page and "Resign this game?" in page
    # Another browser holding no claim on the seat cannot resign for it.
    assert Client().post(f"/play/{token}/resign/").status_code == 403
    assert Match.objects.get().status == Match.Status.ACTIVE

    assert host.post(f"/play/{token}/resign/", {"leave": "1"})["Location"] == "/"
    match = Match.objects.get()
    assert match.status == Match.Status.FINISHED and match.winner == 1
    page = host.get(f"/play/{token}/").content.decode()
    assert "You resigned. Player 2 won." in page and "Resign this game?" not in page
    again = host.post(f"/play/{token}/resign/")
    assert again.status_code == 409 and "The match is over: nothing was changed." in again.content.decode()


@pytest.mark.django_db(transaction=True)
async def test_the_partner_sees_the_resignation_live(layer):
    match_id, tokens = await new_match(controllers=(HUMAN, HUMAN))
    partner, _ = await connect(tokens[1])
    await sync_to_async(match_endings.resign)(match_id, 0)
    html = await partner.receive_from(timeout=TIMEOUT)
    assert "Player 1 resigned. You won!" in html
    assert clickable(html, "action") == {}  # nothing left to play
    await partner.disconnect()
