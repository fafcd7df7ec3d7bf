"""spy_metrics over Who is Spy matches played by LLM agents through the match service (scripted model): Win, Round
(seed 002's: rounds played, the round of going out included), Voted and Completed (rounds finished still in) per agent
and role, from the engine's measures; --agent keeps the matches where that agent is the spy; --csv writes a file
pandas reads."""

from __future__ import annotations

import io

import pandas
import pytest
from django.core.management import call_command

from gameplay.models import Match
from gameplay.reads.selectors import state_of
from tests.agents_app.llm_match_support import eager_celery, llm_config  # noqa: F401  (eager_celery is a fixture)
from tests.agents_app.table_model import TableModel, play_spy_match
from tests.support.openai_server import scripted_openai_server

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_celery")]


def expected(matches, agent_of_seat):
    """(agent, role) -> (games, win, round, voted, completed), computed here from each final state: Round is the
    rounds a seat took part in (the one it went out in included), Completed the rounds it finished still in."""
    found = {}
    for match in matches:
        state = state_of(match)
        for seat in range(state.game.num_seats):
            m = state.measures(seat)
            key = (agent_of_seat(match, seat), "spy" if m["is_spy"] else "villager")
            # From the state itself, not from the measure the command reads.
            played = state.out_round[seat] if state.out_round[seat] is not None else len(state.rounds)
            found.setdefault(key, []).append((m["won"], played, m["votes_received"] / max(1, played),
                                              m["rounds_survived"]))
    return {k: (len(v), *(sum(x[i] for x in v) / len(v) for i in range(4))) for k, v in found.items()}


def test_spy_metrics_per_agent_and_role_and_the_guest_setting(tmp_path):
    with scripted_openai_server(TableModel()) as server:
        llm_config("guest-llm", server.base_url, retries=2, http_retries=0)
        llm_config("host-llm", server.base_url, retries=2, http_retries=0)
        guest_spy = [play_spy_match(seed, "guest-llm", "host-llm") for seed in (1, 2)]
        host_spy = [play_spy_match(3, "host-llm", "guest-llm")]
    matches = guest_spy + host_spy
    assert all(m.status == Match.Status.FINISHED for m in matches)

    def agent_of_seat(match, seat):
        return match.seats.get(index=seat).agent_name

    out = io.StringIO()
    path = tmp_path / "metrics.csv"
    call_command("spy_metrics", csv=str(path), stdout=out)
    text = out.getvalue()
    assert "3 finished match(es)" in text
    assert "Agent" in text and "Win" in text and "Round" in text and "Voted" in text and "Completed" in text
    frame = pandas.read_csv(path)
    assert list(frame.columns) == ["agent", "role", "games", "win", "round", "voted", "rounds_completed"]
    want = expected(matches, agent_of_seat)
    assert {(a, r) for a, r in zip(frame.agent, frame.role, strict=True)} == set(want) == {
        ("guest-llm", "spy"), ("guest-llm", "villager"), ("host-llm", "spy"), ("host-llm", "villager")}
    for row in frame.itertuples():
        games, win, rounds, voted, completed = want[(row.agent, row.role)]
        assert row.games == games
        assert row.win == pytest.approx(win, abs=1e-3)
        assert row.round == pytest.approx(rounds, abs=1e-3)
        assert row.voted == pytest.approx(voted, abs=1e-3)
        assert row.rounds_completed == pytest.approx(completed, abs=1e-3)
        line = next(line for line in text.splitlines() if line.startswith(row.agent) and f" {row.role} " in line)
        assert f"{win:.2f}" in line and f"{rounds:.2f}" in line and f"{voted:.2f}" in line
        assert f"{completed:.2f}" in line
    assert frame[(frame.agent == "guest-llm") & (frame.role == "spy")].games.item() == 2

    # The seed's guest setting: only matches where the guest is the spy; the hosts are the villagers there.
    out = io.StringIO()
    guest_path = tmp_path / "guest.csv"
    call_command("spy_metrics", agent="guest-llm", csv=str(guest_path), stdout=out)
    assert "2 finished match(es) where guest-llm is a spy" in out.getvalue()
    guest = pandas.read_csv(guest_path)
    assert {(a, r) for a, r in zip(guest.agent, guest.role, strict=True)} == {("guest-llm", "spy"),
                                                                              ("host-llm", "villager")}
    want = expected(guest_spy, agent_of_seat)
    spy_row = guest[guest.role == "spy"].iloc[0]
    assert spy_row.games == 2 and spy_row.win == pytest.approx(want[("guest-llm", "spy")][1], abs=1e-3)
    assert guest[guest.role == "villager"].games.item() == 6


def test_spy_metrics_without_matches_says_so(tmp_path):
    out = io.StringIO()
    path = tmp_path / "empty.csv"
    call_command("spy_metrics", agent="nobody", csv=str(path), stdout=out)
    assert "No finished who_is_spy matches where nobody is a spy." in out.getvalue()
    assert list(pandas.read_csv(path).columns) == ["agent", "role", "games", "win", "round", "voted",
                                                   "rounds_completed"]
