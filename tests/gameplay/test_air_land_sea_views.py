"""Air, Land & Sea through the web app: two people join by invite link and play, and neither page, nor the public
match page, nor the replay carries a card the viewer may not know (a hand, a face-down card, the deck)."""

from __future__ import annotations

import random
import re

import pytest
from django.test import Client

from gameplay.models import Match
from gameplay.reads.selectors import state_of
from gameplay.writes import services


def foreign_secrets(state, seat: int | None) -> set[str]:
    secrets = {int(k): set(v) for k, v in state.secrets().items()}
    own = secrets.get(seat, set()) if seat is not None else set()
    return {v for s, values in secrets.items() if s != seat for v in values} - own


def card_mentions(html: str) -> set[str]:
    """Card ids the page shows as cards (data-card attributes) or in words ("A3 Maneuver")."""
    return set(re.findall(r'data-card="([ALS][1-6])"', html)) | set(re.findall(r"\b([ALS][1-6]) [A-Z]", html))


@pytest.mark.django_db
def test_two_people_play_by_invite_and_no_page_shows_a_hidden_card():
    host = Client()
    response = host.post("/games/air_land_sea/new/", {"seat_0": "you", "seat_1": "invite", "seed": "4",
                                                      "start_at_once": "on", "opt_target_vp": "12",
                                                      "opt_action_cap": "1500"})
    token = response["Location"].split("/")[2]
    match = Match.objects.get()
    guest_token = match.seats.get(index=1).token
    invite = re.search(r"/invite/[^/\"]+/", host.get(f"/play/{token}/").content.decode()).group(0)
    guest = Client()
    assert guest.post(invite)["Location"] == f"/play/{guest_token}/"
    browsers = {0: (host, token), 1: (guest, guest_token)}
    rng = random.Random(4)
    checked = 0
    for _ in range(40):
        match.refresh_from_db()
        state = state_of(match)
        if state.is_terminal():
            break
        for seat, (browser, seat_token) in browsers.items():
            page = browser.get(f"/play/{seat_token}/").content.decode()
            assert 'class="als' in page
            # The move list repeats what the seat was told as each move happened (a card played face up and later
            # flipped or redeployed was seen then): its lines are checked against the seat's labels in
            # tests/gameplay/test_move_list.py. Here, what the page shows of the position now.
            page = re.sub(r'<section id="moves".*?</section>', "", page, flags=re.S)
            leaked = card_mentions(page) & foreign_secrets(state, seat)
            assert not leaked, f"seat {seat}'s page shows hidden cards {leaked}"
            for card in state.hands[seat]:
                assert f'data-card="{card}"' in page  # a person sees their own hand
            checked += 1
        public = Client().get(f"/matches/{match.pk}/").content.decode()
        assert not card_mentions(public) & foreign_secrets(state, None)
        seat = state.current_seats()[0]
        actions = [a.id for a in state.legal_actions(seat) if a.id != "withdraw"]
        services.submit_action(match.pk, seat, rng.choice(actions), expected_version=match.version)
    assert checked >= 40
    for seat, (browser, seat_token) in browsers.items():
        replay = browser.get(f"/play/{seat_token}/replay/")
        assert replay.status_code == 200 and 'class="als' in replay.content.decode()
        state = state_of(match)
        assert not card_mentions(replay.content.decode()) & foreign_secrets(state, seat)
