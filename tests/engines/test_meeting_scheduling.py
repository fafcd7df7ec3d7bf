"""Meeting Scheduling: the rules sheet's test facts (§9) by name, the engine rules (§5), hidden information and
replay."""

from __future__ import annotations

import json

import pytest

from gameplay.engines.api import IllegalActionError
from gameplay.engines.dialogue import ANY
from gameplay.engines.meeting_scheduling import MeetingGame
from gameplay.engines.meeting_scheduling.game import common_days
from gameplay.engines.meeting_scheduling.rules import DAYS
from gameplay.engines.meeting_scheduling.text import ooo_phrase, prefs_phrase
from gameplay.engines.registry import create_game

from .conformance import check_observation_leaks, check_playouts
from .meeting_scheduling_support import fixed

BOB, SUZY = 0, 1


def ids(state, seat):
    return [a.id for a in state.text_actions(seat)]


# --- §9 test facts ---------------------------------------------------------------------------------------------
def test_fixed_scenario_days_both_can_attend_are_thursday_friday_sunday():
    assert common_days(fixed().profiles) == ["thursday", "friday", "sunday"]


@pytest.mark.parametrize("day,bob,suzy", [("thursday", 3, 1), ("friday", 2, 1)])
def test_agreement_pays_each_seat_its_own_value_thursday_3_1_friday_2_1(day, bob, suzy):
    state = fixed()
    state.apply_action(BOB, f"propose:{day}", f"How about {day}?")
    state.apply_action(SUZY, "accept", "Fine by me.")
    assert state.is_terminal() and state.payoffs() == [bob, suzy]
    assert state.measures(BOB) == {"payoff": bob, "agreement": True, "messages": 1}
    assert state.measures(SUZY)["payoff"] == suzy


def test_no_agreement_pays_0_and_0():
    state = fixed()
    state.apply_action(BOB, "walk_away", "Never mind.")
    assert state.is_terminal() and state.payoffs() == [0, 0]
    assert state.scores() == [0.5, 0.5]
    assert state.measures(SUZY)["agreement"] is False


def test_suzy_propose_monday_is_illegal_she_is_out_of_office():
    state = fixed()
    state.apply_action(BOB, "talk", "Hi Suzy.")
    assert "propose:monday" not in ids(state, SUZY)
    with pytest.raises(IllegalActionError):
        state.apply_action(SUZY, "propose:monday", "Monday?")


def test_accept_without_a_standing_proposal_of_the_other_seat_is_illegal():
    state = fixed()
    assert "accept" not in ids(state, BOB)
    with pytest.raises(IllegalActionError):
        state.apply_action(BOB, "accept", "Deal.")
    state.apply_action(BOB, "propose:thursday", "Thursday?")
    state.apply_action(SUZY, "talk", "Let me check.")
    # Bob's own proposal is not one he can accept.
    assert "accept" not in ids(state, BOB)


def test_observation_never_contains_the_other_seats_ooo_days_or_preferences():
    state = fixed()
    bob, suzy = state.profiles
    for seat, other in ((BOB, suzy), (SUZY, bob)):
        obs = json.dumps(state.observation(seat).to_json())
        assert ooo_phrase(other) not in obs and prefs_phrase(other) not in obs
        assert "schedule" in state.observation(seat).data
    public = json.dumps(state.observation(None).to_json())
    assert not any(p in public for prof in (bob, suzy) for p in (ooo_phrase(prof), prefs_phrase(prof)))
    check_observation_leaks(state)


def test_three_turns_each_without_acceptance_ends_after_6_turns_with_0_0():
    state = fixed(max_turns_per_seat=3)
    moves = ["propose:monday", "propose:tuesday", "talk", "propose:sunday", "propose:friday", "talk"]
    for i, move in enumerate(moves):
        assert not state.is_terminal()
        state.apply_action(i % 2, move, "Hmm.")
    assert state.is_terminal() and state.outcome == "turn_limit"
    assert len(state.log) == 6 and state.payoffs() == [0, 0]


def test_openspiel_instruction_counts_day_variant_16_tone_variant_8():
    dialogue = MeetingGame.spec.dialogue
    players = MeetingGame.spec.max_seats
    assert players * len(dialogue.instruction_set("day").instructions) == 16
    assert players * len(dialogue.instruction_set("tone").instructions) == 8


def test_openspiel_opening_first_decision_belongs_to_player_1():
    state = fixed(openspiel_opening=True)
    assert state.current_seats() == [SUZY]
    assert state.proposals[BOB] == "thursday" and state.thread[0]["seat"] == BOB
    assert "accept" in ids(state, SUZY) and state.log == []


# --- §5 engine rules -------------------------------------------------------------------------------------------
def test_seat_0_moves_first_without_the_opening():
    assert fixed().current_seats() == [BOB]


def test_a_new_proposal_replaces_the_movers_standing_one():
    state = fixed()
    state.apply_action(BOB, "propose:monday", "Monday?")
    state.apply_action(SUZY, "talk", "Hm.")
    state.apply_action(BOB, "propose:friday", "Friday then?")
    assert state.proposals == ["friday", None]
    state.apply_action(SUZY, "accept", "Friday it is.")
    assert state.agreed_day == "friday" and state.payoffs() == [2, 1]


def test_accept_of_a_day_the_acceptor_is_out_of_office_is_illegal():
    state = fixed()
    state.apply_action(BOB, "propose:monday", "Monday suits me best.")
    assert "accept" not in ids(state, SUZY)


def test_talk_only_turns_count_toward_the_limit():
    state = fixed(max_turns_per_seat=1)
    state.apply_action(BOB, "talk", "Hello.")
    state.apply_action(SUZY, "talk", "Hi.")
    assert state.is_terminal() and state.outcome == "turn_limit"


def test_messages_are_validated_and_required():
    state = fixed()
    for bad in ("", "   ", "bad\x07bell", "x" * 601):
        with pytest.raises(IllegalActionError):
            state.apply_action(BOB, "talk", bad)
    state.apply_action(BOB, "talk", "  two   spaces  ")
    assert state.thread[-1]["text"] == "two spaces"


def test_dialogue_spec_tone_set_first_then_day():
    dialogue = MeetingGame.spec.dialogue
    assert [s.name for s in dialogue.instruction_sets] == ["tone", "day"]
    assert dialogue.default_set.instructions == ("calm", "assertive", "submissive", ANY)
    assert dialogue.instruction_set("day").instructions == (*DAYS, ANY)
    assert dialogue.instruction_set("day").text("friday") == "Insist on meeting on friday."
    assert dialogue.payoff_bounds == (0.0, 20.0) and dialogue.payoff_measure == "payoff"
    assert {m.name for m in MeetingGame.spec.measures} == {"payoff", "agreement", "messages"}


@pytest.mark.parametrize("seed", range(60))
def test_random_scenarios_have_2_to_3_ooo_days_values_0_to_15_and_a_common_day(seed):
    state = MeetingGame({"scenario": "random"}).new_initial_state(seed)
    for profile in state.profiles:
        assert 2 <= len(profile["ooo"]) <= 3
        assert all(0 <= profile["prefs"][d] <= 15 for d in DAYS)
    assert common_days(state.profiles)


def test_random_scenario_depends_on_the_seed_only():
    game = MeetingGame({"scenario": "random"})
    assert game.new_initial_state(5).profiles == game.new_initial_state(5).profiles
    assert any(game.new_initial_state(s).profiles != game.new_initial_state(5).profiles for s in range(6, 12))


def test_random_opening_proposes_the_openers_best_attendable_day():
    state = MeetingGame({"scenario": "random", "openspiel_opening": True}).new_initial_state(9)
    bob = state.profiles[0]
    day = state.proposals[0]
    assert day not in bob["ooo"]
    assert bob["prefs"][day] == max(bob["prefs"][d] for d in DAYS if d not in bob["ooo"])


def test_profiles_are_revealed_to_both_when_the_game_is_over():
    state = fixed()
    state.apply_action(BOB, "propose:sunday", "Sunday?")
    state.apply_action(SUZY, "accept", "Sure.")
    assert state.secrets() == {}
    for seat in (BOB, SUZY, None):
        data = state.observation(seat).data
        assert [p["payoff"] for p in data["profiles"]] == [1, 1]
        assert ooo_phrase(state.profiles[1 - (seat or 0)]) in state.observation(seat).text


def test_labels_are_public_and_carry_the_message():
    state = fixed()
    labels = state.action_labels(BOB, "propose:thursday", "Thursday?")
    assert labels.public == "Proposes Thursday: “Thursday?”" and set(labels.by_seat) == {labels.public}


def test_json_round_trip_and_replay_reproduce_the_state():
    game = MeetingGame({"scenario": "random", "openspiel_opening": True})
    state = game.new_initial_state(21)
    state.apply_action(SUZY, "talk", "Hello there.")
    state.apply_action(BOB, f"propose:{common_days(state.profiles)[0]}", "This day?")
    state.apply_action(SUZY, "accept", "Yes.")
    restored = game.state_from_json(json.loads(json.dumps(state.to_json())))
    assert restored.to_json() == state.to_json()
    assert game.replay(21, state.log).to_json() == state.to_json()
    assert create_game("meeting_scheduling", {"scenario": "random", "openspiel_opening": True}).replay(
        21, state.log).payoffs() == state.payoffs()


@pytest.mark.parametrize("options", [{"scenario": "random"}, {"scenario": "random", "openspiel_opening": True,
                                                              "max_turns_per_seat": 10}])
def test_random_scenario_playouts_conform(options):
    finals = check_playouts(lambda: MeetingGame(options), n_playouts=60, base_seed=300)
    assert all(s.is_terminal() and len(s.log) <= 2 * options.get("max_turns_per_seat", 3) for s in finals)


# --- why the game ended (State.end_reason) ----------------------------------------------------------------------
def test_end_reason_names_the_acceptance_and_the_agreed_day():
    state = fixed()
    state.apply_action(BOB, "propose:thursday", "Thursday?")
    assert state.end_reason() is None
    state.apply_action(SUZY, "accept", "Thursday it is.")
    assert state.end_reason() == "Player 2 accepted Player 1's proposal to meet on Thursday."


def test_end_reason_of_an_accepted_opening_and_of_a_later_proposal():
    state = fixed(openspiel_opening=True)
    state.apply_action(SUZY, "accept", "Thursday works.")
    assert state.end_reason() == "Player 2 accepted Player 1's proposal to meet on Thursday."
    state = fixed()
    state.apply_action(BOB, "talk", "Hello.")
    state.apply_action(SUZY, "propose:sunday", "Sunday?")
    state.apply_action(BOB, "accept", "Fine.")
    assert state.end_reason() == "Player 1 accepted Player 2's proposal to meet on Sunday."


@pytest.mark.parametrize("walker", [BOB, SUZY])
def test_end_reason_names_who_walked_away(walker):
    state = fixed()
    if walker == SUZY:
        state.apply_action(BOB, "propose:friday", "Friday?")
    state.apply_action(walker, "walk_away", "No.")
    assert state.end_reason() == f"Player {walker + 1} walked away without an agreement."


@pytest.mark.parametrize("turns,reason", [
    (1, "The limit of 1 turn per player was reached without an agreement."),
    (3, "The limit of 3 turns per player was reached without an agreement."),
])
def test_end_reason_of_the_turn_limit(turns, reason):
    state = fixed(max_turns_per_seat=turns)
    for i in range(2 * turns):
        assert state.end_reason() is None
        state.apply_action(i % 2, "talk", "Hmm.")
    assert state.outcome == "turn_limit" and state.end_reason() == reason
