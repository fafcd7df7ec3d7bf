"""Arctic Scavengers engine: the fact sheet's test facts as known positions, and the other rules (group leaders,
reshuffles, digging, trashing, the Initiator, what stays hidden). The options, random playouts and end reasons are
tested in test_arctic_scavengers_whole_games.py."""

from __future__ import annotations

import json

import pytest

from gameplay.engines.api import IllegalActionError
from gameplay.engines.arctic_scavengers import ArcticGame
from gameplay.engines.arctic_scavengers.cards import (
    STARTING_DECK,
    action_total,
    fight_strength,
    people,
)
from tests.engines.arctic_support import act, keep_hands, new_state, pass_round, set_hand, to_skirmish_round

# --- the fact sheet's test facts -------------------------------------------------------------------------------


def test_fact1_starting_deck_has_10_cards_and_8_people():
    assert len(STARTING_DECK) == 10 and people(STARTING_DECK) == 8
    state = new_state()
    for seat in range(2):
        assert len(state.owned(seat)) == 10 and people(state.owned(seat)) == 8
        assert len(state.hands[seat]) == 5 and len(state.decks[seat]) == 5


def test_fact2_two_seat_supply_brawler_8_scavenger_14_junkyard_42():
    state = new_state()
    assert state.supply["brawler"] == 8 and state.supply["scavenger"] == 14
    assert len(state.junkyard) == 42
    five = new_state(seats=5)
    assert five.supply["brawler"] == 5 and five.supply["scavenger"] == 5 and len(five.junkyard) == 36


def test_fact3_no_skirmish_in_rounds_1_and_2_and_game_ends_after_round_16():
    state = new_state()
    assert len(state.contested) == 14
    for round_number in (1, 2):
        assert state.round == round_number and not state.skirmish_round()
        pass_round(state)
        assert state.last_skirmish is None and len(state.contested) == 14
    while not state.is_terminal():
        assert state.skirmish_round()
        pass_round(state)
    assert state.round == 16 and state.contested == [] and state.last_skirmish["round"] == 16
    assert ArcticGame().total_rounds() == 16


def test_fact4_scavenger_with_net_hunts_3_food_buys_a_brawler_not_a_scout_without_medicine():
    assert action_total("HUNT", ["scavenger", "net"]) == 3
    state = new_state()
    seat = state.current_seats()[0]
    set_hand(state, seat, ["scavenger", "net", "refugee", "refugee", "pills"])
    act(state, "hunt", "add:scavenger", "add:net", "go")
    assert state.food == 3
    legal = {a.id for a in state.legal_actions(seat)}
    assert "hire:brawler" in legal and "hire:scout" in legal  # Pills in hand pay the Scout's medicine
    set_hand(state, seat, ["refugee", "refugee"])
    legal = {a.id for a in state.legal_actions(seat)}
    assert "hire:brawler" in legal and "hire:scout" not in legal
    set_hand(state, seat, ["refugee", "pills"])
    act(state, "hire:scout", "pay:pills")
    assert state.discards[seat].count("scout") == 1 and state.supply["scout"] == 7
    assert not any(a.startswith("hire:") for a in (x.id for x in state.legal_actions(seat)))  # one hire a turn


def test_fact5_a_second_dig_in_the_same_round_is_illegal():
    state = new_state()
    seat = state.current_seats()[0]
    set_hand(state, seat, ["scavenger", "brawler", "shovel", "refugee", "refugee"])
    act(state, "dig", "add:scavenger", "add:shovel", "go")
    assert state.step["mode"] == "dig" and len(state.step["cards"]) == 3
    act(state, "dig_none")
    assert "dig" not in {a.id for a in state.legal_actions(seat)}
    with pytest.raises(IllegalActionError):
        state.apply_action(seat, "dig")


def test_fact6_a_spear_without_a_person_adds_nothing_to_fight():
    assert fight_strength(["spear"]) == 0
    assert fight_strength(["refugee", "spear"]) == 0  # a Refugee cannot fight, so it cannot carry it either
    state = new_state()
    seat = state.current_seats()[0]
    set_hand(state, seat, ["scavenger", "spear"])
    act(state, "hunt")
    assert {a.id for a in state.legal_actions(seat)} == {"add:scavenger"}  # no tool before its carrier


def test_fact7_one_person_carries_one_tool_brawler_spear_pickaxe_fight_4():
    assert fight_strength(["brawler", "spear", "pickaxe"]) == 4
    assert fight_strength(["brawler", "scavenger", "spear", "pickaxe"]) == 7


def test_fact8_fight_tie_goes_to_the_seat_with_more_people():
    state2 = new_state()
    to_skirmish_round(state2)
    prize = state2.contested[0]
    keep_hands(state2, {0: ["thugs", "brawler"], 1: ["scout", "brawler", "scavenger"]})
    last = state2.last_skirmish
    assert last["strength"] == [5, 5] and last["people"] == [4, 3]
    assert last["winner"] == 0 and prize in state2.discards[0] and state2.skirmishes_won == [1, 0]


def test_fact9_fight_and_people_tie_sends_the_resource_to_the_junkyard():
    state = new_state()
    to_skirmish_round(state)
    junkyard, contested = len(state.junkyard), len(state.contested)
    keep_hands(state, {0: ["brawler", "spear"], 1: ["scout", "pickaxe"]})  # 4-4, 1 person each
    last = state.last_skirmish
    assert last["strength"] == [4, 4] and last["people"] == [1, 1] and last["winner"] is None
    assert len(state.junkyard) == junkyard + 1 and len(state.contested) == contested - 1


def test_fact10_a_sniper_team_removes_a_person_before_strengths_are_compared():
    state = new_state()
    to_skirmish_round(state)
    first, second = state.order()
    keep_hands(state, {first: ["sniper_team", "scavenger"], second: ["thugs", "brawler"]})
    assert state.phase == "skirmish" and state.current_seats() == [first]
    legal = {a.id for a in state.legal_actions(first)}
    assert legal == {f"snipe:{second}:brawler", f"snipe:{second}:thugs", "skirmish_done"}
    act(state, f"snipe:{second}:thugs")
    last = state.last_skirmish
    assert last["strength"][second] == 2 and last["strength"][first] == 1
    assert "thugs" not in last["cards"][second] and "thugs" in state.discards[second]


def test_a_unit_sniped_before_its_turn_cannot_act():
    state = new_state()
    to_skirmish_round(state)
    first, second = state.order()
    keep_hands(state, {first: ["sniper_team"], second: ["sniper_team", "saboteur", "pickaxe"]})
    act(state, f"snipe:{second}:sniper_team")
    # The second seat's Saboteur has no tool to disarm and its Sniper Team is gone: the skirmish resolves.
    assert state.last_skirmish is not None and state.round == 4


def test_fact11_final_count_uses_every_owned_card():
    state = new_state(contested_count=1)
    to_skirmish_round(state)
    state.decks[0] = ["thugs", "field_crew"]
    state.discards[1] = ["tribe_family_5"]
    keep_hands(state, {0: ["refugee"], 1: ["refugee"]})
    assert state.is_terminal()
    counts = state.final_people()
    assert counts[0] == people(state.owned(0)) >= 3 + 4
    assert counts[1] >= 5
    assert state.measures(0)["people"] == counts[0]


# --- more rules ---------------------------------------------------------------------------------------------


def test_group_leaders_need_a_carrier_and_add_two():
    assert action_total("DRAW", ["group_leaders"]) == 0
    assert action_total("DRAW", ["scout", "group_leaders"]) == 4
    assert action_total("FIGHT", ["brawler", "spear", "group_leaders"]) == 6


def test_draw_reshuffles_the_discard_pile_including_the_cards_just_played():
    state = new_state()
    seat = state.current_seats()[0]
    state.decks[seat] = []
    state.discards[seat] = ["junk", "junk"]
    set_hand(state, seat, ["scout"])
    act(state, "draw", "add:scout", "go")  # the Scout is discarded first, then the empty deck is refilled
    assert len(state.hands[seat]) == 2 and state.discards[seat] == []
    assert sorted(state.hands[seat] + state.decks[seat]) == ["junk", "junk", "scout"]


def test_dig_keeps_one_card_and_returns_the_rest_to_the_bottom():
    state = new_state()
    seat = state.current_seats()[0]
    top = state.junkyard[:2]
    set_hand(state, seat, ["scavenger"])
    act(state, "dig", "add:scavenger", "go")
    assert state.step["cards"] == top[:1]
    act(state, f"dig_keep:{top[0]}")
    assert state.discards[seat] == ["scavenger", top[0]] and len(state.junkyard) == 41


def test_trash_sends_cards_to_the_junkyard_and_refugees_out_of_the_game():
    state = new_state()
    seat = state.current_seats()[0]
    set_hand(state, seat, ["refugee", "junk"])
    act(state, "trash", "trash:refugee", "trash:junk", "trash_done")
    assert state.removed == ["refugee"] and len(state.junkyard) == 43 and "TRASH" in state.used


def test_thugs_take_any_mix_of_food_and_medicine():
    state = new_state()
    seat = state.current_seats()[0]
    set_hand(state, seat, ["field_crew", "net", "medkit"])
    act(state, "hunt", "add:field_crew", "add:net", "go")
    assert state.food == 4
    act(state, "hire:thugs", "pay:medkit")
    assert "thugs" in state.discards[seat] and state.supply["thugs"] == 4


def test_initiator_stays_for_three_rounds_then_passes_left():
    state = new_state(seats=3)
    first = state.initiator
    for round_number in (1, 2, 3):
        assert state.round == round_number and state.initiator == first
        pass_round(state)
    assert state.initiator == (first + 1) % 3
    pass_round(state)
    assert state.initiator == (first + 2) % 3


def test_peek_is_private_to_the_initiator_from_round_3():
    state = new_state()
    assert state.peek is None
    to_skirmish_round(state)
    assert state.peek == state.contested[0]
    other = 1 - state.initiator
    assert "contested_peek" in state.observation(state.initiator).data
    assert "contested_peek" not in json.dumps(state.observation(other).to_json())
    assert "contested_peek" not in json.dumps(state.observation(None).to_json())


def test_kept_cards_stay_hidden_until_the_reveal():
    state = new_state()
    to_skirmish_round(state)
    first, second = state.order()
    set_hand(state, first, ["grenade", "scout"])
    act(state, "end_turn", "keep")
    labels = state.log[-1]
    assert labels.action_id == "keep"
    seen = json.dumps(state.observation(second).to_json())
    assert "my_kept" not in seen and state.observation(second).data["tribes"][first]["kept"] == 2
    assert state.observation(first).data["my_kept"] == ["scout", "grenade"]


def test_keep_label_names_cards_only_for_the_keeper():
    state = new_state()
    to_skirmish_round(state)
    seat = state.current_seats()[0]
    set_hand(state, seat, ["scout"])
    act(state, "end_turn")
    labels = state.action_labels(seat, "keep")
    assert "Scout" in labels.for_viewer(seat)
    assert "Scout" not in labels.public and "Scout" not in labels.for_viewer(1 - seat)


