"""Labels per viewer and a game without chat, through the platform: the service logs the public label and one
label per seat, a seat's page and websocket fragments show that seat's own label of the last action, the public
match page shows the public label, and no page carries another seat's secret word.

The game is a throwaway hidden-information game ("secret word"), registered only for these tests by
monkeypatching gameplay.engines.registry.GAMES. It has no board template of its own, so the pages use the generic
board (the viewer's own observation text), and no chat (GameSpec.has_chat is False).
"""

from __future__ import annotations

import json
import re
from dataclasses import replace

import pytest
from channels.db import database_sync_to_async

from gameplay.boards import GENERIC_TEMPLATE, presenter_for
from gameplay.engines import registry
from gameplay.models import Event, Match
from gameplay.reads.selectors import seat_view, state_of
from gameplay.writes import services
from gameplay.writes.services import SeatController, ServiceError
from tests.gameplay.ws_support import FLASH_ERROR, TIMEOUT, close_all, connect, fingerprint, receive_until
from tests.support.face_down import PerSeatLabelsGame

HUMAN = SeatController("human")


class SecretWordGame(PerSeatLabelsGame):
    """The face-down game with labels worded per seat, registered for these tests only (no template, no chat)."""

    spec = replace(PerSeatLabelsGame.spec, id="secret_word_test", name="Secret word (test)")
    length = 4


@pytest.fixture
def secret_word(monkeypatch):
    monkeypatch.setitem(registry.GAMES, SecretWordGame.spec.id, SecretWordGame)
    return SecretWordGame


def new_match() -> Match:
    """A match whose two seats hold different words (so a leak of one into the other's page is visible)."""
    for seed in range(100):
        if len(set(SecretWordGame().new_initial_state(seed).hands)) == 2:
            return services.create_match(SecretWordGame.spec.id, [HUMAN, HUMAN], seed=seed, host_seat=None)
    raise AssertionError("no seed dealt two different words")


def token(match: Match, index: int) -> str:
    return match.seats.get(index=index).token


def play(match: Match, seat: int, action_id: str = "play") -> tuple[Match, str]:
    """Seat plays; returns the match and the word it played."""
    word = state_of(match).hands[seat]
    return services.submit_action(match.pk, seat, action_id, expected_version=match.version), word


def last_line(html: str) -> str:
    found = re.search(r'<p class="meta[^"]*">Last: (.*?)</p>', html)
    assert found, "the page shows no last action"
    return found.group(1)


# --- the event log -------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_action_event_keeps_the_public_label_and_one_label_per_seat(secret_word):
    match, word = play(new_match(), 0)
    event = match.events.get(kind=Event.Kind.ACTION)
    assert event.payload["label"] == "Player 1 plays a word face down"
    assert event.payload["labels"] == [f"You play the {word} face down", "Player 1 plays a word face down"]


# --- pages -------------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_each_seat_page_shows_its_own_label_and_the_public_page_the_public_one(client, secret_word):
    match, word = play(new_match(), 0)
    other_word = state_of(match).hands[1]
    own = client.get(f"/play/{token(match, 0)}/").content.decode()
    assert last_line(own) == f"You play the {word} face down"
    theirs = client.get(f"/play/{token(match, 1)}/").content.decode()
    assert last_line(theirs) == "Player 1 plays a word face down"
    assert word not in theirs  # seat 1 holds another word: seat 0's played word appears nowhere on its page
    assert f"Your word: {other_word}." in theirs  # the generic board: seat 1's own observation text
    public = client.get(f"/matches/{match.pk}/").content.decode()
    assert last_line(public) == "Player 1 plays a word face down"
    assert "Words played face down: [1, 0]." in public
    for secret in (word, other_word, *state_of(match).hands):
        assert secret not in public


@pytest.mark.django_db
def test_old_events_without_labels_per_seat_show_their_label_to_everyone(secret_word):
    match, _ = play(new_match(), 0, "pass")
    event = match.events.get(kind=Event.Kind.ACTION)
    # As logged before events had "labels" (the log is append-only: rewrite it behind the model's back).
    Event.objects.filter(pk=event.pk).update(payload={"action_id": "pass", "label": "Pass (logged earlier)"})
    for seat in (*match.seats.all(), None):
        assert seat_view(match, seat).last_action == "Player 1: Pass (logged earlier)"


@pytest.mark.django_db
def test_a_game_without_its_own_board_template_gets_the_generic_board(client, secret_word):
    match = new_match()
    view = seat_view(match, match.seats.get(index=0))
    presenter = presenter_for(view.seat_view.game_id)
    assert presenter.template == GENERIC_TEMPLATE and presenter.generic
    html = client.get(f"/play/{token(match, 0)}/").content.decode()
    assert '<details open>' in html  # nothing to click on the board: the list of actions is open
    assert 'data-action-id="play"' in html


# --- no chat -----------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_game_without_chat_has_no_chat_box_and_refuses_messages(client, secret_word):
    match = new_match()
    html = client.get(f"/play/{token(match, 0)}/").content.decode()
    assert 'value="chat"' not in html and 'id="chat-log"' not in html
    before = Event.objects.filter(match=match).count()
    with pytest.raises(ServiceError, match="chat is off in this match"):
        services.post_message(match.pk, 0, "hello")
    assert Event.objects.filter(match=match).count() == before


@pytest.mark.django_db
def test_gnomes_chat_follows_the_chat_option(client):
    muted = services.create_match("gnomes", [HUMAN, HUMAN], seed=1, options={"chat": False}, host_seat=None)
    html = client.get(f"/play/{token(muted, 0)}/").content.decode()
    assert 'value="chat"' not in html
    with pytest.raises(ServiceError, match="chat is off in this match"):
        services.post_message(muted.pk, 0, "hello")
    talking = services.create_match("gnomes", [HUMAN, HUMAN], seed=1, host_seat=None)
    assert 'value="chat"' in client.get(f"/play/{token(talking, 0)}/").content.decode()
    services.post_message(talking.pk, 0, "go down")
    assert state_of(Match.objects.get(pk=talking.pk)).chat[0]["text"] == "go down"  # spec.chat_in_state


@pytest.mark.django_db
def test_hive_has_no_chat_box(client):
    match = services.create_match("hive", [HUMAN, HUMAN], seed=1, host_seat=None)
    assert 'value="chat"' not in client.get(f"/play/{token(match, 0)}/").content.decode()
    with pytest.raises(ServiceError, match="chat is off"):
        services.post_message(match.pk, 0, "hello")


# --- websocket fragments -----------------------------------------------------------------------------------


@database_sync_to_async
def _new_match_tokens() -> tuple[int, str, str]:
    match = new_match()
    return match.pk, token(match, 0), token(match, 1)


@database_sync_to_async
def _play(match_id: int, seat: int) -> str:
    return play(Match.objects.get(pk=match_id), seat)[1]


@pytest.mark.django_db(transaction=True)
async def test_websocket_fragments_show_each_seat_its_own_label(layer, secret_word):
    match_id, tok0, tok1 = await _new_match_tokens()
    comm0, _ = await connect(tok0)
    comm1, html1 = await connect(tok1)
    assert 'id="chat-log"' not in html1  # no chat region is swapped in a match without chat
    word = await _play(match_id, 0)
    html0 = await receive_until(comm0, lambda h: "Last:" in h)
    html1 = await receive_until(comm1, lambda h: "Last:" in h)
    assert last_line(html0) == f"You play the {word} face down"
    assert last_line(html1) == "Player 1 plays a word face down"
    assert word not in html1
    await close_all(comm0, comm1)


@pytest.mark.django_db(transaction=True)
async def test_a_chat_frame_in_a_match_without_chat_is_refused_and_changes_nothing(layer, secret_word):
    match_id, tok0, tok1 = await _new_match_tokens()
    comm0, _ = await connect(tok0)
    comm1, _ = await connect(tok1)
    before = await fingerprint(match_id)
    await comm0.send_to(text_data=json.dumps({"kind": "chat", "text": "hello"}))
    reply = await comm0.receive_from(timeout=TIMEOUT)
    assert FLASH_ERROR in reply and "chat is off in this match" in reply
    assert await fingerprint(match_id) == before
    await comm1.receive_nothing()  # nothing was broadcast
    await close_all(comm0, comm1)
