"""Issue 38, point 7: the new study presets (Codenames teams, Who is Spy against agents, live Atari Boxing) load
with their conditions, questions and payment; and the Codenames one's comprehension check and multiple-choice item
go through to survey.csv, comprehension.csv, payments.csv and the README codebook. No browser, no running agents."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from gameplay.studies import exports, questionnaire_services
from gameplay.studies.models import Participant, Study
from tests.studies import factories
from tests.studies.journey_support import eager_celery  # noqa: F401 (an autouse fixture)
from tests.studies.questionnaire_support import parse
from tests.support.presets import STUDIES

pytestmark = pytest.mark.django_db
Step = Participant.Step


@pytest.mark.parametrize("preset, fixture, seats", [
    ("codenames_teams.json", "codenames_llm_agent.json",
     {"teammates": ([0, 2], {1: "codenames-llm", 3: "codenames-llm"}),
      "opponents": ([0, 1], {2: "codenames-llm", 3: "codenames-llm"})}),
    ("who_is_spy_agents.json", "who_is_spy_llm_agent.json",
     {"llm": ([0], {1: "whospy-llm", 2: "whospy-llm", 3: "whospy-llm"}),
      "random": ([0], {1: "random", 2: "random", 3: "random"})}),
    ("atari_boxing_live.json", None, {"boxer": ([0], {1: "boxer"}), "random": ([0], {1: "random"})}),
])
def test_the_new_presets_load(preset, fixture, seats):
    if fixture:
        call_command("loaddata", str(STUDIES / fixture), verbosity=0)
    call_command("load_study", str(STUDIES / preset), verbosity=0)
    study_ = Study.objects.get()
    assert {c.key: (c.participant_seats, c.agent_seats) for c in study_.conditions.all()} == seats
    assert study_.questions and study_.bonus_rule and study_.base_payment > 0
    if study_.game_id == "atari_boxing":
        assert all(r["live"] for r in study_.rounds) and not study_.comprehension_items


def test_the_codenames_preset_has_a_check_and_a_multiple_choice_item_in_its_export_and_codebook():
    """The acceptance line: a comprehension check and a multiple-choice item in a preset, the export, the codebook."""
    call_command("loaddata", str(STUDIES / "codenames_llm_agent.json"), verbosity=0)
    call_command("load_study", str(STUDIES / "codenames_teams.json"), verbosity=0)
    study_ = Study.objects.get(slug="codenames-teams")
    participant = factories.make_participant(study_, "teammates", step=Step.COMPREHENSION)
    right = {i["key"]: i["options"].index(i["answer"]) + 1 for i in study_.comprehension_items}
    participant, wrong = questionnaire_services.submit_comprehension(participant, right)
    assert wrong == [] and participant.comprehension_passed
    Participant.objects.filter(pk=participant.pk).update(step=Step.SURVEY)
    answers = {"teamwork": 6, "agent_understanding": 4, "enjoyment": 7, "strategy": [1, 3], "attention": 2,
               "played_before": 3, "feedback": ""}
    questionnaire_services.submit_survey(Participant.objects.get(pk=participant.pk), answers)
    files = {name: exports.DOWNLOADS[name](study_)
             for name in (exports.SURVEY, exports.COMPREHENSION, exports.PAYMENTS)}
    files[exports.README] = exports.readme(study_).encode()
    survey = {r["item_key"]: r for r in parse(files[exports.SURVEY])}
    assert (survey["strategy"]["kind"], survey["strategy"]["choices"]) == ("multiple", "1;3")
    assert survey["strategy"]["text"] == "The meanings of the words | The other team's clues"
    assert survey["attention"]["passed"] == "1"
    assert [r["item_key"] for r in parse(files[exports.COMPREHENSION])] == ["clue", "assassin", "key_card"]
    payment = parse(files[exports.PAYMENTS])[0]
    assert (payment["completed"], payment["base"], payment["bonus"]) == ("1", "4.00", "0.00")  # no rounds played
    readme = files[exports.README].decode()
    assert "  strategy (multiple): What did you use to choose your clues or guesses?" in readme.splitlines()
    assert "  assassin: What happens when a team picks the assassin? (right answer: 2 = It loses the game at " \
           "once)" in readme
    assert "bonus: 0.05 GBP per unit of m_agents_found (rounds.csv), summed over the participant's completed " \
           "rounds, at least 0, at most 1.0 GBP, to the cent." in readme
