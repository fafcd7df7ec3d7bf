"""Pit: the fact sheet's test facts (test_factN_...), market ticks, the GameBench options, and seeded random
playouts with invariants (card conservation, hand sizes, scores, JSON round trip, replay) at 3, 5 and 7 seats."""

from __future__ import annotations

import json
import random

import pytest

from gameplay.engines.api import IllegalActionError
from gameplay.engines.pit import PitGame
from gameplay.engines.pit.cards import size

from .conformance import check_playouts
from .pit_support import GAMEBENCH, state_with


def ids(state, seat):
    return [a.id for a in state.legal_actions(seat)]


def total_cards(state):
    counts = {}
    for hand in state.hands:
        for card, n in hand.items():
            counts[card] = counts.get(card, 0) + n
    return counts


# --- the fact sheet's test facts -------------------------------------------------------------------------


def test_fact1_four_seats_deal_36_cards_nine_each_or_38_with_bull_and_bear():
    state = PitGame({}, 4).new_initial_state(3)
    assert [size(h) for h in state.hands] == [9, 9, 9, 9]
    assert total_cards(state) == {"wheat": 9, "barley": 9, "corn": 9, "rye": 9}
    advanced = PitGame({"bull_and_bear": True}, 4).new_initial_state(3)
    assert sorted(size(h) for h in advanced.hands) == [9, 9, 10, 10]
    assert sum(size(h) for h in advanced.hands) == 38
    assert total_cards(advanced)["bull"] == total_cards(advanced)["bear"] == 1


def test_fact2_offer_of_five_or_of_two_commodities_is_illegal():
    state = state_with([["wheat"] * 6 + ["corn"] * 3, ["barley"] * 9, ["corn"] * 6 + ["wheat"] * 3])
    legal = ids(state, 0)
    assert "offer:4:wheat" in legal and "offer:5:wheat" not in legal
    assert not any(i.startswith("offer:3:") and "corn+wheat" in i or "wheat+corn" in i for i in legal)
    for bad in ("offer:5:wheat", "offer:3:wheat+corn", "offer:3:corn+wheat"):
        with pytest.raises(IllegalActionError):
            state.apply_action(0, bad)


def test_fact3_a_swap_exchanges_equal_counts_and_hand_sizes_never_change():
    state = state_with([["wheat"] * 6 + ["corn"] * 3, ["barley"] * 9, ["corn"] * 6 + ["wheat"] * 3])
    state.apply_action(0, "offer:3:corn")
    assert [a for a in ids(state, 1) if a.startswith("accept:0:")] == ["accept:0:3:barley"]
    state.apply_action(1, "accept:0:3:barley")
    assert state.hands[0] == {"wheat": 6, "barley": 3} and state.hands[1] == {"barley": 6, "corn": 3}
    assert [size(h) for h in state.hands] == [9, 9, 9]
    assert state.offers == [None, None, None]
    for seed in range(20):  # and over random play
        final = _random_game(PitGame({"max_hands": 1, "tick_cap": 30, "bull_and_bear": seed % 2 == 1}, 4), seed)
        assert sorted(size(h) for h in final.hands) == ([9, 9, 10, 10] if seed % 2 else [9, 9, 9, 9])


def test_fact4_a_third_seat_sees_the_count_and_the_traders_not_the_commodities():
    state = state_with([["wheat"] * 6 + ["corn"] * 3, ["barley"] * 9, ["corn"] * 6 + ["wheat"] * 3])
    labels = state.action_labels(0, "offer:3:corn")
    assert labels.by_seat[2] == "Player 1 offers 3 cards." and labels.public == labels.by_seat[2]
    state.apply_action(0, "offer:3:corn")
    labels = state.action_labels(1, "accept:0:3:barley")
    state.apply_action(1, "accept:0:3:barley")
    third = state.observation(2)
    assert "Player 1 and Player 2 traded 3 cards." in third.text
    assert labels.by_seat[2] == labels.public == "Player 1 and Player 2 traded 3 cards."
    for obs in (third, state.observation(None)):
        # The commodities in play are public; what moved in the trade is not (the third seat holds no Barley).
        data = {k: v for k, v in obs.data.items() if k != "commodities"}
        text = "\n".join(line for line in obs.text.splitlines() if not line.startswith("Commodities in play"))
        assert "arley" not in json.dumps(data) and "arley" not in text
    assert "you got 3 Barley" in state.observation(0).text and "you got 3 Corn" in state.observation(1).text
    assert "Corn" not in labels.by_seat[2]


def test_fact5_corner_values_plain_with_bull_and_double_bull():
    plain = state_with([["wheat"] * 9, ["barley"] * 9, ["corn"] * 9])
    assert "corner:wheat" in ids(plain, 0)
    plain.apply_action(0, "corner:wheat")
    assert plain.totals == [100, 0, 0]
    options = {"bull_and_bear": True}
    bull = state_with([["wheat"] * 8 + ["barley", "bull"], ["barley"] * 8 + ["wheat", "bear"], ["corn"] * 9], options)
    bull.apply_action(0, "corner:wheat")
    assert bull.totals[0] == 100
    double = state_with([["wheat"] * 9 + ["bull"], ["barley"] * 9 + ["bear"], ["corn"] * 9], options)
    assert [a.label for a in double.legal_actions(0) if a.id == "corner:wheat"] == ["Corner Wheat (+200)"]
    double.apply_action(0, "corner:wheat")
    assert double.totals[0] == 200


def test_fact6_nine_oats_with_the_bear_cannot_corner():
    hands = [["oats"] * 9 + ["bear"], ["wheat"] * 9 + ["bull"], ["barley"] * 9, ["corn"] * 9, ["rye"] * 9]
    state = state_with(hands, {"bull_and_bear": True})
    assert not [a for a in ids(state, 0) if a.startswith("corner")]
    with pytest.raises(IllegalActionError):
        state.apply_action(0, "corner:oats")
    assert "corner:wheat" in ids(state, 1)


def test_fact7_bear_holder_and_non_cornering_bull_holder_lose_20():
    hands = [["wheat"] * 9, ["barley"] * 8 + ["corn", "bull"], ["corn"] * 8 + ["barley", "bear"]]
    state = state_with(hands, {"bull_and_bear": True})
    state.apply_action(0, "corner:wheat")
    assert state.totals == [100, -20, -20]
    assert "Player 2 held the Bull: -20" in state.last_result and "Player 3 held the Bear: -20" in state.last_result


def test_fact8_the_game_ends_when_a_seat_reaches_500_after_a_corner():
    state = state_with([["wheat"] * 9, ["barley"] * 9, ["corn"] * 9])
    state.totals = [450, 0, 0]
    state.apply_action(0, "corner:wheat")
    assert state.is_terminal() and state.totals[0] == 550
    assert state.scores() == [1.0, 0.0, 0.0] and state.current_seats() == []
    below = state_with([["wheat"] * 9, ["barley"] * 9, ["corn"] * 9])
    below.totals = [350, 0, 0]
    below.apply_action(0, "corner:wheat")
    assert not below.is_terminal() and below.hands_played == 1 and below.current_seats() == [0, 1, 2]


def test_fact9_a_seat_cannot_accept_its_own_offer():
    state = state_with([["wheat"] * 6 + ["corn"] * 3, ["barley"] * 9, ["corn"] * 6 + ["wheat"] * 3])
    state.apply_action(0, "offer:2:wheat")
    state.apply_action(1, "pass")
    state.apply_action(2, "pass")  # a new tick: seat 0 acts again
    assert not [a for a in ids(state, 0) if a.startswith("accept:0:")]
    with pytest.raises(IllegalActionError):
        state.apply_action(0, "accept:0:2:corn")


# --- ticks, caps and the end ---------------------------------------------------------------------------


def test_a_tick_lets_every_seat_act_once_in_any_order_then_starts_again():
    state = PitGame({}, 3).new_initial_state(1)
    assert state.current_seats() == [0, 1, 2]
    state.apply_action(2, "pass")
    assert state.current_seats() == [0, 1] and state.legal_actions(2) == []
    with pytest.raises(IllegalActionError):
        state.apply_action(2, "pass")
    state.apply_action(0, "pass")
    state.apply_action(1, "pass")
    assert state.tick == 2 and state.current_seats() == [0, 1, 2]


def test_offers_stand_across_ticks_and_an_answer_cannot_use_ones_own_offered_cards():
    state = state_with([["wheat"] * 6 + ["corn"] * 3, ["barley"] * 7 + ["wheat"] * 2, ["corn"] * 6 + ["wheat"] * 3])
    state.apply_action(1, "offer:2:wheat")
    for seat in (0, 2):
        state.apply_action(seat, "pass")
    assert state.tick == 2 and state.offers[1] == {"wheat": 2}
    state.apply_action(0, "offer:2:corn")
    assert "accept:0:2:wheat" not in ids(state, 1)  # its two Wheat are on the table
    assert "accept:0:2:barley" in ids(state, 1)


def test_a_hand_without_corner_is_redealt_at_the_tick_cap_and_the_game_ends_after_max_hands():
    state = PitGame({"tick_cap": 2, "max_hands": 2}, 3).new_initial_state(5)
    first = [dict(h) for h in state.hands]
    for _ in range(2 * 3):
        state.apply_action(state.current_seats()[0], "pass")
    assert state.hands_played == 1 and state.tick == 1 and state.hands != first and state.totals == [0, 0, 0]
    assert "the hand ends without scoring" in state.observation(1).text
    for _ in range(2 * 3):
        state.apply_action(state.current_seats()[0], "pass")
    assert state.is_terminal() and state.scores() == pytest.approx([1 / 3] * 3)
    assert PitGame({"tick_cap": 2, "max_hands": 2}, 3).max_actions() == 12


def test_highest_total_wins_at_max_hands_and_ties_share():
    state = state_with([["wheat"] * 9, ["barley"] * 9, ["corn"] * 9], {"max_hands": 1})
    state.totals = [0, 100, -20]
    state.apply_action(0, "corner:wheat")
    assert state.is_terminal() and state.scores() == [0.5, 0.5, 0.0]


def test_a_corner_ends_the_hand_mid_tick():
    state = state_with([["wheat"] * 9, ["barley"] * 9, ["corn"] * 9], {"max_hands": 3})
    state.apply_action(1, "pass")
    state.apply_action(0, "corner:wheat")
    assert state.hands_played == 1 and state.current_seats() == [0, 1, 2] and state.events == []
    assert state.observation(2).data["last_result"] == "Player 1 cornered Wheat with 9 Wheat: +100."


def test_concurrent_view_start_counts_the_actions_before_the_current_hands_deal():
    """What the platform compares a stale page with (GameSpec.concurrent_actions): a page drawn before the deal of
    the current hand showed other cards, after a corner as after the tick cap."""
    state = state_with([["wheat"] * 9, ["barley"] * 9, ["corn"] * 9], {"max_hands": 3, "tick_cap": 1})
    assert state.concurrent_view_start(2, "pass") == 0
    state.apply_action(1, "pass")
    state.apply_action(0, "corner:wheat")  # the second logged action deals hand 2
    assert state.concurrent_view_start(2, "pass") == 2 == len(state.log)
    for seat in (0, 1, 2):
        state.apply_action(seat, "pass")  # the tick cap re-deals after the fifth action
    assert state.hands_played == 2 and state.concurrent_view_start(2, "pass") == 5
    restored = type(state).from_json(state.game, json.loads(json.dumps(state.to_json())))
    assert restored.concurrent_view_start(2, "pass") == 5
    # Taking an offer needs a view that showed it: one drawn after the offer's own action (the sixth logged here).
    state.apply_action(0, "pass")
    state.apply_action(1, "offer:2:barley")
    assert state.concurrent_view_start(2, "accept:1:2:corn") == 7 == len(state.log)
    assert state.concurrent_view_start(2, "accept:0:2:corn") == 5  # Player 1 has made no offer this hand


# --- GameBench options ----------------------------------------------------------------------------------


def test_gamebench_deck_has_four_commodities_for_any_seat_count():
    for seats, sizes in ((3, [13, 13, 12]), (4, [10, 10, 9, 9]), (7, [6, 6, 5, 5, 5, 5, 6])):
        state = PitGame({"gamebench_deck": True, "bull_and_bear": True}, seats).new_initial_state(0)
        counts = total_cards(state)
        assert counts == {"wheat": 9, "barley": 9, "corn": 9, "soyabeans": 9, "bull": 1, "bear": 1}
        assert sorted(size(h) for h in state.hands) == sorted(sizes)


def test_gamebench_corner_at_6():
    state = state_with([["wheat"] * 6 + ["corn"] * 3, ["barley"] * 5 + ["bull"] + ["wheat"] * 3, ["corn"] * 9],
                       {"gamebench_corner_at_6": True, "bull_and_bear": True})
    assert "corner:wheat" in ids(state, 0) and "corner:barley" in ids(state, 1)
    state.apply_action(1, "corner:barley")
    assert state.totals == [0, 85, 0]


def test_gamebench_bear_penalises_the_cornering_hand_only():
    options = {"bull_and_bear": True, "gamebench_bear_penalty": True}
    state = state_with([["wheat"] * 9 + ["bear"], ["barley"] * 9 + ["bull"], ["corn"] * 9], options)
    assert "corner:wheat" in ids(state, 0)
    state.apply_action(0, "corner:wheat")
    assert state.totals == [80, 0, 0]


def test_gamebench_bear_penalty_is_announced_for_the_bear_alone_when_the_cornerer_also_holds_the_bull():
    options = {"bull_and_bear": True, "gamebench_bear_penalty": True}
    state = state_with([["wheat"] * 8 + ["bull", "bear"], ["barley"] * 9, ["corn"] * 9], options)
    state.apply_action(0, "corner:wheat")
    assert state.totals == [80, 0, 0]
    assert state.last_result == "Player 1 cornered Wheat with 8 Wheat + Bull + Bear: +100; Player 1 held the Bear: -20."


def test_gamebench_public_commodities_name_offers_and_trades():
    options = {"gamebench_public_commodities": True}
    state = state_with([["wheat"] * 6 + ["corn"] * 3, ["barley"] * 9, ["corn"] * 6 + ["wheat"] * 3], options)
    state.apply_action(0, "offer:3:corn")
    assert "Player 1 offers 3 Corn" in state.observation(2).text
    state.apply_action(1, "accept:0:3:barley")
    assert "Player 1 and Player 2 traded 3 Corn for 3 Barley." in state.observation(2).text


def test_gamebench_unequal_trades_change_hand_sizes():
    options = {"gamebench_unequal_trades": True}
    state = state_with([["wheat"] * 6 + ["corn"] * 3, ["barley"] * 9, ["corn"] * 6 + ["wheat"] * 3], options)
    state.apply_action(0, "offer:1:corn")
    answers = [a for a in ids(state, 1) if a.startswith("accept:0:")]
    assert answers == [f"accept:0:{n}:barley" for n in range(1, 10)]
    labels = state.action_labels(1, "accept:0:5:barley")
    state.apply_action(1, "accept:0:5:barley")
    assert [size(h) for h in state.hands] == [13, 5, 9]
    assert labels.by_seat[2] == "Player 1 and Player 2 traded 1 card for 5 cards."


def test_gamebench_share_scores():
    state = state_with([["wheat"] * 9, ["barley"] * 9, ["corn"] * 9], {"gamebench_share_scores": True, "max_hands": 1})
    state.totals = [0, 100, -20]
    state.apply_action(0, "corner:wheat")
    assert state.scores() == [0.5, 0.5, 0.0]


def test_options_are_validated():
    from gameplay.engines.api import InvalidOptionsError

    with pytest.raises(InvalidOptionsError):
        PitGame({"tick_cap": 0}, 3)
    with pytest.raises(InvalidOptionsError):
        PitGame({}, 8)


# --- random play with invariants --------------------------------------------------------------------------


def _random_game(game, seed):
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    start = total_cards(state)
    while not state.is_terminal():
        seat = rng.choice(state.current_seats())
        actions = state.legal_actions(seat)
        corner = [a for a in actions if a.id.startswith("corner")]
        state.apply_action(seat, (corner or actions)[0 if corner else rng.randrange(len(actions))].id)
        assert total_cards(state) == start  # cards are conserved (a new deal deals the same deck)
        assert all(n > 0 for h in state.hands for n in h.values())
    return state


@pytest.mark.parametrize("seats", [3, 5, 7])
def test_random_games_conserve_cards_score_validly_and_replay(seats):
    for seed in range(4):
        options = {"max_hands": 3, "tick_cap": 20, **(GAMEBENCH if seed % 2 else {})}
        game = PitGame(options, seats)
        final = _random_game(game, seed)
        scores = final.scores()
        assert abs(sum(scores) - 1) < 1e-9 and all(0 <= s <= 1 for s in scores)
        restored = game.state_from_json(json.loads(json.dumps(final.to_json())))
        assert restored.to_json() == final.to_json()
        assert game.replay(seed, final.log).to_json() == final.to_json()


VARIANTS = [
    pytest.param(3, {"bull_and_bear": True}, id="3-bull-bear"),
    pytest.param(5, {}, id="5-classic"),
    pytest.param(5, {"bull_and_bear": True, "gamebench_corner_at_6": True}, id="5-corner6"),
    pytest.param(7, {}, id="7-classic"),
    pytest.param(7, GAMEBENCH, id="7-gamebench"),
    pytest.param(4, GAMEBENCH, id="4-gamebench"),
    pytest.param(3, {"gamebench_unequal_trades": True, "gamebench_public_commodities": True}, id="3-unequal-open"),
]


@pytest.mark.parametrize("seats,options", VARIANTS)
def test_conformance_at_more_seats_and_with_variants(seats, options):
    options = {"max_hands": 2, "tick_cap": 4, **options}
    finals = check_playouts(lambda: PitGame(options, seats), n_playouts=12, base_seed=500)
    assert all(state.is_terminal() for state in finals)


# --- why the game ended (State.end_reason) and the final result line -------------------------------------------


def pass_tick(state):
    for seat in list(state.current_seats()):
        state.apply_action(seat, "pass")


def test_end_reason_a_corner_reaching_the_target():
    state = state_with([["wheat"] * 9, ["barley"] * 9, ["corn"] * 9])
    state.totals = [450, 0, 0]
    assert state.end_reason() is None
    state.apply_action(0, "corner:wheat")
    assert state.end_reason() == ("Player 1 cornered Wheat (+100) and reached the 500-point target (Player 1 550, "
                                  "Player 2 0, Player 3 0).")
    assert state.result_text() == "Final totals: Player 1 550, Player 2 0, Player 3 0. Player 1 wins."


def test_end_reason_the_hand_limit_after_the_tick_cap_with_no_corner_is_a_draw():
    state = PitGame({"tick_cap": 2, "max_hands": 2}, 3).new_initial_state(5)
    for _ in range(3):
        pass_tick(state)
        assert state.end_reason() is None
    pass_tick(state)
    assert state.is_terminal() and state.scores() == pytest.approx([1 / 3] * 3)
    assert state.end_reason() == ("The 2-hand limit was reached: hand 2 ended without a corner at the 2-tick cap; "
                                  "nobody cornered a market, so every total is 0.")
    assert state.result_text() == "Final totals: Player 1 0, Player 2 0, Player 3 0. A draw."


def test_end_reason_the_hand_limit_names_the_leader_on_points():
    state = PitGame({"tick_cap": 1, "max_hands": 1}, 3).new_initial_state(2)
    state.totals = [0, 85, 0]
    pass_tick(state)
    assert state.scores() == [0.0, 1.0, 0.0]
    assert state.end_reason() == ("The 1-hand limit was reached: hand 1 ended without a corner at the 1-tick cap; "
                                  "Player 2 has the most points (Player 1 0, Player 2 85, Player 3 0).")
    assert state.result_text() == "Final totals: Player 1 0, Player 2 85, Player 3 0. Player 2 wins."


def test_end_reason_the_hand_limit_after_a_corner_with_a_shared_lead():
    state = state_with([["wheat"] * 9, ["barley"] * 9, ["corn"] * 9], {"max_hands": 1})
    state.totals = [0, 100, -20]
    state.apply_action(0, "corner:wheat")
    assert state.scores() == [0.5, 0.5, 0.0]
    assert state.end_reason() == ("The 1-hand limit was reached: hand 1 ended with Player 1 cornering Wheat (+100); "
                                  "Player 1 and Player 2 share the most points (Player 1 100, Player 2 100, "
                                  "Player 3 -20).")
    assert state.result_text() == ("Final totals: Player 1 100, Player 2 100, Player 3 -20. Player 1 and Player 2 "
                                   "share the win.")


def test_end_reason_with_gamebench_share_scores():
    state = state_with([["wheat"] * 9, ["barley"] * 9, ["corn"] * 9], {"gamebench_share_scores": True, "max_hands": 1})
    state.apply_action(0, "corner:wheat")
    assert state.end_reason() == ("The 1-hand limit was reached: hand 1 ended with Player 1 cornering Wheat (+100); "
                                  "Player 1 has the most points (Player 1 100, Player 2 0, Player 3 0). Each player "
                                  "scores its share of the positive points.")
    nobody = PitGame({"gamebench_share_scores": True, "tick_cap": 1, "max_hands": 1}, 3).new_initial_state(2)
    nobody.totals = [-20, -20, 0]
    pass_tick(nobody)
    assert nobody.scores() == pytest.approx([1 / 3] * 3)
    assert nobody.end_reason() == ("The 1-hand limit was reached: hand 1 ended without a corner at the 1-tick cap; "
                                   "nobody has positive points, so the shares are even (Player 1 -20, Player 2 -20, "
                                   "Player 3 0). Each player scores its share of the positive points.")
    assert nobody.result_text().endswith(" A draw.")
