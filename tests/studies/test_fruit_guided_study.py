"""The fruit-guided-vs-unguided study preset, run as a researcher would: load it (refused until its two agent
configurations exist), serve it with daphne, drive study bots through it against a scripted OpenAI-compatible model,
export, and check that the bundle holds the ANOVA and Tukey tables over the two conditions, and that each agent's
moves carried its steering (the guided agent's policy instructions, the control's "any")."""

from __future__ import annotations

import json
import random
import re
import threading

import pytest

from tests.studies.study_bots_support import load_preset_with_its_llm, manage, read_csv
from tests.support.live_server import daphne_server, migrate, server_env
from tests.support.openai_server import ScriptedReply, scripted_openai_server

PRESET = "fixtures/studies/fruit_guided_vs_unguided.json"
FIXTURE = "fixtures/studies/fruit_guided_agents.json"
SLUG = "fruit-guided-vs-unguided"
CONDITIONS = ("guided", "unguided")
PARTICIPANTS = 8
_MOVES = re.compile(r"Your legal moves \(id: meaning\):\n((?:- .+\n?)+)")
_INSTRUCTION = re.compile(r"Instruction for your message: (.+)")


class ScriptedFruitModel:
    """Reads the dialogue turn prompt as a model would: accepts a standing offer half the time, else proposes a
    seeded random swap or talks; its message repeats the instruction it was given (so the test can see it)."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self.lock = threading.Lock()
        self.instructions: list[str] = []

    def __call__(self, body) -> ScriptedReply:
        text = "\n".join(str(m.get("content") or "") for m in body.get("messages", []))
        listed = _MOVES.findall(text)
        ids = [line[2:].split(": ", 1)[0] for line in listed[-1].splitlines()] if listed else ["talk"]
        instruction = (_INSTRUCTION.findall(text) or ["?"])[-1]
        with self.lock:
            self.instructions.append(instruction)
            if "accept" in ids and self.rng.random() < 0.5:
                move = "accept"
            else:
                move = self.rng.choice([i for i in ids if i != "walk_away"] or ids)
        return ScriptedReply.text({"move": move, "message": f"Here is my move. {instruction}"[:250]})


@pytest.mark.slow
def test_bots_run_the_fruit_guided_preset_and_its_export_holds_anova_and_tukey(tmp_path):
    env = server_env(f"sqlite:///{tmp_path / 'study.sqlite3'}")
    migrate(env)
    load_preset_with_its_llm(env, PRESET, FIXTURE, "fruit-guided")
    model = ScriptedFruitModel(seed=5)
    with scripted_openai_server(model) as server:
        pointed = manage(env, "shell", "-c", (
            "from agents_app.models import AgentConfig; "
            f"AgentConfig.objects.filter(name__startswith='fruit-').update(base_url='{server.base_url}')"
        ))
        assert pointed.returncode == 0, pointed.stderr
        with daphne_server(env, log_path=tmp_path / "daphne.log") as url:
            bots = manage(env, "run_study_bots", SLUG, "--participants", str(PARTICIPANTS), "--seed", "3",
                          "--url", url, "--concurrency", "4", timeout=900)
        print(bots.stdout[-2000:])
        assert bots.returncode == 0, bots.stdout[-5000:] + bots.stderr
    assert server.requests, "the agents never asked the model"
    tones = {"Write your message in a calm tone.", "Write your message in a assertive tone.",
             "Write your message in a submissive tone."}
    assert set(model.instructions) & tones, "the guided agent never steered by its policy"
    assert "Write your message as you think best." in model.instructions  # the control

    out = tmp_path / "export"
    exported = manage(env, "export_study", SLUG, "--out", str(out))
    assert exported.returncode == 0, exported.stdout + exported.stderr
    for name in ("rounds.csv", "survey.csv", "participants.csv", "anova.csv", "tukey.csv", "kruskal.csv"):
        assert (out / name).is_file(), name
    participants = read_csv(out / "participants.csv")
    assert len(participants) == PARTICIPANTS and all(p["completed_at"] for p in participants)
    assert {p["condition"] for p in participants} == set(CONDITIONS)

    rounds = read_csv(out / "rounds.csv")
    assert {r["condition"] for r in rounds} == set(CONDITIONS) and "m_payoff" in rounds[0]
    notes = {c: " ".join(r["agent_notes"] for r in rounds if r["condition"] == c) for c in CONDITIONS}
    assert "fruit-guided: instruction: " in notes["guided"] and "(policy: turn)" in notes["guided"]
    assert "fruit-unguided: instruction: any (control)" in notes["unguided"]

    anova = read_csv(out / "anova.csv")
    compared = [set(r["groups_compared"].split(";")) for r in anova]
    assert set(CONDITIONS) in compared, compared
    assert {r["measure"] for r in anova} >= {"m_payoff", "time_to_complete_s"}
    for row in anova:
        assert row["note"] if row["p"] == "" else 0.0 <= float(row["p"]) <= 1.0, row
    tukey = read_csv(out / "tukey.csv")
    assert {frozenset((r["group_a"], r["group_b"])) for r in tukey} == {frozenset(CONDITIONS)}
    kruskal = {r["measure"] for r in read_csv(out / "kruskal.csv")}
    assert {"fair", "persuasive", "trade_again", "human_like"} <= kruskal, kruskal
    json.dumps(anova)  # the rows are plain data
