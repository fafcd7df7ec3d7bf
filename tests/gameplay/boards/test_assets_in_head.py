"""A board's stylesheets and scripts (its presenter's css/js) are loaded once, in the page's head, never inside the
board fragment the websocket or a replay step swaps in (where every move would load them again)."""

from __future__ import annotations

import pytest

from gameplay.boards.registry import PRESENTERS
from gameplay.engines.registry import GAMES
from gameplay.reads.selectors import seat_view
from gameplay.web.rendering import seat_fragments
from gameplay.writes import match_endings, services
from gameplay.writes.services import SeatController

pytestmark = pytest.mark.django_db
HUMAN = SeatController("human")
ASSETS = ("css/fruit_trading.css", "js/fruit_trading.js")  # the presenter of Fruit Trading declares both
WITH_ASSETS = sorted(game_id for game_id, presenter in PRESENTERS.items() if presenter.css or presenter.js)


def assert_once_in_head(html: str, assets=ASSETS) -> None:
    head, _, body = html.partition("</head>")
    for asset in assets:
        assert head.count(f"/static/{asset}") == 1, asset
        assert asset not in body, asset


def test_the_board_assets_are_in_the_heads_of_the_pages_and_never_in_the_swapped_board(client):
    match = services.create_match("fruit_trading", [HUMAN, HUMAN], seed=3, host_seat=None)
    seat = match.seats.get(index=0)
    assert_once_in_head(client.get(f"/play/{seat.token}/").content.decode())
    assert_once_in_head(client.get(f"/matches/{match.pk}/").content.decode())
    fragments = seat_fragments(seat_view(match, seat))
    assert "fruit-builder" in fragments and not any(asset in fragments for asset in ASSETS)
    match_endings.resign(match.pk, 0)
    assert_once_in_head(client.get(f"/matches/{match.pk}/replay/").content.decode())
    step = client.get(f"/matches/{match.pk}/replay/?step=0", headers={"HX-Request": "true"}).content.decode()
    assert "fruit" in step and not any(asset in step for asset in ASSETS)


@pytest.mark.parametrize("game_id", WITH_ASSETS)
def test_every_boards_assets_load_once_in_the_head_and_never_in_its_fragment(client, game_id):
    presenter = PRESENTERS[game_id]
    assets = (*presenter.css, *presenter.js)
    seats = GAMES[game_id].spec.min_seats
    match = services.create_match(game_id, [HUMAN] * seats, seed=5, host_seat=None)
    seat = match.seats.get(index=0)
    assert_once_in_head(client.get(f"/play/{seat.token}/").content.decode(), assets)
    fragments = seat_fragments(seat_view(match, seat))
    assert fragments and not any(asset in fragments for asset in assets)
