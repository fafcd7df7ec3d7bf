"""Production settings (issue 13, point 9): DEBUG off unless set, a real key, HTTPS hardening, CSP, origin check.

Settings are read once per process, so what depends on the environment runs in a subprocess; the CSP header
and the websocket origin check are tested in-process with overridden settings.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import subprocess
import sys

import pytest
from channels.testing import WebsocketCommunicator

from gameplay.project.asgi import application
from gameplay.project.security import origin_allowed
from tests.support.live_server import ROOT

PRODUCTION = {"DEBUG": "0", "ALLOWED_HOSTS": "play.example.org"}
SHOW_SETTINGS = (
    "import json, django; django.setup(); from django.conf import settings as s; print(json.dumps({n: getattr(s, n,"
    " None) for n in ['DEBUG', 'SECURE_SSL_REDIRECT', 'SECURE_HSTS_SECONDS', 'SESSION_COOKIE_SECURE',"
    " 'CSRF_COOKIE_SECURE', 'SECURE_CONTENT_TYPE_NOSNIFF', 'SECURE_PROXY_SSL_HEADER', 'CONTENT_SECURITY_POLICY']}))"
)


def run(args: list[str], **env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "SECRET_KEY", "ALLOWED_HOSTS")}
    clean.update(DJANGO_SETTINGS_MODULE="gameplay.project.settings", **env)
    return subprocess.run([sys.executable, *args], cwd=ROOT, env=clean, capture_output=True, text=True, timeout=120)


def strong_key() -> str:
    return secrets.token_urlsafe(50)


def test_check_deploy_is_clean_with_the_readme_production_settings():
    result = run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], SECRET_KEY=strong_key(), **PRODUCTION)
    assert result.returncode == 0, result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout
    assert "WARNINGS" not in result.stderr


@pytest.mark.parametrize("key", ["change-me", "x" * 60, "short-but-random-3kQz9", ""])
def test_an_example_short_or_missing_key_is_refused_when_debug_is_off(key):
    result = run(["manage.py", "check"], SECRET_KEY=key, **PRODUCTION)
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr and "SECRET_KEY" in result.stderr


def test_debug_is_off_unless_set_outside_manage_py_and_the_hardening_is_on():
    result = run(["-c", SHOW_SETTINGS], SECRET_KEY=strong_key(), ALLOWED_HOSTS="play.example.org")
    assert result.returncode == 0, result.stderr
    shown = json.loads(result.stdout)
    assert shown["DEBUG"] is False
    assert shown["SECURE_SSL_REDIRECT"] and shown["SESSION_COOKIE_SECURE"] and shown["CSRF_COOKIE_SECURE"]
    assert shown["SECURE_HSTS_SECONDS"] >= 31536000 and shown["SECURE_CONTENT_TYPE_NOSNIFF"]
    assert shown["SECURE_PROXY_SSL_HEADER"] is None


def test_each_hardening_setting_can_be_set_by_the_environment():
    result = run(
        ["-c", SHOW_SETTINGS],
        SECRET_KEY=strong_key(),
        DEBUG="0",
        SECURE_SSL_REDIRECT="0",
        SECURE_HSTS_SECONDS="60",
        SESSION_COOKIE_SECURE="0",
        SECURE_PROXY_SSL_HEADER="HTTP_X_FORWARDED_PROTO,https",
        CONTENT_SECURITY_POLICY="default-src 'none'",
    )
    assert result.returncode == 0, result.stderr
    shown = json.loads(result.stdout)
    assert (shown["SECURE_SSL_REDIRECT"], shown["SECURE_HSTS_SECONDS"], shown["SESSION_COOKIE_SECURE"]) == (
        False,
        60,
        False,
    )
    assert shown["SECURE_PROXY_SSL_HEADER"] == ["HTTP_X_FORWARDED_PROTO", "https"]
    assert shown["CONTENT_SECURITY_POLICY"] == "default-src 'none'"


def test_runserver_keeps_debug_on_for_readme_command_1():
    code = "import sys; sys.argv = ['manage.py', 'runserver']; " + SHOW_SETTINGS
    result = run(["-c", code])
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["DEBUG"] is True


# --- Content-Security-Policy -------------------------------------------------------------------------------

TEMPLATES = ROOT / "templates"


@pytest.mark.django_db
def test_every_page_carries_the_content_security_policy(client, settings):
    response = client.get("/")
    policy = response["Content-Security-Policy"]
    assert policy == settings.CONTENT_SECURITY_POLICY
    assert "default-src 'self'" in policy and "object-src 'none'" in policy and "frame-ancestors 'none'" in policy
    assert "script-src 'self'" in policy and "'unsafe-inline'" not in policy.split("script-src")[1].split(";")[0]


def test_scripts_come_from_static_files_only_and_no_template_needs_eval(settings):
    """No 'unsafe-eval', 'unsafe-inline' or hashes for scripts, so nothing in a template may run code inline: no
    on* handler, no inline <script>, no hx-on, no hx-trigger filter ``[...]``, no ``js:`` values (htmx would need
    eval for those; its allowEval is off in both base templates)."""
    script_src = settings.CONTENT_SECURITY_POLICY.split("script-src")[1].split(";")[0].split()
    assert script_src == ["'self'"]
    for path in TEMPLATES.rglob("*.html"):
        text = path.read_text()
        assert not re.search(r"\son[a-z]+=", text), f"inline event handler in {path}"
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", text), f"inline <script> in {path}"
        assert "hx-on" not in text, f"hx-on in {path}"
        assert not re.search(r'hx-trigger="[^"]*\[', text), f"hx-trigger filter in {path}"
        assert not re.search(r"hx-(vals|vars)=['\"]\s*(js|javascript):", text), f"js: values in {path}"
    for base in ("base.html", "studies/base.html"):
        assert """<meta name="htmx-config" content='{"allowEval": false}'>""" in (TEMPLATES / base).read_text()


# --- websocket origin check ----------------------------------------------------------------------------------


def scope(origin: str | None, host: str | None = "play.example.org", scheme: str = "wss", **headers: str) -> dict:
    pairs = [(k.replace("_", "-").encode(), v.encode()) for k, v in headers.items()]
    if origin is not None:
        pairs.append((b"origin", origin.encode()))
    if host is not None:
        pairs.append((b"host", host.encode()))
    return {"type": "websocket", "scheme": scheme, "headers": pairs}


@pytest.fixture
def production(settings):
    settings.ALLOWED_HOSTS = ["play.example.org"]
    settings.CSRF_TRUSTED_ORIGINS = ["https://lab.example.net:8443", "https://*.example.com"]
    settings.SECURE_SSL_REDIRECT = True
    return settings


@pytest.mark.parametrize(
    "origin",
    [
        "https://play.example.org",
        "https://play.example.org:443",
        "https://lab.example.net:8443",  # trusted, with its port
        "https://games.example.com",  # a trusted wildcard
    ],
)
def test_origins_of_this_site_are_accepted(production, origin):
    assert origin_allowed(scope(origin))


@pytest.mark.parametrize(
    "origin",
    [
        "http://play.example.org",  # plain HTTP of an HTTPS site
        "https://play.example.org:8443",  # another port of the same host
        "https://lab.example.net",  # trusted only on :8443
        "http://lab.example.net:8443",  # trusted only over HTTPS
        "https://evil.example.org",
        "https://play.example.org.evil.net",
        "null",
        "https://play.example.org/path",
        "https://play.example.org:99999",
    ],
)
def test_other_schemes_ports_and_hosts_are_refused(production, origin):
    assert not origin_allowed(scope(origin))


def test_a_missing_origin_is_refused(production):
    assert not origin_allowed(scope(None))


def test_a_page_on_a_development_port_is_accepted_only_from_its_own_origin(settings):
    settings.ALLOWED_HOSTS = ["localhost"]
    settings.SECURE_SSL_REDIRECT = False
    assert origin_allowed(scope("http://localhost:8000", host="localhost:8000", scheme="ws"))
    assert not origin_allowed(scope("http://localhost:8001", host="localhost:8000", scheme="ws"))
    assert not origin_allowed(scope("https://localhost:8000", host="localhost:8000", scheme="ws"))


def test_a_tls_terminating_proxy_header_sets_the_sockets_scheme(settings):
    settings.ALLOWED_HOSTS = ["play.example.org"]
    settings.SECURE_SSL_REDIRECT = False
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    own = {"host": "play.example.org:8443", "scheme": "ws"}
    assert origin_allowed(scope("https://play.example.org:8443", **own, x_forwarded_proto="https"))
    assert not origin_allowed(scope("https://play.example.org:8443", **own, x_forwarded_proto="http"))


# The denier closes old database connections as every consumer does, so the test may touch the database.
@pytest.mark.django_db(transaction=True)
async def test_the_asgi_application_refuses_another_port(settings):
    settings.ALLOWED_HOSTS = ["localhost"]
    settings.SECURE_SSL_REDIRECT = False
    headers = [(b"origin", b"http://localhost:8001"), (b"host", b"localhost:8000")]
    comm = WebsocketCommunicator(application, "/ws/play/no-such-token/", headers=headers)
    connected, _ = await comm.connect()
    assert not connected
    await comm.disconnect()
