"""Issue 38's acceptance: bots play a generated study of every registered game over the real server, with no hang
and no refused-action loop.

For each game of ``all_specs()`` (never a list of ids written here) one study is generated: one round, with the
options the game declares for a short match (``OptionSpec.short_value``: a turn cap, fewer rounds), and a condition
for each kind of seat the game allows at its smallest table: every seat a participant (k bots gathered by the
waiting room into one match: Codenames' two teams, Two Rooms' six players), and one participant among agents (the
built-in random agent, which plays every game). The studies' "url" assignment puts each bot in the condition it is
sent to. One daphne server on a SQLite file serves every study; the bots run at once, a few at a time, like
``run_study_bots``. Then every bot has completed, every round was played in the seats its condition prescribes,
and no move was refused where the bot chose it (a legal move or an engine's example the engine turns down): the
only refusals left are moves overtaken by another seat's in games where seats choose at once.
"""

from __future__ import annotations

import json
import resource
import secrets
import sqlite3
import subprocess
import sys
import time
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor

import pytest

from gameplay.engines.registry import all_specs
from gameplay.models import Match, Seat
from gameplay.reads.agent_directory import agent_plays
from gameplay.studies.bots.journey import Outcome, run_participant
from gameplay.studies.models import Condition, Participant, ParticipantRound, Study
from tests.support.live_server import ROOT, daphne_server, migrate, server_env

AGENT = "random"  # the built-in agent: it plays every game
# Bots on the site at once: at least the largest table of people (they wait for each other), few enough that one
# server on a shared two-core machine answers every handshake in time.
CONCURRENCY = max(8, max(spec.min_seats for spec in all_specs()))
BOT_TIMEOUT_S = 300.0  # one bot's whole study; a hang shows as a timeout naming the page it hung on
PAIRING_TIMEOUT_S = 400  # longer than any wait here: a table of people is never filled by the fallback agent


def conditions(spec) -> list[dict]:
    """Every seat a participant; one participant among agents."""
    assert agent_plays(AGENT, spec.id), f"the {AGENT} agent should play every game, {spec.id} included"
    seats = spec.min_seats
    people = {"key": "people", "label": "Participants only", "seats": [{"kind": "participant"}] * seats,
              "options": {}}
    mixed = {"key": "agents", "label": "One participant among agents",
             "seats": [{"kind": "participant"}] + [{"kind": "agent", "agent": AGENT}] * (seats - 1), "options": {}}
    return [people, mixed]


def study_preset(spec) -> dict:
    return {
        "slug": f"bots-{spec.id.replace('_', '-')}",
        "title": f"{spec.name}: every seat kind, played by bots",
        "game_id": spec.id,
        "rounds": [{o.name: o.short_value for o in spec.options if o.short_value is not None}],
        "consent_text": "A generated study.",
        "instructions": f"Play {spec.name}.",
        "likert_scale": 5,
        "likert_items": [{"key": "enjoyment", "prompt": "Did you enjoy it?", "low": "No", "high": "Very"}],
        "completion_code": "BOTS-DONE",
        "assignment": "url",
        "pairing_timeout_s": PAIRING_TIMEOUT_S,
        "pairing_timeout_action": "agent",
        "pairing_fallback_agent": AGENT,
        "conditions": conditions(spec),
    }


def load_presets(env: dict, presets: list[dict], tmp_path) -> None:
    """Every study in one manage.py process (a process per study would cost seconds each)."""
    path = tmp_path / "presets.json"
    path.write_text(json.dumps(presets), encoding="utf-8")
    code = ("import json; from gameplay.studies.presets import load_preset\n"
            f"for preset in json.load(open({str(path)!r})): load_preset(preset, open_study=True)")
    loaded = subprocess.run([sys.executable, "manage.py", "shell", "-c", code], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=120)
    assert loaded.returncode == 0, loaded.stdout + loaded.stderr


def seats_played(database) -> dict[tuple[str, str], list[dict]]:
    """Each (study, condition)'s matches as the server stored them: status, and who sat in every seat."""
    rounds, participants = ParticipantRound._meta.db_table, Participant._meta.db_table
    conditions_, studies = Condition._meta.db_table, Study._meta.db_table
    matches, seats = Match._meta.db_table, Seat._meta.db_table
    with sqlite3.connect(database) as db:
        played = db.execute(
            f"SELECT s.slug, c.key, r.match_id, r.seat_index FROM {rounds} r "
            f"JOIN {participants} p ON r.participant_id = p.id JOIN {conditions_} c ON p.condition_id = c.id "
            f"JOIN {studies} s ON p.study_id = s.id").fetchall()
        status = dict(db.execute(f"SELECT id, status FROM {matches}").fetchall())
        table = defaultdict(dict)
        for match_id, index, controller, agent in db.execute(
                f'SELECT match_id, "index", controller, agent_name FROM {seats}').fetchall():
            table[match_id][index] = agent if controller == Seat.Controller.AGENT else None
    by_match = defaultdict(lambda: {"people": set()})
    for slug, key, match_id, seat in played:
        entry = by_match[match_id]
        entry.update(study=(slug, key), status=status[match_id], seats=table[match_id])
        entry["people"].add(seat)
    grouped = defaultdict(list)
    for entry in by_match.values():
        grouped[entry["study"]].append(entry)
    return grouped


@pytest.mark.slow
def test_bots_play_a_generated_study_of_every_game(tmp_path):
    started, cpu_before = time.monotonic(), cpu_seconds()
    specs = all_specs()
    presets = {spec.id: study_preset(spec) for spec in specs}
    database = tmp_path / "every-game.sqlite3"
    # Every bot consents and opens its sockets from 127.0.0.1: the per-address flood limits must let them in. A bot
    # of a loaded CI machine may reach its round's page more than the 20 s after pairing that count as leaving
    # (PRESENCE_LEFT_AFTER_SECONDS): its partners' round would then end without it (seen once in CI: 55 rounds of
    # 56). Leaving is tested elsewhere (tests/browser/test_presence_journeys.py); here nobody leaves.
    env = server_env(f"sqlite:///{database}", ENROLMENTS_PER_MINUTE_PER_CLIENT="1000000",
                     SOCKETS_OPENED_PER_MINUTE_PER_CLIENT="1000000", PRESENCE_TIMEOUT_SECONDS="120",
                     PRESENCE_LEFT_AFTER_SECONDS="240")
    migrate(env)
    load_presets(env, list(presets.values()), tmp_path)
    # The tables of people first, each condition's bots one after another, so a waiting room fills at once.
    plan = [(presets[spec.id]["slug"], condition["key"])
            for spec in specs for condition in presets[spec.id]["conditions"]
            for seat in condition["seats"] if seat["kind"] == "participant"]
    plan.sort(key=lambda entry: entry[1] != "people")
    run_id = secrets.token_hex(3)
    log: list[str] = []

    with daphne_server(env, log_path=tmp_path / "daphne.log") as url:
        serving = time.monotonic()

        def one(number: int) -> tuple[str, str, Outcome]:
            slug, key = plan[number]
            outcome = run_participant(url, slug, number + 1, seed=38, run_id=run_id, timeout=BOT_TIMEOUT_S,
                                      log=log.append, condition=key)
            return slug, key, outcome

        with ThreadPoolExecutor(max_workers=CONCURRENCY, thread_name_prefix="every-game-bot") as pool:
            results = list(pool.map(one, range(len(plan))))
        playing = time.monotonic() - serving

    failed = [f"{slug}/{key} bot {o.number} at {o.last_page}: {o.error}" for slug, key, o in results if not o.completed]
    assert not failed, "\n".join(failed + ["", *log[-40:]])

    rounds = [(slug, key, r) for slug, key, o in results for r in o.rounds]
    without = [f"{slug}/{key} bot {o.number}" for slug, key, o in results if len(o.rounds) != 1]
    assert not without, f"not one round each: {without}\n" + "\n".join(log[-40:])
    refused_in_place = [(slug, key, r.refusal_reasons) for slug, key, r in rounds if r.refused_in_place]
    assert not refused_in_place, refused_in_place
    refusals, moves = sum(r.refusals for *_, r in rounds), sum(r.my_moves for *_, r in rounds)
    assert refusals <= moves // 2, f"{refusals} of {moves} moves refused"

    played = seats_played(database)
    for spec in specs:
        preset = presets[spec.id]
        for condition in preset["conditions"]:
            matches = played[(preset["slug"], condition["key"])]
            people = [i for i, seat in enumerate(condition["seats"]) if seat["kind"] == "participant"]
            assert len(matches) == 1, f"{spec.id}/{condition['key']}: {len(matches)} matches, one expected"
            (match,) = matches
            assert match["status"] == "finished", (spec.id, condition["key"], match)
            assert sorted(match["people"]) == people  # every participant seat taken by a bot, in one match
            assert all(match["seats"][i] == condition["seats"][i].get("agent") for i in range(len(condition["seats"])))
    print(f"{len(specs)} games, {len(plan)} bots, {moves} moves ({refusals} overtaken and refused): "
          f"bots {playing:.1f} s, total {time.monotonic() - started:.1f} s, "
          f"{cpu_seconds() - cpu_before:.1f} s of CPU (the server's included)")


def cpu_seconds() -> float:
    """CPU time of this process and of its finished children (the server, manage.py): the test's cost on a shared
    machine, where wall time says more about the neighbours."""
    usage = [resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)]
    return sum(r.ru_utime + r.ru_stime for r in usage)
