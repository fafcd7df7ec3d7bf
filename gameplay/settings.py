"""Project settings, all environment-driven.

DATABASE_URL  default: SQLite file db.sqlite3 next to manage.py
REDIS_URL     unset: in-memory channel layer + eager Celery; set: channels_redis + Celery broker
SECRET_KEY, DEBUG, ALLOWED_HOSTS as usual.
RATING_BOOTSTRAP, RATING_SEED, RATING_TIES, RATING_REFRESH_DELAY  leaderboard ratings (see below)
"""

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in ("1", "true", "yes", "on")


DEBUG = env_bool("DEBUG", True)
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")
    SECRET_KEY = "dev-only-insecure-key-do-not-use-in-production"
ALLOWED_HOSTS = [
    h.strip() for h in os.environ.get("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]").split(",") if h.strip()
]
CSRF_TRUSTED_ORIGINS = [o for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o]
# Sessions live in a signed cookie: binding a study participant to this browser on a GET writes no row.
SESSION_ENGINE = "django.contrib.sessions.backends.signed_cookies"

INSTALLED_APPS = [
    "daphne",  # makes runserver serve ASGI, websockets included
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
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "gameplay.urls"
ASGI_APPLICATION = "gameplay.asgi.application"

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
    CHANNEL_LAYERS = {
        "default": {"BACKEND": "channels_redis.core.RedisChannelLayer", "CONFIG": {"hosts": [REDIS_URL]}}
    }
    CELERY_BROKER_URL = REDIS_URL
    CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CELERY_BROKER_URL = "memory://"
    CELERY_TASK_ALWAYS_EAGER = True
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_IGNORE_RESULT = True

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

# Leaderboard ratings (rating_app): bootstrap resamples, their seed and the tie rule ("skip" or "half").
RATING_BOOTSTRAP = int(os.environ.get("RATING_BOOTSTRAP", "10000"))
RATING_SEED = int(os.environ.get("RATING_SEED", "0"))
RATING_TIES = os.environ.get("RATING_TIES", "skip")
# Seconds between a match finishing and the queued leaderboard refresh (only with a real Celery worker).
RATING_REFRESH_DELAY = float(os.environ.get("RATING_REFRESH_DELAY", "10"))

# Seat and participant tokens and Prolific ids are redacted from every logged request path
# (gameplay/log_redaction.py): on the console handler, and on the loggers that write request lines, so the
# records are redacted before Django's default handlers see them too.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"redact_secrets": {"()": "gameplay.log_redaction.redacting_filter"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["redact_secrets"]}},
    "loggers": {
        "django.request": {"filters": ["redact_secrets"]},
        "django.server": {"handlers": ["console"], "filters": ["redact_secrets"], "propagate": False},
        "django.channels.server": {"filters": ["redact_secrets"]},  # daphne's runserver
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}
