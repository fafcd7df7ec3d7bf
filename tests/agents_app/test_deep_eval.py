"""deep_eval against the scripted server: aggressive and conservative descriptions, a judge scoring the target and
seeded distractors (the pair word first), a bad judge reply asked again once and then recorded as missing, every
call stored, the table printed and a CSV pandas reads."""

from __future__ import annotations

import io
import re

import pandas
import pytest
from django.core.management import CommandError, call_command

from agents_app.agents.llm.spy_eval import JUDGE_CORRECTION, JUDGE_SYSTEM, parse_score
from agents_app.management.commands.deep_eval import distractors_for, read_words
from agents_app.models import EvalCall
from tests.agents_app.llm_match_support import llm_config
from tests.agents_app.table_model import texts_of
from tests.support.openai_server import ScriptedReply, scripted_openai_server

pytestmark = pytest.mark.django_db

LONG = " ".join(["word"] * 130)


def model(body):
    """The describer and the judge. The judge scores 5 when the description names the word, else 2; for a cocoa
    conservative description it says something else twice (missing), for pear it needs the correction once."""
    texts = [t for _, t in texts_of(body)]
    joined = "\n".join(texts)
    if texts[0] == JUDGE_SYSTEM:
        description, word = re.search(r"Description: (.*)\nWord: (.*)", texts[1]).groups()
        if word == "cocoa" and description.startswith("A warm"):
            return ScriptedReply.text("Fairly accurate, I would say.")
        if word == "pear" and JUDGE_CORRECTION not in joined:
            return ScriptedReply.text("maybe")
        return ScriptedReply.text("5" if word in description.lower() else "Score: 2")
    target = re.search(r"description of (\w+)|based on (\w+)", joined)
    target = target.group(1) or target.group(2)
    if "conservative description" in texts[-1]:
        return ScriptedReply.text('"A warm drink many people enjoy in the morning"')
    if "Imagine other words" in texts[-1]:
        return ScriptedReply.text("tea, cocoa, milk, juice")
    return ScriptedReply.text(f"{target} is a drink. {LONG}" if target == "coffee" else f"{target}: a fruit.")


def test_deep_descriptions_judged_against_target_and_distractors(tmp_path):
    words = tmp_path / "words.txt"
    words.write_text("coffee\n# a comment\napple\nbanana\n", encoding="utf-8")
    target_words, partners = read_words(str(words))
    assert target_words == ["coffee", "apple", "banana"] and partners["coffee"] == "cocoa"
    pool = ["coffee", "cocoa", "tea", "apple", "pear", "milk"]
    assert distractors_for("coffee", partners, pool, 2, 0)[0] == "cocoa"
    assert distractors_for("coffee", partners, pool, 2, 0) == distractors_for("coffee", partners, pool, 2, 0)
    with scripted_openai_server(model) as server:
        llm_config("describer", server.base_url, retries=1, http_retries=0)
        llm_config("judge", server.base_url, retries=1, http_retries=0)
        out, path = io.StringIO(), tmp_path / "deep.csv"
        call_command("deep_eval", agent="describer", judge="judge", words=str(words), distractors=2, limit=2,
                     csv=str(path), stdout=out)
    text = out.getvalue()
    assert "2 target word(s)" in text and "aggressive" in text and "conservative" in text
    frame = pandas.read_csv(path)
    assert list(frame.columns) == ["word", "mode", "scored_word", "kind", "score", "description", "note"]
    assert len(frame) == 2 * 2 * 3  # words x modes x (target + 2 distractors)
    coffee = frame[frame.word == "coffee"]
    assert list(coffee[coffee["mode"] == "aggressive"].scored_word)[:2] == ["coffee", "cocoa"]
    aggressive = frame[(frame.word == "coffee") & (frame["mode"] == "aggressive")].iloc[0]
    assert len(aggressive.description.split()) == 100 and "cut from 134 to 100 words" in aggressive.note
    assert frame[frame["mode"] == "conservative"].description.str.split().str.len().max() <= 10
    # Aggressive descriptions name the target (the judge gives 5), conservative ones do not (2).
    targets = frame[frame.kind == "target"]
    assert (targets[targets["mode"] == "aggressive"].score == 5).all()
    assert (targets[targets["mode"] == "conservative"].score == 2).all()
    missing = frame[frame.score.isna()]
    assert len(missing) == 1 and missing.iloc[0].scored_word == "cocoa" and missing.iloc[0]["mode"] == "conservative"
    assert "missing" in missing.iloc[0].note and "re-asked" in missing.iloc[0].note
    pear = frame[frame.scored_word == "pear"]  # apple's pair word: a distractor of apple in both modes
    assert len(pear) == 2 and pear.score.notna().all() and pear.note.isna().all()  # corrected once, then scored

    # The table: mean target and distractor scores per mode, and what is missing.
    lines = {line.split()[0]: line.split() for line in text.splitlines() if line.startswith(("aggressive",
                                                                                           "conservative"))}
    for mode in ("aggressive", "conservative"):
        scores = frame[frame["mode"] == mode]
        target = scores[scores.kind == "target"].score.mean()
        distractor = scores[scores.kind == "distractor"].score.dropna().mean()
        assert lines[mode][1:3] == [f"{target:.2f}", f"{distractor:.2f}"]
        assert lines[mode][4] == str(scores.score.isna().sum())

    # Every call is stored: descriptions, candidate lists and judgements, the re-asks too.
    calls = EvalCall.objects.filter(task="deep_eval")
    assert calls.count() == len(server.requests)
    assert set(calls.values_list("purpose", flat=True)) == {"aggressive", "candidates", "conservative", "judge"}
    judged = calls.filter(purpose="judge")
    assert judged.filter(details__attempt=2).count() == 3  # pear twice (then scored) and the missing cocoa
    corrected = [c for c in judged if c.details.get("scored_word") == "pear"]
    assert [c.parsed for c in corrected] == [None, {"score": 2}, None, {"score": 2}]
    assert corrected[1].request_messages[-1]["content"] == JUDGE_CORRECTION
    assert "not a score 1-5: 'maybe'" in corrected[0].error and not corrected[1].error
    bad = [c for c in judged if c.details.get("scored_word") == "cocoa" and c.details.get("mode") == "conservative"]
    assert len(bad) == 2 and bad[-1].parsed is None and "missing" in bad[-1].error
    assert {c.agent_name for c in judged} == {"judge"}
    assert {c.agent_name for c in calls.exclude(purpose="judge")} == {"describer"}


def test_default_words_come_from_the_pair_list():
    words, partners = read_words(None)
    assert words[:2] == ["coffee", "cocoa"] and partners["cocoa"] == "coffee"


@pytest.mark.parametrize("reply,score", [("4", 4), (" 5. ", 5), ("Score: 3", 3), ('{"score": 2}', 2), ("6", None),
                                         ("maybe 3 or 4", None), ("", None)])
def test_judge_scores_are_read_strictly(reply, score):
    assert parse_score(reply) == score


def test_unknown_configurations_are_refused():
    with pytest.raises(CommandError, match="not a stored LLM agent configuration"):
        call_command("deep_eval", agent="nobody", judge="nobody", stdout=io.StringIO())


def test_staff_read_the_stored_calls_in_the_admin(client, django_user_model):
    EvalCall.objects.create(task="deep_eval", run="deep_eval-x", agent_name="judge", purpose="judge",
                            request_messages=[{"role": "user", "content": "Word: coffee"}], raw_reply="4")
    client.force_login(django_user_model.objects.create_superuser("staff", "staff@example.com", "pw"))
    page = client.get("/admin/agents_app/evalcall/")
    assert page.status_code == 200 and b"deep_eval-x" in page.content
    assert client.get("/admin/agents_app/evalcall/add/").status_code == 403
