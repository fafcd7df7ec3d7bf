"""A scripted model that answers everything a benchmark protocol's language-model agents ask, for runs of whole
protocols without a real model: the capability probes, RAP's questions (with token log-probabilities, as RAP needs)
and the moves of every game (``TableModel``, which plays from the prompt alone).

In a test: ``scripted_openai_server(BenchmarkModel())``. As a process, for running a protocol by hand:

    .venv/bin/python -m tests.support.benchmark_model      # prints the base URL, serves until stopped
    GAMEBENCH_BASE_URL=<that URL> .venv/bin/python manage.py run_protocol fixtures/protocols/gamebench.json
"""

from __future__ import annotations

import os
import sys
import threading

from tests.support.openai_server import ScriptedReply, TokenLogprob


def _answer(token: str, *alternatives: tuple[str, float]) -> ScriptedReply:
    chosen = TokenLogprob(token, dict(alternatives)[token], top_logprobs=alternatives)
    return ScriptedReply.text(token, logprobs=[chosen])


class BenchmarkModel:
    def __init__(self):
        from tests.agents_app.table_model import TableModel  # late: it needs Django's models loaded

        self.table = TableModel(other=self._other)
        self.lock = threading.Lock()
        self.requests = 0

    def __call__(self, body: dict) -> ScriptedReply:
        with self.lock:
            self.requests += 1
        prompt = _last_user_text(body)
        if "Choose an action by writing only the associated number" in prompt:  # RAP: the options to explore
            return _answer("1", ("1", -0.3), ("2", -1.5), ("3", -2.5))
        if "Is this a good action?" in prompt:
            return _answer("Yes", ("Yes", -0.2), ("No", -1.8))
        if "Will you eventually win" in prompt:
            return _answer("Yes", ("Yes", -0.7), ("No", -0.7))
        if " predict " in prompt.lower():  # RAP's world model: the state after an action, as it would be shown
            return ScriptedReply.text("<others>The others move.</others>\n<state>Much as before.</state>\n"
                                      "<actions>\n1. Go on\n</actions>")
        if "open-ended action" in prompt:
            return ScriptedReply.text("1. quasar,1\n2. zephyr,1")
        return self.table(body)

    def _other(self, body: dict) -> ScriptedReply:
        """Whatever is not a move: the probes' questions and anything else answered in JSON."""
        prompt = _last_user_text(body)
        if body.get("logprobs"):
            return _answer("yes", ("yes", -0.1), ("no", -2.4))
        if '{"pick": "gamma"}' in prompt:  # the schema probe: an id outside the schema is asked for
            return ScriptedReply.text({"pick": "alpha"})
        if '{"ok": true}' in prompt:
            return ScriptedReply.text({"ok": True})
        return ScriptedReply.text({"explain": "nothing to choose"})


def _last_user_text(body: dict) -> str:
    content = body["messages"][-1].get("content") or ""
    if isinstance(content, list):
        return "\n".join(part.get("text", "") for part in content if part.get("type") == "text")
    return content


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gameplay.project.settings")
    os.environ.setdefault("DEBUG", "1")  # a development tool: no production secret needed
    import django

    django.setup()
    from tests.support.openai_server import ScriptedOpenAIServer

    server = ScriptedOpenAIServer(BenchmarkModel()).start()
    print(server.base_url, flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        server.stop()
        sys.exit(0)


if __name__ == "__main__":
    main()
