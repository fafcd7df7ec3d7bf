"""run_study_bots, acceptance: a cohort of bots through the seeds/003 Gnomes preset, then its exports.

Runs the real thing in subprocesses, like a researcher would: load the preset into a fresh SQLite file, serve it with
daphne, drive a cohort of bots through it (small by default, 32 with STUDY_BOTS_COHORT=full), export, and recompute
the exported ANOVA and Tukey statistics, Kaplan-Meier curves, log-rank tests and success rates with scipy from
rounds.csv alone. The small cohort plays the rounds under a turn cap (see SMALL_COHORT_TURN_CAP).
"""

from __future__ import annotations

import json
import math
import time
from collections import defaultdict

import numpy as np
import pytest
from scipy import stats

from tests.studies.scripted_models import ANSWER_LINE, ScriptedGnomesModel
from tests.studies.study_bots_support import (
    FULL_COHORT,
    load_preset_with_its_llm,
    manage,
    point_agent_at,
    read_csv,
)
from tests.support.live_server import ROOT, daphne_server, migrate, server_env
from tests.support.openai_server import scripted_openai_server

PRESET = "fixtures/studies/gnomes_seeds003.json"
SLUG = "gnomes-seeds003"
# The preset has four conditions, balanced. An even number in the human condition (8 of 32, 2 of 8) gives every bot a
# partner instead of the pairing timeout's fallback agent.
GNOMES_PARTICIPANTS = 32 if FULL_COHORT else 8
# The small cohort's bots are all on the site at once. With fewer at a time than participants, the two bots the
# balanced assignment puts in the human condition may come in different waves: each then waits out the pairing
# timeout every round (120 s, five rounds) and plays the fallback agent, and the test fails after 14 minutes.
GNOMES_CONCURRENCY = 6 if FULL_COHORT else GNOMES_PARTICIPANTS
CONDITIONS = ("human", "comm", "mute", "llm")


def counted_rounds(rounds: list[dict]) -> list[dict]:
    """The rounds the per-round tests use, by the rules the export documents: the match completed, every seat
    played as the condition prescribes, and each match once (the participant listed first keeps it)."""
    kept, seen = [], set()
    for row in sorted(rounds, key=lambda r: int(r["participant"].lstrip("P"))):
        if row["completed"] == "1" and row["as_assigned"] == "1" and row["match_id"] not in seen:
            seen.add(row["match_id"])
            kept.append(row)
    return kept


def close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


# The small cohort plays the preset's five mazes with each round capped at 30 turns (many rounds with an agent end
# sooner; a capped round is exported as censored, which the Kaplan-Meier checks below cover). The full cohort plays
# the preset as it is (200 turns a round). Uncapped, the small cohort took 5 to 8 minutes of CI on two cores; capped
# at 40, 118 s of a CI run on a slower machine (2026-11-29), at 30 67 s alone.
SMALL_COHORT_TURN_CAP = 30


def gnomes_preset(tmp_path) -> str:
    if FULL_COHORT:
        return PRESET
    preset = json.loads((ROOT / PRESET).read_text(encoding="utf-8"))
    preset["rounds"] = [{**r, "turn_cap": min(r["turn_cap"], SMALL_COHORT_TURN_CAP)} for r in preset["rounds"]]
    path = tmp_path / "gnomes_seeds003_capped.json"
    path.write_text(json.dumps(preset), encoding="utf-8")
    return str(path)


@pytest.mark.slow
def test_a_cohort_of_bots_through_the_seeds003_preset_and_its_analysis(tmp_path):
    env = server_env(f"sqlite:///{tmp_path / 'study.sqlite3'}")
    migrate(env)
    load_preset_with_its_llm(env, gnomes_preset(tmp_path), "fixtures/studies/gnomes_llm_agent.json", "gnomes-llm")

    with scripted_openai_server(ScriptedGnomesModel(seed=3)) as model:
        point_agent_at(env, "gnomes-llm", model.base_url)
        started = time.monotonic()
        with daphne_server(env, log_path=tmp_path / "daphne.log") as url:
            bots = manage(
                env, "run_study_bots", SLUG, "--participants", str(GNOMES_PARTICIPANTS), "--seed", "1", "--url", url,
                "--bot-agent", "gnomes-partner", "--concurrency", str(GNOMES_CONCURRENCY), timeout=1200,
            )
        print(bots.stdout[-3000:], f"\nrun_study_bots took {time.monotonic() - started:.1f} s")
        assert bots.returncode == 0, bots.stdout[-5000:] + bots.stderr
        answers = [r for r in model.requests if "Available actions" not in r.prompt_text]
        print(f"LLM partner: {len(model.requests)} model calls, {len(answers)} of them chat answers between moves")
        assert answers, "the LLM partner was never asked to answer between its moves"

    out = tmp_path / "export"
    exported = manage(env, "export_study", SLUG, "--out", str(out))
    assert exported.returncode == 0, exported.stdout + exported.stderr
    for name in (
        "rounds.csv",
        "messages.csv",
        "survey.csv",
        "participants.csv",
        "anova.csv",
        "tukey.csv",
        "kruskal.csv",
        "analysis.zip",
    ):
        assert (out / name).is_file(), name
    assert list(out.rglob("*.png")), "no box plots"

    participants = read_csv(out / "participants.csv")
    assert len(participants) == GNOMES_PARTICIPANTS
    assert all(p["completed_at"] for p in participants), [p for p in participants if not p["completed_at"]]
    assert {p["condition"] for p in participants} == set(CONDITIONS)

    rounds = read_csv(out / "rounds.csv")
    human = [r for r in rounds if r["condition"] == "human"]
    # A bot still waiting for a partner after the pairing timeout (120 s, e.g. on a loaded machine) plays that
    # round with the fallback agent, as the preset says; such a round is marked not as assigned and is left out
    # of the tests. Most rounds must still be played by two participants.
    paired = [r for r in human if r["partner"].startswith("P")]
    fallback = [r for r in human if not r["partner"].startswith("P")]
    assert all((r["partner"], r["as_assigned"]) == ("gnomes-comm", "0") for r in fallback), fallback
    assert len(paired) >= 0.75 * len(human), f"{len(fallback)} of {len(human)} human-condition rounds had no person"
    by_match = defaultdict(set)
    for r in paired:
        by_match[r["match_id"]].add(r["participant"])
    assert all(len(people) == 2 for people in by_match.values()), "human rounds must be played by two participants"

    anova = {(r["measure"], r["round"]): r for r in read_csv(out / "anova.csv")}
    tukey = {
        (r["measure"], r["round"], frozenset((r["group_a"], r["group_b"]))): r for r in read_csv(out / "tukey.csv")
    }
    counted = counted_rounds(rounds)
    round_numbers = sorted({int(r["round"]) for r in rounds})
    checked = 0
    # The game's declared measure (Gnomes: m_turns) and the platform's own time to complete.
    for measure, column in (("m_turns", "m_turns"), ("time_to_complete_s", "time_to_complete_s")):
        for k in round_numbers:
            groups = {
                c: [float(r[column]) for r in counted if r["condition"] == c and int(r["round"]) == k]
                for c in CONDITIONS
            }
            groups = {c: v for c, v in groups.items() if len(v) >= 2}
            if len(groups) < 2:
                continue
            names, values = list(groups), list(groups.values())
            f, p = stats.f_oneway(*values)
            row = anova[(measure, str(k))]
            assert set(row["groups_compared"].split(";")) == set(names)
            if row["F"] == "":  # undefined (every value the same in each group): the export leaves it empty
                assert math.isnan(f), (measure, k, row, f)
                checked += 1
                continue
            assert close(float(row["F"]), float(f)) and close(float(row["p"]), float(p)), (measure, k, row, f, p)
            with np.errstate(divide="ignore", invalid="ignore"):  # zero variance: nan, checked as a blank below
                hsd = stats.tukey_hsd(*values)
            for i in range(len(names)):
                for j in range(i + 1, len(names)):
                    pair = tukey[(measure, str(k), frozenset((names[i], names[j])))]
                    expected = float(hsd.pvalue[i, j])
                    if pair["p"] == "":  # no variance within or between the pair (e.g. both always out of turns): blank
                        assert not math.isfinite(expected), (measure, k, names[i], names[j], expected)
                        continue
                    assert close(float(pair["p"]), expected), (measure, k, names[i], names[j])
            checked += 1
    assert checked >= len(round_numbers), f"only {checked} per-round tests could be recomputed"
    check_time_to_goal(out, counted, round_numbers)
    check_the_agent_converses(out)
    check_the_llm_partner_talks(out)


def check_the_llm_partner_talks(out) -> None:
    """The LLM partner's lines (with its moves and answers between them) are in messages.csv, and every
    comparison of the bundle has the four conditions."""
    lines = [r for r in read_csv(out / "messages.csv") if r["condition"] == "llm"]
    llm = [r for r in lines if r["sender"] == "gnomes-llm"]
    print(f"llm condition: {len(llm)} LLM messages, {len(lines) - len(llm)} participant messages")
    assert any(r["text"] == ANSWER_LINE for r in llm) and any(r["text"].startswith("I went ") for r in llm)
    compared = [set(r["groups_compared"].split(";")) for r in read_csv(out / "anova.csv")]
    assert set(CONDITIONS) in compared, compared


def check_the_agent_converses(out) -> None:
    """The communicating agent talks at most 2.5 times as much as the participant it plays with, and never sends
    the same line on two agent turns running without a participant line between (messages.csv), and chat.csv
    reports the same ratio."""
    lines = [r for r in read_csv(out / "messages.csv") if r["condition"] == "comm"]
    agent = [r for r in lines if r["sender"] == "gnomes-comm"]
    people = [r for r in lines if r["sender"] == "participant"]
    ratio = len(agent) / len(people)
    print(f"comm condition: {len(agent)} agent messages, {len(people)} participant messages, ratio {ratio:.2f}")
    assert people and ratio <= 2.5, (len(agent), len(people))
    by_match = defaultdict(list)
    for r in lines:
        by_match[r["match_id"]].append(r)
    repeats = []
    for match_lines in by_match.values():
        previous = None
        for r in match_lines:  # messages.csv lists a match's lines in the order they reached the chat
            if r["sender"] != "gnomes-comm":
                previous = None
            elif r["text"] == previous:
                repeats.append((r["match_id"], r["turn"], r["text"]))
            else:
                previous = r["text"]
    assert not repeats, repeats
    (overall,) = [r for r in read_csv(out / "chat.csv") if r["condition"] == "comm" and r["round"] == "all"]
    assert float(overall["partner_per_participant_message"]) <= 2.5


def check_time_to_goal(out, counted: list[dict], round_numbers: list[int]) -> None:
    """The Kaplan-Meier curves, log-rank tests and success rates of the bundle, recomputed with scipy from
    rounds.csv: rounds that hit the turn cap are kept as censored, not dropped."""
    assert {f"km_m_turns_round{k}.png" for k in round_numbers} <= {p.name for p in out.iterdir()}
    km = read_csv(out / "km.csv")
    logrank = {(r["measure"], r["round"], r["group_a"], r["group_b"]): r for r in read_csv(out / "logrank.csv")}
    rates = {(r["round"], r["condition"]): r for r in read_csv(out / "rates.csv") if r["measure"] == "m_success"}
    tested = 0
    for k in round_numbers:
        data = {}
        for c in CONDITIONS:
            mine = [r for r in counted if r["condition"] == c and int(r["round"]) == k]
            found = [r for r in mine if r["m_success"] == "1"]
            assert all(r["censored"] == ("0" if r in found else "1") for r in mine)
            rate = rates[(str(k), c)]
            assert (int(rate["n"]), int(rate["count"])) == (len(mine), len(found))
            if mine:
                interval = stats.binomtest(len(found), len(mine)).proportion_ci(method="wilson")
                assert close(float(rate["ci_low"]), interval.low) and close(float(rate["ci_high"]), interval.high)
            data[c] = stats.CensoredData(
                uncensored=[float(r["m_turns"]) for r in found],
                right=[float(r["m_turns"]) for r in mine if r not in found],
            )
            rows = [r for r in km if r["measure"] == "m_turns" and r["round"] == str(k) and r["condition"] == c]
            if mine:
                sf = stats.ecdf(data[c]).sf
                for row in rows:
                    assert close(float(row["survival"]), float(sf.evaluate(float(row["time"]))))
                assert sum(int(r["events"]) + int(r["censored"]) for r in rows) == len(mine)
        for i, a in enumerate(CONDITIONS):
            for b in CONDITIONS[i + 1 :]:
                row = logrank.get(("m_turns", str(k), a, b))
                if row is None or row["p"] == "":
                    continue
                expected = stats.logrank(data[a], data[b])
                assert close(float(row["p"]), float(expected.pvalue)), (k, a, b, row, expected)
                tested += 1
    assert tested >= len(round_numbers), f"only {tested} log-rank tests could be recomputed"
