"""No dialogue game's page tells a seat the other seat's private information (basket, valuations, schedule): along
random matches played through the match service, every seat's page, websocket fragments and observation JSON, and
the public match page, are checked against the engine's declared secrets after every move. The games are found by
their declared capability, so a dialogue game added later is checked too."""

from __future__ import annotations

import random

import pytest

from gameplay.engines.registry import GAMES
from gameplay.management.commands.bench_play import TEXTS
from gameplay.models import Match
from gameplay.reads.selectors import seat_view, state_of
from gameplay.web.rendering import seat_fragments
from gameplay.writes import services
from gameplay.writes.services import SeatController

DIALOGUE_GAMES = sorted(game_id for game_id, cls in GAMES.items() if cls.spec.dialogue is not None)
HUMAN = SeatController("human")


def pages(client, match: Match, seat) -> dict[str, str]:
    return {
        "page": client.get(f"/play/{seat.token}/").content.decode(),
        "fragments": seat_fragments(seat_view(match, seat)),
        "observation.json": client.get(f"/play/{seat.token}/observation.json").content.decode(),
    }


def random_move(match: Match, rng: random.Random) -> Match:
    """A random text action of the seat to move, with the first message the engine takes, through the service."""
    state = state_of(match)
    seat = state.current_seats()[0]
    action = rng.choice(state.text_actions(seat))
    for text in TEXTS:
        try:
            return services.submit_action(match.pk, seat, action.id, text=text, expected_version=match.version)
        except services.ServiceError:
            match.refresh_from_db()
    raise AssertionError(f"no message was taken for {action.id}")


@pytest.mark.parametrize("game_id", DIALOGUE_GAMES)
@pytest.mark.parametrize("scenario_seed", [3, 11])
@pytest.mark.django_db
def test_no_page_carries_the_other_seats_private_information(client, game_id, scenario_seed):
    assert DIALOGUE_GAMES, "no dialogue game is registered"
    options = {"scenario": "random"} if any(o.name == "scenario" for o in GAMES[game_id].spec.options) else {}
    match = services.create_match(game_id, [HUMAN, HUMAN], seed=scenario_seed, options=options, host_seat=None)
    seats = {seat.index: seat for seat in match.seats.all()}
    rng = random.Random(scenario_seed)
    checked = 0
    declares_secrets = any(state_of(match).secrets().values())  # a debate's sides and arguments are all public
    while True:
        match.refresh_from_db()
        state = state_of(match)
        secrets = state.secrets()
        for index, seat in seats.items():
            foreign = [value for other, values in secrets.items() if other != index for value in values]
            for where, html in pages(client, match, seat).items():
                leaked = [value for value in foreign if value in html]
                assert not leaked, f"{game_id}: seat {index}'s {where} carries {leaked[:1]}"
                checked += bool(foreign)
        public = client.get(f"/matches/{match.pk}/").content.decode()
        leaked = [value for values in secrets.values() for value in values if value in public]
        assert not leaked, f"{game_id}: the public page carries {leaked[:1]}"
        if state.is_terminal() or not state.current_seats():  # over, or waiting for a judge's verdict
            break
        match = random_move(match, rng)
    assert checked > 0 or not declares_secrets
