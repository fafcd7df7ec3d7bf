"""An LLM player talks in Gnomes at Night (issue 22): a person starts a match against an LLM configuration
(answered by a scripted OpenAI-compatible server), asks it a question on their own turn and gets its answer, then
makes a move, and the model's line sent with its move arrives too: both over the match websocket, without a
reload.

The site runs in its own daphne process on its own database, so the configuration is created there with
manage.py, as an admin would create it in the admin."""

from __future__ import annotations

import subprocess
import sys

from tests.agents_app.llm_match_support import first_listed_action
from tests.browser.conftest import ARTIFACTS
from tests.browser.new_match import start_against_agent
from tests.support.live_server import ROOT, daphne_server, migrate, server_env
from tests.support.openai_server import ScriptedReply, scripted_openai_server

LINE = "I can move right from here. Where is the treasure on your side?"
QUESTION = "Can you see the treasure?"
ANSWER = "Not yet; I see a wall to my left, so try going up."


def talking_model(body) -> ScriptedReply:
    """Moves with a line; asked to answer the chat between its moves (no action list shown), answers."""
    if "Available actions" not in "\n".join(str(m.get("content")) for m in body["messages"]):
        return ScriptedReply.text({"message": ANSWER})
    return ScriptedReply.text({**first_listed_action(body).content, "message": LINE})


def test_an_llm_partners_chat_line_reaches_the_persons_page_live(chromium, tmp_path):
    env = server_env(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    migrate(env)
    ARTIFACTS.mkdir(exist_ok=True)
    with scripted_openai_server(talking_model) as model:
        create = (
            "from agents_app.models import AgentConfig; "
            f"AgentConfig.objects.create(name='talker', base_url={model.base_url!r}, model='scripted-model', "
            "api_key_env='', retries=1, http_retries=0, timeout_s=10)"
        )
        made = subprocess.run([sys.executable, "manage.py", "shell", "-c", create], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=120)
        assert made.returncode == 0, made.stderr
        with daphne_server(env, log_path=ARTIFACTS / "llm-talks-daphne.log") as url:
            context = chromium.new_context()
            page = context.new_page()
            try:
                start_against_agent(page, url, "Gnomes at Night", "Gnome B", "talker", "#board svg.maze")
                assert LINE not in page.locator("#chat-log").inner_text()
                # Asked on the person's own turn, the model answers between its moves, live.
                page.get_by_label("Message").fill(QUESTION)
                page.get_by_label("Message").press("Enter")
                page.wait_for_selector(f"#chat-log >> text={ANSWER}", timeout=20_000)
                page.locator('#board button[data-action-id="stay"]').click()  # Gnome A moves first
                # The model moves and talks; the line is pushed to this page (no reload happens here).
                page.wait_for_selector(f"#chat-log >> text={LINE}", timeout=20_000)
                assert QUESTION in model.requests[0].prompt_text  # the answer was written to the question
                assert '"message"' in model.requests[-1].messages[0]["content"]
            except Exception:
                page.screenshot(path=str(ARTIFACTS / "llm-talks-failure.png"), full_page=True)
                raise
            finally:
                context.close()
