"""The analysis bundle of a competitive game: a Santorini study (participants against the random agent or each
other; the game declares turns), its statistics recomputed with scipy from the exported CSVs alone."""

from __future__ import annotations

import random
from collections import defaultdict
from datetime import timedelta

import pytest

from gameplay.engines.registry import create_game
from gameplay.models import Event
from gameplay.reads.selectors import state_of
from gameplay.studies.models import Condition, Participant, ParticipantRound, Study
from gameplay.writes import services
from gameplay.writes.services import SeatController
from tests.studies.analysis_checks import check_anova_and_tukey, check_rates, export, read_csv
from tests.studies.factories import answer, condition_fields, make_participant

pytestmark = pytest.mark.django_db
Step = Participant.Step

# --- a competitive game: a Santorini study, participants against the random agent or each other ---------------------

SANTORINI_CONDITIONS = ["random", "human"]


def play_santorini(people: list[Participant], round_index: int, rng: random.Random, *, agent: str = "") -> None:
    """One finished Santorini round through the match service, every move a seeded random legal move: one
    participant against ``agent`` in seat 1, or two participants. The agent's moves carry its task's payload."""
    study = people[0].study
    second = SeatController("agent", agent_name=agent) if agent else SeatController("human")
    controllers = [SeatController("human"), second]
    match = services.create_match(
        "santorini", controllers, seed=rng.randrange(10**6), options=study.rounds[round_index],
        schedule_agents=False, private=True,
    )
    for seat, p in enumerate(people):
        others = [x for x in people if x.pk != p.pk]
        ParticipantRound.objects.create(
            participant=p, round_index=round_index, match=match, seat_index=seat,
            partner_participant=others[0] if others else None, partner_agent=agent,
        )
    state = state_of(match)
    while not state.is_terminal():
        (seat,) = state.current_seats()
        action = rng.choice(state.legal_actions(seat)).id
        extra = {"agent": agent, "agent_think_ms": rng.randint(5, 50)} if agent and seat == 1 else None
        match = services.submit_action(
            match.pk, seat, action, expected_version=match.version, extra=extra, schedule_agents=False
        )
        state = state_of(match)
    Event.objects.filter(match=match, seq=1).update(
        created_at=match.finished_at - timedelta(seconds=rng.uniform(20, 200))
    )


def build_santorini_study(slug: str = "santorini-pilot", *, per_condition: int = 3, rounds: int = 2) -> Study:
    rng = random.Random(11)
    study = Study.objects.create(
        slug=slug, title="Santorini pilot", game_id="santorini", rounds=[{} for _ in range(rounds)],
        consent_text="Consent?", instructions="Climb to the third level.",
    )
    Condition.objects.create(study=study, key="random", label="Random agent", **condition_fields("agent", "random"))
    Condition.objects.create(study=study, key="human", label="Another participant", **condition_fields("human"))
    alone = [make_participant(study, "random", step=Step.COMPLETE, pid=f"random-{i}") for i in range(per_condition)]
    pairs = [
        [make_participant(study, "human", step=Step.COMPLETE, pid=f"human-{i}-{j}") for j in (0, 1)]
        for i in range(per_condition)
    ]
    for k in range(rounds):
        for p in alone:
            play_santorini([p], k, rng, agent="random")
        for pair in pairs:
            play_santorini(pair, k, rng)
    for p in alone + [p for pair in pairs for p in pair]:
        answer(p, engagement=rng.randint(1, 5), satisfaction=rng.randint(1, 5))
    return study


@pytest.fixture(scope="module")
def santorini_exported(django_db_setup, django_db_blocker, tmp_path_factory):
    with django_db_blocker.unblock():
        return export(build_santorini_study, tmp_path_factory)


def test_santorini_rounds_have_scores_winners_and_the_declared_turns(santorini_exported):
    out, _ = santorini_exported
    rows = read_csv(out / "rounds.csv")
    assert len(rows) == 3 * 2 + 6 * 2
    assert "m_turns" in rows[0] and "m_success" not in rows[0] and "m_wall_hits" not in rows[0]
    for row in rows:
        assert row["completed"] == "1" and row["status"] == "finished" and row["as_assigned"] == "1"
        assert row["score"] in {"0.0", "1.0"} and row["won"] == ("1" if row["score"] == "1.0" else "0")
        assert int(row["m_turns"]) > 0 and int(row["actions"]) > int(row["m_turns"])
    against_agent = [r for r in rows if r["condition"] == "random"]
    assert {(r["partner"], r["partner_kind"], r["condition_partner"]) for r in against_agent} == {
        ("random", "agent", "agent random")
    }
    assert all(r["agent_think_ms_mean"] for r in against_agent)
    by_match = defaultdict(list)
    for row in rows:
        if row["condition"] == "human":
            by_match[row["match_id"]].append(row)
    for pair in by_match.values():  # two people in one match: partners name each other, exactly one wins
        first, second = sorted(pair, key=lambda r: r["seat"])
        assert (first["partner"], second["partner"]) == (second["participant"], first["participant"])
        assert {first["won"], second["won"]} == {"0", "1"} and first["partner_kind"] == "human"


@pytest.mark.parametrize("column", ["time_to_complete_s", "actions", "score", "m_turns"])
def test_santorini_anova_and_tukey_over_its_conditions(santorini_exported, column):
    out, _ = santorini_exported
    assert check_anova_and_tukey(out, column, SANTORINI_CONDITIONS, rounds=2) == 3  # 1 pair in 2 rounds and 'all'
    row = next(r for r in read_csv(out / "anova.csv") if (r["measure"], r["round"]) == (column, "1"))
    assert row["groups_compared"] == "random;human" and (row["n_random"], row["n_human"]) == ("3", "3")


def test_santorini_win_rates_and_bundle(santorini_exported):
    out, _ = santorini_exported
    check_rates(out, "won", SANTORINI_CONDITIONS, rounds=2)
    assert {r["measure"] for r in read_csv(out / "rates.csv")} == {"won"}  # Santorini declares no yes/no measure
    stems = ("time", "actions", "score", "m_turns")
    assert {p.name for p in out.glob("boxplot_*.png")} == {
        f"boxplot_{s}_{r}.png" for s in stems for r in ("round1", "round2", "all")
    }
    readme = (out / "README.txt").read_text(encoding="utf-8")
    (turns,) = create_game("santorini").spec.measures
    assert f"m_turns (number): {turns.description}" in readme
    assert "random: Random agent (plays with: agent random; seats: 0: participant, 1: agent random)" in readme
    assert "Seats: 0 = " in readme and "gnomes" not in readme.lower()
