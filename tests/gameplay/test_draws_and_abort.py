"""Draw offers and aborting (issue 16, point 4; gameplay.writes.match_endings): two people may agree a draw where the
rules allow one (Hive), an offer lapses when the other side moves instead, and a game that has hardly begun can be
aborted without a result. Every refusal leaves the match and its log as they were."""

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
from tests.gameplay.ws_support import HUMAN, RANDOM, TIMEOUT, connect


def hive(controllers=(HUMAN, HUMAN), **kwargs) -> Match:
    return services.create_match("hive", list(controllers), seed=5, **kwargs)


def move(match: Match, seat: int) -> Match:
    match.refresh_from_db()
    action = state_of(match).legal_actions(seat)[0].id
    return services.submit_action(match.pk, seat, action, expected_version=match.version)


def draw_events(match: Match) -> list[tuple[int, dict]]:
    return list(Event.objects.filter(match=match, kind=Event.Kind.DRAW).order_by("seq").values_list("seat", "payload"))


def unchanged(match: Match):
    match.refresh_from_db()
    return match.status, match.version, match.draw_agreed, Event.objects.filter(match=match).count()


def test_which_games_allow_a_draw_by_agreement_and_how_it_scores():
    assert create_game("hive").spec.draw_by_agreement  # the rules allow a draw by mutual consent
    assert not create_game("santorini").spec.draw_by_agreement  # no draw in its rules
    assert not create_game("gnomes").spec.draw_by_agreement  # cooperative: nobody to draw with
    assert create_game("hive").new_initial_state(1).agreed_draw_scores() == [0.5, 0.5]


@pytest.mark.django_db
def test_an_offer_accepted_ends_the_match_drawn():
    match = hive()
    match_endings.agree_to_draw(match.pk, 0)
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE and match.draw_agreed == [0]
    names = {0: "White", 1: "Black"}
    view = selectors.seat_view(match, match.seats.get(index=1))
    assert view.draw_offered_by == ["White"] and not view.draw_mine
    assert selectors.seat_view(match, match.seats.get(index=0)).draw_mine
    match_endings.agree_to_draw(match.pk, 1)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.agreed_draw and match.winner is None
    assert match.scores == [0.5, 0.5] and match.draw_agreed == []
    assert draw_events(match) == [(0, {"offered": True}), (1, {"accepted": True})]
    end = Event.objects.get(match=match, kind=Event.Kind.END)
    assert end.payload == {"scores": [0.5, 0.5], "winner": None, "agreed_draw": True}
    assert result_lines.result_text(match, names, 0, state_of(match)) == "Drawn by agreement."
    assert selectors.public_result(match) == "Drawn by agreement."


@pytest.mark.django_db
def test_moving_instead_of_accepting_declines_and_the_offerer_may_move_on():
    match = hive()
    match_endings.agree_to_draw(match.pk, 0)  # White offers on its own turn, then moves: the offer stands
    move(match, 0)
    match.refresh_from_db()
    assert match.draw_agreed == [0]
    move(match, 1)  # Black moves instead of answering: declined
    match.refresh_from_db()
    assert match.draw_agreed == [] and match.status == Match.Status.ACTIVE
    assert selectors.seat_view(match, match.seats.get(index=1)).draw_offered_by == []


@pytest.mark.django_db
def test_declining_and_withdrawing():
    match = hive()
    match_endings.agree_to_draw(match.pk, 1)
    match_endings.refuse_draw(match.pk, 0)
    match_endings.agree_to_draw(match.pk, 0)
    match_endings.refuse_draw(match.pk, 0)
    match.refresh_from_db()
    assert match.draw_agreed == [] and match.status == Match.Status.ACTIVE
    assert draw_events(match) == [
        (1, {"offered": True}), (0, {"declined": True}), (0, {"offered": True}), (0, {"withdrawn": True}),
    ]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("case", "message"),
    [
        ("rules without draws", "no draw by agreement"),
        ("against an agent", "agreed between people"),
        ("study round", "study round"),
        ("agent's seat", "only a person's seat"),
        ("offered twice", "offered a draw already"),
        ("nothing to refuse", "no draw is on offer"),
        ("over", "the match is over"),
    ],
)
def test_draw_requests_that_are_refused_change_nothing(case, message):
    seat, write = 0, match_endings.agree_to_draw
    if case == "rules without draws":
        match = services.create_match("santorini", [HUMAN, HUMAN], seed=3)
    elif case == "against an agent":
        match = hive((HUMAN, RANDOM), schedule_agents=False)
    elif case == "study round":
        match = hive(private=True)
    elif case == "agent's seat":
        match, seat = hive((HUMAN, RANDOM), schedule_agents=False), 1
    elif case == "offered twice":
        match = hive()
        match_endings.agree_to_draw(match.pk, 0)
    elif case == "nothing to refuse":
        match, write = hive(), match_endings.refuse_draw
    else:
        match = hive()
        match_endings.resign(match.pk, 1)
    before = unchanged(match)
    with pytest.raises(match_endings.ServiceError, match=message):
        write(match.pk, seat)
    assert unchanged(match) == before


@pytest.mark.django_db
def test_a_game_that_has_hardly_begun_can_be_aborted_without_a_result():
    match = hive()
    move(match, 0)  # one move in a two-seat game: Black has not had a turn yet
    assert selectors.seat_view(match, match.seats.get(index=1)).can_abort
    match_endings.abort(match.pk, 1)
    match.refresh_from_db()
    assert match.status == Match.Status.ABORTED and match.scores is None and match.winner is None
    end = Event.objects.get(match=match, kind=Event.Kind.END)
    assert end.payload == {"aborted": match_endings.ABORTED_BY_PLAYER, "by": 1}


@pytest.mark.django_db
def test_once_everyone_has_moved_it_can_only_be_resigned():
    match = hive()
    move(match, 0)
    move(match, 1)
    match.refresh_from_db()
    assert not selectors.seat_view(match, match.seats.get(index=0)).can_abort
    before = unchanged(match)
    with pytest.raises(match_endings.ServiceError, match="under way"):
        match_endings.abort(match.pk, 0)
    assert unchanged(match) == before


@pytest.mark.django_db
def test_the_draw_and_abort_controls_of_the_match_page():
    host = Client()
    form = {"seat_0": "you", "seat_1": "invite", "seed": "3", "start_at_once": "on", "opt_max_turns": "0"}
    response = host.post("/games/hive/new/", form)
    token = response["Location"].split("/")[2]
    match = Match.objects.get()
    guest_token = match.seats.get(index=1).token
    page = host.get(f"/play/{token}/").content.decode()
    invite = re.search(r"/invite/[^/\"]+/", page).group(0)
    assert f'action="/play/{token}/draw/"' in page and "Offer a draw" in page
    assert f'action="/play/{token}/abort/"' in page and "Abort the game" in page
    assert host.post(f"/play/{token}/draw/", {"answer": "maybe"}).status_code == 400
    assert Client().post(f"/play/{token}/draw/", {"answer": "agree"}).status_code == 403  # not this browser's seat
    assert host.post(f"/play/{token}/draw/", {"answer": "agree"})["Location"] == f"/play/{token}/"
    page = host.get(f"/play/{token}/").content.decode()
    assert "You offered a draw." in page and "Withdraw the offer" in page and "Offer a draw" not in page
    guest = Client()
    assert guest.post(invite)["Location"] == f"/play/{guest_token}/"  # the guest takes the seat
    page = guest.get(f"/play/{guest_token}/").content.decode()
    assert "White offers a draw." in page and "Accept the draw" in page
    again = host.post(f"/play/{token}/draw/", {"answer": "agree"})
    assert again.status_code == 409 and "nothing was changed" in again.content.decode()
    guest.post(f"/play/{guest_token}/draw/", {"answer": "agree"})
    page = host.get(f"/play/{token}/").content.decode()
    assert "Drawn by agreement." in page and "Offer a draw" not in page


@pytest.mark.django_db
def test_santorini_offers_no_draw_and_an_aborted_match_says_so():
    host = Client()
    response = host.post("/games/santorini/new/", {"seat_0": "you", "seat_1": "agent:random", "seed": "3"})
    token = response["Location"].split("/")[2]
    page = host.get(f"/play/{token}/").content.decode()
    assert "draw" not in page.lower().replace("drawn", "")  # no draw offer, no draw text
    assert host.post(f"/play/{token}/abort/")["Location"] == f"/play/{token}/"
    page = host.get(f"/play/{token}/").content.decode()
    assert "This match has ended without a result (aborted before the game got going)." in page
    assert "Abort the game" not in page and f'href="/play/{token}/replay/"' in page


@pytest.mark.django_db(transaction=True)
async def test_the_other_player_sees_the_offer_and_the_draw_live(layer):
    match = await sync_to_async(hive)()
    tokens = await sync_to_async(lambda: list(match.seats.order_by("index").values_list("token", flat=True)))()
    black, _ = await connect(tokens[1])
    await sync_to_async(match_endings.agree_to_draw)(match.pk, 0)
    html = await black.receive_from(timeout=TIMEOUT)
    assert "White offers a draw." in html and "Accept the draw" in html
    await sync_to_async(match_endings.agree_to_draw)(match.pk, 1)
    html = await black.receive_from(timeout=TIMEOUT)
    assert "Drawn by agreement." in html and "Your turn" not in html and 'ws-send' not in html
    await black.disconnect()
