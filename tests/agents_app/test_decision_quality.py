"""Issue 42, point 2: every move an LLM seat plays records whether it was an action the prompt suggested, and the
reports sum that up per agent, so a model that copies its prompt's example is seen (the leaderboard's provenance, a
protocol's report): here a scripted model that copies the example of a prompt that shows one (the prompts before
issue 42 did: a random legal id), and one that always plays the first action listed."""

from __future__ import annotations

import json
import random
import re

import pytest

from agents_app.agents.llm import prompts
from agents_app.decision_selectors import decision_quality
from agents_app.protocols import report as protocol_report
from rating_app import selectors as rating_selectors
from rating_app.models import RatingRun
from tests.agents_app.llm_match_support import (  # noqa: F401  (eager_celery is a fixture)
    calls_of,
    eager_celery,
    first_listed_action,
    llm_config,
    play_llm_vs_random,
)
from tests.support.openai_server import ScriptedReply, scripted_openai_server

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_celery")]

_EXAMPLE = re.compile(r'for example (\{"action": "[^"]*"\})')


def with_an_example(view) -> str:
    """The reply-format paragraph as it was before issue 42: an example naming a random legal id of this turn."""
    example = random.Random(view.seed).choice([a.id for a in view.legal_actions])
    return (f'When you choose your action, reply with a single JSON object and nothing else, for example '
            f'{json.dumps({"action": example})}; the action must be the id of one of the available actions.')


def copier(body) -> ScriptedReply:
    """A model that answers with the example its system prompt shows."""
    return ScriptedReply.text(json.loads(_EXAMPLE.search(body["messages"][0]["content"]).group(1)))


def test_a_model_that_copies_the_prompts_example_is_seen_in_the_reports(monkeypatch, client):
    monkeypatch.setattr(prompts, "reply_format", with_an_example)
    with scripted_openai_server(copier) as server:
        llm_config("copycat", server.base_url)
        match = play_llm_vs_random("copycat")
    moves = [c for c in calls_of(match) if c.parsed_action]
    assert moves and all(c.details["copied_suggestion"] for c in moves)
    quality = decision_quality([match.pk])["copycat"]
    assert quality.decisions == len(moves) and quality.fallbacks == 0
    assert (quality.copied, quality.recorded, quality.copied_share) == (len(moves), len(moves), 1.0)

    # The leaderboard rates the match and shows, beside the ratings, that every move was the example: summed once
    # with the rating run and stored on it; a page view reads the run and never the calls.
    assert client.post("/ratings/").status_code == 302
    (stored,) = RatingRun.objects.get().model_decisions
    assert (stored["agent"], stored["decisions"], stored["copied_suggestion"]) == ("copycat", len(moves), len(moves))
    monkeypatch.setattr(rating_selectors, "decision_quality", refuse_to_read_calls)
    html = client.get("/ratings/").content.decode()
    row = re.search(r'<tr data-agent="copycat">(.*?)</tr>', html.split("model-decisions")[1], re.S).group(1)
    cells = re.findall(r'<td class="num">([^<]*)</td>', row)
    assert cells == [str(len(moves)), "0%", "100%", cells[3]], cells
    # A protocol's report says the same in its table of model agents.
    text = protocol_report.render(report_with([q.as_dict() for q in decision_quality([match.pk]).values()]))
    assert re.search(rf"\| copycat +\| {len(moves)} +\| 0% +\| 100% +\|", text), text


def test_a_model_that_always_plays_the_first_action_listed_is_seen_too():
    with scripted_openai_server(first_listed_action) as server:
        llm_config("first", server.base_url)
        match = play_llm_vs_random("first")
    quality = decision_quality([match.pk])["first"]
    assert quality.decisions > 3 and quality.recorded == quality.decisions
    assert (quality.first_listed_share, quality.copied_share) == (1.0, 0.0)  # the prompts suggest nothing now
    assert decision_quality([match.pk], ["random"]) == {}  # agents without a model make no decisions here


def refuse_to_read_calls(*_args, **_kwargs):
    raise AssertionError("a page view summed the stored calls")


def report_with(decisions: list[dict]) -> dict:
    """The smallest protocol report render() takes, with the decisions table filled in."""
    return {
        "protocol": {"name": "p", "version": "1", "file": "p.json", "sha256": "0" * 64},
        "provenance": {"code_version": "x", "rating_library": "y", "seeds": [1],
                       "rating": {"method": "bt", "bootstrap": 10, "seed": 1, "ties": "half"}},
        "progress": {}, "models": [], "decisions": decisions, "ratings": {}, "categories": {},
        "win_probability": {},
    }
