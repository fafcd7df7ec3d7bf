"""Pit through the platform: after a blind trade between Players 1 and 2, nothing Player 3 (or a spectator) can
load while the match runs names what was traded or carries the raw action ids (which name the cards): its page,
its websocket fragments, its observation JSON, the public match page, the match list; the replay and the model
transcripts stay closed until the end. Seed 369 deals Player 1 six Wheat and three Corn, Player 2 three Wheat,
four Barley and two Corn, Player 3 five Barley and four Corn (so "Wheat" cards never reach Player 3)."""

from __future__ import annotations

import pytest

from gameplay.reads.selectors import seat_view, state_of
from gameplay.web.rendering import seat_fragments
from gameplay.writes import services
from gameplay.writes.services import SeatController

HUMAN = SeatController("human")
SEED = 369
OFFER, ANSWER = "offer:3:corn", "accept:0:3:wheat"


def traded_match():
    match = services.create_match("pit", [HUMAN, HUMAN, HUMAN], seed=SEED, options={"max_hands": 1},
                                  host_seat=None)
    assert state_of(match).hands[2] == {"barley": 5, "corn": 4}
    match = services.submit_action(match.pk, 0, OFFER, expected_version=match.version)
    return services.submit_action(match.pk, 1, ANSWER, expected_version=match.version)


def assert_tells_only_counts(html: str, seat_page: bool = False) -> None:
    """No trace of the trade's cards. Player 3 holds Corn itself, so its own page may offer 3 Corn (its own buttons,
    ids included); everything else may not mention 3 Corn at all."""
    secrets = [ANSWER, "3 Wheat", "offers 3 Corn", "Corn for", "gave", "you got", "Wheat</span>"]
    if not seat_page:
        secrets += [OFFER, "3 Corn"]
    for secret in secrets:
        assert secret not in html, f"{secret!r} reached a third party"


@pytest.mark.django_db
def test_a_third_seat_and_spectators_see_only_who_traded_how_many(client):
    match = traded_match()
    third = match.seats.get(index=2)
    page = client.get(f"/play/{third.token}/").content.decode()
    assert "Player 1 and Player 2 traded 3 cards." in page
    assert_tells_only_counts(page, seat_page=True)
    assert_tells_only_counts(seat_fragments(seat_view(match, third)), seat_page=True)  # what its websocket is sent
    observation = client.get(f"/play/{third.token}/observation.json").content.decode()
    assert "traded 3 cards" in observation
    assert_tells_only_counts(observation, seat_page=True)
    public = client.get(f"/matches/{match.pk}/").content.decode()
    assert "Player 1 and Player 2 traded 3 cards." in public
    assert_tells_only_counts(public)
    assert_tells_only_counts(client.get("/matches/").content.decode())
    assert client.get(f"/matches/{match.pk}/replay/").status_code == 403
    assert client.get(f"/play/{third.token}/replay/").status_code == 403
    assert client.get(f"/matches/{match.pk}/transcripts.jsonl").status_code in (403, 404)


@pytest.mark.django_db
def test_the_two_traders_each_read_what_they_got(client):
    match = traded_match()
    first = client.get(f"/play/{match.seats.get(index=0).token}/").content.decode()
    second = client.get(f"/play/{match.seats.get(index=1).token}/").content.decode()
    assert "Player 2 took your offer: you gave 3 Corn and you got 3 Wheat (trade 1)." in first
    assert "You took Player 1&#x27;s offer: you gave 3 Wheat and you got 3 Corn (trade 1)." in second
    assert 'data-action-id="corner:wheat"' not in second
    assert 'data-action-id="offer:4:corn"' not in first  # Player 1 has acted this tick: no buttons until the next
