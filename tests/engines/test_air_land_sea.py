"""Air, Land & Sea engine: the fact sheet's test facts as known positions (test_factN_...), hidden information, the
GameBench options, and seeded random playouts with invariants. Every ability and its follow-up decisions are tested in
test_air_land_sea_abilities.py."""

from __future__ import annotations

import json
import random

import pytest

from gameplay.engines.air_land_sea import AirLandSeaGame
from gameplay.engines.air_land_sea.board import controller, total
from gameplay.engines.air_land_sea.cards import ALL_IDS
from gameplay.engines.api import IllegalActionError, InvalidOptionsError
from gameplay.engines.registry import GAMES

from .air_land_sea_support import act, board_cards, ids, position
from .conformance import check_playouts


# --- the fact sheet's test facts ----------------------------------------------------------------------------------
def test_fact1_a_deal_gives_six_cards_to_each_hand_and_six_to_the_deck():
    state = AirLandSeaGame().new_initial_state(5)
    assert [len(h) for h in state.hands] == [6, 6] and len(state.deck) == 6
    assert sorted(state.hands[0] + state.hands[1] + state.deck) == sorted(ALL_IDS)


@pytest.mark.parametrize("left,points", [(4, 2), (3, 3), (1, 4)])
def test_fact2_first_player_withdrawal_scores_from_the_first_player_chart(left, points):
    state = position(first=0, hands=(ALL_IDS[:left], ALL_IDS[10:16]))
    act(state, "withdraw")
    assert state.vp == [0, points]


@pytest.mark.parametrize("left,points", [(5, 2), (4, 3), (2, 4), (1, 6)])
def test_fact3_second_player_withdrawal_scores_from_the_second_player_chart(left, points):
    state = position(first=0, hands=(ALL_IDS[10:16], ALL_IDS[:left]), turn=1)
    act(state, "withdraw")
    assert state.vp == [points, 0]


def test_fact4_a_battle_played_to_the_end_gives_its_winner_exactly_six_vp():
    for seed in range(20):
        state = AirLandSeaGame().new_initial_state(seed)
        rng = random.Random(seed)
        while state.battle == 1 and not state.between:
            choices = [a.id for a in state.legal_actions(state.current_seats()[0]) if a.id != "withdraw"]
            act(state, rng.choice(choices))
        assert not state.hands[0] and not state.hands[1]
        assert sorted(state.vp) == [0, 6] and state.history[0]["how"] == "control"


def test_fact5_ties_and_empty_theaters_go_to_the_first_player():
    state = position(first=1, stacks={(0, 0): ["A5"], (0, 1): ["a1", "L3"], (2, 0): ["S2", "s3"],
                                      (2, 1): ["S6"]})
    assert total(state.stacks, 0, 0) == total(state.stacks, 0, 1) == 5
    assert controller(state.stacks, 0, first=1) == 1
    assert controller(state.stacks, 1, first=1) == 1  # empty theater
    assert controller(state.stacks, 1, first=0) == 0


def test_fact6_face_down_is_two_or_four_under_its_owners_escalation_only():
    plain = position(stacks={(0, 0): ["a6"]})
    assert total(plain.stacks, 0, 0) == 2
    own = position(stacks={(0, 0): ["a6"], (2, 0): ["S2"]})
    assert total(own.stacks, 0, 0) == 4
    theirs = position(stacks={(0, 0): ["a6"], (2, 1): ["S2"]})
    assert total(theirs.stacks, 0, 0) == 2


def test_fact7_heavy_tanks_under_own_cover_fire_count_four():
    state = position(stacks={(1, 0): ["L6", "L4"]})
    assert total(state.stacks, 1, 0) == 4 + 4
    flipped = position(stacks={(1, 0): ["L6", "l4"]})  # Cover Fire face down: no effect
    assert total(flipped.stacks, 1, 0) == 6 + 2


def test_fact8_support_reaches_only_adjacent_theaters():
    middle = position(theaters="LAS", stacks={(1, 0): ["A1"]})
    assert [total(middle.stacks, p, 0) for p in range(3)] == [3, 1, 3]
    outer = position(theaters="ALS", stacks={(0, 0): ["A1"]})
    assert [total(outer.stacks, p, 0) for p in range(3)] == [1, 3, 0]


def test_fact9_improvise_under_containment_is_destroyed_to_the_deck_bottom():
    state = position(hands=(["L6", "S3"], ["L2", "S1"]), stacks={(2, 1): ["A5"]}, theaters="LSA")
    deck_before = list(state.deck)
    board_before = board_cards(state)
    slot = state.hands[0].index("L6")
    act(state, f"play:{slot}:0:down")
    assert state.hands[0] == ["S3"]
    assert board_cards(state) == board_before
    assert state.deck == [*deck_before, "L6"]


def test_fact10_blockade_in_the_middle_destroys_plays_into_a_crowded_outer_theater():
    stacks = {(1, 1): ["S5"], (0, 0): ["a6", "l6"], (0, 1): ["s6"]}
    crowded = position(theaters="ASL", hands=(["A2", "L1"], ["L2"]), stacks=stacks)
    act(crowded, "play:0:0:up")
    assert "A2" not in board_cards(crowded) and crowded.deck[-1] == "A2"
    roomy = position(theaters="ASL", hands=(["A2", "L1"], ["L2"]), stacks={(1, 1): ["S5"], (0, 0): ["a6", "l6"]})
    act(roomy, "play:0:0:up")
    assert roomy.stacks[0][0][-1] == {"id": "A2", "up": True}


def test_fact11_maneuver_in_an_outer_theater_targets_only_the_middle():
    state = position(theaters="ALS", hands=(["A3", "L6"], ["S6"]),
                     stacks={(0, 1): ["a6"], (1, 0): ["l5"], (1, 1): ["L4"], (2, 1): ["S5"]})
    act(state, "play:0:0:up")
    assert state.decision["kind"] == "maneuver" and state.current_seats() == [0]
    assert ids(state) == {"flip:1:0", "flip:1:1"}
    act(state, "flip:1:1")
    assert state.stacks[1][1][-1] == {"id": "L4", "up": False}
    assert state.current_seats() == [1]


def test_fact12_theaters_rotate_right_and_the_supreme_commanders_swap():
    state = position(theaters="ALS", first=0, hands=(["A6"], ["S6"]))
    act(state, "withdraw")
    assert state.between and state.current_seats() == [1]
    act(state, "next_battle")
    assert state.theaters == ["S", "A", "L"] and state.first == 1 and state.battle == 2
    assert state.current_seats() == [1]


def test_fact13_the_game_ends_as_soon_as_a_battle_winner_reaches_twelve():
    state = position(first=0, hands=(["A6"], ["S6"]), turn=1)
    state.vp = [6, 0]
    state.hands[1] = []  # the 2nd Player withdraws with no cards: 6 VP
    act(state, "withdraw")
    assert state.vp == [12, 0] and state.is_terminal() and state.scores() == [1.0, 0.0]
    assert state.current_seats() == []


# --- hidden information ---------------------------------------------------------------------------------------
def test_face_down_cards_are_hidden_from_the_opponent_everywhere():
    state = position(theaters="ALS", hands=(["S6", "L6"], ["A6", "A3"]))
    labels = state.action_labels(0, "play:0:0:down")
    assert "S6" in labels.by_seat[0] and "S6" not in labels.by_seat[1] and "S6" not in labels.public
    act(state, "play:0:0:down")
    assert "S6" not in json.dumps(state.observation(1).to_json())
    assert "S6" not in json.dumps(state.observation(None).to_json())
    assert "S6" in json.dumps(state.observation(0).to_json())
    assert state.observation(1).data["theaters"][0]["stacks"][0][0]["strength"] == 2
    assert "S6" in state.secrets()[0]
    assert all("S6" not in entry.action_id for entry in state.log)


def test_action_ids_name_hand_slots_not_cards():
    state = AirLandSeaGame().new_initial_state(3)
    for action in state.legal_actions(state.current_seats()[0]):
        assert not any(card in action.id for card in ALL_IDS)


# --- options, invariants and playouts -------------------------------------------------------------------------
def test_gamebench_rotation_moves_the_leftmost_to_the_right():
    state = position(theaters="ALS", hands=(["A6"], ["S6"]), gamebench_rotation=True)
    act(state, "withdraw")
    act(state, "next_battle")
    assert state.theaters == ["L", "S", "A"]


def test_gamebench_vp_share_scores():
    state = position(first=0, hands=(["A6"], ["S6"]), turn=1, gamebench_vp_share_scores=True)
    state.vp = [4, 9]
    state.hands[1] = ["S6"] * 4
    act(state, "withdraw")  # 2nd Player with 4 cards: +3 to Blue
    assert state.vp == [7, 9]
    state.over = True
    assert state.scores() == [7 / 16, 9 / 16]


def test_options_are_validated():
    with pytest.raises(InvalidOptionsError):
        AirLandSeaGame({"target_vp": 10})
    with pytest.raises(InvalidOptionsError):
        AirLandSeaGame({"action_cap": 0})
    assert AirLandSeaGame({"target_vp": 18}).options["target_vp"] == 18
    assert GAMES["air_land_sea"] is AirLandSeaGame


def test_illegal_actions_are_refused():
    state = AirLandSeaGame().new_initial_state(1)
    with pytest.raises(IllegalActionError):
        state.apply_action(state.current_seats()[0], "flip:0:0")
    with pytest.raises(IllegalActionError):
        state.apply_action(1 - state.current_seats()[0], "withdraw")


@pytest.mark.parametrize("seed", range(40))
def test_random_playouts_keep_cards_hands_scores_and_replays_consistent(seed):
    game = AirLandSeaGame()
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        cards = state.hands[0] + state.hands[1] + state.deck + board_cards(state)
        assert sorted(cards) == sorted(ALL_IDS), "every card is in exactly one place"
        if not state.between and state.decision is None:
            assert abs(len(state.hands[0]) - len(state.hands[1])) <= 1
        seat = state.current_seats()[0]
        actions = state.legal_actions(seat)
        # Withdraw rarely, so most battles are played out.
        pick = [a for a in actions if a.id != "withdraw"] if rng.random() < 0.95 else actions
        state.apply_action(seat, rng.choice(pick or actions).id)
    assert sum(state.scores()) == pytest.approx(1.0) and max(state.vp) >= 12
    restored = game.state_from_json(json.loads(json.dumps(state.to_json())))
    assert restored.to_json() == state.to_json()
    assert game.replay(seed, state.log).to_json() == state.to_json()


def test_the_long_game_option_passes_the_conformance_playouts():
    finals = check_playouts(lambda: AirLandSeaGame({"target_vp": 18}), n_playouts=20, base_seed=500)
    assert all(max(s.vp) >= 18 for s in finals)


# --- why the game ended (State.end_reason) and the board's result line ---------------------------------------
def test_end_reason_a_battle_won_by_control_reaching_the_target():
    state = position(first=0, hands=(["A6"], ["S6"]))
    state.vp = [6, 0]
    assert state.end_reason() is None
    act(state, "play:0:0:up")  # Blue: Heavy Bombers in Air
    assert state.end_reason() is None
    act(state, "play:0:2:up")  # Red: Super Battleship in Sea; Blue holds Air and (a tie, 1st Player) Land
    assert state.is_terminal() and state.scores() == [1.0, 0.0]
    assert state.end_reason() == ("Blue won battle 1 by holding two or more theaters (+6 VP) and reached the 12 VP "
                                  "target (Blue 12, Red 0).")
    assert state.result_text() == "Blue wins the war, 12–0 VP."


def test_end_reason_a_withdrawal_reaching_the_target_and_the_winner_s_vp_first():
    # The random game's 'Red wins the war, 0–13 VP.' printed Blue's VP first: Red had won 13 to 0.
    state = position(first=0, hands=([], ["S6"]))
    state.vp = [0, 7]
    act(state, "withdraw")  # the 1st Player withdraws holding no card: 6 VP to Red
    assert state.vp == [0, 13] and state.scores() == [0.0, 1.0]
    assert state.end_reason() == ("Blue withdrew from battle 1; the 6 VP this gave Red reached the 12 VP target "
                                  "(Red 13, Blue 0).")
    assert state.result_text() == "Red wins the war, 13–0 VP."
    assert state.observation(0).data["result"] == "Red wins the war, 13–0 VP."


def test_end_reason_the_action_cap_with_more_vp_and_with_the_vp_level():
    ahead = position(hands=(["A6", "A5"], ["S6", "S5"]), action_cap=1)
    ahead.vp = [4, 9]
    act(ahead, "play:0:0:up")
    assert ahead.is_terminal() and ahead.scores() == [0.0, 1.0]
    assert ahead.end_reason() == ("The platform's 1-action cap was reached before either side had 12 VP; Red has "
                                  "more VP (9 to 4).")
    assert ahead.result_text() == "Stopped at the platform's action cap: Red wins on VP, 9–4 VP."
    level = position(hands=(["A6", "A5"], ["S6", "S5"]), action_cap=1)
    level.vp = [3, 3]
    act(level, "play:0:0:up")
    assert level.scores() == [0.5, 0.5]
    assert level.end_reason() == ("The platform's 1-action cap was reached before either side had 12 VP, with the "
                                  "VP level (3 each).")
    assert level.result_text() == "Stopped at the platform's action cap with the VP level (3–3): a draw."
    default_cap = AirLandSeaGame().new_initial_state(0)
    default_cap.vp = [2, 1]
    default_cap.log = [None] * 1500  # only the log's length counts for the cap
    assert default_cap.end_reason() == ("The platform's 1,500-action cap was reached before either side had 12 VP; "
                                        "Blue has more VP (2 to 1).")


def test_end_reason_says_vp_shares_decide_under_gamebench_scores():
    state = position(hands=(["A6", "A5"], ["S6", "S5"]), action_cap=1, gamebench_vp_share_scores=True)
    state.vp = [4, 9]
    act(state, "play:0:0:up")
    assert state.end_reason() == ("The platform's 1-action cap was reached before either side had 12 VP; Red has "
                                  "more VP (9 to 4). Each side scores its share of the VP.")
