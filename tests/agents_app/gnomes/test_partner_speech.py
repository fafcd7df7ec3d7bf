"""The simulated partner's speech (template or free-form lines) and its unreliable variant; the tuning seeds."""

from __future__ import annotations

import json
import random
from dataclasses import astuple

import pytest

from agents_app.agents.gnomes import tuning
from agents_app.agents.gnomes.belief import CONSTANTS, BeliefConstants
from agents_app.agents.gnomes.evaluation import FREEFORM_SET, make_partner, play_round
from agents_app.agents.gnomes.mute_agent import GnomesMuteAgent
from agents_app.agents.gnomes.partner import SimulatedPartner
from agents_app.agents.gnomes.partner_speech import USES, FreeformSpeech, TemplateSpeech

ROWS = [json.loads(line) for line in FREEFORM_SET.read_text(encoding="utf-8").splitlines()[1:] if line.strip()]


def test_the_free_form_set_is_labelled_for_every_situation_and_style():
    assert len(ROWS) >= 300 and len({r["text"].lower() for r in ROWS}) == len(ROWS)
    assert {r["use"] for r in ROWS} == set(USES)
    assert {r["style"] for r in ROWS} == {"plain", "paraphrase", "typo", "indirect"}
    for move in ("right", "up", "left", "down"):
        hints = [r for r in ROWS if r["use"] == "hint" and r["move"] == move]
        assert len(hints) >= 25 and all(r["flag"] == move.upper() for r in hints)
        assert {"typo", "indirect"} <= {r["style"] for r in hints}


@pytest.mark.parametrize("use,move", [("hint", "left"), ("refuse_wall", "up"), ("accept", "down"),
                                      ("answer_no_treasure", None)])
def test_free_form_lines_fit_the_situation_and_direction(use, move):
    speech = FreeformSpeech(ROWS)
    by_text = {r["text"]: r for r in ROWS}
    for seed in range(40):
        row = by_text[speech.line(use, random.Random(seed), move)]
        assert row["use"] == use and row.get("move") in (None, move)
        if use == "hint":
            assert row["move"] == move and speech.hinted_move(row["text"]) == move


def test_the_template_speech_is_what_the_partner_always_said():
    speech = TemplateSpeech()
    assert speech.line("answer_no_treasure", random.Random(0)) == "The treasure is not on my side."
    assert speech.line("refuse_wall", random.Random(1), "up") in {
        "I can't go up, there's a wall", "There is a wall on my side if I go up", "Sorry, up is blocked for me"
    }
    assert speech.hinted_move("Head down next") == "down"
    with pytest.raises(ValueError):
        speech.line("chatter", random.Random(0))


def test_the_unreliable_partner_lies_or_ignores_sometimes_and_the_honest_one_never():
    # Seat 1 asks seat 0 (which does not see the round-2 treasure) to go right, where side 0 is open at (0, 0).
    from agents_app.agents.gnomes.evaluation import view_for
    from gameplay.engines.gnomes import GnomesGame

    def replies(partner: SimulatedPartner) -> set[tuple[str, str | None]]:
        out = set()
        for seed in range(60):
            state = GnomesGame(options={"round": 2, "first_seat": 1}).new_initial_state(0)
            state.apply_action(1, "stay")
            state.record_message(1, "Can you move right?")
            decision = partner.decide(view_for(state, 0, seed))
            out.add((decision.action_id, "refusal" if decision.message and "wall" in decision.message.lower()
                     else None))
        return out

    honest = replies(SimulatedPartner())
    assert {action for action, _ in honest} == {"right"}
    unreliable = replies(make_partner("unreliable"))
    assert ("right", None) in unreliable and any(action != "right" for action, _ in unreliable)


def test_a_round_with_the_unreliable_partner_still_ends():
    result = play_round(GnomesMuteAgent(budget=50), make_partner("unreliable"), 1, 3)
    assert result.turns <= 200


def test_tuning_uses_only_its_own_seeds_disjoint_from_evaluation():
    assert not set(tuning.TUNING_SEEDS) & set(tuning.EVALUATION_SEEDS)
    with pytest.raises(ValueError, match="not a tuning seed"):
        tuning.tune_job((astuple(CONSTANTS), "mute", 1, 5, 50))
    assert tuning.tune_job((astuple(CONSTANTS), "mute", 1, 1000, 50)).turns > 0
    found = tuning.candidates()
    assert found[0] == CONSTANTS and len(found) == len(set(found))
    assert BeliefConstants(hint_factor=8.0, move_factor=CONSTANTS.move_factor,
                           decline_likelihood=CONSTANTS.decline_likelihood) in found


def test_the_free_form_partner_asks_where_the_treasure_is_before_its_first_move_and_the_agent_answers():
    from agents_app.agents.gnomes.comm_agent import GnomesCommAgent
    from agents_app.agents.gnomes.evaluation import view_for
    from agents_app.agents.gnomes.intents import RuleBasedParser
    from gameplay.engines.gnomes import GnomesGame

    asks = {r["text"] for r in ROWS if r["use"] == "ask"}
    state = GnomesGame(options={"round": 2}).new_initial_state(0)  # seat 0 moves first and sees no treasure
    decision = make_partner("freeform").decide(view_for(state, 0, 5))
    assert decision.message in asks
    assert SimulatedPartner().decide(view_for(state, 0, 5)).message is None  # the template partner does not
    state.apply_action(0, decision.action_id)
    state.record_message(0, decision.message)
    assert RuleBasedParser().parse(decision.message).value == "INQUIRY"  # "north or south?"
    reply = GnomesCommAgent(budget=60, worlds=8).decide(view_for(state, 1, 5)).message
    assert reply.startswith("From here I can move right or up on my side.")  # an answer about its own side
