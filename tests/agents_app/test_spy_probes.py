"""spy_probes on Who is Spy matches played by LLM agents (scripted model): each probe shows only the seat's
observation just before the first vote; self-identity and first-order answers are scored against the truth,
second-order ones against the other seats' own stored first-order answers (N/A until those seats are probed); an
unreadable reply counts as wrong and is noted; every call is stored; the CSV opens with pandas."""

from __future__ import annotations

import io
import json
import re

import pandas
import pytest
from django.core.management import CommandError, call_command

from agents_app.evaluations.spy_selectors import views_before_first_vote
from agents_app.models import EvalCall
from gameplay.reads.selectors import state_of
from tests.agents_app.llm_match_support import eager_celery, llm_config  # noqa: F401  (eager_celery is a fixture)
from tests.agents_app.table_model import TableModel, play_spy_match, texts_of
from tests.support.openai_server import ScriptedReply, scripted_openai_server

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_celery")]

_KEYS = re.compile(r"with a key for every one of (.+?), each giving")
_ME = re.compile(r"You are (Player \d+), a player")
_WORD = re.compile(r"Your secret word is ([^.\s]+)\.")


def probe_answer(body):
    """Probes: everyone shares my word, I am a villager, the first other player is the spy; second-order: everyone
    thinks I am a villager with my word. The "garbage-model" configuration answers prose."""
    if body["model"] == "garbage-model":
        return ScriptedReply.text("Hard to say, Player 2 seems a little suspicious to me.")
    text = "\n".join(t for _, t in texts_of(body))
    me, word = _ME.search(text).group(1), _WORD.search(text).group(1)
    about = _KEYS.search(text).group(1).split(", ")
    if "guess the keywords and identities of all players" in text:
        first_other = next(n for n in about if n != me)
        answer = {n: {"word": word, "identity": "spy" if n == first_other else "villager"} for n in about}
    else:
        answer = {n: {"word": word, "identity": "villager"} for n in about}
    return ScriptedReply.text(answer)


def expected_rows(match, seat, probed_first):
    """(metric, about) -> correct (1/0) or None (N/A), from the engine's truth and the scripted answers."""
    before, final = views_before_first_vote(match), state_of(match)
    n = final.game.num_seats
    names = [final.game.seat_name(s) for s in range(n)]
    words = [before[s].facts["word"] for s in range(n)]
    spy = [final.measures(s)["is_spy"] for s in range(n)]
    first_other = {s: next(o for o in range(n) if o != s) for s in range(n)}
    rows = {("self-identity", names[seat]): int(not spy[seat])}
    for other in range(n):
        if other == seat:
            continue
        rows[("1-word", names[other])] = int(words[other] == words[seat])
        rows[("1-identity", names[other])] = int(spy[other] == (other == first_other[seat]))
        if other in probed_first:
            rows[("2-word", names[other])] = int(words[other] == words[seat])
            rows[("2-identity", names[other])] = int(first_other[other] != seat)  # they call me a villager
        else:
            rows[("2-word", names[other])] = rows[("2-identity", names[other])] = None
    return rows


def check(frame, match, seats_probed_first):
    for seat in sorted(set(frame.seat)):
        want = expected_rows(match, seat, seats_probed_first)
        got = frame[frame.seat == seat]
        assert len(got) == len(want)
        for row in got.itertuples():
            correct = None if pandas.isna(row.correct) else int(row.correct)
            assert correct == want[(row.metric, row.about)], (seat, row.metric, row.about)
            if correct is None:
                assert str(row.note).startswith("N/A")


def test_probes_score_first_and_second_order_and_survive_bad_replies(tmp_path):
    with scripted_openai_server(TableModel(other=probe_answer)) as server:
        llm_config("guest-llm", server.base_url, retries=2, http_retries=0)
        llm_config("host-llm", server.base_url, retries=2, http_retries=0)
        llm_config("garbage-llm", server.base_url, model="garbage-model", retries=2, http_retries=0)
        match = play_spy_match(4, "guest-llm", "host-llm")
        other = play_spy_match(5, "host-llm", "guest-llm")
        spy_seat = next(s.index for s in match.seats.all() if s.agent_name == "guest-llm")
        host_seats = {s.index for s in match.seats.all() if s.agent_name == "host-llm"}
        before = len(server.requests)

        # 1. The guest alone: nobody else probed yet, so its second-order answers are N/A.
        out, path = io.StringIO(), tmp_path / "guest.csv"
        call_command("spy_probes", agent="guest-llm", matches=1, csv=str(path), stdout=out)
        text = out.getvalue()
        assert "1 seat(s) in 1 match(es)" in text and "self-identity" in text and "2-identity" in text
        frame = pandas.read_csv(path)
        assert set(frame.match) == {match.pk} and set(frame.seat) == {spy_seat}
        assert list(frame.columns) == ["run", "match", "seat", "agent", "role", "metric", "about", "answer", "truth",
                                       "correct", "note"]
        check(frame, match, set())
        assert frame[frame.metric.str.startswith("2-")].correct.isna().all()
        guest_calls = EvalCall.objects.filter(task="spy_probes", agent_name="guest-llm")
        assert guest_calls.count() == len(server.requests) - before == 2
        assert {c.purpose for c in guest_calls} == {"first-order", "second-order"}

        # 2. The hosts: their second-order answers are scored against the guest's and each other's first-order ones.
        out, path = io.StringIO(), tmp_path / "hosts.csv"
        call_command("spy_probes", agent="host-llm", matches=2, csv=str(path), stdout=out)
        frame = pandas.read_csv(path)
        assert set(frame.match) == {match.pk, other.pk}
        check(frame[frame.match == match.pk], match, host_seats | {spy_seat})
        assert "villager" in out.getvalue()

        # 3. The guest again: now the hosts' first-order answers are the truth of its second-order ones.
        path = tmp_path / "guest2.csv"
        call_command("spy_probes", agent="guest-llm", matches=1, csv=str(path), stdout=io.StringIO())
        frame = pandas.read_csv(path)
        check(frame, match, host_seats)
        assert frame[frame.metric.str.startswith("2-")].correct.notna().all()

        # 4. Unreadable replies: counted as wrong, noted, stored.
        match.seats.filter(index=spy_seat).update(agent_name="garbage-llm")
        out, path = io.StringIO(), tmp_path / "garbage.csv"
        call_command("spy_probes", agent="garbage-llm", matches=1, csv=str(path), stdout=out)
        frame = pandas.read_csv(path)
        scored = frame[frame.correct.notna()]
        assert len(scored) and (scored.correct == 0).all()
        assert frame[~frame.metric.str.startswith("2-")].note.str.startswith("unreadable: unparsable reply").all()
        lines = [line for line in out.getvalue().splitlines() if line.startswith("spy ")]
        assert lines and all(line.split()[-1] != "0" for line in lines)  # the Unreadable column counts them
        bad = EvalCall.objects.filter(agent_name="garbage-llm")
        assert bad.count() == 2 and all(c.parsed is None and "unparsable" in c.error for c in bad)
        assert EvalCall.objects.count() == len(server.requests) - before

    # Only the seat's observation text went into the prompts: never another seat's word.
    for call in EvalCall.objects.filter(task="spy_probes"):
        before = views_before_first_vote(call.match)
        prompt = json.dumps(call.request_messages)
        assert before[call.seat].text.splitlines()[0] in prompt
        own = before[call.seat].facts["word"]
        others = {view.facts["word"] for view in before} - {own}
        assert not any(f"secret word is {w}" in prompt for w in others)


def test_an_unknown_agent_is_refused():
    with pytest.raises(CommandError, match="not a stored LLM agent configuration"):
        call_command("spy_probes", agent="nobody", stdout=io.StringIO())
