"""Run the real ASGI app under daphne in a subprocess, for browser and multi-process tests.

Each server gets its own environment (DATABASE_URL, REDIS_URL, ...); several
servers can share one database and one Redis to act as a cluster.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def server_env(database_url: str, redis_url: str | None = None, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DATABASE_URL")}
    env.update(DJANGO_SETTINGS_MODULE="gameplay.project.settings", DATABASE_URL=database_url, DEBUG="1",
               LOG_LEVEL="WARNING")
    if redis_url:
        env["REDIS_URL"] = redis_url
    env.update(extra)
    return env


_SQLITE = "sqlite:///"
_template: Path | None = None


def migrate(env: dict[str, str]) -> None:
    """Bring the server's database to the current schema. A SQLite file is a copy of one database this process
    migrated once (migrating takes a manage.py process and seconds; a copy takes milliseconds); any other database
    is migrated in place."""
    url = env.get("DATABASE_URL", "")
    if url.startswith(_SQLITE) and url != f"{_SQLITE}:memory:":
        shutil.copyfile(_migrated_sqlite(env), url[len(_SQLITE):])
        return
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)


def _migrated_sqlite(env: dict[str, str]) -> Path:
    global _template
    if _template is None or not _template.exists():
        template = Path(tempfile.mkdtemp(prefix="migrated-template-")) / "db.sqlite3"
        subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT,
                       env={**env, "DATABASE_URL": f"{_SQLITE}{template}"}, check=True)
        _template = template
    return _template


@contextmanager
def daphne_server(env: dict[str, str], port: int | None = None, log_path: Path | None = None):
    """Start daphne on 127.0.0.1:port; yield the base URL; stop it afterwards."""
    port = port or free_port()
    log = open(log_path, "wb") if log_path else subprocess.DEVNULL  # noqa: SIM115  (closed in finally)
    proc = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "gameplay.project.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"daphne exited early with code {proc.returncode}")
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError("daphne did not start within 30 s") from None
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        if log_path:
            log.close()
