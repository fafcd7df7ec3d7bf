"""The shared pieces of dialogue games: instruction sets, message cleaning and scores from raw payoffs."""

import pytest

from gameplay.engines.api import IllegalActionError
from gameplay.engines.dialogue import ANY, DialogueSpec, InstructionSet, clean_message, scores_from_payoffs

TONES = InstructionSet("tone", ("calm", "assertive", ANY), "Write your message in a {} tone.",
                       descriptions=(("calm", "even and patient"),))


def test_an_instruction_reads_through_its_template_and_any_reads_as_free_choice():
    assert TONES.text("assertive") == "Write your message in a assertive tone."
    assert TONES.text("calm") == "Write your message in a calm tone. (even and patient)"
    assert TONES.text(ANY) == TONES.any_text
    # PSRO invents instructions outside the declared set: they read through the same template.
    assert TONES.text("relaxed") == "Write your message in a relaxed tone."


@pytest.mark.parametrize("instructions", [("calm", "assertive"), ("calm", "calm", ANY)])
def test_a_set_without_any_or_with_repeats_is_refused(instructions):
    with pytest.raises(ValueError):
        InstructionSet("tone", instructions, "{}")


def test_a_spec_finds_its_sets_by_name_and_checks_its_bounds():
    spec = DialogueSpec(instruction_sets=(TONES,), payoff_bounds=(-20, 20))
    assert spec.default_set is TONES and spec.instruction_set("tone") is TONES
    with pytest.raises(KeyError, match="tone"):
        spec.instruction_set("day")
    with pytest.raises(ValueError):
        DialogueSpec(instruction_sets=(TONES,), payoff_bounds=(1, 1))
    with pytest.raises(ValueError):
        DialogueSpec(instruction_sets=(), payoff_bounds=(0, 1))


def test_a_message_is_trimmed_and_its_blank_lines_and_runs_of_spaces_collapse():
    assert clean_message("  Hello   there \r\n\r\n\n  Thursday?  ", 100) == "Hello there\nThursday?"


@pytest.mark.parametrize("bad, reason", [
    ("   \n ", "write a message"),
    ("hi\x00there", "control"),
    ("left\u202eright", "control"),
    ("x" * 11, "longer than 10"),
    (None, "must be text"),
])
def test_a_bad_message_is_refused_with_the_reason(bad, reason):
    with pytest.raises(IllegalActionError, match=reason):
        clean_message(bad, 10)


def test_scores_share_the_shifted_payoffs_and_split_evenly_when_nobody_gains():
    assert scores_from_payoffs([1, 3], (-20, 20)) == pytest.approx([21 / 44, 23 / 44])
    assert scores_from_payoffs([3, 1], (0, 20)) == pytest.approx([0.75, 0.25])
    assert scores_from_payoffs([0, 0], (0, 20)) == [0.5, 0.5]
    assert sum(scores_from_payoffs([-20, 20], (-20, 20))) == pytest.approx(1.0)
