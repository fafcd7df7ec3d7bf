"""Fruit Trading: the rules sheet's test facts (§9) by name, offers and their errors, hidden information, replay."""

from __future__ import annotations

import json

import pytest

from gameplay.engines.api import IllegalActionError
from gameplay.engines.dialogue import scores_from_payoffs
from gameplay.engines.fruit_trading import FruitTradingGame
from gameplay.engines.fruit_trading.offers import legal_offers, offer_id, parse_offer, value
from gameplay.engines.fruit_trading.views import basket_sentence, values_sentence
from gameplay.engines.registry import create_game
from tests.engines.conformance import check_playouts
from tests.engines.fruit_trading_support import new_state

BOB, SUZY = 0, 1  # the fixed scenario: seat 0 holds scenario A (OpenSpiel's Bob), seat 1 scenario B (Suzy)


def dump(state) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def trade(proposer_move: str, **options):
    """Bob proposes ``proposer_move``, Suzy accepts; the finished state."""
    state = new_state(**options)
    state.apply_action(BOB, proposer_move, "How about this?")
    state.apply_action(SUZY, "accept", "Deal.")
    return state


# --- the sheet's test facts (§9) ----------------------------------------------------------------------------------

def test_bob_gives_one_banana_for_two_kiwis_scores_plus_one_and_suzy_plus_three():
    state = trade("propose:banana1:kiwi2")
    assert state.is_terminal()
    assert state.payoffs() == [1, 3]  # Bob 6 - 5, Suzy 7 - 4
    assert state.measures(BOB) == {"payoff": 1, "agreement": True, "messages": 1}
    assert state.measures(SUZY)["payoff"] == 3


def test_bob_gives_two_bananas_for_three_kiwis_scores_minus_one_and_suzy_plus_eight():
    state = trade("propose:banana2:kiwi3")
    assert state.payoffs() == [-1, 8]  # Bob 9 - 10, Suzy 14 - 6


def test_bob_cannot_propose_two_apples_as_he_owns_one():
    state = new_state()
    before = dump(state)
    with pytest.raises(IllegalActionError, match="you have 1 apple, not 2"):
        state.apply_action(BOB, "propose:apple2:kiwi1", "Two apples for a kiwi?")
    assert dump(state) == before
    assert "propose:apple2:kiwi1" not in {t.id for t in state.text_actions(BOB)}
    assert "propose:apple1:kiwi1" in {t.id for t in state.text_actions(BOB)}


def test_suzy_cannot_accept_an_offer_asking_her_for_an_apple():
    state = new_state(openspiel_opening=True)  # Bob's opener: 1 banana for 1 apple, and Suzy owns no apple
    assert state.current_seats() == [SUZY]
    assert state.offers[BOB] == {"give": [0, 1, 0, 0], "get": [1, 0, 0, 0]}
    assert "accept" not in {t.id for t in state.text_actions(SUZY)}
    before = dump(state)
    with pytest.raises(IllegalActionError, match="asks you for 1 apple, and you have 0 apples"):
        state.apply_action(SUZY, "accept", "Sure!")
    assert dump(state) == before


def test_walk_away_pays_both_zero():
    state = new_state()
    state.apply_action(BOB, "propose:banana1:kiwi2", "A banana for two kiwis?")
    state.apply_action(SUZY, "walk_away", "No thanks.")
    assert state.is_terminal() and state.outcome == "walk_away"
    assert state.payoffs() == [0, 0]
    assert state.scores() == [0.5, 0.5]
    assert state.measures(SUZY) == {"payoff": 0, "agreement": False, "messages": 1}


def test_a_trade_moves_exactly_the_traded_fruit_and_ends_the_game():
    state = trade("propose:apple1+banana1:blueberry2+kiwi1")
    assert state.endowments == [[0, 1, 2, 1], [1, 1, 3, 2]]
    assert state.start_endowments == [[1, 2, 0, 0], [0, 0, 5, 3]]
    assert state.is_terminal() and state.current_seats() == []
    assert state.text_actions(BOB) == [] and state.text_actions(SUZY) == []
    with pytest.raises(IllegalActionError, match="over"):
        state.apply_action(BOB, "talk", "one more thing")


@pytest.mark.parametrize("scenario", ["fixed", "random"])
def test_an_observation_never_shows_the_other_seats_basket_or_valuations(scenario):
    for seed in range(20):
        state = new_state(seed, scenario=scenario)
        state.apply_action(0, "talk", "Hello there.")
        for seat in (0, 1):
            other = 1 - seat
            seen = json.dumps(state.observation(seat).to_json(), ensure_ascii=False)
            own = {basket_sentence(state.endowments[seat]), values_sentence(state.valuations[seat])}
            for secret in (basket_sentence(state.endowments[other]), values_sentence(state.valuations[other])):
                if secret not in own:
                    assert secret not in seen
            assert "valuations" not in json.dumps(state.observation(seat).data.get("offers"))
        public = json.dumps(state.observation(None).to_json(), ensure_ascii=False)
        for seat in (0, 1):
            assert basket_sentence(state.endowments[seat]) not in public
            assert values_sentence(state.valuations[seat]) not in public


def test_openspiel_tone_config_has_eight_actions_and_payoff_bounds_minus_20_and_20():
    spec = FruitTradingGame.spec
    tones = spec.dialogue.default_set
    assert tones.name == "tone"
    assert set(tones.instructions) == {"calm", "assertive", "submissive", "any"}
    assert 2 * len(tones.instructions) == 8  # 2 players x 4 tones: the flat actions of OpenSpiel's config
    assert spec.dialogue.payoff_bounds == (-20, 20)
    assert spec.dialogue.payoff_measure == "payoff"
    assert tones.text("calm") == "Write your message in a calm tone."


# --- more rules ------------------------------------------------------------------------------------------------

def test_the_seed_appendix_example_alina_plus_three_elroy_minus_three():
    values = (6, 5, 1, 1)
    banana, two_kiwis = (0, 1, 0, 0), (0, 0, 0, 2)
    assert value(banana, values) - value(two_kiwis, values) == 3
    assert value(two_kiwis, values) - value(banana, values) == -3


@pytest.mark.parametrize("move,why", [
    ("propose:nothing:nothing", "at least one side"),
    ("propose:banana1:banana1", "both sides"),
    ("propose:banana1:kiwi4", "at most 3 fruits"),
    ("propose:kiwi1+banana1:nothing", "in the order"),
    ("propose:banana1:mango1", "unknown fruit"),
    ("propose:banana0:kiwi1", "count from 1"),
    ("propose:banana1:kiwi01", "count from 1"),
    ("propose:banana1+banana1:kiwi1", "named twice"),
    ("propose:banana1", "not an offer"),
    ("propose:blueberry1:apple1", "you have 0 blueberries"),
])
def test_illegal_offers_are_refused_with_a_reason_and_change_nothing(move, why):
    state = new_state()
    before = dump(state)
    with pytest.raises(IllegalActionError, match=why):
        state.apply_action(BOB, move, "An offer.")
    assert dump(state) == before


def test_gifts_and_requests_are_offers_and_every_offer_id_is_canonical():
    ids = {t.id for t in new_state().text_actions(BOB)}
    assert {"propose:apple1:nothing", "propose:nothing:kiwi3", "propose:apple1+banana2:kiwi2"} <= ids
    for give, get in legal_offers((1, 2, 0, 0), 3):
        assert parse_offer(offer_id(give, get)) == (give, get)
        assert sum(give) <= 3 and sum(get) <= 3 and (any(give) or any(get))
        assert not any(g and r for g, r in zip(give, get, strict=True))
    assert len(legal_offers((1, 2, 0, 0), 3)) == 114
    assert len(legal_offers((5, 5, 5, 5), 1)) == 20  # 4 gifts, 4 requests, 12 one-for-one swaps


def test_max_offer_units_bounds_each_side():
    state = new_state(max_offer_units=1)
    ids = {t.id for t in state.text_actions(SUZY if state.to_move else BOB)}
    assert "propose:banana1:kiwi1" in ids and "propose:banana1:kiwi2" not in ids
    with pytest.raises(IllegalActionError, match="at most 1 fruit"):
        state.apply_action(BOB, "propose:banana1:kiwi2", "?")
    for bad in (0, 6):
        with pytest.raises(Exception, match="max_offer_units"):
            FruitTradingGame({"max_offer_units": bad})


def test_a_new_proposal_replaces_the_standing_one_and_accept_takes_the_latest():
    state = new_state()
    state.apply_action(BOB, "propose:banana1:kiwi1", "One for one?")
    state.apply_action(SUZY, "propose:kiwi1:banana1", "Same from my side.")
    state.apply_action(BOB, "propose:banana1:kiwi2", "Make it two kiwis.")
    assert state.offers[BOB] == {"give": [0, 1, 0, 0], "get": [0, 0, 0, 2]}
    state.apply_action(SUZY, "accept", "Fine.")
    assert state.trade == {"proposer": BOB, "give": [0, 1, 0, 0], "get": [0, 0, 0, 2]}
    assert state.payoffs() == [1, 3]


def test_accepting_needs_a_standing_offer_of_the_other_seat():
    state = new_state()
    with pytest.raises(IllegalActionError, match="no standing offer"):
        state.apply_action(BOB, "accept", "Yes!")
    state.apply_action(BOB, "propose:banana1:kiwi1", "One for one?")
    state.apply_action(SUZY, "talk", "Hmm.")
    assert "accept" not in {t.id for t in state.text_actions(BOB)}  # his own offer is not his to accept


def test_the_turn_limit_ends_without_a_trade():
    state = new_state(max_turns_per_seat=2)
    for seat in (0, 1, 0, 1):
        assert state.current_seats() == [seat]
        state.apply_action(seat, "talk", "Let us think.")
    assert state.is_terminal() and state.outcome == "limit"
    assert state.payoffs() == [0, 0] and len(state.log) == state.game.max_actions()


def test_every_move_needs_a_clean_message():
    state = new_state()
    before = dump(state)
    for text in (None, "   ", "bad \x07 bell", "x" * 601):
        with pytest.raises(IllegalActionError):
            state.apply_action(BOB, "talk", text)
    assert dump(state) == before
    state.apply_action(BOB, "talk", "  two   spaces\n\nkept as one  ")
    assert state.thread[-1]["text"] == "two spaces\nkept as one"


def test_out_of_turn_moves_are_refused():
    state = new_state()
    with pytest.raises(IllegalActionError, match="not Player 2's turn"):
        state.apply_action(SUZY, "talk", "Me first")


def test_the_opening_counts_as_player_one_s_message_and_player_two_moves_first():
    state = new_state(openspiel_opening=True, max_turns_per_seat=1)
    assert state.thread[0]["seat"] == BOB and state.thread[0]["move"] == "propose:banana1:apple1"
    assert "1 banana" in state.observation(SUZY).text
    state.apply_action(SUZY, "propose:kiwi2:banana1", "Two kiwis for a banana?")
    state.apply_action(BOB, "accept", "Deal.")
    assert state.payoffs() == [1, 3]
    assert state.measures(BOB)["messages"] == 2


def test_random_scenarios_come_from_the_seed_within_the_ranges():
    seen = set()
    for seed in range(40):
        a, b = new_state(seed, scenario="random"), new_state(seed, scenario="random")
        assert a.endowments == b.endowments and a.valuations == b.valuations
        for seat in (0, 1):
            assert all(0 <= n <= 5 for n in a.endowments[seat]) and sum(a.endowments[seat]) >= 1
            assert all(1 <= v <= 10 for v in a.valuations[seat])
        seen.add(json.dumps(a.endowments))
    assert len(seen) > 30


def test_scores_share_the_payoff_range_and_sum_to_one():
    state = trade("propose:banana2:kiwi3")
    assert state.scores() == scores_from_payoffs([-1, 8], (-20, 20))
    assert abs(sum(state.scores()) - 1) < 1e-12 and state.scores()[SUZY] > state.scores()[BOB]


def test_replay_and_json_round_trip_reproduce_the_state():
    game = create_game("fruit_trading", {"scenario": "random", "openspiel_opening": True})
    state = game.new_initial_state(42)
    moves = [t.id for t in state.text_actions(1)]
    state.apply_action(1, moves[-1], "My offer.")
    state.apply_action(0, "talk", "Let me think.")
    restored = game.state_from_json(json.loads(json.dumps(state.to_json())))
    assert dump(restored) == dump(state)
    assert dump(game.replay(42, state.log)) == dump(state)
    assert restored.text_actions(1) == state.text_actions(1)


def test_labels_word_the_move_without_a_subject_for_every_viewer():
    state = new_state()
    labels = state.action_labels(BOB, "propose:banana1:kiwi2", "Deal?")
    assert labels.by_seat[BOB] == labels.by_seat[SUZY] == labels.public
    assert labels.public == 'Propose: give 1 banana, get 2 kiwis: "Deal?"'
    assert state.action_labels(BOB, "walk_away", "Bye.").public == 'Walk away: "Bye."'


def test_the_end_reveals_both_profiles_and_payoffs_to_both_seats():
    state = trade("propose:banana1:kiwi2")
    for seat in (0, 1, None):
        obs = state.observation(seat)
        assert obs.data["payoffs"] == [1, 3]
        assert "apple=10" in obs.text and "apple=8" in obs.text
    assert state.secrets() == {}


def test_random_scenario_playouts_conform():
    finals = check_playouts(lambda: FruitTradingGame({"scenario": "random", "max_offer_units": 5}),
                            n_playouts=30, base_seed=500)
    assert all(s.is_terminal() for s in finals)


def test_text_actions_are_cached_per_basket():
    state = new_state()
    assert state.text_actions(BOB) is not state.text_actions(BOB)  # a fresh list each call ...
    assert state.text_actions(BOB)[5] is state.text_actions(BOB)[5]  # ... of the same cached actions


# --- why the game ended (State.end_reason) ----------------------------------------------------------------------

def test_end_reason_names_the_accepted_offer_from_the_proposers_side():
    state = new_state()
    state.apply_action(BOB, "propose:banana1:kiwi2", "A banana for two kiwis?")
    assert state.end_reason() is None
    state.apply_action(SUZY, "accept", "Deal.")
    assert state.end_reason() == "Player 2 accepted Player 1's offer of 1 banana for 2 kiwis."
    state = new_state(openspiel_opening=True)
    state.apply_action(SUZY, "propose:blueberry2+kiwi1:nothing", "A gift.")
    state.apply_action(BOB, "accept", "Thank you!")
    assert state.end_reason() == "Player 1 accepted Player 2's offer of 2 blueberries and 1 kiwi for nothing."


def test_end_reason_names_who_walked_away():
    state = new_state()
    state.apply_action(BOB, "walk_away", "Not today.")
    assert state.end_reason() == "Player 1 walked away without a trade."


@pytest.mark.parametrize("turns,reason", [
    (1, "The limit of 1 turn per player was reached without a trade."),
    (2, "The limit of 2 turns per player was reached without a trade."),
])
def test_end_reason_of_the_turn_limit(turns, reason):
    state = new_state(max_turns_per_seat=turns)
    for i in range(2 * turns):
        assert state.end_reason() is None
        state.apply_action(i % 2, "talk", "Let us think.")
    assert state.outcome == "limit" and state.end_reason() == reason
