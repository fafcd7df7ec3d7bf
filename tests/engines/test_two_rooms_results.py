"""Two Rooms and a Boom's camps at the end (``State.result_teams``), for the ratings and the studies' ``won``.

Each winner of a team of three scores 1/3. Judged seat by seat (the camps are hidden during play, so ``Game.teams()``
is one team per seat), three winners sharing the top score read as a draw: a study exported ``won`` = 0 for every
winner, and the ratings compared teammates with each other as ties. Pure: engine states, no database.
"""

from __future__ import annotations

import random

from gameplay.engines.two_rooms_and_a_boom.cards import GAMBLER, TEAM_NUMBER, team_of
from gameplay.reads.player_results import seat_results
from gameplay.reads.selectors import final_teams
from gameplay.studies.measures import _won

from .two_rooms_support import new_state, play_random


def test_the_camps_stay_hidden_until_the_end():
    state = play_random(new_state(6, 4), random.Random(4), until=lambda s: s.round == 3)
    assert state.result_teams() == list(range(6))
    assert final_teams(state) is None


def test_at_the_end_every_seat_is_in_its_cards_camp_and_every_winner_has_won():
    wins = set()
    for seed in range(8):
        state = play_random(new_state(6, seed), random.Random(seed))
        camps = state.result_teams()
        assert camps == [TEAM_NUMBER[team_of(card)] for card in state.cards]
        assert sorted(camps) == [0, 0, 0, 1, 1, 1] and final_teams(state) == camps
        winners = state.winning_seats()
        wins.add(camps[winners[0]])
        assert seat_results(state.scores(), camps) == [1.0 if s in winners else 0.0 for s in range(6)]
        for seat in range(6):
            assert _won(state, seat) is (seat in winners), (seed, seat, state.scores(), camps)
    assert wins == {0, 1}  # both camps' wins were checked


def test_the_gambler_sides_with_the_team_it_bet_on():
    for bet in ("red", "blue"):
        state = play_random(new_state(7, 11), random.Random(11), until=lambda s: s.phase == "gamble")
        gambler = state.cards.index(GAMBLER)
        state.apply_action(gambler, f"gamble:{bet}")
        camps = state.result_teams()
        assert camps[gambler] == TEAM_NUMBER[bet]
        right = state.scores()[gambler] > 0
        assert _won(state, gambler) is right
        for seat in range(7):
            assert _won(state, seat) is (seat in state.winning_seats())
        assert seat_results(state.scores(), camps)[gambler] == (1.0 if right else 0.0)
