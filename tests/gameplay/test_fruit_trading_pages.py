"""Fruit Trading through the platform: each seat's page, websocket fragments and observation JSON carry its own
basket and points only (the other's appear nowhere until the end); the seat to move gets the offer builder with
every legal offer in its list and no generic per-action forms; the finished match's measures are kept."""

from __future__ import annotations

import pytest

from gameplay.engines.fruit_trading.offers import legal_offers
from gameplay.reads.selectors import seat_view, state_of
from gameplay.web.rendering import seat_fragments
from gameplay.writes import services
from gameplay.writes.services import SeatController

HUMAN = SeatController("human")
BOB_SECRETS = ("points per fruit: apple=10", "basket: apple×1, banana×2")
SUZY_SECRETS = ("points per fruit: apple=8", "basket: apple×0, banana×0")


def new_match():
    return services.create_match("fruit_trading", [HUMAN, HUMAN], seed=3, host_seat=None)


@pytest.mark.django_db
def test_each_seat_sees_only_its_own_basket_and_the_mover_gets_the_builder(client):
    match = new_match()
    bob, suzy = match.seats.get(index=0), match.seats.get(index=1)
    for seat, other in ((bob, SUZY_SECRETS), (suzy, BOB_SECRETS)):
        for html in (client.get(f"/play/{seat.token}/").content.decode(), seat_fragments(seat_view(match, seat)),
                     client.get(f"/play/{seat.token}/observation.json").content.decode()):
            for secret in other:
                assert secret not in html
    page = client.get(f"/play/{bob.token}/").content.decode()
    assert "Your basket is worth 20 points to you." in page
    assert page.count('<option value="propose:') == len(legal_offers((1, 2, 0, 0), 3))
    assert page.count("ws-send") < 10  # the builder and the reply form, not a form per offer
    assert 'aria-label="Give bananas"' in page and 'aria-label="Give kiwis"' in page
    waiting = client.get(f"/play/{suzy.token}/").content.decode()
    assert "fruit-builder" not in waiting
    public = client.get(f"/matches/{match.pk}/").content.decode()
    for secret in (*BOB_SECRETS, *SUZY_SECRETS):
        assert secret not in public


@pytest.mark.django_db
def test_a_trade_through_the_service_ends_the_match_with_its_measures(client):
    match = new_match()
    match = services.submit_action(match.pk, 0, "propose:banana1:kiwi2", expected_version=match.version,
                                   text="A banana for two kiwis?")
    match = services.submit_action(match.pk, 1, "accept", expected_version=match.version, text="Deal.")
    assert state_of(match).payoffs() == [1, 3]
    assert match.status == "finished"
    assert match.final_measures[0]["payoff"] == 1 and match.final_measures[1]["agreement"] is True
    page = client.get(f"/play/{match.seats.get(index=1).token}/").content.decode()
    assert "Player 2: <span class=\"payoff\">+3</span> points" in page and "apple=10" in page
