"""Project settings, all environment-driven.

DATABASE_URL  default: SQLite file db.sqlite3 next to manage.py
REDIS_URL     unset: in-memory channel layer, eager Celery, per-process cache;
              set: channels_redis, Celery broker, Redis cache
SECRET_KEY, DEBUG, ALLOWED_HOSTS, CSRF_TRUSTED_ORIGINS as usual; DEBUG is off unless set, except for manage.py
    commands and the test runner (see _development_default); with DEBUG off the key must be a real one.
SECURE_*, SESSION_COOKIE_SECURE, CSRF_COOKIE_SECURE, CONTENT_SECURITY_POLICY  HTTPS hardening (see below)
LLM_KEY_ENV_PATTERN, LLM_KEY_ENV_DENYLIST  which variables may hold an LLM agent's key
RATING_BOOTSTRAP, RATING_SEED, RATING_TIES, RATING_REFRESH_DELAY  leaderboard ratings (see below)
MAX_SOCKETS_PER_SEAT, MAX_FRAMES_PER_SECOND, MAX_CHAT_PER_MINUTE, CHAT_HISTORY_SHOWN, MAX_SELECTION  per-seat limits
MATCHES_CREATED_PER_MINUTE_PER_CLIENT, INVITES_TAKEN_PER_MINUTE_PER_CLIENT, ENROLMENTS_PER_MINUTE_PER_CLIENT
    per-address limits on what creates something (see below)
FLOOD_FRAMES_PER_SECOND, FLOOD_BAR_SECONDS, SOCKETS_OPENED_PER_MINUTE_PER_CLIENT, FLOOD_REFUSAL_DELAY_SECONDS
    flooding sockets (see below)
AGENT_TURN_DEADLINE_SECONDS, AGENT_WATCHDOG_INTERVAL_SECONDS, AGENT_WAY_OUT_SECONDS  stalled agent turns (see below)
AGENT_TURN_THREADS, AGENT_TURNS_INLINE  where agent turns run when Celery is eager (see below)
DIALOGUE_JUDGE_AGENT  the LLM agent configuration judging debates (empty: the game's rule decides)
"""

import os
import sys
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parents[2]


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in ("1", "true", "yes", "on")


def _development_default() -> bool:
    """DEBUG when the environment does not say: on for manage.py commands run from a checkout (runserver, migrate,
    the tools the READMEs name) and for the test runner, off for everything else, i.e. the servers and workers that
    import these settings in production (daphne/uvicorn/gunicorn through gameplay.project.asgi, Celery). ``check
    --deploy`` asks about production, so it gets production's default."""
    if "pytest" in sys.modules:
        return True
    argv = sys.argv or [""]
    return Path(argv[0]).name == "manage.py" and "--deploy" not in argv


DEBUG = env_bool("DEBUG", _development_default())
SECRET_KEY = os.environ.get("SECRET_KEY", "")
# Keys that are public: gameplay/CONFIGURATION.md's example and the development fallback below.
KNOWN_EXAMPLE_KEYS = {"change-me", "dev-only-insecure-key-do-not-use-in-production"}
if not DEBUG:
    if not SECRET_KEY:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")
    if SECRET_KEY in KNOWN_EXAMPLE_KEYS or len(SECRET_KEY) < 50 or len(set(SECRET_KEY)) < 5:
        # Django's own deploy check (security.W009) asks the same: 50+ characters, 5+ distinct ones.
        raise ImproperlyConfigured(
            "SECRET_KEY is an example key or too weak: use at least 50 random characters when DEBUG is off, e.g. "
            "python -c 'import secrets; print(secrets.token_urlsafe(50))'"
        )
elif not SECRET_KEY:
    SECRET_KEY = "dev-only-insecure-key-do-not-use-in-production"
ALLOWED_HOSTS = [
    h.strip() for h in os.environ.get("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]").split(",") if h.strip()
]
CSRF_TRUSTED_ORIGINS = [o.strip() for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o.strip()]

# HTTPS hardening, on by default when DEBUG is off; each can be set by the environment (e.g. a deployment that
# serves plain HTTP inside a private network sets SECURE_SSL_REDIRECT=0 and the cookie flags to 0).
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "0" if DEBUG else "31536000"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", not DEBUG)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", not DEBUG)
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", not DEBUG)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", not DEBUG)
SECURE_CONTENT_TYPE_NOSNIFF = env_bool("SECURE_CONTENT_TYPE_NOSNIFF", True)
SECURE_REFERRER_POLICY = os.environ.get("SECURE_REFERRER_POLICY", "same-origin")
X_FRAME_OPTIONS = "DENY"
# Behind a TLS-terminating proxy: "HTTP_X_FORWARDED_PROTO,https" (the header the proxy sets, and its value for
# HTTPS). Only set it when the proxy always overwrites that header; the websocket origin check reads it too.
if os.environ.get("SECURE_PROXY_SSL_HEADER"):
    _header, _, _value = os.environ["SECURE_PROXY_SSL_HEADER"].partition(",")
    if not _header.strip() or not _value.strip():
        raise ImproperlyConfigured("SECURE_PROXY_SSL_HEADER must be HEADER,value, e.g. HTTP_X_FORWARDED_PROTO,https")
    SECURE_PROXY_SSL_HEADER = (_header.strip(), _value.strip())
# Sent on every response by gameplay.project.security.ContentSecurityPolicyMiddleware; empty turns it off. Scripts come
# from static/ only: no inline handlers, no hx-on or trigger filters (htmx's allowEval is off, static/js/live.js
# does their work; tests/gameplay/test_production_settings.py checks every template); styles allow inline style
# attributes (sizes computed per board).
CONTENT_SECURITY_POLICY = os.environ.get(
    "CONTENT_SECURITY_POLICY",
    "default-src 'self'; "
    "script-src 'self'; "
    "style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; "
    "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'",
)

# Which environment variables an LLM agent configuration may name for its key (agents_app.agents.llm.settings):
# a full-match pattern, and names refused on top of the platform's own secrets (comma-separated). Production
# should narrow the pattern, e.g. ^[A-Z][A-Z0-9_]*_API_KEY$ (gameplay/CONFIGURATION.md's production example does).
LLM_KEY_ENV_PATTERN = os.environ.get("LLM_KEY_ENV_PATTERN", r"^[A-Z][A-Z0-9_]*_(KEY|TOKEN)(_[0-9]+)?$")
LLM_KEY_ENV_DENYLIST = [n.strip() for n in os.environ.get("LLM_KEY_ENV_DENYLIST", "").split(",") if n.strip()]
# Sessions live in a signed cookie: binding a study participant to this browser on a GET writes no row.
SESSION_ENGINE = "django.contrib.sessions.backends.signed_cookies"

INSTALLED_APPS = [
    # daphne makes runserver serve ASGI, websockets included; through our config so that the server (twisted,
    # 0.4 s of imports) loads only when runserver runs, not in every manage.py command (gameplay/apps.py).
    "gameplay.apps.DaphneConfig",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "gameplay.apps.GameplayConfig",
    "gameplay.studies.apps.StudiesConfig",
    "agents_app.apps.AgentsAppConfig",
    "rating_app.apps.RatingAppConfig",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "gameplay.project.security.RefuseDiagnosticMethodsMiddleware",
    "gameplay.project.security.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "gameplay.project.urls"
ASGI_APPLICATION = "gameplay.project.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        conn_max_age=0,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Websocket consumers and agent tasks write from several threads. BEGIN IMMEDIATE takes the write
    # lock when a transaction starts, so concurrent submits queue (up to the timeout) and the second one
    # then sees the first one's version, instead of failing to upgrade a read lock ("database is locked").
    DATABASES["default"].setdefault("OPTIONS", {}).update(timeout=20, transaction_mode="IMMEDIATE")

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    # channels_redis counts its capacity (default 100) per Redis key, and every socket of a server process shares
    # one key: with a hundred sockets a process, a second of backlog under load filled it and group messages were
    # dropped (logged at INFO only), so sockets waited for a move that never came (bench_realtime, issue 14).
    # Messages still expire after a minute.
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [REDIS_URL], "capacity": int(os.environ.get("CHANNEL_LAYER_CAPACITY", "2000"))},
        }
    }
    CELERY_BROKER_URL = REDIS_URL
    CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CELERY_BROKER_URL = "memory://"
    CELERY_TASK_ALWAYS_EAGER = True
CELERY_TASK_EAGER_PROPAGATES = True
# With eager Celery (no REDIS_URL: the embedded default) an agent turn would run inside .delay(), on the thread of
# the websocket consumer whose move announced it, freezing every other match of the process for a whole model
# call. agents_app.turn_runner plays it on one of AGENT_TURN_THREADS threads of the process instead. The test
# runner plays turns inline (AGENT_TURNS_INLINE), so a test sees an agent's answer as soon as its move returns;
# the tests of the runner itself, and the servers that tests start in subprocesses, use the threads.
AGENT_TURN_THREADS = int(os.environ.get("AGENT_TURN_THREADS", "4"))
AGENT_TURNS_INLINE = env_bool("AGENT_TURNS_INLINE", "pytest" in sys.modules)
CELERY_TASK_IGNORE_RESULT = True
# A task is acknowledged only once it has run, and a task whose pool process died (kill -9, OOM) goes back on
# the queue: an agent turn is never lost with its worker. Safe because every task here is idempotent (agent
# turns submit with the version they decided on; tournament entries resume their match; refreshes recompute).
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
# One message at a time per process: a long agent turn does not hold other matches' turns in its prefetch.
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Redis hands an unacknowledged message to another worker after this long (its whole worker died). It must be
# longer than the longest task (a tournament entry plays a whole match in one task) or a running task is
# delivered twice (harmless, but paid twice for LLM agents); the stalled-turn watchdog covers agent turns sooner.
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": int(os.environ.get("CELERY_VISIBILITY_TIMEOUT", "3600"))}
# Batch work (leaderboard computations, tournament entries, dialogue solver runs) has a queue of its own, so no flood
# of it ever waits in front of agent turns, chat answers and verdicts (the default queue): run a worker for each,
# `celery -A gameplay worker` and `celery -A gameplay worker -Q background`.
BACKGROUND_TASK_QUEUE = os.environ.get("BACKGROUND_TASK_QUEUE", "background")
BACKGROUND_TASKS = (
    "rating_app.tasks.refresh_leaderboard",
    "agents_app.play_tournament_match",
    "agents_app.solve_dialogue",
)
CELERY_TASK_ROUTES = {name: {"queue": BACKGROUND_TASK_QUEUE} for name in BACKGROUND_TASKS}

# Stalled agent turns (gameplay/writes/watchdog.py). An agent seat that has not moved this long after its turn started
# has its turn queued again (its task died, or its message was lost); longer than a normal LLM turn, and a
# long legitimate turn queued twice still moves once (agent turns submit with the version they decided on).
AGENT_TURN_DEADLINE_SECONDS = float(os.environ.get("AGENT_TURN_DEADLINE_SECONDS", "60"))
# How often the watchdog looks (Celery beat: a worker started with -B, or `celery beat`; or the
# watch_agent_turns management command).
AGENT_WATCHDOG_INTERVAL_SECONDS = float(os.environ.get("AGENT_WATCHDOG_INTERVAL_SECONDS", "10"))
# A person waiting this long for an agent is offered a way out: end the match (a study round: end it and go on).
AGENT_WAY_OUT_SECONDS = float(os.environ.get("AGENT_WAY_OUT_SECONDS", "120"))
# The stored LLM agent configuration (its name) that judges dialogue games decided by a judge (a debate). Empty, or
# when that model gives no valid verdict, the game's own deterministic rule decides (agents_app.judging).
DIALOGUE_JUDGE_AGENT = os.environ.get("DIALOGUE_JUDGE_AGENT", "").strip()
CELERY_BEAT_SCHEDULE = {
    "requeue-stalled-agent-turns": {
        "task": "gameplay.requeue_stalled_agent_turns",
        "schedule": AGENT_WATCHDOG_INTERVAL_SECONDS,
        # A sweep nobody ran in time is replaced by the next one, never piled up behind a busy worker.
        "options": {"expires": AGENT_WATCHDOG_INTERVAL_SECONDS},
    }
}

# Django's cache is shared by every server process when there is Redis (its own key prefix beside the channel
# layer's keys), as the per-seat frame counters (gameplay.web.socket_limits) need; otherwise this process's memory.
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "strategic-play-cache",
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"

# Chat and free-text limits enforced by the match service (bytes of UTF-8 text).
MAX_CHAT_LENGTH = int(os.environ.get("MAX_CHAT_LENGTH", "1000"))
# Largest websocket frame the consumer will parse.
MAX_FRAME_BYTES = int(os.environ.get("MAX_FRAME_BYTES", "16384"))

# Limits per seat (issue 13.6), so one seat link cannot crowd out other matches: open sockets (the oldest one is
# closed when a newer one goes past the limit, so a reload never locks a player out), websocket frames per second
# (across the seat's sockets; the rest of the second is refused), chat messages per minute (the match service
# counts the seat's stored messages), chat lines shown when a page or socket opens (older ones stay in the log,
# the replay and the export), and board clicks one selection may hold.
MAX_SOCKETS_PER_SEAT = int(os.environ.get("MAX_SOCKETS_PER_SEAT", "4"))
MAX_FRAMES_PER_SECOND = int(os.environ.get("MAX_FRAMES_PER_SECOND", "20"))
# Frames a second from one client address over all its sockets (gameplay/web/socket_limits.py): a flood bound, high
# enough for a classroom behind one address playing live games.
MAX_FRAMES_PER_SECOND_PER_CLIENT = int(os.environ.get("MAX_FRAMES_PER_SECOND_PER_CLIENT", "120"))
# A socket that sends more than FLOOD_FRAMES_PER_SECOND frames within one second is closed (no page sends a tenth of
# that: a person clicks, types or holds keys), and its client address may open no match socket for FLOOD_BAR_SECONDS;
# at most SOCKETS_OPENED_PER_MINUTE_PER_CLIENT match sockets open a minute from one address (gameplay/web/
# socket_limits.py, issue 37 point 5: a flood is cut off where it starts instead of being read frame by frame).
FLOOD_FRAMES_PER_SECOND = int(os.environ.get("FLOOD_FRAMES_PER_SECOND", "60"))
FLOOD_BAR_SECONDS = int(os.environ.get("FLOOD_BAR_SECONDS", "60"))
SOCKETS_OPENED_PER_MINUTE_PER_CLIENT = int(os.environ.get("SOCKETS_OPENED_PER_MINUTE_PER_CLIENT", "300"))
# A handshake refused for either reason is answered after this many seconds, so a script cannot retry at once.
FLOOD_REFUSAL_DELAY_SECONDS = float(os.environ.get("FLOOD_REFUSAL_DELAY_SECONDS", "2"))
MAX_CHAT_PER_MINUTE = int(os.environ.get("MAX_CHAT_PER_MINUTE", "30"))
# POSTs a minute from one client address that create something (issue 37; gameplay/web/rate_limits.py
# limited_per_client): new matches, seats taken through invite links, and answers to a study's consent form. More are
# refused with 429 and Retry-After and create nothing; staff are not limited. Flood bounds, high enough for a
# classroom behind one address starting at once.
MATCHES_CREATED_PER_MINUTE_PER_CLIENT = int(os.environ.get("MATCHES_CREATED_PER_MINUTE_PER_CLIENT", "60"))
INVITES_TAKEN_PER_MINUTE_PER_CLIENT = int(os.environ.get("INVITES_TAKEN_PER_MINUTE_PER_CLIENT", "60"))
ENROLMENTS_PER_MINUTE_PER_CLIENT = int(os.environ.get("ENROLMENTS_PER_MINUTE_PER_CLIENT", "60"))
CHAT_HISTORY_SHOWN = int(os.environ.get("CHAT_HISTORY_SHOWN", "200"))
MAX_SELECTION = int(os.environ.get("MAX_SELECTION", "12"))
# A socket that has sent nothing for this many seconds asks the event log whether it missed a change (one query):
# the channel layer can lose a group message (channels_redis drops what is over capacity), and a page that missed
# a move would otherwise wait until it is reloaded.
SOCKET_CATCH_UP_SECONDS = float(os.environ.get("SOCKET_CATCH_UP_SECONDS", "5"))
if not SOCKET_CATCH_UP_SECONDS > 0:
    raise ImproperlyConfigured("SOCKET_CATCH_UP_SECONDS must be a positive number of seconds")
# Presence (gameplay/web/presence.py, issue 16.1): every open match socket beats this often; a seat whose newest beat is
# older than the timeout is shown as not connected (a closed page is shown at once), and a person away for longer
# than PRESENCE_LEFT_AFTER_SECONDS has left (a reload or a moment offline is not leaving): a study round then
# applies its rule for a partner who left. Beat + timeout stay under 15 s, left-after + beat under 30 s.
PRESENCE_BEAT_SECONDS = float(os.environ.get("PRESENCE_BEAT_SECONDS", "4"))
PRESENCE_TIMEOUT_SECONDS = float(os.environ.get("PRESENCE_TIMEOUT_SECONDS", "10"))
PRESENCE_LEFT_AFTER_SECONDS = float(os.environ.get("PRESENCE_LEFT_AFTER_SECONDS", "20"))
if not 0 < PRESENCE_BEAT_SECONDS < PRESENCE_TIMEOUT_SECONDS <= PRESENCE_LEFT_AFTER_SECONDS:
    raise ImproperlyConfigured(
        "presence needs 0 < PRESENCE_BEAT_SECONDS < PRESENCE_TIMEOUT_SECONDS <= PRESENCE_LEFT_AFTER_SECONDS"
    )
# Hours an invite link to a match's other seat stays open before someone accepts it (gameplay/writes/seat_claims.py).
INVITE_TTL_HOURS = float(os.environ.get("INVITE_TTL_HOURS", "24"))

# Leaderboard ratings (rating_app): bootstrap resamples, their seed and the tie rule ("skip" or "half").
RATING_BOOTSTRAP = int(os.environ.get("RATING_BOOTSTRAP", "10000"))
RATING_SEED = int(os.environ.get("RATING_SEED", "0"))
RATING_TIES = os.environ.get("RATING_TIES", "skip")
# Seconds between a match finishing and the queued leaderboard refresh (only with a real Celery worker).
RATING_REFRESH_DELAY = float(os.environ.get("RATING_REFRESH_DELAY", "10"))
# What visitors may ask of the leaderboard's compute button: at most RATING_OPEN_REQUESTS computations waiting at
# once over all selections (more are refused as busy until one finishes), and RATING_REQUESTS_PER_MINUTE asks a
# minute from one address; staff are not limited. Each computation is seconds of a worker's time.
RATING_OPEN_REQUESTS = int(os.environ.get("RATING_OPEN_REQUESTS", "4"))
RATING_REQUESTS_PER_MINUTE = int(os.environ.get("RATING_REQUESTS_PER_MINUTE", "6"))

# Seat and participant tokens and Prolific ids are redacted from every logged request path
# (gameplay/project/log_redaction.py): on the console handler, and on the loggers that write request lines, so the
# records are redacted before Django's default handlers see them too.
# The HTTP client libraries behind the openai client (httpx/httpcore, or the httpx2/httpcore2 builds some
# openai releases ship with).
QUIET_HTTP_LOGGERS = ("httpx", "httpcore", "httpx2", "httpcore2")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"redact_secrets": {"()": "gameplay.project.log_redaction.redacting_filter"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["redact_secrets"]}},
    "loggers": {
        "django.request": {"filters": ["redact_secrets"]},
        "django.server": {"handlers": ["console"], "filters": ["redact_secrets"], "propagate": False},
        "django.channels.server": {"filters": ["redact_secrets"]},  # daphne's runserver
        # The openai client's HTTP library logs a line per request at INFO: every model call is stored already
        # (agents_app.AgentCall), so the log keeps its warnings only (issue 22: a tournament printed thousands).
        **{name: {"level": "WARNING"} for name in QUIET_HTTP_LOGGERS},
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}
