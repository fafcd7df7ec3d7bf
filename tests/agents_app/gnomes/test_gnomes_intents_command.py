"""python manage.py gnomes_intents: accuracy of the intent parsers on the labelled set (no database needed)."""

from __future__ import annotations

import io
import json
import re

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.support.openai_server import scripted_openai_server

ENDPOINT_VARIABLES = ("GNOMES_LLM_BASE_URL", "OPENAI_BASE_URL", "GNOMES_LLM_MODEL", "GNOMES_LLM_API_KEY_ENV")


@pytest.fixture(autouse=True)
def no_configured_endpoint(monkeypatch):
    """Measure only what each test asks for, whatever the developer's shell exports."""
    for name in ENDPOINT_VARIABLES:
        monkeypatch.delenv(name, raising=False)


def run(*args: str) -> str:
    out = io.StringIO()
    call_command("gnomes_intents", *args, stdout=out)
    return out.getvalue()


@pytest.fixture
def small_set(tmp_path):
    path = tmp_path / "intents.jsonl"
    rows = [
        {"_comment": "a tiny set for command tests"},
        {"text": "go left", "flag": "LEFT"},
        {"text": "where is the treasure?", "flag": "INQUIRY"},
        {"text": "ok", "flag": "ACCEPT"},
        {"text": "lol", "flag": "REJECT"},  # deliberately mislabelled, to produce one error
    ]
    path.write_text("\n".join(json.dumps(row) for row in rows) + "\n", encoding="utf-8")
    return path


def test_default_set_accuracy_is_at_least_90_percent():
    output = run()
    match = re.search(r"Rule-based parser: (\d+)/(\d+) correct \((\d+\.\d)%\)", output)
    assert match, output
    correct, total, percent = int(match[1]), int(match[2]), float(match[3])
    assert total >= 170
    assert correct / total >= 0.90 and percent >= 90.0
    # The per-flag table: support, parsed, correct, precision, recall; then the confusion matrix.
    assert re.search(r"^\s+RIGHT\s+\d+\s+\d+\s+\d+\s+\d+\.\d%\s+\d+\.\d%$", output, re.M)
    assert "confusion matrix (rows: labelled flag, columns: parsed flag):" in output
    assert "LLM" not in output  # no endpoint configured, so only the rules are measured


def test_errors_and_confusions_are_reported(small_set):
    output = run("--set", str(small_set), "--show-errors")
    assert "Rule-based parser: 3/4 correct (75.0%)" in output
    assert "confusions (expected->parsed): REJECT->NONE x1" in output
    assert "[REJECT -> NONE] 'lol'" in output


def test_json_output(small_set):
    report = json.loads(run("--set", str(small_set), "--json"))
    (rules,) = report["scores"]
    assert report["messages"] == 4
    assert (rules["correct"], rules["total"], rules["accuracy"]) == (3, 4, 0.75)
    assert rules["per_flag"]["REJECT"] == {
        "support": 1, "predicted": 0, "correct": 0, "precision": None, "recall": 0.0
    }
    # "lol" parsed as NONE: NONE was predicted once and never labelled, so its precision is 0.
    assert rules["per_flag"]["NONE"] == {"support": 0, "predicted": 1, "correct": 0, "precision": 0.0, "recall": None}
    assert rules["per_flag"]["LEFT"]["precision"] == 1.0
    assert rules["per_flag"]["STAY"]["recall"] is None
    matrix = rules["confusion_matrix"]
    assert matrix["labels"][-1] == "NONE" and len(matrix["rows"]) == len(matrix["labels"]) == 9
    labels = matrix["labels"]
    assert matrix["rows"][labels.index("REJECT")][labels.index("NONE")] == 1
    assert matrix["rows"][labels.index("LEFT")][labels.index("LEFT")] == 1
    assert sum(map(sum, matrix["rows"])) == 4
    assert rules["confusions"] == [{"expected": "REJECT", "parsed": "NONE", "count": 1}]
    assert rules["fallbacks"] is None


def test_llm_flag_needs_an_endpoint(small_set):
    with pytest.raises(CommandError, match="GNOMES_LLM_BASE_URL"):
        run("--set", str(small_set), "--llm")


def test_configured_endpoint_measures_the_llm_parser_too(small_set, monkeypatch):
    labels = {"go left": "LEFT", "where is the treasure?": "INQUIRY", "ok": "not sure", "lol": "NONE"}

    def reply(body):
        message = body["messages"][-1]["content"]
        return next(label for text, label in labels.items() if repr(text) in message)

    with scripted_openai_server(reply) as server:
        monkeypatch.setenv("GNOMES_LLM_BASE_URL", server.base_url)
        output = run("--set", str(small_set))
    assert len(server.requests) == 4
    # "ok" got an unusable reply, so the rules answered it (correctly, ACCEPT); "lol" is mislabelled in the set.
    assert re.search(
        r"LLM \(gpt-3\.5-turbo at http://127\.0\.0\.1:\d+/v1\) parser: 3/4 correct \(75\.0%\); "
        r"1 of 4 replies fell back to the rule-based parser; agrees with the rule-based parser on 4/4 \(100\.0%\)",
        output,
    ), output


def test_a_model_that_reads_everything_as_none_shows_up_in_its_agreement_with_the_rules(small_set, monkeypatch):
    # A valid but wrong flag is no failure, so only the agreement gives such a model away.
    with scripted_openai_server(lambda body: "NONE") as server:
        monkeypatch.setenv("GNOMES_LLM_BASE_URL", server.base_url)
        report = json.loads(run("--set", str(small_set), "--json"))
    rules, llm = report["scores"]
    assert rules["agreement_with_rules"] is None and llm["fallbacks"] == 0
    assert llm["agreement_with_rules"] == 0.25  # only "lol", which the rules read as NONE too
