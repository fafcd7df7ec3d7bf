"""A person trades fruit with the solver-guided agent (issue 19): on the new-match page they give Player 2 to the
guided agent configuration (answered by a scripted OpenAI-compatible server), build an offer (1 banana for 2 kiwis)
with a message, the agent accepts it with a message of its own, and the person sees the trade and their payoff
(+1 in the fixed scenario), live over the match websocket. The instruction the agent chose stays private: it is
recorded with the agent's move, never shown on the person's page.

The site runs in its own daphne process on its own database, so the agent configurations are loaded there with
manage.py (the study preset's fixture), as a researcher would."""

from __future__ import annotations

import re
import subprocess
import sys

from tests.browser.conftest import ARTIFACTS
from tests.browser.santorini_player import wait_until_live
from tests.support.live_server import ROOT, daphne_server, migrate, server_env
from tests.support.openai_server import ScriptedReply, scripted_openai_server

AGENT_LINE = "You have a deal: two kiwis for your banana."


def accepting_model(body) -> ScriptedReply:
    """Accepts the standing offer whenever accepting is a legal move, else talks."""
    prompt = body["messages"][-1]["content"]
    move = "accept" if "\n- accept: " in prompt else "talk"
    return ScriptedReply.text({"move": move, "message": AGENT_LINE if move == "accept" else "Make me an offer."})


def manage(env, *args: str) -> None:
    done = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_person_trades_fruit_with_the_guided_agent_and_sees_their_payoff(chromium, tmp_path):
    env = server_env(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    migrate(env)
    ARTIFACTS.mkdir(exist_ok=True)
    manage(env, "loaddata", "fixtures/studies/fruit_guided_agents.json")
    with scripted_openai_server(accepting_model) as model:
        manage(env, "shell", "-c", "from agents_app.models import AgentConfig; "
               f"AgentConfig.objects.filter(name__startswith='fruit-').update(base_url={model.base_url!r})")
        with daphne_server(env, log_path=ARTIFACTS / "fruit-guided-daphne.log") as url:
            context = chromium.new_context()
            page = context.new_page()
            page.set_default_timeout(20_000)
            try:
                page.goto(url + "/")
                page.get_by_role("link", name="New Fruit Trading match").click()
                seat = page.get_by_label("Player 2", exact=True)
                offered = seat.locator("option").evaluate_all("options => options.map(o => o.value)")
                assert {"agent:fruit-guided", "agent:fruit-unguided"} <= set(offered)  # both selectable
                seat.select_option("agent:fruit-guided")
                page.get_by_role("button", name="Start match").click()
                page.wait_for_url(re.compile(r"/play/[\w-]+/$"))
                page.wait_for_selector("form.fruit-builder")
                wait_until_live(page)  # the socket's first frame redraws the form: type after it, not before

                page.get_by_label("Give bananas").fill("1")
                page.get_by_label("Get kiwis").fill("2")
                page.locator("form.fruit-builder").get_by_label("Message", exact=True).fill(
                    "One banana for two kiwis?")
                page.get_by_role("button", name="Propose").click()

                # The agent's acceptance is pushed to the page: the trade and the person's payoff.
                page.wait_for_selector(".fruit-result")
                result = page.locator(".fruit-result").inner_text()
                assert "Player 1: +1 points" in result and "Player 2: +3 points" in result
                assert AGENT_LINE in page.locator(".fruit-thread").inner_text()
                page.screenshot(path=str(ARTIFACTS / "fruit-guided-result.png"), full_page=True)
                assert "instruction:" not in page.content()  # the agent's instruction is its own

                prompt = model.requests[0].body["messages"][-1]["content"]
                assert re.search(r"Instruction for your message: Write your message in a (calm|assertive|submissive) "
                                 r"tone\.", prompt), prompt
                assert "One banana for two kiwis?" in prompt
            except Exception:
                page.screenshot(path=str(ARTIFACTS / "fruit-guided-failure.png"), full_page=True)
                raise
            finally:
                context.close()
