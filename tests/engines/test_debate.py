"""The debate engine: the rules sheet's test facts (§9) as named tests, plus the judging hooks and the rule."""

from __future__ import annotations

import json

import pytest

from gameplay.engines.api import IllegalActionError, InvalidOptionsError
from gameplay.engines.debate import DebateGame
from gameplay.engines.debate.judging import argument_points, rule_totals
from gameplay.engines.debate.topics import TOPICS
from gameplay.engines.registry import create_game

FOR, AGAINST = 0, 1


def argue(state, text="Because it matters.", style="logos"):
    seat = state.current_seats()[0]
    state.apply_action(seat, f"argue:{style}", text)
    return seat


def finished_arguments(**options):
    state = DebateGame({"topic": 0, **options}).new_initial_state(1)
    while not state.awaiting_verdict():
        argue(state)
    return state


def test_fact_1_topic_list_has_20_entries_and_topic_0_is_breakfast():
    assert len(TOPICS) == 20
    assert len(set(TOPICS)) == 20
    assert TOPICS[0] == "Breakfast is the most important meal of the day."
    assert DebateGame({"topic": 0}).new_initial_state(5).observation(0).data["topic"] == TOPICS[0]


def test_fact_2_two_players_times_four_styles_make_8_actions_and_payoff_bounds_0_1():
    game = DebateGame()
    styles = game.spec.dialogue.instruction_set("style").instructions
    assert set(styles) == {"logos", "ethos", "pathos", "any"}
    assert game.num_seats * len(styles) == 8
    assert game.spec.dialogue.payoff_bounds == (0.0, 1.0)
    assert game.spec.dialogue.judged is True
    state = game.new_initial_state(0)
    ids = [a.id for a in state.text_actions(state.current_seats()[0])]
    assert ids == ["argue:logos", "argue:ethos", "argue:pathos", "argue:mixed"]


def test_fact_3_in_openspiel_order_the_against_side_argues_first():
    assert DebateGame({"openspiel_order": True}).new_initial_state(0).current_seats() == [AGAINST]
    assert DebateGame().new_initial_state(0).current_seats() == [FOR]


def test_fact_4_two_rounds_per_side_end_after_4_arguments_then_the_judge_is_called_once():
    state = DebateGame({"rounds_per_side": 2}).new_initial_state(3)
    order = [argue(state) for _ in range(4)]
    assert order == [FOR, AGAINST, FOR, AGAINST]
    assert state.awaiting_verdict() and state.current_seats() == [] and not state.is_terminal()
    text, verdicts = state.verdict_request()
    assert verdicts == ("for", "against", "draw")
    assert text.count("(declared style logos)") == 4
    state.apply_verdict("for", "rule")
    assert state.is_terminal() and not state.awaiting_verdict()
    with pytest.raises(IllegalActionError):
        state.apply_verdict("against", "rule")  # the judge is called once: a second verdict is refused


@pytest.mark.parametrize("verdict,scores", [("for", [1.0, 0.0]), ("against", [0.0, 1.0]), ("draw", [0.5, 0.5])])
def test_fact_5_constant_sum_judging_one_seat_scores_1_or_both_half(verdict, scores):
    state = finished_arguments()
    state.apply_verdict(verdict, "rule")
    assert state.scores() == scores
    assert [state.measures(s)["payoff"] for s in (0, 1)] == scores
    assert [state.measures(s)["won"] for s in (0, 1)] == [s == 1.0 for s in scores]


def test_fact_6_an_argument_over_the_word_cap_is_rejected_with_a_clear_error():
    state = DebateGame({"max_words": 10}).new_initial_state(0)
    before = json.dumps(state.to_json())
    with pytest.raises(IllegalActionError, match="11 words; at most 10"):
        state.apply_action(FOR, "argue:logos", " ".join(["word"] * 11))
    assert json.dumps(state.to_json()) == before
    state.apply_action(FOR, "argue:logos", " ".join(["word"] * 10))
    assert state.current_seats() == [AGAINST]


def test_fact_7_a_steering_instruction_does_not_appear_in_the_other_seats_observation():
    # The instruction steering a seat is its agent's note (Decision.note), never engine state: only the declared,
    # public style and the text enter the state, so the other seat (and the judge) cannot see it.
    state = DebateGame({"topic": 0}).new_initial_state(0)
    state.apply_action(FOR, "argue:mixed", "Eating early gives energy for 4 hours.")
    secret_instruction = "instruction: pathos"
    for viewer in (AGAINST, None):
        assert secret_instruction not in state.observation(viewer).text
        assert "pathos" not in json.dumps(state.observation(viewer).data["thread"])
        assert "pathos" not in state.observation(viewer).text
    assert "pathos" not in json.dumps(state.to_json())
    assert "mixed" in state.observation(AGAINST).text  # the declared style is public


def test_openspiel_judging_is_general_sum():
    state = finished_arguments(judging="openspiel")
    assert state.verdict_request()[1] == ("both", "for", "against", "neither")
    probe = state.clone()
    probe.apply_verdict("both", "judge-model")
    assert [probe.measures(s)["payoff"] for s in (0, 1)] == [1.0, 1.0]
    assert probe.scores() == [0.5, 0.5]
    state.apply_verdict("neither", "rule")
    assert [state.measures(s)["won"] for s in (0, 1)] == [False, False]


def test_verdict_is_logged_and_replayed_from_seed_and_log():
    state = finished_arguments()
    state.apply_verdict("against", "gpt-judge")
    assert state.log[-1].seat == state.game.num_seats
    assert state.log[-1].action_id == "verdict:against"
    replayed = state.game.replay(state.seed, state.log)
    assert json.dumps(replayed.to_json()) == json.dumps(state.to_json())
    assert "gpt-judge" in replayed.result_text()


def test_verdict_refused_before_the_last_argument_and_when_not_offered():
    state = DebateGame().new_initial_state(0)
    argue(state)
    with pytest.raises(IllegalActionError):
        state.apply_verdict("for", "rule")
    with pytest.raises(IllegalActionError):
        state.fallback_verdict()
    state = finished_arguments()
    with pytest.raises(IllegalActionError, match="not a verdict"):
        state.apply_verdict("both", "rule")  # an OpenSpiel-mode verdict in single judging


def test_the_rule_scores_reasons_examples_and_answers():
    assert argument_points("Breakfast helps because it fuels the brain.", None) == 1
    assert argument_points("For example, 3 studies agree.", None) == 1
    assert argument_points("Skipping breakfast is fine.", "Breakfast fuels the brain.") == 1
    assert argument_points("It helps.", None) == 0
    assert rule_totals([(0, "Because 2 eggs."), (1, "No.")]) == [2, 0]


def test_rule_verdict_is_deterministic_and_draws_on_equal_totals():
    state = DebateGame({"topic": 0, "rounds_per_side": 1}).new_initial_state(0)
    state.apply_action(FOR, "argue:logos", "It helps.")
    state.apply_action(AGAINST, "argue:logos", "No way.")
    assert state.fallback_verdict() == "draw"  # 0 points each
    state = DebateGame({"topic": 0, "rounds_per_side": 1}).new_initial_state(0)
    state.apply_action(FOR, "argue:logos", "Because kids who eat breakfast score 10% higher.")
    state.apply_action(AGAINST, "argue:pathos", "Mornings are lovely.")
    assert state.fallback_verdict() == "for"


def test_options_are_validated():
    with pytest.raises(InvalidOptionsError):
        create_game("debate", {"topic": 20})
    with pytest.raises(InvalidOptionsError):
        create_game("debate", {"judging": "majority"})
    with pytest.raises(InvalidOptionsError):
        create_game("debate", {"rounds_per_side": 0})


def test_topic_is_drawn_by_chance_and_reproducible():
    topics = {DebateGame().new_initial_state(seed).topic for seed in range(40)}
    assert len(topics) > 5
    assert DebateGame().new_initial_state(9).topic == DebateGame().new_initial_state(9).topic


# --- why the debate ended (State.end_reason) ----------------------------------------------------------------------

def one_round(for_text: str, against_text: str, **options):
    state = DebateGame({"topic": 0, "rounds_per_side": 1, **options}).new_initial_state(0)
    state.apply_action(FOR, "argue:logos", for_text)
    state.apply_action(AGAINST, "argue:logos", against_text)
    return state


@pytest.mark.parametrize("for_text,against_text,mode,reason", [
    ("Because kids who eat breakfast score 10% higher.", "Mornings are lovely.", "single",
     "After 1 argument per side, the judging rule gave For 2 points and Against 0 points."),
    ("It helps.", "Because 3 studies say so.", "single",
     "After 1 argument per side, the judging rule gave For 0 points and Against 2 points."),
    ("It helps.", "No way.", "single", "After 1 argument per side, the judging rule gave both sides 0 points."),
    ("Because it helps.", "Since it hurts.", "openspiel",
     "After 1 argument per side, the judging rule gave both sides 1 point."),
    ("It helps.", "No way.", "openspiel", "After 1 argument per side, the judging rule gave both sides 0 points."),
])
def test_end_reason_of_the_rules_verdict_gives_its_points(for_text, against_text, mode, reason):
    state = one_round(for_text, against_text, judging=mode)
    assert state.awaiting_verdict() and state.end_reason() is None
    state.apply_verdict(state.fallback_verdict(), "rule")
    assert state.end_reason() == reason


@pytest.mark.parametrize("mode,verdict,finding", [
    ("single", "for", "For argued better"),
    ("single", "against", "Against argued better"),
    ("single", "draw", "both sides argued equally well"),
    ("openspiel", "both", "both sides argued convincingly"),
    ("openspiel", "for", "only For argued convincingly"),
    ("openspiel", "against", "only Against argued convincingly"),
    ("openspiel", "neither", "neither side argued convincingly"),
])
def test_end_reason_of_a_judges_verdict_says_what_the_judge_found(mode, verdict, finding):
    state = finished_arguments(judging=mode)
    state.apply_verdict(verdict, "gpt-judge")
    assert state.end_reason() == f"After 2 arguments per side, the judge (gpt-judge) found that {finding}."
    assert state.game.replay(state.seed, state.log).end_reason() == state.end_reason()
