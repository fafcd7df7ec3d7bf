"""run_study_bots, acceptance: a cohort of bots through the Santorini preset (random agent, an LLM configuration
answered by a scripted OpenAI-compatible server, another participant), as a researcher would run it: load the preset
into a fresh SQLite file, serve it with daphne, drive the bots through it (small by default, 30 with
STUDY_BOTS_COHORT=full), export, and check the ANOVA/Tukey tables over its three conditions. The small cohort plays
the rounds under a turn cap (see SMALL_COHORT_SANTORINI_TURN_CAP).
"""

from __future__ import annotations

import json
import time

import pytest

from tests.studies.scripted_models import ScriptedSantoriniModel
from tests.studies.study_bots_support import (
    FULL_COHORT,
    load_preset_with_its_llm,
    manage,
    point_agent_at,
    read_csv,
)
from tests.support.live_server import ROOT, daphne_server, migrate, server_env
from tests.support.openai_server import scripted_openai_server

SANTORINI_PRESET = "fixtures/studies/santorini_agents.json"
SANTORINI_SLUG = "santorini-agents"
SANTORINI_CONDITIONS = ("random", "llm", "human")
# The preset has three conditions, balanced.
PARTICIPANTS = 30 if FULL_COHORT else 6
# The small cohort plays the preset's three rounds with a turn cap of 30 (Santorini's platform option max_turns; the
# full cohort plays the preset as it is). Random play takes 43 turns on average and ends before 30 in about one game
# in seven, so rounds still end in wins as well as in draws at the cap, and the bots make a third fewer moves.
SMALL_COHORT_SANTORINI_TURN_CAP = 30


def santorini_preset(tmp_path) -> str:
    if FULL_COHORT:
        return SANTORINI_PRESET
    preset = json.loads((ROOT / SANTORINI_PRESET).read_text(encoding="utf-8"))
    preset["rounds"] = [{**r, "max_turns": SMALL_COHORT_SANTORINI_TURN_CAP} for r in preset["rounds"]]
    path = tmp_path / "santorini_agents_capped.json"
    path.write_text(json.dumps(preset), encoding="utf-8")
    return str(path)


@pytest.mark.slow
def test_a_cohort_of_bots_through_the_santorini_preset_with_an_llm_condition(tmp_path):
    env = server_env(f"sqlite:///{tmp_path / 'study.sqlite3'}", SANTORINI_LLM_API_KEY="scripted-key")
    migrate(env)
    load_preset_with_its_llm(env, santorini_preset(tmp_path), "fixtures/studies/santorini_llm_agent.json",
                             "santorini-llm")

    with scripted_openai_server(ScriptedSantoriniModel(seed=4)) as model:
        point_agent_at(env, "santorini-llm", model.base_url)
        started = time.monotonic()
        with daphne_server(env, log_path=tmp_path / "daphne.log") as url:
            bots = manage(
                env, "run_study_bots", SANTORINI_SLUG, "--participants", str(PARTICIPANTS), "--seed", "2",
                "--url", url, "--concurrency", "6", timeout=1500,
            )
        print(bots.stdout[-3000:], f"\nrun_study_bots took {time.monotonic() - started:.1f} s")
        assert bots.returncode == 0, bots.stdout[-5000:] + bots.stderr
        assert model.requests, "the LLM condition never asked the model"
        assert all(r.body["model"] == "local-model" for r in model.requests)
        assert model.requests[0].headers.get("authorization") == "Bearer scripted-key"  # the key from the env var

    out = tmp_path / "export"
    exported = manage(env, "export_study", SANTORINI_SLUG, "--out", str(out))
    assert exported.returncode == 0, exported.stdout + exported.stderr
    participants = read_csv(out / "participants.csv")
    assert len(participants) == PARTICIPANTS and all(p["completed_at"] for p in participants)
    assert {p["condition"] for p in participants} == set(SANTORINI_CONDITIONS)

    rounds = read_csv(out / "rounds.csv")
    assert {r["condition"] for r in rounds} == set(SANTORINI_CONDITIONS)
    assert len({r["match_id"] for r in rounds if r["condition"] == "human"}) * 2 == len(
        [r for r in rounds if r["condition"] == "human"]
    ), "every human-condition round is one match of two participants"

    anova = read_csv(out / "anova.csv")
    assert anova, "no ANOVA rows"
    compared = [set(r["groups_compared"].split(";")) for r in anova]
    assert set(SANTORINI_CONDITIONS) in compared, compared  # some measure compares all three conditions
    tukey = read_csv(out / "tukey.csv")
    pairs = {frozenset((r["group_a"], r["group_b"])) for r in tukey}
    assert {frozenset(p) for p in (("random", "llm"), ("random", "human"), ("llm", "human"))} <= pairs
    for row in anova:
        if row["p"] == "":  # undefined (e.g. every group constant): the export must say why
            assert row["note"], row
        else:
            assert 0.0 <= float(row["p"]) <= 1.0
