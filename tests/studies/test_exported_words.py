"""Issue 38's acceptance for the words people and agents write: for a Fruit Trading, a Who is Spy and a Codenames
study run by bots, every free-text action in the event log appears in the exported messages.csv with its seat and
round, and the counts are equal; rounds.csv has one row per participant seat per round with that seat's measures.

The three studies share one database and one daphne server; one manage.py process loads them (load_study), runs
``run_study_bots`` on each and writes each study's rounds.csv and messages.csv as the dashboard downloads them. The
log side is counted from the server's SQLite file with plain SQL, not through the export's code, so the two sides are
independent. Each study mixes people's and agents' seats, and the test checks both kinds wrote.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from collections import Counter

import pytest

from gameplay.models import Event, Match
from gameplay.reads.selectors import state_of
from gameplay.studies import exports, words
from gameplay.studies.exports import defuse
from gameplay.studies.measures import participant_code
from gameplay.studies.models import Condition, ParticipantRound
from gameplay.writes import absent_players, services
from gameplay.writes.services import SeatController
from tests.studies.exports_support import parse
from tests.studies.factories import make_participant, make_study
from tests.studies.study_bots_support import read_csv
from tests.support.live_server import ROOT, daphne_server, migrate, server_env

P = {"kind": "participant"}
RANDOM = {"kind": "agent", "agent": "random"}
# game -> (round options, seats, participants). Short rounds keep the run quick: Who is Spy stops after two rounds
# of descriptions, Codenames after ten team turns; a Codenames clue is given by each team's Spymaster (seats 0 and
# 1), so a person gives Red's and an agent Blue's. Four Codenames participants play two matches: in one, a random
# Red operative may pick the assassin before Blue's Spymaster (the agent) ever gives a clue (one CI run in many
# did); in both, far more rarely.
STUDIES = {
    "fruit_trading": ({"scenario": "fixed"}, [P, RANDOM], 2),
    "who_is_spy": ({"max_rounds": 2}, [P, P, RANDOM, RANDOM], 2),
    "codenames": ({"max_turns": 10}, [P, RANDOM, RANDOM, P], 4),
}


def preset(game: str) -> dict:
    options, seats, _ = STUDIES[game]
    return {
        "slug": slug(game),
        "title": f"Words in {game}",
        "game_id": game,
        "rounds": [options],
        "consent_text": "Consent?",
        "instructions": "Play.",
        "likert_items": [{"key": "fun", "prompt": "Fun?", "low": "no", "high": "yes"}],
        "completion_code": "WORDS",
        "pairing_timeout_s": 60,
        "pairing_fallback_agent": "random",
        "conditions": [{"key": "mixed", "label": "people and agents", "seats": seats, "options": {}}],
    }


def slug(game: str) -> str:
    return f"words-{game.replace('_', '-')}"


# One process does what a researcher does for the three studies (load_study, run_study_bots, then the data files as
# the dashboard's downloads give them): one Django start-up instead of nine, and the three cohorts play at once.
# The downloads are the bundle's files byte for byte (test_exports), without its figures, which take seconds.
RUN = """
import json, os, pathlib, time
from concurrent.futures import ThreadPoolExecutor
from django.core.management import call_command
from django.db import connection
from gameplay.studies import exports
from gameplay.studies.models import Study

def play(job):
    game, path, participants, out = job
    try:
        call_command("run_study_bots", "words-" + game.replace("_", "-"), "--participants", str(participants),
                     "--seed", "1", "--url", URL, "--concurrency", str(participants), "--stagger", "0",
                     "--timeout", "120")
    finally:
        connection.close()

jobs = json.loads(os.environ["WORDS_JOBS"])
started = time.monotonic()
for game, path, participants, out in jobs:
    call_command("load_study", path, "--open")
with ThreadPoolExecutor(len(jobs)) as pool:
    list(pool.map(play, jobs))
print(f"bots done after {time.monotonic() - started:.1f} s")
for game, path, participants, out in jobs:
    study = Study.objects.get(slug="words-" + game.replace("_", "-"))
    pathlib.Path(out).mkdir()
    for name in (exports.ROUNDS, exports.MESSAGES):
        (pathlib.Path(out) / name).write_bytes(exports.DOWNLOADS[name](study))
print(f"exported after {time.monotonic() - started:.1f} s")
"""


def run_the_studies(tmp) -> tuple:
    """The three studies played by bots, their rounds.csv and messages.csv written: (the server's database file, the
    folder of each game's files)."""
    db = tmp / "db.sqlite3"
    env = server_env(f"sqlite:///{db}")
    migrate(env)
    jobs, outs = [], {}
    for game, (_, _, participants) in STUDIES.items():
        path = tmp / f"{game}.json"
        path.write_text(json.dumps(preset(game)), encoding="utf-8")
        outs[game] = tmp / f"export-{game}"
        jobs.append([game, str(path), participants, str(outs[game])])
    with daphne_server(env, log_path=tmp / "daphne.log") as url:
        done = subprocess.run(
            [sys.executable, "manage.py", "shell", "-c", f"URL = {url!r}\n" + RUN],
            cwd=ROOT, env={**env, "WORDS_JOBS": json.dumps(jobs)}, capture_output=True, text=True, timeout=300,
        )
    print(done.stdout[-3000:])
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
    return db, outs


def logged_words(db, game: str) -> list[tuple]:
    """Every free-text action of the study's matches, from the event log: an action event with text in its payload
    by one of the match's seats (a judge's verdict is logged under a seat one past the players), with its round and
    who held the seat: (match, seat, round, action id, text, controller)."""
    query = """
        SELECT DISTINCT e.id, e.match_id, e.seat, pr.round_index + 1, json_extract(e.payload, '$.action_id'),
               json_extract(e.payload, '$.text'), s.controller
        FROM gameplay_event e
        JOIN gameplay_seat s ON s.match_id = e.match_id AND s."index" = e.seat
        JOIN studies_participantround pr ON pr.match_id = e.match_id
        JOIN studies_participant p ON p.id = pr.participant_id
        JOIN studies_study st ON st.id = p.study_id
        WHERE st.slug = ? AND e.kind = 'action' AND json_type(e.payload, '$.text') = 'text'
    """
    with sqlite3.connect(db) as connection:
        return [row[1:] for row in connection.execute(query, (slug(game),)).fetchall()]  # one row an event


def seated_rounds(db, game: str) -> list[tuple]:
    """(match, seat, round, the seat's measures kept at the end) of every participant-round of the study."""
    query = """
        SELECT pr.match_id, pr.seat_index, pr.round_index + 1, m.final_measures
        FROM studies_participantround pr
        JOIN studies_participant p ON p.id = pr.participant_id
        JOIN studies_study st ON st.id = p.study_id
        JOIN gameplay_match m ON m.id = pr.match_id
        WHERE st.slug = ?
    """
    with sqlite3.connect(db) as connection:
        return [(match, seat, rnd, json.loads(kept)[seat]) for match, seat, rnd, kept in
                connection.execute(query, (slug(game),)).fetchall()]


def agent_seats(db) -> dict[tuple[int, int], str]:
    with sqlite3.connect(db) as connection:
        rows = connection.execute('SELECT match_id, "index", agent_name FROM gameplay_seat WHERE controller = ?',
                                  ("agent",)).fetchall()
    return {(match, seat): name for match, seat, name in rows}


@pytest.mark.slow
def test_every_free_text_action_of_three_bot_studies_is_exported_with_its_seat_and_round(tmp_path):
    """One test, not one per game: the three studies share one server and one run of the bots."""
    db, outs = run_the_studies(tmp_path)
    agents = agent_seats(db)
    for game, (_, seats, participants) in STUDIES.items():
        # messages.csv: every free-text action of the log, people's and agents', with its seat and round.
        logged = logged_words(db, game)
        assert {controller for *_, controller in logged} == {"human", "agent"}, (game, "both kinds of seat write")
        rows = [r for r in read_csv(outs[game] / "messages.csv") if r["kind"] == "action"]
        exported = Counter((int(r["match_id"]), int(r["seat"]), int(r["round"]), r["action"], r["text"]) for r in rows)
        expected = Counter((match, seat, rnd, action, defuse(text)) for match, seat, rnd, action, text, _ in logged)
        assert sum(exported.values()) == sum(expected.values()) == len(logged), game
        assert exported == expected, game
        for r in rows:
            assert r["sender"] == agents.get((int(r["match_id"]), int(r["seat"])), "participant"), (game, r)
            assert r["action_label"] and r["seat_name"] and r["sent_at"], (game, r)
        print(f"{game}: {len(logged)} free-text actions logged, {len(rows)} exported")
        # rounds.csv: one row per participant's seat per round (none for agents' seats), with that seat's measures.
        rounds = read_csv(outs[game] / "rounds.csv")
        seated = seated_rounds(db, game)
        assert len(rounds) == len(seated) == participants, game  # one round each
        assert sorted((int(r["match_id"]), int(r["seat"]), int(r["round"])) for r in rounds) == sorted(
            (match, seat, rnd) for match, seat, rnd, _ in seated), game
        assert {seats[int(r["seat"])]["kind"] for r in rounds} == {"participant"}, game
        kept = {(match, seat): measures for match, seat, _, measures in seated}
        for r in rounds:
            own = kept[int(r["match_id"]), int(r["seat"])]
            assert own and all(same(r[f"m_{name}"], value) for name, value in own.items()), (game, r, own)


def same(written: str, value) -> bool:
    """A CSV cell against the measure the match kept: blank for None, 1/0 for a yes/no, else the number."""
    if value is None or isinstance(value, bool):
        return written == ("" if value is None else str(int(value)))
    return float(written) == float(value)


# --- what a row says, on matches played through the match service (fast) ------------------------------------------


def seat_round(match, participant, seat: int) -> None:
    ParticipantRound.objects.create(participant=participant, round_index=0, match=match, seat_index=seat)


def write_first_clue(match) -> str:
    """Red's Spymaster's clue: the first of a few words the engine accepts (a clue may not be a word on the board)."""
    for word in ("zeppelin", "quasar", "marmalade"):
        try:
            services.submit_action(match.pk, 0, "clue", text=f"{word},1", expected_version=match.version,
                                   schedule_agents=False)
            return f"{word},1"
        except services.ActionRejected:
            continue
    raise AssertionError("no clue accepted")


@pytest.mark.django_db
def test_rows_name_the_seat_team_kind_audience_and_writer():
    """Codenames: the person's clue is an action row of Red's Spymaster; an Operative's team line keeps its audience;
    after an agent takes a person's seat over its lines are the agent's."""
    study = make_study("words-rows", rounds=1, game_id="codenames", conditions=())
    Condition.objects.create(study=study, key="c", label="c", seats=[P, RANDOM, P, P], options={})
    people = [make_participant(study, "c") for _ in range(3)]
    controllers = [SeatController("human"), SeatController("agent", agent_name="random"), SeatController("human"),
                   SeatController("human")]
    match = services.create_match("codenames", controllers, seed=6, schedule_agents=False, private=True)
    assert state_of(match).current_seats() == [0]  # with this seed Red starts
    for person, seat in zip(people, (0, 2, 3), strict=True):
        seat_round(match, person, seat)
    clue = write_first_clue(match)
    services.post_message(match.pk, 2, "=the bank, surely")
    absent_players.hand_seat_to_agent(match.pk, 3, "random", "left")
    services.post_message(match.pk, 3, "Blue listens")
    # The text as the engine accepted it (a clue is kept in capitals), which is what the log holds.
    (logged,) = Event.objects.filter(match=match, kind=Event.Kind.ACTION).values_list("payload__text", flat=True)
    assert logged.lower() == clue
    rows = words.message_rows(study)
    picked = [(r["seat"], r["seat_name"], r["team"], r["sender"], r["kind"], r["action"], r["text"], r["audience"],
               r["turn"]) for r in rows]
    assert picked == [
        (0, "Player 1 (Red Spymaster)", "Red", "participant", "action", "clue", logged, "", 0),
        (2, "Player 3 (Red Operative)", "Red", "participant", "team_chat", "", "=the bank, surely", "0 2", 1),
        (3, "Player 4 (Blue Operative)", "Blue", "random", "team_chat", "", "Blue listens", "1 3", 1),
    ]
    assert [r["participant"] for r in rows] == [participant_code(p.pk) for p in people]
    assert all(set(r) == set(exports.MESSAGE_COLUMNS) for r in rows)  # the codebook names every column, no more
    assert rows[0]["action_label"] and clue.split(",")[0] in rows[0]["action_label"].lower()
    _, exported = parse(exports.messages_csv(study))
    assert exported[1]["text"] == "'=the bank, surely" and exported[1]["length"] == "17"


@pytest.mark.django_db
def test_a_judges_verdict_is_nobodys_words():
    """Debate: both sides' arguments are rows; the judge's verdict, logged under a seat one past the players with
    the judge's name as its text, is not."""
    study = make_study("words-debate", rounds=1, game_id="debate", conditions=())
    Condition.objects.create(study=study, key="c", label="c", seats=[P, P], options={})
    match = services.create_match("debate", [SeatController("human")] * 2, seed=2, options={"rounds_per_side": 1},
                                  schedule_agents=False, private=True)
    for seat in (0, 1):
        seat_round(match, make_participant(study, "c"), seat)
    for seat, argument in ((0, "Cities should plant trees."), (1, "Trees cost water.")):
        style = next(t.id for t in state_of(Match.objects.get(pk=match.pk)).text_actions(seat))
        match = services.submit_action(match.pk, seat, style, text=argument, expected_version=match.version,
                                       schedule_agents=False)
    services.apply_verdict(match.pk, "for", "a-judge", expected_version=match.version)
    assert Event.objects.filter(match=match, kind=Event.Kind.ACTION, seat=2, payload__text="a-judge").exists()
    rows = words.message_rows(study)
    assert [(r["seat"], r["kind"], r["text"]) for r in rows] == [
        (0, "action", "Cities should plant trees."), (1, "action", "Trees cost water.")]
