"""The data exports: headers, one row per thing, the measures of a round worked out by hand, dropouts, the
dashboard's counts, and no participant or seat token anywhere in any file."""

from __future__ import annotations

import io
import json
import zipfile
from datetime import timedelta

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from gameplay.engines.api import MeasureSpec
from gameplay.engines.registry import create_game
from gameplay.models import Event, Seat
from gameplay.studies import dashboard, exports, measures, participant_measures, words
from gameplay.studies.models import Condition, Participant, ParticipantRound, Study, SurveyAnswer
from tests.studies.exports_support import parse
from tests.studies.factories import TURN_CAP, build_study, make_participant, make_study, play_round, route

pytestmark = pytest.mark.django_db
Step = Participant.Step


@pytest.fixture
def study():
    return build_study(per_condition=4)


def test_rounds_csv_one_row_per_participant_round(study):
    header, rows = parse(exports.rounds_csv(study))
    assert header == [*exports.round_columns(study), "in_analysis"]
    # The game's declared measures follow the platform's columns, prefixed, in declaration order.
    assert header[-4:] == ["m_turns", "m_wall_hits", "m_success", "in_analysis"]
    assert len(rows) == ParticipantRound.objects.filter(participant__study=study).count() == 12 * 3 + 1
    assert {r["status"] for r in rows} == {"finished", "active"}
    for row in rows:
        if row["completed"] == "1":
            assert row["status"] == "finished" and float(row["time_to_complete_s"]) > 0
            assert row["m_success"] in {"0", "1"} and int(row["m_turns"]) > 0
        else:
            assert row["time_to_complete_s"] == "" and row["score"] == "" and row["m_success"] == "0"
        assert row["won"] == ""  # Gnomes at Night is cooperative: nobody wins against anybody
    out_of_turns = [r for r in rows if r["completed"] == "1" and r["m_success"] == "0"]
    assert len(out_of_turns) == 1 and out_of_turns[0]["m_turns"] == str(TURN_CAP)
    # Censored: finished at the cap without the goal; a found round is not, an unfinished one is unknown.
    assert [r["censored"] for r in rows if r["completed"] == "1" and r["m_success"] == "0"] == ["1"]
    assert {r["censored"] for r in rows if r["m_success"] == "1"} == {"0"}
    assert {r["censored"] for r in rows if r["completed"] == "0"} == {""}
    fallback = next(r for r in rows if r["prolific_pid"] == "H-alone")
    assert (fallback["partner"], fallback["partner_kind"], fallback["as_assigned"]) == ("gnomes-comm", "agent", "0")
    assert fallback["condition_partner"] == "another participant"
    pair = [r for r in rows if r["condition"] == "H" and r["round"] == "1" and r["partner_kind"] == "human"]
    assert {r["partner"] for r in pair} == {r["participant"] for r in pair}  # partners name each other
    assert json.loads(pair[0]["options"])["round"] == 1


def test_round_measures_by_hand():
    study = make_study("hand", rounds=1)
    p = make_participant(study, "A-Comm")
    play_round(
        [p],
        0,
        agent="gnomes-comm",
        detour=1,
        think_ms=(100, 300, 200),
        duration_s=42.5,
        messages=[(0, 1, "hello"), (2, 0, "go right"), (2, 1, "ok")],
    )
    # What the agent recorded with its moves (agents_app.tasks: a fallback, a note): the count and the last note.
    first, second, _ = Event.objects.filter(kind=Event.Kind.ACTION, seat=1).order_by("seq")
    first.payload.update(fallback=True, fallback_reason="model unreachable", agent_note="intent parser: LLM")
    second.payload.update(agent_note="intent parser: rules (below 50%)")
    Event.objects.bulk_update([first, second], ["payload"])
    (row,) = measures.round_rows(study)
    assert (row["agent_fallbacks"], row["agent_notes"]) == (1, "gnomes-comm: intent parser: rules (below 50%)")
    assert row["m_turns"] == row["actions"] == len(route(1)) + 2 and row["m_wall_hits"] == 1
    assert row["m_success"] is True and row["completed"] and row["status"] == "finished"
    assert row["score"] == 0.5 and row["won"] is None  # cooperative: an even share, no winner
    assert row["time_to_complete_s"] == 42.5
    assert (row["messages_participant"], row["chars_participant"], row["mean_length_participant"]) == (1, 8, 8.0)
    assert (row["messages_partner"], row["chars_partner"], row["mean_length_partner"]) == (2, 7, 3.5)
    # 7 moves, the agent (seat 1) made moves 2, 4 and 6: think times 300, 100, 200 from the cycle.
    assert row["agent_think_ms_mean"] == 200.0 and row["agent_think_ms_median"] == 200.0
    assert row["agent_think_ms_max"] == 300.0
    assert row["partner"] == "gnomes-comm" and row["partner_kind"] == "agent" and row["as_assigned"]
    assert row["participant"] == f"P{p.pk:04d}" and row["round"] == 1 and row["seat"] == 0
    assert study.rounds[0].items() <= json.loads(row["options"]).items()  # the round's options, as played
    messages = words.message_rows(study)
    assert [(m["sender"], m["text"], m["turn"], m["length"]) for m in messages] == [
        ("gnomes-comm", "hello", 0, 5),
        ("participant", "go right", 2, 8),
        ("gnomes-comm", "ok", 2, 2),
    ]


def test_measure_columns_follow_the_declared_measures(study, monkeypatch):
    """The columns are whatever the game declares: a different declaration gives different columns, no code change."""
    declared = (MeasureSpec("turns", "Moves."), MeasureSpec("bonus", "Something the engine does not report."))
    monkeypatch.setattr(measures, "declared_measures", lambda _study: declared)
    header, rows = parse(exports.rounds_csv(study))
    assert header[-3:] == ["m_turns", "m_bonus", "in_analysis"] and "m_wall_hits" not in header
    assert all(r["m_bonus"] == "" for r in rows) and all(r["m_turns"] for r in rows)
    assert "round1_m_bonus" in exports.participant_columns(study)
    assert [o.column for o in exports.outcomes(study)] == ["time_to_complete_s", "actions", "m_turns", "m_bonus"]
    assert exports.flags(study) == []


def test_readme_lists_the_measure_columns_from_their_declared_descriptions(study):
    text = exports.readme(study)
    for spec in create_game("gnomes").spec.measures:
        assert f"m_{spec.name} ({spec.kind}): {spec.description}" in text
        assert f"  m_{spec.name}: {spec.description}" in text  # and in rounds.csv's column list
    assert "round<k>_m_turns" in text and "rounds_m_success" in text
    assert "Seats: 0 = Gnome A, 1 = Gnome B" in text
    assert "rates.csv" in text and "Yes/no outcomes counted in rates.csv: m_success." in text


def test_messages_csv_one_row_per_message_and_defused(study):
    header, rows = parse(exports.messages_csv(study))
    assert header == list(exports.MESSAGE_COLUMNS)
    events = Event.objects.filter(kind=Event.Kind.MESSAGE, match__study_rounds__participant__study=study).distinct()
    assert len(rows) == events.count() > 0
    assert sorted((int(r["match_id"]), r["seat"]) for r in rows) == sorted((e.match_id, str(e.seat)) for e in events)
    formula = next(r for r in rows if "SUM" in r["text"])
    assert formula["text"] == "'=SUM(A1)" and formula["length"] == "8"  # length of what was typed
    senders = {r["sender"] for r in rows}
    assert senders == {"participant", "gnomes-comm"}
    # Gnomes at Night has no free-text actions: every row is a chat line everyone could read.
    assert {(r["kind"], r["action"], r["audience"], r["team"]) for r in rows} == {("chat", "", "", "")}
    assert {r["seat_name"] for r in rows} == {"Gnome A", "Gnome B"}


def test_survey_csv_one_row_per_answer(study):
    header, rows = parse(exports.survey_csv(study))
    assert header == list(exports.SURVEY_COLUMNS)
    assert len(rows) == SurveyAnswer.objects.filter(participant__study=study).count() == 11 * 2
    assert [r["item_key"] for r in rows[:2]] == ["engagement", "satisfaction"]  # the study's item order


def test_participants_csv_one_row_per_participant(study):
    header, rows = parse(exports.participants_csv(study))
    assert header == exports.participant_columns(study)
    assert "round3_m_turns" in header and "round3_m_success" in header and "survey_satisfaction" in header
    assert "token" not in header
    assert len(rows) == Participant.objects.filter(study=study).count() == 13
    assert len({r["participant"] for r in rows}) == 13
    complete = next(r for r in rows if r["prolific_pid"] == "A-Mute-pid-3")
    assert (complete["rounds_completed"], complete["rounds_m_success"], complete["rounds_won"]) == ("3", "2", "")
    assert (complete["round3_status"], complete["round3_m_success"], complete["round3_m_turns"]) == (
        "finished",
        "0",
        str(TURN_CAP),
    )
    dropout = next(r for r in rows if r["prolific_pid"] == "A-Comm-pid-3")
    assert (dropout["round3_status"], dropout["round3_time_s"], dropout["rounds_completed"]) == ("active", "", "2")


def test_dropouts():
    study = make_study("drops", dropout_after_s=600)
    now = timezone.now()
    silent = now - timedelta(seconds=601)
    cases = {
        "playing-silent": (Step.ROUNDS, silent, (True, "rounds", 2)),
        "survey-silent": (Step.SURVEY, silent, (True, "survey", None)),
        "instructions-silent": (Step.INSTRUCTIONS, silent, (True, "instructions", None)),
        "playing-recent": (Step.ROUNDS, now - timedelta(seconds=599), (False, "", None)),
        "complete-silent": (Step.COMPLETE, silent, (False, "", None)),
        "ended-silent": (Step.ENDED, silent, (False, "", None)),
    }
    for pid, (step, seen, _) in cases.items():
        make_participant(study, "H", step=step, pid=pid, last_seen_at=seen, round_index=1)
    rows = {r["prolific_pid"]: r for r in participant_measures.participant_rows(study, now=now)}
    for pid, (*_, expected) in cases.items():
        row = rows[pid]
        assert (row["dropped"], row["dropout_step"], row["dropout_round"]) == expected, pid
    board = dashboard.live_counts(study, now=now)
    h = board.conditions[0]
    assert h.dropped == 3 and board.dropped == 3
    assert dict(zip([v for v, _ in board.dropout_steps], h.dropped_by_step, strict=True)) == {
        "consent": 0,
        "instructions": 1,
        "comprehension": 0,
        "rounds": 1,
        "survey": 1,
    }


def test_dashboard_counts_and_adherence(study):
    board = dashboard.live_counts(study)
    by_key = {c.key: c for c in board.conditions}
    steps = [v for v, _ in board.steps]
    assert by_key["H"].total == 5 and by_key["H"].by_step[steps.index("survey")] == 1
    assert by_key["A-Comm"].by_step[steps.index("rounds")] == 1 and by_key["A-Comm"].dropped == 1
    # Completed round k / started round 1: the abandoned round does not count, running out of turns does.
    assert [(a.completed, a.started) for a in by_key["A-Comm"].adherence] == [(4, 4), (4, 4), (3, 4)]
    assert [(a.completed, a.started) for a in by_key["A-Mute"].adherence] == [(4, 4), (4, 4), (4, 4)]
    assert [(a.completed, a.started) for a in by_key["H"].adherence] == [(5, 5), (4, 5), (4, 5)]
    assert by_key["A-Comm"].adherence[2].percent == 75.0


def test_no_token_in_any_file(study, tmp_path):
    written = exports.write_all(study, tmp_path)
    secrets = list(Participant.objects.filter(study=study).values_list("token", flat=True))
    secrets += list(Seat.objects.filter(match__study_rounds__participant__study=study).values_list("token", flat=True))
    assert len(secrets) > 13
    blobs = {path.name: path.read_bytes() for path in written}
    with zipfile.ZipFile(tmp_path / "analysis.zip") as archive:
        blobs |= {f"zip:{name}": archive.read(name) for name in archive.namelist()}
    for name, data in blobs.items():
        for secret in secrets:
            assert secret.encode() not in data, name
    assert b"token" not in blobs["participants.csv"]


def test_downloads_equal_the_bundle_files(study):
    files = exports.bundle(study)
    for name, build in exports.DOWNLOADS.items():
        assert build(study) == files[name], name


def test_an_empty_study_exports_headers_and_blank_statistics(tmp_path):
    study = make_study("empty")
    names = {path.name for path in exports.write_all(study, tmp_path)}
    assert {"rounds.csv", "anova.csv", "rates.csv", "boxplot_m_turns_round1.png", "analysis.zip"} <= names
    header, rows = parse((tmp_path / "rounds.csv").read_bytes())
    assert header[0] == "study" and rows == []
    _, anova = parse((tmp_path / "anova.csv").read_bytes())
    # time, actions, m_turns, m_wall_hits (no score: the game is cooperative), in 3 rounds and 'all'
    assert len(anova) == 4 * 4 and all(r["F"] == "" and r["note"] for r in anova)
    assert all("H (n=0)" in r["note"] for r in anova)  # the groups left out are named, never dropped silently
    _, rates = parse((tmp_path / "rates.csv").read_bytes())
    assert len(rates) == 4 * 3 and all(r["n"] == "0" and r["percent"] == "" and r["note"] for r in rates)


def test_export_study_refuses_a_study_whose_game_is_not_registered(tmp_path):
    study = make_study("gone")
    Study.objects.filter(pk=study.pk).update(game_id="no-such-game")
    with pytest.raises(CommandError, match="no-such-game"):
        call_command("export_study", "gone", "--out", str(tmp_path), stdout=io.StringIO())
    assert not any(tmp_path.iterdir())


class FakeState:
    """Just what measures reads to decide a winner: the teams (as State.result_teams gives them by default, the game's),
    whether it is over, the scores."""

    def __init__(self, teams, scores, terminal=True):
        self.game = type("FakeGame", (), {"teams": lambda _self: list(teams)})()
        self._scores, self._terminal = list(scores), terminal

    def is_terminal(self):
        return self._terminal

    def scores(self):
        return self._scores

    def result_teams(self):
        return self.game.teams()


def test_won_is_per_team_and_blank_for_cooperative_or_unfinished_games():
    two_v_two = [0, 1, 0, 1]
    assert [measures._won(FakeState(two_v_two, [0.5, 0, 0.5, 0]), s) for s in range(4)] == [True, False, True, False]
    draw = FakeState([0, 1], [0.5, 0.5])
    assert (measures._won(draw, 0), measures._won(draw, 1)) == (False, False)
    assert measures._won(FakeState([0, 0], [0.5, 0.5]), 0) is None  # one team: nobody wins against anybody
    assert measures._won(FakeState([0, 1], [1, 0], terminal=False), 0) is None


def test_partner_and_as_assigned_for_three_seats(db):
    study = make_study("three", rounds=1)
    seats = [{"kind": "participant"}, {"kind": "agent", "agent": "random"}, {"kind": "participant"}]
    condition = Condition(study=study, key="x", label="x", seats=seats)

    def seat(index, agent=""):
        return Seat(index=index, controller="agent" if agent else "human", agent_name=agent)

    played = {0: seat(0), 1: seat(1, "random"), 2: seat(2)}
    record = ParticipantRound(seat_index=0, partner_agent="random")
    r = measures.PlayedRound(record, [], played, state=None, players={0: "P0001", 2: "P0002"})
    assert measures._partner(r) == ("random;P0002", "mixed", [1])
    assert measures._as_assigned(condition, played)
    fallback = {**played, 2: seat(2, "random")}  # a pairing timeout: the fallback agent took seat 2
    assert not measures._as_assigned(condition, fallback)
    assert not measures._as_assigned(condition, {0: seat(0), 1: seat(1, "other"), 2: seat(2)})
