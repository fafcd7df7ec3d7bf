"""Codenames: the fact sheet's test facts (test_factN_...) and seeded random playouts with invariants at 4-10 seats."""

from __future__ import annotations

import json
import random

import pytest

from gameplay.engines.api import IllegalActionError
from gameplay.engines.codenames import CodenamesGame

from .codenames_support import ASSASSIN_CELL, BLUE_CELL, BYSTANDER_CELL, WORDS, clue, guess, ids, position, rejected
from .conformance import check_playouts

GAMEBENCH = {"gamebench_board": True, "gamebench_unchecked_clues": True, "gamebench_end_turn_anytime": True,
             "gamebench_scores": True}


# --- the fact sheet's test facts -------------------------------------------------------------------------


def test_fact1_setup_has_25_words_and_a_9_8_7_1_key_whose_9_belong_to_the_starting_team():
    starters = set()
    for seed in range(20):
        state = CodenamesGame({}, 4).new_initial_state(seed)
        assert len(state.words) == len(set(state.words)) == 25 and not any(state.revealed)
        own = ["red", "blue"][state.starting]
        other = ["red", "blue"][1 - state.starting]
        assert [state.key.count(k) for k in (own, other, "bystander", "assassin")] == [9, 8, 7, 1]
        assert state.current_seats() == [state.starting]  # the starting team's Spymaster gives the first clue
        assert f"{['Red', 'Blue'][state.starting]} started." in state.observation(2).text  # public
        starters.add(state.starting)
    assert starters == {0, 1}  # the starting team is drawn by chance


def test_fact2_clue_number_2_allows_at_most_3_guesses_and_0_or_unlimited_no_limit():
    state = position()
    clue(state, "fruit,2")
    for cell in (0, 1):
        guess(state, cell)
        assert state.phase == "guess" and state.team == 0
    assert state.guesses_left() == 1
    guess(state, 2)  # the third correct guess uses up number + 1
    assert state.phase == "clue" and state.team == 1 and state.guesses == 0
    for number in ("0", "unlimited"):
        state = position()
        clue(state, f"fruit,{number}")
        for cell in range(8):
            guess(state, cell)
            assert state.phase == "guess" and state.guesses_left() is None
        assert "no limit on guesses" in state.observation(2).text


def test_fact3_end_turn_is_illegal_before_the_first_guess():
    state = position()
    clue(state, "fruit,1")
    assert "end_turn" not in ids(state, 2)
    with pytest.raises(IllegalActionError):
        state.apply_action(2, "end_turn")
    guess(state, 0)
    assert "end_turn" in ids(state, 2)
    state.apply_action(2, "end_turn")
    assert state.team == 1 and state.current_seats() == [1]


def test_fact4_a_bystander_ends_the_turn_and_forfeits_the_remaining_guesses():
    state = position()
    clue(state, "fruit,3")
    guess(state, 0)
    assert state.guesses_left() == 3
    guess(state, BYSTANDER_CELL)
    assert state.revealed[BYSTANDER_CELL] and state.team == 1 and state.phase == "clue"
    assert state.current_seats() == [1] and state.clue is None
    assert "RULER (innocent bystander)" in state.observation(3).text


def test_fact5_an_opposing_agent_is_revealed_for_the_opponents_and_ends_the_turn():
    state = position()
    clue(state, "fruit,3")
    guess(state, BLUE_CELL)
    assert state.revealed[BLUE_CELL] and state.agents_left(1) == 7 and state.agents_found(1) == 1
    assert state.team == 1 and state.phase == "clue"
    assert state.measures(3)["agents_found"] == 1 and state.measures(2)["agents_found"] == 0


def test_fact6_the_assassin_ends_the_game_at_once_and_the_guessing_team_loses():
    state = position(seats=6)
    clue(state, "fruit,3")
    guess(state, 0)
    guess(state, ASSASSIN_CELL)
    assert state.is_terminal() and state.current_seats() == []
    assert state.scores() == [0.0, pytest.approx(1 / 3), 0.0, pytest.approx(1 / 3), 0.0, pytest.approx(1 / 3)]
    assert state.measures(0) == {"agents_found": 1, "won": False, "clues_given": 1, "hit_assassin": True}
    assert state.measures(1)["won"] is True and state.measures(1)["hit_assassin"] is False
    assert state.result_text() == "Red picked the assassin: Blue wins."


def test_fact7_when_red_reveals_blues_last_agent_blue_wins_at_once():
    state = position()
    for cell in range(BLUE_CELL, BLUE_CELL + 7):
        state.revealed[cell] = True
    clue(state, "fruit,2")
    guess(state, 0)
    guess(state, 16)  # Blue's last agent
    assert state.is_terminal() and state.winning_team == 1
    assert state.scores() == [0.0, 0.5, 0.0, 0.5]
    assert state.result_text() == "All Blue agents are revealed: Blue wins."


def test_fact8_a_grid_word_or_a_part_of_one_is_refused_until_that_word_is_covered():
    state = position()
    rejected(state, "APPLE,1", "visible word APPLE")
    rejected(state, "apple,1", "visible word APPLE")
    rejected(state, "HORSE,2", "visible word HORSESHOE")
    state.revealed[WORDS.index("HORSESHOE")] = True
    clue(state, "HORSE,2")
    assert state.clue == {"w": "HORSE", "n": 2} and state.history[-1]["w"] == "HORSE"


def test_fact9_an_operatives_observation_never_holds_an_unrevealed_identity():
    for seats in (4, 7):
        game = CodenamesGame({}, seats)
        for seed in range(6):
            state = game.new_initial_state(seed)
            rng = random.Random(seed)
            while not state.is_terminal():
                pieces = state.secrets()[0]
                assert pieces and state.secrets()[1] == pieces
                for viewer in [*range(2, seats), None]:
                    obs = state.observation(viewer)
                    dumped = json.dumps(obs.to_json())
                    assert not [p for p in pieces if p in dumped]
                    for card in obs.data["cards"]:
                        assert "key" not in card
                        assert (card["identity"] is None) == (not state.revealed[card["cell"]])
                spymaster = state.observation(0)
                assert all(p in spymaster.text for p in pieces)
                _random_step(state, rng)


def test_fact10_a_clue_with_a_space_is_refused():
    state = position()
    rejected(state, "ice cream,2", "single word")
    rejected(state, "ice cream 2", "single word")
    rejected(state, "ice\tcream,2", "single word")


# --- random playouts --------------------------------------------------------------------------------------


def _random_step(state, rng, invalid_share=0.0):
    """One random move; a clue is a visible grid word (invalid) with probability ``invalid_share``."""
    seat = rng.choice(state.current_seats())
    actions = state.legal_actions(seat)
    if actions:
        state.apply_action(seat, rng.choice(actions).id)
    elif rng.random() < invalid_share:
        state.apply_action(seat, "clue", f"{rng.choice(state.visible_words()).lower()},{rng.randint(0, 3)}")
    else:
        state.apply_action(seat, "clue", f"{rng.choice(['river', 'stone', 'paper', 'light'])},{rng.randint(0, 3)}")


def test_random_games_with_invalid_clues_under_the_penalty_replay_and_stay_leak_free():
    penalties = 0
    for seed in range(30):
        game = CodenamesGame({"invalid_clue_penalty": True}, 4 + seed % 3)
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            _random_step(state, rng, invalid_share=0.3)
            pieces = state.secrets()[0]
            assert not [p for p in pieces if p in json.dumps(state.observation(2).to_json())]
            assert len(state.log) <= game.max_actions()
        penalties += sum(1 for e in state.history if e["k"] == "cover")
        replayed = game.replay(seed, state.log)
        assert json.dumps(replayed.to_json(), sort_keys=True) == json.dumps(state.to_json(), sort_keys=True)
    assert penalties > 10
    with pytest.raises(IllegalActionError, match="visible word"):  # without the option the same clue is refused
        fresh = CodenamesGame({}, 4).new_initial_state(1)
        fresh.apply_action(fresh.current_seats()[0], "clue", f"{fresh.words[0]},1")


@pytest.mark.parametrize("seats,options", [(4, {}), (6, {}), (10, {}), (4, GAMEBENCH),
                                           (6, {"invalid_clue_penalty": True})])
def test_random_playouts_keep_the_invariants(seats, options):
    finals = check_playouts(lambda: CodenamesGame(options, seats), n_playouts=15, base_seed=300)
    for state in finals:
        teams = state.game.teams()
        scores = state.scores()
        assert abs(sum(scores) - 1) < 1e-9
        for team in (0, 1):  # every seat of a team scores alike
            assert len({round(s, 12) for s, t in zip(scores, teams, strict=True) if t == team}) == 1
        assert state.ending in ("agents", "assassin", "cap")
        if state.ending == "agents":
            assert state.agents_left(state.winning_team) == 0
        if state.ending == "assassin":
            assert state.assassin_team() == 1 - state.winning_team
        assert len(state.log) <= state.game.max_actions()


def test_random_games_with_own_driver_reach_every_ending_and_guessers_are_operatives():
    endings = set()
    for seed in range(60):
        game = CodenamesGame({}, 4 + seed % 7)
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            seat = state.current_seats()[0]
            assert (seat < 2) == (state.phase == "clue")
            assert seat % 2 == state.team
            _random_step(state, rng)
        endings.add(state.ending)
        assert state.measures(0)["won"] != state.measures(1)["won"]
    assert endings == {"agents", "assassin"}
