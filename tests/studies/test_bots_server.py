"""The daphne server run_study_bots starts by itself (gameplay.studies.bots.server) runs as the command does."""

from __future__ import annotations

from gameplay.studies.bots.server import server_env


def test_a_command_in_development_starts_a_server_in_development(settings, monkeypatch):
    """Issue 38, point 3: a daphne process assumes production (DEBUG off, a real SECRET_KEY required) unless told;
    the server of a command run from a checkout must be told, or it stops at once with "SECRET_KEY must be set"."""
    monkeypatch.delenv("DEBUG", raising=False)
    settings.DEBUG = True
    assert server_env()["DEBUG"] == "1"
    settings.DEBUG = False
    assert server_env()["DEBUG"] == "0"
    monkeypatch.setenv("DEBUG", "0")  # what the operator set stays
    settings.DEBUG = True
    assert server_env()["DEBUG"] == "0"


def test_the_bots_own_server_lets_every_bot_in_from_one_address(monkeypatch):
    for name in ("ENROLMENTS_PER_MINUTE_PER_CLIENT", "SOCKETS_OPENED_PER_MINUTE_PER_CLIENT"):
        monkeypatch.delenv(name, raising=False)
    env = server_env()
    assert int(env["ENROLMENTS_PER_MINUTE_PER_CLIENT"]) >= 1000
    assert int(env["SOCKETS_OPENED_PER_MINUTE_PER_CLIENT"]) >= 1000
