"""Seed 002's SpyGame run (issue 40): the plan gives every pair twice, each word once as the guest's spy word, with the
spy's seat varying and balanced, all from the run's seed (agents_app/evaluations/spy_design.py); a researcher's pair
file is read with clear errors; ``spy_run`` plays the plan and every stored match has the guest as its spy."""

from __future__ import annotations

import io
import json
from collections import Counter

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from agents_app.evaluations.spy_design import PairsFileError, plan_run, read_pairs_file
from gameplay.engines.who_is_spy import SpyGame
from gameplay.engines.who_is_spy.words import word_pairs
from gameplay.models import Match
from gameplay.reads.selectors import state_of
from tests.agents_app.llm_match_support import eager_celery, llm_config  # noqa: F401  (eager_celery is a fixture)
from tests.agents_app.table_model import TableModel
from tests.support.openai_server import scripted_openai_server

PAIRS = (("Spider-Man", "Batman"), ("Ice-Cream", "Sorbet"), ("Bus", "Subway"), ("Beef", "Pork"), ("Goose", "Duck"))


def test_every_word_is_the_spy_word_once_and_the_plan_follows_the_seed():
    plan = plan_run(PAIRS, seats=4, seed=11, built_in=False)
    assert len(plan) == 10 and [p.seed for p in plan] == list(range(11, 21))
    assert sorted(p.spy_text for p in plan) == sorted(w for pair in PAIRS for w in pair)
    assert Counter(p.pair for p in plan) == {pair: 2 for pair in PAIRS}
    assert plan == plan_run(PAIRS, seats=4, seed=11, built_in=False)
    assert [(p.pair, p.spy_word, p.spy_seat) for p in plan] != [
        (p.pair, p.spy_word, p.spy_seat) for p in plan_run(PAIRS, seats=4, seed=12, built_in=False)]
    counts = Counter(p.spy_seat for p in plan)
    assert set(counts) == {0, 1, 2, 3} and max(counts.values()) - min(counts.values()) <= 1


def test_each_planned_match_deals_the_guest_the_planned_spy_word():
    for built_in, pairs in ((False, PAIRS), (True, word_pairs()[:4])):
        for planned in plan_run(pairs, seats=5, seed=3, built_in=built_in):
            options = planned.options({"max_rounds": 4})
            assert ("word_pairs" in options) is not built_in and options["max_rounds"] == 4
            state = SpyGame(options, 5).new_initial_state(planned.seed)
            agents = planned.agents("guest", ["host"], 5)
            assert state.spies == [planned.spy_seat] and agents[planned.spy_seat] == "guest"
            assert agents.count("guest") == 1 and state.spy_word == planned.spy_text
            assert state.villager_word == planned.villager_text
    planned = plan_run(PAIRS, seats=4, seed=0, built_in=False)[0]
    agents = planned.agents("g", ["h1", "h2", "h3"], 4)  # one host per other seat, in seat order
    assert agents[planned.spy_seat] == "g" and [a for a in agents if a != "g"] == ["h1", "h2", "h3"]
    with pytest.raises(ValueError, match="give one host, or one per other seat \\(3\\); got 2"):
        planned.agents("g", ["h1", "h2"], 4)


def test_a_pair_file_is_read_like_spygames_keyword_set_and_a_bad_one_is_named(tmp_path):
    good = tmp_path / "keyword_set.json"
    good.write_text(json.dumps([list(p) for p in PAIRS], indent=4))
    assert read_pairs_file(good) == PAIRS
    cases = {"missing.json": None, "broken.json": '[["a", "b"],\n ["c" "d"]]', "short.json": '[["a", "b"], ["c"]]',
             "object.json": '{"a": "b"}'}
    messages = {}
    for name, text in cases.items():
        if text is not None:
            (tmp_path / name).write_text(text)
        with pytest.raises(PairsFileError) as err:
            read_pairs_file(tmp_path / name)
        messages[name] = str(err.value)
    assert messages["missing.json"].startswith(f"cannot read {tmp_path / 'missing.json'}: No such file")
    assert "broken.json is not valid JSON (line 2, column 7" in messages["broken.json"]
    assert messages["short.json"].endswith('short.json: pair 1 (["c"]): a pair is a list of exactly two words')
    assert "expected a non-empty list of pairs" in messages["object.json"]


def test_the_command_prints_the_plan_and_refuses_what_it_cannot_play(tmp_path):
    path = tmp_path / "pairs.json"
    path.write_text(json.dumps([list(p) for p in PAIRS[:2]]))
    out = io.StringIO()
    call_command("spy_run", guest="random", hosts="random", pairs_file=str(path), seed=4, plan=True, json=True,
                 stdout=out)
    rows = [json.loads(line) for line in out.getvalue().splitlines()]
    assert sorted(r["spy_word"] for r in rows) == ["Batman", "Ice-Cream", "Sorbet", "Spider-Man"]
    assert all(r["agents"][r["spy_seat"]] == "random" and "match_id" not in r for r in rows)
    with pytest.raises(CommandError, match="pair 1 .*: a pair is a list of exactly two words"):
        (tmp_path / "bad.json").write_text('[["a", "b"], ["c"]]')
        call_command("spy_run", guest="random", hosts="random", pairs_file=str(tmp_path / "bad.json"), plan=True)
    with pytest.raises(CommandError, match="--options may not set spy_seat"):
        call_command("spy_run", guest="random", hosts="random", options='{"spy_seat": 1}', plan=True)
    with pytest.raises(CommandError, match="option seat_names must be one of"):
        call_command("spy_run", guest="random", hosts="random", options='{"seat_names": "x"}', plan=True)


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("eager_celery")
def test_a_run_stores_matches_with_the_guest_as_spy_and_spy_metrics_reads_them(tmp_path):
    path = tmp_path / "pairs.json"
    path.write_text(json.dumps([["Ice-Cream", "Sorbet"]]))
    out = io.StringIO()
    with scripted_openai_server(TableModel()) as server:
        llm_config("guest-llm", server.base_url, retries=2, http_retries=0)
        llm_config("host-llm", server.base_url, retries=2, http_retries=0)
        call_command("spy_run", guest="guest-llm", hosts="host-llm", pairs_file=str(path), seed=8, json=True,
                     stdout=out)
    rows = [json.loads(line) for line in out.getvalue().splitlines()]
    assert sorted(r["spy_word"] for r in rows) == ["Ice-Cream", "Sorbet"]
    for row in rows:
        match = Match.objects.get(pk=row["match_id"])
        state = state_of(match)
        assert match.status == Match.Status.FINISHED and match.seed == row["seed"]
        assert state.spies == [row["spy_seat"]] and state.spy_word == row["spy_word"]
        assert match.seats.get(index=row["spy_seat"]).agent_name == "guest-llm"
        assert {s.agent_name for s in match.seats.exclude(index=row["spy_seat"])} == {"host-llm"}
        assert row["guest_won"] == (state.winners == "spies")
    metrics = io.StringIO()
    call_command("spy_metrics", agent="guest-llm", stdout=metrics)
    assert "2 finished match(es) where guest-llm is a spy" in metrics.getvalue()
    spy_line = next(line for line in metrics.getvalue().splitlines() if line.startswith("guest-llm"))
    assert spy_line.split()[1:3] == ["spy", "2"]
