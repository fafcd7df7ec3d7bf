"""run_study_bots: the bot's browser pieces (forms, CSRF, the move policies), fast. The acceptance runs of whole
cohorts are in test_study_bots_gnomes.py and test_study_bots_santorini.py."""

from __future__ import annotations

import json
import random

import pytest

from agents_app.agents.gnomes.partner import SimulatedPartner
from gameplay.engines.registry import create_game
from gameplay.studies.bots.client import CSRF_FIELD, BotClient, parse_page
from gameplay.studies.bots.journey import Outcome, completion_code, page_kind, survey_choices
from gameplay.studies.bots.player import (
    POLICIES,
    RoundPlay,
    chat_enabled,
    pushed_version,
    random_policy,
    seat_token,
    turn_view,
)

CONSENT_PAGE = """<!doctype html><html><head><title>Consent</title><script>var x = "<b>not text</b>";</script>
</head><body><main><p>Please read this.</p>
<form method="post" action="/s/demo/consent/">
  <input type="hidden" name="csrfmiddlewaretoken" value="tok123">
  <input type="hidden" name="PROLIFIC_PID" value="abc">
  <input type="checkbox" name="adult" value="yes" checked>
  <input type="checkbox" name="newsletter" value="yes">
  <select name="lang"><option value="en">English</option><option value="de" selected>Deutsch</option></select>
  <textarea name="note">hello</textarea>
  <button type="submit" name="choice" value="agree">I   agree</button>
  <button type="submit" name="choice" value="decline">I do not agree</button>
  <button type="button">Print</button>
</form>
<form ws-send class="chat-form"><input type="hidden" name="kind" value="chat"><input name="text"></form>
<div class="match" ws-connect="/ws/play/SeAtToKeN/"></div>
<p>Your completion code: <code> C0DE42 </code></p>
</main></body></html>"""

SURVEY_PAGE = (
    """<form method="post"><input type="hidden" name="csrfmiddlewaretoken" value="t">
<fieldset><legend>Engaged?</legend>"""
    + "".join(f'<label><input type="radio" name="engagement" value="{n}" required> {n}</label>' for n in range(1, 6))
    + "</fieldset><fieldset>"
    + "".join(f'<label><input type="radio" name="satisfaction" value="{n}"> {n}</label>' for n in range(1, 6))
    + '</fieldset><button type="submit">Submit answers</button></form>'
)


def test_forms_are_read_like_a_browser_submits_them():
    page = parse_page("http://testserver/s/demo/?PROLIFIC_PID=abc", 200, {}, CONSENT_PAGE)
    form = page.form_posting_to("/consent/")
    assert form is not None and form.method == "post"
    assert [b.label for b in form.buttons] == ["I agree", "I do not agree"]  # type=button is not a submit
    data = form.data(form.button("i agree"))
    assert data == [
        (CSRF_FIELD, "tok123"),
        ("PROLIFIC_PID", "abc"),
        ("adult", "yes"),
        ("lang", "de"),
        ("note", "hello"),
        ("choice", "agree"),
    ]
    assert form.data(form.button("I do not agree"), {"note": "changed"})[-2:] == [
        ("note", "changed"),
        ("choice", "decline"),
    ]
    assert "not text" not in page.text and "Please read this." in page.text
    assert seat_token(page) == "SeAtToKeN"
    assert chat_enabled(page)
    assert completion_code(page) == "C0DE42"


def test_survey_answers_stay_on_the_scale_and_follow_the_rng():
    page = parse_page("http://testserver/s/demo/p/tok/survey/", 200, {}, SURVEY_PAGE)
    groups = page.post_forms()[0].radio_groups()
    assert groups == {"engagement": list("12345"), "satisfaction": list("12345")}
    outcome = Outcome(number=1, prolific_pid="x", rounds=[RoundPlay(1, 0, "found", 20, 10, 2, 3, 1.0)])
    first = survey_choices(groups, outcome, random.Random(5))
    assert first == survey_choices(groups, outcome, random.Random(5))  # seeded: the same run answers the same
    assert all(v in "12345" for v in first.values())
    assert page_kind("/s/demo/p/tok/wait/3/") == ("wait", 3)
    assert page_kind("/s/demo/p/tok/round/2/") == ("round", 2)
    assert page_kind("/s/demo/p/tok/complete/") == ("complete", None)


@pytest.mark.django_db(transaction=True)
def test_post_carries_the_csrf_token_and_origin(live_server):
    """Against real Django CSRF protection: the admin login form, posted by the bot's client, is not refused."""
    client = BotClient(live_server.url)
    page = client.get("/admin/login/")
    assert page.status == 200 and client.cookie("csrftoken")
    form = page.form_posting_to("/admin/login/")
    answer = client.submit(page, form, choices={"username": "nobody", "password": "wrong"})
    assert answer.status == 200 and "correct username" in answer.text  # CSRF passed, the login failed
    # The same post without the cookie's token is refused, so the pass above is the client's doing.
    bare = BotClient(live_server.url)
    refused = bare.post("/admin/login/", [("username", "nobody"), ("password", "wrong")])
    assert refused.status == 403


def test_the_bot_decides_a_legal_move_from_observation_json():
    state = create_game("gnomes", {"round": 1}).new_initial_state(3)
    seat = state.current_seats()[0]
    payload = json.loads(
        json.dumps(
            {  # exactly what travels over HTTP
                "version": 4,
                "status": "active",
                "seat": seat,
                "observation": state.observation(seat).data,
                "legal_actions": [{"id": a.id, "label": a.label} for a in state.legal_actions(seat)],
            }
        )
    )
    view = turn_view(payload, seed=9)
    decision = SimulatedPartner().decide(view)
    assert decision.action_id in {a.id for a in view.legal_actions}
    ids_only = turn_view({**payload, "legal_actions": [a.id for a in view.legal_actions]}, seed=9)
    assert SimulatedPartner().decide(ids_only) == decision  # same view, same seed: same choice


def test_the_default_policy_plays_a_seeded_random_legal_action_of_any_game():
    state = create_game("santorini", {}).new_initial_state(5)
    seat = state.current_seats()[0]
    legal = [a.id for a in state.legal_actions(seat)]
    payload = {"version": 0, "status": "active", "seat": seat, "observation": state.observation(seat).data,
               "legal_actions": legal}
    decide = random_policy()
    choices = {decide(payload, seed).action_id for seed in range(40)}
    assert choices <= set(legal) and len(choices) > 1
    assert decide(payload, 7) == decide(payload, 7) and decide(payload, 7).message is None
    assert set(POLICIES) == {"random", "gnomes-partner"}
    gnomes = create_game("gnomes", {"round": 1}).new_initial_state(3)
    g_seat = gnomes.current_seats()[0]
    g_payload = {"version": 0, "status": "active", "seat": g_seat, "observation": gnomes.observation(g_seat).data,
                 "legal_actions": [a.id for a in gnomes.legal_actions(g_seat)]}
    assert POLICIES["gnomes-partner"]()(g_payload, 3).action_id in g_payload["legal_actions"]


def test_pushed_fragments_tell_their_version_so_stale_pushes_are_skipped():
    fragment = '<div id="board" hx-swap-oob="true" data-version="12"></div><div id="status" data-version="12">'
    assert pushed_version(fragment) == 12
    assert pushed_version(fragment.encode()) == 12
    assert pushed_version('<div id="flash" class="flash error">Nothing was changed.</div>') is None  # news
