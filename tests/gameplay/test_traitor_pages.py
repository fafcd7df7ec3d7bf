"""Are You the Traitor? through the platform (templates/games/are_you_the_traitor/board.html): each seat's page
shows its own role card and nobody else's, the public table, the talk as chat lines, the controls of the seat to
act (the Keyholder's Stop reads "Give the Key to…"), the resolution for everyone with each seat's own draw, and the
end. Seed 1 at 4 seats deals round 1: Player 1 Guard, Player 2 Traitor, Player 3 Keyholder, Player 4 Good Wizard;
after Player 4's Stop on Player 2, round 2: Player 1 Good Wizard, Player 2 Traitor, Player 3 Keyholder, Player 4
Guard, with Player 2 first to talk."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from gameplay.engines.are_you_the_traitor.deck import RING
from gameplay.models import Event, Match
from gameplay.reads.selectors import seat_view, state_of
from gameplay.web.rendering import seat_fragments
from gameplay.writes import services, timeouts
from gameplay.writes.services import SeatController

HUMAN = SeatController("human")
OPTIONS = {"max_rounds": 2, "ticks_before_handoff": 1}
ROLE_CARDS = ['data-character="Guard"', 'data-character="Traitor"', 'data-character="Keyholder"',
              'data-character="Good Wizard"']


def act(match, seat, action_id, text=None):
    return services.submit_action(match.pk, seat, action_id, expected_version=match.version, text=text)


def pages(client, match):
    return [client.get(f"/play/{s.token}/").content.decode() for s in match.seats.order_by("index")]


@pytest.fixture
def match():
    match = services.create_match("are_you_the_traitor", [HUMAN] * 4, seed=1, options=OPTIONS, host_seat=None)
    assert state_of(match).characters == ["guard", "traitor", "keyholder", "wizard"]
    return match


@pytest.mark.django_db
def test_each_seat_sees_only_its_own_role_card_and_its_controls(client, match):
    match = act(match, 0, "say", "I am a Guard, honest")
    match = act(match, 1, "say", "Me too")
    html = pages(client, match)
    for seat, page in enumerate(html):
        assert page.count("data-character=") == 1
        assert ROLE_CARDS[seat] in page
        for other, card in enumerate(ROLE_CARDS):
            if other != seat:
                assert card not in page
        assert "your secret alignment" not in page or seat == 3
        assert 'class="tag wizard">Wizard' in page  # Player 4 is a Wizard, publicly
    public = client.get(f"/matches/{match.pk}/").content.decode()
    assert "data-character=" not in public and "secret alignment" not in public
    # The talk as chat lines: the viewer's own line reads "You".
    assert '<span class="who">You</span><span class="said">I am a Guard, honest</span>' in html[0]
    assert '<span class="who">Player 1</span><span class="said">I am a Guard, honest</span>' in html[1]
    # Player 3, the Keyholder, is to act: its picker hands the Key to the one Wizard; nobody else has controls.
    assert "Give the Key to…" in html[2] and 'value="stop:3"' in html[2] and 'value="stop:0"' not in html[2]
    assert 'id="traitor-say-text"' in html[2]
    for page in (html[0], html[1], html[3]):
        assert "traitor-controls" not in page and "Give the Key" not in page
    # The fragments its websocket is sent carry the same card, and only its own.
    third = match.seats.get(index=2)
    fragments = seat_fragments(seat_view(match, third))
    assert ROLE_CARDS[2] in fragments and ROLE_CARDS[0] not in fragments


@pytest.mark.django_db
def test_traitors_have_no_stop_and_guards_point_at_anyone(client, match):
    html = pages(client, match)
    assert "Stop! Point at…" in html[0]
    assert all(f'value="stop:{t}"' in html[0] for t in (1, 2, 3))
    match = act(match, 0, "pass")
    html = pages(client, match)
    assert 'data-action-id="pass"' in html[1] and "Stop! Point at…" not in html[1] and "stop:" not in html[1]


@pytest.mark.django_db
def test_the_resolution_reveals_every_character_to_all_and_each_own_draw(client, match):
    match = act(match, 0, "say", "hello")
    match = act(match, 1, "pass")
    match = act(match, 2, "say", "who is good?")
    match = act(match, 3, "stop:1")
    html = pages(client, match)
    state = state_of(match)
    assert state.phase == "ring"
    for page in html:
        assert "Round 1: team Good wins" in page
        assert "Player 4 called Stop on Player 2." in page
        for name in ("Guard", "Traitor", "Keyholder", "Good Wizard"):
            assert f'<span class="character">{name}</span>' in page
        assert "data-character=" not in page  # the round is over: no role card until the next deal
        assert page.count("won the round</span>") == 3
    assert "Player 1 drew Bag of Gold (3)." in html[0] and "Your points: 3" in html[0]
    assert "Bag of Gold" not in html[1] and "Player 1 drew a treasure card." in html[1]
    assert "Your points: 0" in html[1]
    # The Magic Ring step: every seat at once, holder or not; nobody here holds a ring, so nobody need click.
    for page in html:
        assert 'data-action-id="keep_ring"' in page and ">Go on now</button>" in page
        assert "You hold none, so there is nothing for you to do: the next round begins by itself." in page
    for seat in (1, 3, 0, 2):
        match = act(match, seat, "keep_ring")
    html = pages(client, match)
    assert 'data-round="2"' in html[0] and "Last round (1): Good won" in html[0]
    assert ROLE_CARDS[3] in html[0]  # round 2: Player 1 is the Good Wizard now


@pytest.mark.django_db
def test_the_ring_step_goes_on_by_itself_for_people_who_hold_no_ring(client, match):
    """Issue 39: nobody holding a Magic Ring is asked to click: when the step's clock (ring_seconds, 10 s by
    default) runs out, the server's sweep moves every seat still there on, and the next round starts."""
    match = act(match, 0, "pass")
    match = act(match, 1, "pass")
    match = act(match, 2, "stop:3")  # the Key to the Good Wizard: Players 3 and 4 draw
    state = state_of(match)
    assert state.phase == "ring" and not any(RING in hand for hand in state.hands)
    html = pages(client, match)
    assert all('class="turn-clock"' in page and 'data-limit="10"' in page for page in html)
    match = act(match, 3, "keep_ring")  # one player presses "Go on now"; the others do nothing
    assert timeouts.apply_timeouts(match.pk) == []  # their time has not run out
    Match.objects.filter(pk=match.pk).update(turn_started_at=timezone.now() - timedelta(seconds=11))
    assert timeouts.apply_timeouts(match.pk) == [0, 1, 2]
    match.refresh_from_db()
    state = state_of(match)
    assert state.phase == "talk" and state.round_no == 2
    actions = Event.objects.filter(match=match, kind=Event.Kind.ACTION).order_by("seq")
    assert [e.seat for e in actions if e.payload.get("timed_out")] == [0, 1, 2]


@pytest.mark.django_db
def test_the_end_shows_every_total_and_the_winners(client, match):
    match = act(match, 0, "pass")
    match = act(match, 1, "pass")
    match = act(match, 2, "stop:3")  # the Key to the Good Wizard
    for seat in (2, 3, 0, 1):
        match = act(match, seat, "keep_ring")
    match = act(match, 1, "pass")
    match = act(match, 2, "stop:0")  # round 2: the Key to Player 1, the Good Wizard
    state = state_of(match)
    while state.phase == "ring":
        seat = state.current_seats()[0]
        match = act(match, seat, state.legal_actions(seat)[-1].id)
        state = state_of(match)
    assert state.phase == "over"
    html = pages(client, match)
    for page in html:
        assert "Game over" in page and "Winner" in page
        assert "Player 3 gave the Key to Player 1." in page
    assert "traitor-controls" not in html[0]
    # The replay draws the same boards without controls: the public view, step by step.
    for step in (0, 3, 9, 100):
        replay = client.get(f"/matches/{match.pk}/replay/?step={step}")
        assert replay.status_code == 200
        body = replay.content.decode()
        assert 'class="traitor"' in body and "traitor-controls" not in body and "data-character=" not in body


@pytest.mark.django_db
def test_at_ten_seats_traitors_are_shown_each_other_and_the_keyholder_wizards_nothing(client):
    match = services.create_match("are_you_the_traitor", [HUMAN] * 10, seed=3, host_seat=None)
    state = state_of(match)
    html = pages(client, match)
    keyholder = f"Player {state.keyholder() + 1} is the Keyholder"
    traitors = [s for s, c in enumerate(state.characters) if c == "traitor"]
    for seat, page in enumerate(html):
        known = page.split('class="known"')[1].split("</ul>")[0] if 'class="known"' in page else ""
        character = state.characters[seat]
        assert (keyholder in known) == (character in ("guard", "traitor"))
        if character == "traitor":
            other = next(t for t in traitors if t != seat)
            assert f"Player {other + 1} is a Traitor" in known
        else:
            assert "is a Traitor" not in page
        table = page.split('class="traitor-seats"')[1].split("</ul>")[0]
        assert table.count('class="tag wizard">Wizard') == 3
