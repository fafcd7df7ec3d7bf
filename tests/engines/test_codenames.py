"""Codenames: the fact sheet's test facts (test_factN_...), clue validation, the GameBench options, the penalty
option, the guesser's rotation, and seeded random playouts with invariants at 4, 6 and 10 seats."""

from __future__ import annotations

import json
import random

import pytest

from gameplay.engines.api import IllegalActionError
from gameplay.engines.codenames import CodenamesGame
from gameplay.engines.codenames import clues as clue_rules
from gameplay.engines.codenames.words import IDENTITY_NAMES, word_list

from .conformance import check_playouts

GAMEBENCH = {"gamebench_board": True, "gamebench_unchecked_clues": True, "gamebench_end_turn_anytime": True,
             "gamebench_scores": True}
# A fixed position: cells 0-8 Red, 9-16 Blue, 17-23 bystanders, 24 the assassin; Red starts.
WORDS = ["APPLE", "BANK", "CASTLE", "DRAGON", "EAGLE", "FOREST", "GHOST", "HORSESHOE", "ISLAND",
         "JACKET", "KETTLE", "LEMON", "MAGNET", "NEEDLE", "OCEAN", "PIANO", "QUEEN",
         "RULER", "SHARK", "TIGER", "UMBRELLA", "VIOLIN", "WHALE", "YACHT", "ZEBRA"]
KEY = ["red"] * 9 + ["blue"] * 8 + ["bystander"] * 7 + ["assassin"]
BLUE_CELL, BYSTANDER_CELL, ASSASSIN_CELL = 9, 17, 24


def position(seats=4, options=None, starting=0, words=WORDS, key=KEY):
    state = CodenamesGame(options or {}, seats).new_initial_state(0)
    state.words, state.key = list(words), list(key)
    state.revealed = [False] * len(words)
    state.starting = state.team = starting
    return state


def ids(state, seat):
    return [a.id for a in state.legal_actions(seat)]


def clue(state, text):
    state.apply_action(state.current_seats()[0], "clue", text)


def guess(state, cell):
    state.apply_action(state.current_seats()[0], f"guess:{cell}")


def rejected(state, text, match=None):
    before = json.dumps(state.to_json(), sort_keys=True)
    with pytest.raises(IllegalActionError, match=match):
        clue(state, text)
    assert json.dumps(state.to_json(), sort_keys=True) == before


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


# --- clue validation --------------------------------------------------------------------------------------


@pytest.mark.parametrize("text,why", [
    ("r2d2,1", "letters only"), ("fruit!,1", "letters only"), ("a_b,1", "letters only"), ("-fruit,1", "letters"),
    ("fruit-,1", "letters only"), ("café,1", "letters only"), ("123,1", "letters only"),
    ("fruit,10", "0 to 9"), ("fruit,-1", "0 to 9"), ("fruit,two", "0 to 9"), ("fruit,1.5", "0 to 9"),
    ("fruit", "word and a number"), ("fruit,", "0 to 9"), (",2", "no word"), ("hello", "word and a number"),
    ("HORSESHOES,1", "HORSESHOE"), ("apples,1", "APPLE"), ("rules,1", "RULER"), ("ruling,1", "RULER"),
    ("tigers,1", "TIGER"), ("whaler,1", "WHALE"), ("banked,1", "BANK"), ("banking,1", "BANK"),
    ("islands,1", "ISLAND"), ("ghosted,1", "GHOST"), ("sea-shark,1", "SHARK"), ("zebra's,1", "ZEBRA"),
])
def test_invalid_clues_are_refused_with_a_reason(text, why):
    rejected(position(), text, why)


@pytest.mark.parametrize("text,shown", [
    ("fruit,1", ("FRUIT", 1)), ("Fruit 3", ("FRUIT", 3)), ("  fruit , 0 ", ("FRUIT", 0)),
    ("fruit,unlimited", ("FRUIT", None)), ("fruit UNLIMITED", ("FRUIT", None)), ("sea-lion,2", ("SEA-LION", 2)),
    ("o'clock,1", ("O'CLOCK", 1)), ("tight,1", ("TIGHT", 1)), ("ok 1", ("OK", 1)), ("word,1", ("WORD", 1)),
])
def test_valid_clues_are_accepted_and_normalised(text, shown):
    state = position()
    clue(state, text)
    assert (state.clue["w"], state.clue["n"]) == shown
    assert state.log[-1].text == f"{shown[0]},{'unlimited' if shown[1] is None else shown[1]}"


def test_the_clue_check_compares_forms_without_common_endings():
    assert clue_rules.clash("DANCED", "DANCER") and clue_rules.clash("jumping", "JUMPER")
    assert clue_rules.clash("boxes", "BOX") and clue_rules.clash("horse", "HORSESHOE")
    assert not clue_rules.clash("tight", "TIGER") and not clue_rules.clash("river", "TIRE")


def test_the_word_list_is_big_distinct_single_words_and_never_clashes_with_generic_test_texts():
    words = word_list()
    assert len(words) >= 400 and len(set(words)) == len(words)
    assert all(w.isalpha() and w.isascii() and w.isupper() for w in words)
    for probe in ("hello", "yes", "ok", "word", "river", "stone", "light", "paper"):
        assert not [w for w in words if clue_rules.clash(probe, w)], probe


def test_a_revealed_word_may_be_used_as_clue():
    state = position()
    clue(state, "fruit,1")
    guess(state, 0)
    state.apply_action(2, "end_turn")
    clue(state, "apple,1")
    assert state.clue["w"] == "APPLE"


# --- the penalty option ---------------------------------------------------------------------------------


def test_with_the_penalty_an_invalid_clue_ends_the_turn_and_the_opponent_covers_an_agent():
    state = position(options={"invalid_clue_penalty": True})
    rejected(state, "fruit,12", "0 to 9")  # not a clue at all: still refused
    assert "invalid clue" in state.action_labels(0, "clue", "apple,2").public
    clue(state, "apple,2")
    assert state.phase == "cover" and state.current_seats() == [1] and state.clues_given == [0, 0]
    assert ids(state, 1) == [f"cover:{c}" for c in range(9, 17)]
    state.apply_action(1, "cover:9")
    assert state.revealed[9] and state.agents_left(1) == 7
    assert state.team == 1 and state.phase == "clue" and state.current_seats() == [1]
    assert "invalid clue APPLE, 2" in state.observation(2).text
    assert state.clone().history[0]["k"] == "invalid" and state.log[0].text == "APPLE,2"


def test_a_penalty_cover_of_the_last_agent_wins_for_the_covering_team():
    state = position(options={"invalid_clue_penalty": True})
    for cell in range(9, 16):
        state.revealed[cell] = True
    clue(state, "apple,2")
    state.apply_action(1, "cover:16")
    assert state.is_terminal() and state.winning_team == 1


# --- seats, roles and the guesser -----------------------------------------------------------------------


def test_seats_alternate_teams_and_the_guesser_rotates_among_the_team_operatives():
    game = CodenamesGame({}, 7)
    assert game.teams() == [0, 1, 0, 1, 0, 1, 0]
    assert game.seat_name(0) == "Player 1 (Red Spymaster)" and game.seat_name(5) == "Player 6 (Blue Operative)"
    state = position(seats=7)
    guessers = []
    for _ in range(3):
        clue(state, "fruit,1")  # Red
        guessers.append(state.current_seats()[0])
        assert state.text_actions(0) == [] and ids(state, 0) == []
        guess(state, BYSTANDER_CELL + len(guessers) - 1)
        clue(state, "fruit,1")  # Blue
        guessers.append(state.current_seats()[0])
        guess(state, BYSTANDER_CELL + len(guessers) - 1)
    assert guessers == [2, 3, 4, 5, 6, 3]


def test_a_spymaster_sees_the_key_and_labels_word_a_guess_with_its_identity():
    state = position()
    assert "APPLE=red" in state.observation(1).text and "ZEBRA=assassin" in state.observation(0).text
    assert "APPLE" in state.observation(2).text and "APPLE=red" not in state.observation(2).text
    clue(state, "fruit,1")
    labels = state.action_labels(2, "guess:9")
    assert labels.public == "Player 3 (Red Operative) guesses JACKET: Blue agent."
    assert [a.label for a in state.legal_actions(2)][:2] == ["Guess APPLE", "Guess BANK"]


# --- GameBench options ------------------------------------------------------------------------------------


def test_gamebench_board_has_21_cards_9_8_3_1_and_red_always_starts():
    for seed in range(10):
        state = CodenamesGame({"gamebench_board": True}, 4).new_initial_state(seed)
        assert len(state.words) == 21 and state.starting == 0 and state.current_seats() == [0]
        assert [state.key.count(k) for k in ("red", "blue", "bystander", "assassin")] == [9, 8, 3, 1]


def test_gamebench_unchecked_clues_take_any_text_but_a_bad_number():
    state = position(options={"gamebench_unchecked_clues": True})
    clue(state, "apple pie,2")
    assert state.clue == {"w": "apple pie", "n": 2}
    state = position(options={"gamebench_unchecked_clues": True})
    clue(state, "hello")
    assert state.clue == {"w": "None", "n": 1}
    state = position(options={"gamebench_unchecked_clues": True})
    rejected(state, "apple,-1", "negative")


def test_gamebench_end_turn_anytime_lets_the_guesser_stop_before_guessing():
    state = position(options={"gamebench_end_turn_anytime": True})
    clue(state, "fruit,1")
    assert "end_turn" in ids(state, 2)
    state.apply_action(2, "end_turn")
    assert state.team == 1 and state.phase == "clue"


def test_the_turn_cap_ends_a_game_of_empty_turns_and_a_tie_is_shared():
    state = position(options={"gamebench_end_turn_anytime": True, "max_turns": 10})
    state.key = ["red"] * 8 + ["bystander"] + KEY[9:]  # 8 agents each
    for _ in range(10):
        clue(state, "fruit,1")
        state.apply_action(state.current_seats()[0], "end_turn")
    assert state.is_terminal() and state.ending == "cap" and state.scores() == [0.25] * 4
    assert len(state.log) <= state.game.max_actions()


def test_gamebench_scores_count_revealed_agents_plus_3_for_the_winner():
    state = position(options={"gamebench_scores": True})
    clue(state, "fruit,2")
    guess(state, 0)
    guess(state, 1)
    guess(state, 2)  # Red: 3 found
    clue(state, "fruit,1")
    guess(state, 9)  # Blue: 1 found
    guess(state, ASSASSIN_CELL)  # Blue picks the assassin: Blue scores 0, Red 3 + 3
    assert state.scores() == [0.5, 0.0, 0.5, 0.0]
    state = position(options={"gamebench_scores": True})
    for cell in range(BLUE_CELL, BLUE_CELL + 7):
        state.revealed[cell] = True
    clue(state, "fruit,2")
    guess(state, 0)
    guess(state, 16)  # Blue wins with 8 found (+3 = 11) against Red's 1
    assert state.scores() == [pytest.approx(1 / 24), pytest.approx(11 / 24)] * 2


# --- why the game ended (State.end_reason) and the key shown at the end -----------------------------------


def test_end_reason_the_assassin():
    state = position(seats=6)
    clue(state, "fruit,3")
    guess(state, 0)
    assert state.end_reason() is None
    guess(state, ASSASSIN_CELL)
    assert state.end_reason() == "Player 3 (Red Operative) picked the assassin, ZEBRA."


def test_end_reason_the_last_agent_found_by_its_own_team():
    state = position()
    for cell in range(8):
        state.revealed[cell] = True
    clue(state, "fruit,1")
    guess(state, 8)
    assert state.winning_team == 0
    assert state.end_reason() == "All 9 Red agents are revealed; Player 3 (Red Operative) guessed the last one, ISLAND."


def test_end_reason_the_last_agent_revealed_by_the_other_team():
    state = position()
    for cell in range(BLUE_CELL, BLUE_CELL + 7):
        state.revealed[cell] = True
    clue(state, "fruit,2")
    guess(state, 0)
    guess(state, 16)
    assert state.end_reason() == "All 8 Blue agents are revealed; Player 3 (Red Operative) guessed the last one, QUEEN."


def test_end_reason_the_last_agent_covered_as_the_penalty():
    state = position(options={"invalid_clue_penalty": True})
    for cell in range(9, 16):
        state.revealed[cell] = True
    clue(state, "apple,2")
    state.apply_action(1, "cover:16")
    assert state.end_reason() == ("All 8 Blue agents are revealed; Player 2 (Blue Spymaster) covered the last one, "
                                  "QUEEN, as the penalty for Red's invalid clue.")


def _capped(options, red_guesses, key=KEY):
    """Ten team turns (max_turns 10) of a clue and End turn; Red guesses its first ``red_guesses`` agents first."""
    state = position(options={"gamebench_end_turn_anytime": True, "max_turns": 10, **options})
    state.key = list(key)
    for turn in range(10):
        assert state.end_reason() is None
        clue(state, "fruit,2")
        if turn == 0:
            for cell in range(red_guesses):
                guess(state, cell)
        state.apply_action(state.current_seats()[0], "end_turn")
    assert state.is_terminal() and state.ending == "cap"
    return state


def test_end_reason_the_turn_cap_with_fewer_agents_left():
    state = _capped({}, 2)
    assert state.scores() == [0.5, 0.0, 0.5, 0.0]
    assert state.end_reason() == "The turn cap of 10 team turns was reached; Red has fewer agents left (7 to 8)."
    assert state.result_text() == "The turn cap ended the game (agents left Red 7, Blue 8): Red wins."


def test_end_reason_the_turn_cap_with_as_many_agents_left_is_a_draw():
    state = _capped({}, 0, key=["red"] * 8 + ["bystander"] + KEY[9:])
    assert state.scores() == [0.25] * 4
    assert state.end_reason() == "The turn cap of 10 team turns was reached with 8 agents left to each team."
    assert state.result_text() == "The turn cap ended the game (agents left Red 8, Blue 8): a draw."


def test_end_reason_the_turn_cap_decided_by_gamebench_scores():
    state = _capped({"gamebench_scores": True}, 1)  # Red 9 agents, 1 found; Blue 8, none: 8 left each
    assert state.winning_team is None and state.scores() == [0.5, 0.0, 0.5, 0.0]
    assert state.end_reason() == ("The turn cap of 10 team turns was reached with 8 agents left to each team; by "
                                  "GameBench's scores Red found more (1 agent to 0).")
    assert state.result_text() == "The turn cap ended the game (agents left Red 8, Blue 8): Red wins."


def test_the_end_shows_the_whole_key_to_everyone_and_keeps_the_reason_on_a_round_trip():
    state = position()
    for cell in range(BLUE_CELL, BLUE_CELL + 7):
        state.revealed[cell] = True
    clue(state, "fruit,2")
    guess(state, 0)
    assert state.secrets()[0] and "key" not in state.observation(2).data["cards"][1]
    guess(state, 16)
    assert all(pieces == [] for pieces in state.secrets().values())
    for viewer in (None, 0, 1, 2, 3):
        obs = state.observation(viewer)
        assert [c["identity"] for c in obs.data["cards"]] == [IDENTITY_NAMES[k] for k in KEY]
        assert "24 ZEBRA (assassin, never revealed)" in obs.text and "1 BANK (Red agent, never revealed)" in obs.text
        assert obs.data["end_reason"] == state.end_reason() and state.end_reason() in obs.text
    assert state.to_json()["payload"]["end_reason"] == "agents"
    again = state.clone()
    assert again.ending == "agents" and again.end_reason() == state.end_reason()


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
