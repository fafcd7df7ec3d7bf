"""A daphne subprocess serving this project against the database the current settings use.

The bots need the real ASGI stack (HTTP and websockets), so without --url run_study_bots starts one here.
The server must see the same data as the command (the study, and afterwards the exports), so it gets the
same settings module and database; an in-memory SQLite database cannot be shared between processes.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings

STARTUP_S = 30.0


class ServerError(Exception):
    pass


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def database_env() -> dict[str, str]:
    """The environment that points a child process at this process's database."""
    db = settings.DATABASES["default"]
    if db["ENGINE"] != "django.db.backends.sqlite3":
        # Other engines come from DATABASE_URL (gameplay.project.settings); the child inherits it unchanged.
        return {}
    name = str(db["NAME"])
    if not name or name == ":memory:" or name.startswith("file:") or "mode=memory" in name:
        raise ServerError(
            f"the SQLite database {name!r} is not a plain file another process can open; "
            "use a SQLite file (DATABASE_URL=sqlite:////path/db.sqlite3) or pass --url"
        )
    return {"DATABASE_URL": f"sqlite:///{Path(name).resolve()}"}


def server_env() -> dict[str, str]:
    env = dict(os.environ)
    env.update(database_env())
    env["DJANGO_SETTINGS_MODULE"] = settings.SETTINGS_MODULE or env.get("DJANGO_SETTINGS_MODULE", "")
    env.setdefault("LOG_LEVEL", "WARNING")
    # The server runs as this command does: a command run from a checkout is in development (DEBUG on, no real
    # SECRET_KEY needed), which a daphne process would not assume by itself (gameplay.project.settings), so
    # `run_study_bots` as the READMEs write it would stop with "SECRET_KEY must be set when DEBUG is off".
    env.setdefault("DEBUG", "1" if settings.DEBUG else "0")
    # Every bot consents and opens its sockets from 127.0.0.1: the per-address limits on consents and socket openings
    # (meant for floods) must not turn a run's own participants away.
    env.setdefault("ENROLMENTS_PER_MINUTE_PER_CLIENT", "1000000")
    env.setdefault("SOCKETS_OPENED_PER_MINUTE_PER_CLIENT", "1000000")
    hosts = env.get("ALLOWED_HOSTS")
    if hosts and "127.0.0.1" not in [h.strip() for h in hosts.split(",")]:
        # The bots reach this server at 127.0.0.1; the websocket origin check and Host validation need it.
        env["ALLOWED_HOSTS"] = f"{hosts},127.0.0.1"
    return env


@contextmanager
def daphne_server(port: int | None = None):
    """Start daphne on 127.0.0.1:port; yield its base URL; stop it (and show its log if it died)."""
    port = port or free_port()
    root = Path(settings.BASE_DIR)
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "gameplay.project.asgi:application"],
            cwd=root,
            env=server_env(),
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            _wait_until_listening(proc, port, log)
            yield f"http://127.0.0.1:{port}"
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def _wait_until_listening(proc: subprocess.Popen, port: int, log) -> None:
    deadline = time.monotonic() + STARTUP_S
    while True:
        if proc.poll() is not None:
            log.seek(0)
            tail = log.read()[-2000:].decode(errors="replace")
            raise ServerError(f"daphne exited early with code {proc.returncode}:\n{tail}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            if time.monotonic() > deadline:
                raise ServerError(f"daphne did not listen on port {port} within {STARTUP_S:.0f} s") from None
            time.sleep(0.1)
