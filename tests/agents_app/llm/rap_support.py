"""A scripted stand-in model for RAP agents (tests/agents_app/llm/test_rap.py and the tests of RAP seats in matches): it
answers each kind of RAP question from its prompt, with log-probabilities, and counts the questions."""

from __future__ import annotations

from collections import Counter

from tests.agents_app.llm import last_user_text
from tests.support.openai_server import ScriptedReply, TokenLogprob


def answer(token: str, *alternatives: tuple[str, float]) -> ScriptedReply:
    chosen = dict(alternatives).get(token, -0.1)
    return ScriptedReply.text(token, logprobs=[TokenLogprob(token, chosen, top_logprobs=alternatives)])


class ScriptedWorld:
    """A stand-in model for RAP: answers each kind of question from its prompt and counts them."""

    def __init__(self, *, predicted_actions=("Open another door", "Stay"), logprobs=True):
        self.predicted_actions = predicted_actions
        self.logprobs = logprobs
        self.asked = Counter()

    def __call__(self, body: dict) -> ScriptedReply:
        prompt = last_user_text(body)
        if not self.logprobs:
            return ScriptedReply.text("2", logprobs=[])  # what an endpoint without logprobs amounts to
        if "Choose an action by writing only the associated number" in prompt:
            self.asked["choose"] += 1
            return answer("2", ("2", -0.2), ("1", -1.9), (" 3", -3.0))
        if "Is this a good action?" in prompt:
            self.asked["evaluate"] += 1
            return answer("Yes", ("Yes", -0.1), ("No", -2.4))
        if " predict " in prompt.lower():
            self.asked["predict"] += 1
            actions = "\n".join(f"{n}. {a}" for n, a in enumerate(self.predicted_actions, 1))
            others, state = "<others>The host opens a door.</others>", "<state>One door is open.</state>"
            return ScriptedReply.text(f"{others}\n{state}\n<actions>\n{actions}\n</actions>")
        if "Will you eventually win" in prompt:
            self.asked["win"] += 1
            return answer("Yes", ("Yes", -0.7), ("No", -0.7))
        if "open-ended action" in prompt:
            self.asked["options"] += 1
            return ScriptedReply.text("1. river,2\n2. stone,1\n3. far too long to be a clue at all")
        return ScriptedReply.error(400, f"unexpected prompt: {prompt[:80]}")
