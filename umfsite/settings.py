"""Settings of the UMF Archive: one file, every knob read from the environment, once, here.

``.env.example`` lists every variable. With no environment at all this runs the embedded
default of ``make run``: SQLite in the project folder and Celery tasks run in-process.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import dj_database_url
from django.core.checks.security.base import (
    SECRET_KEY_INSECURE_PREFIX,
    SECRET_KEY_MIN_LENGTH,
    SECRET_KEY_MIN_UNIQUE_CHARACTERS,
)
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name, "")
    return int(value) if value.strip() else default


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DJANGO_DEBUG", True)

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS")
if DEBUG:
    # Only the development server ever runs with this key; production must set its own.
    SECRET_KEY = SECRET_KEY or "insecure-development-key-do-not-use-in-production"
    ALLOWED_HOSTS = ALLOWED_HOSTS or ["127.0.0.1", "localhost", "testserver", "[::1]"]
else:
    if not SECRET_KEY:
        raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off")
    # Django's own rule for a key that is strong enough (what `check --deploy` warns about),
    # plus the placeholders of setup guides: a key anyone can read signs anyone's session.
    if (
        len(SECRET_KEY) < SECRET_KEY_MIN_LENGTH
        or len(set(SECRET_KEY)) < SECRET_KEY_MIN_UNIQUE_CHARACTERS
        or SECRET_KEY.startswith(SECRET_KEY_INSECURE_PREFIX)
        or any(word in SECRET_KEY.lower() for word in ("change-me", "changeme", "change_me"))
    ):
        raise ImproperlyConfigured(
            f"DJANGO_SECRET_KEY is a placeholder or too weak (at least {SECRET_KEY_MIN_LENGTH} "
            "random characters): python -c 'import secrets; print(secrets.token_urlsafe(50))'"
        )
    if not ALLOWED_HOSTS:
        raise ImproperlyConfigured("DJANGO_ALLOWED_HOSTS must be set when DJANGO_DEBUG is off")
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.postgres",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "conversations",
]

MIDDLEWARE = [
    # /healthz and /readyz, before host checks and https redirects (probes use neither).
    "umfsite.health.HealthMiddleware",
    # X-Request-ID in and out, on every log line and task; the access log.
    "umfsite.requestlog.RequestIdMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
]

# Content-Security-Policy (django-csp) on every page: script and style only from our own
# static files (htmx is vendored there), never inline; images only from our attachment
# view. Swagger UI at /api/docs/ bootstraps with an inline script of drf-spectacular's, so
# that one page is left without the header.
CONTENT_SECURITY_POLICY = {
    "EXCLUDE_URL_PREFIXES": ["/api/docs"],
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "frame-ancestors": ["'none'"],
        "form-action": ["'self'"],
    },
}

ROOT_URLCONF = "umfsite.urls"
WSGI_APPLICATION = "umfsite.wsgi.application"

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

# The cache holds rate-limit counters: shared through Redis when REDIS_CACHE_URL is set
# (several web processes), in-process otherwise.
# "render" holds the HTML of messages as the conversation page shows them
# (conversations/templatetags/umf_thread.py), for UMF_RENDER_CACHE_SECONDS.
RENDER_CACHE_SECONDS = env_int("UMF_RENDER_CACHE_SECONDS", 7 * 24 * 3600)
REDIS_CACHE_URL = os.environ.get("REDIS_CACHE_URL", "")
# With Redis down, both fall back to an in-process cache, never a 500 (umfsite/cache.py);
# a Redis that takes longer than a second to answer counts as down.
_redis_cache = {
    "BACKEND": "umfsite.cache.ResilientRedisCache",
    "LOCATION": REDIS_CACHE_URL,
    "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
}
CACHES = {
    "default": _redis_cache
    if REDIS_CACHE_URL
    else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "render": {**_redis_cache, "KEY_PREFIX": "render", "TIMEOUT": RENDER_CACHE_SECONDS}
    if REDIS_CACHE_URL
    else {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "render",
        "TIMEOUT": RENDER_CACHE_SECONDS,
        # About 1 KB a message: a few long conversations' worth per process.
        "OPTIONS": {"MAX_ENTRIES": 20_000},
    },
}

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 60),
        # A kept connection is checked before a request uses it, and (Django 5.1+) a pool
        # checks each connection it hands out (ConnectionPool.check_connection): after a
        # database restart the first request or task reconnects instead of failing.
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # make run's SQLite, written by a background task while pages read: WAL lets readers go
    # on during a write, and IMMEDIATE transactions wait for the lock instead of failing.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"init_command": "PRAGMA journal_mode=WAL;", "transaction_mode": "IMMEDIATE", "timeout": 20}
    )
# Behind PgBouncer in transaction mode: server-side cursors (iterator()) do not survive it.
DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = env_bool(
    "DATABASE_DISABLE_SERVER_SIDE_CURSORS", False
)
# A connection pool for processes that run many short tasks in threads (Celery workers):
# Celery closes the connection around every task, which without a pool means a new
# PostgreSQL backend per task. DATABASE_POOL_MAX_SIZE=<threads> turns it on.
if DATABASES["default"]["ENGINE"].endswith("postgresql") and env_int("DATABASE_POOL_MAX_SIZE", 0):
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 1,
        "max_size": env_int("DATABASE_POOL_MAX_SIZE", 0),
        "timeout": 30,
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/accounts/login/"

# Request size. The API answers 413 above this (conversations.api.parsers); Django's own
# limits are set to match so that form posts fail the same way.
MAX_REQUEST_BYTES = env_int("UMF_MAX_REQUEST_BYTES", 64 * 1024 * 1024)
# What one request or conversation may hold, whatever its size in bytes: reading a JSON
# object costs about 50 times its bytes when it is small, so the counts bound the memory
# (providers.validation). Larger archives go through a file import, an entry at a time.
UMF_MAX_REQUEST_OBJECTS = env_int("UMF_MAX_REQUEST_OBJECTS", 200_000)
UMF_MAX_MESSAGES = env_int("UMF_MAX_MESSAGES", 20_000)
UMF_MAX_BLOCKS = env_int("UMF_MAX_BLOCKS", 100_000)
# Past this many messages a conversation is read a part at a time: GET conversations/{id}
# holds the first ones inline and links to GET conversations/{id}/messages, and an export
# in a format that can stream (umf) is streamed (selectors.exports.conversation_is_long).
UMF_DETAIL_MAX_INLINE_MESSAGES = env_int("UMF_DETAIL_MAX_INLINE_MESSAGES", 1_000)
DATA_UPLOAD_MAX_MEMORY_SIZE = MAX_REQUEST_BYTES
# Files for background imports (data exports): kept in PostgreSQL, in chunks, until their
# job ends, so that a worker on any host reads them. A user's uploads waiting to be
# imported hold at most UMF_IMPORT_QUOTA_BYTES; an upload no job took is swept after
# UMF_UPLOAD_ABANDONED_SECONDS.
MAX_IMPORT_BYTES = env_int("UMF_MAX_IMPORT_BYTES", 4 * 1024 * 1024 * 1024)
IMPORT_QUOTA_BYTES = env_int("UMF_IMPORT_QUOTA_BYTES", 2 * MAX_IMPORT_BYTES)
UPLOAD_ABANDONED_SECONDS = env_int("UMF_UPLOAD_ABANDONED_SECONDS", 3600)
# A worker holds an import job this long past each batch; a job whose worker vanished is
# run again by the reconciler (beat), resuming after its last stored batch, and ended as
# failed once it has been claimed this many times.
IMPORT_LEASE_SECONDS = env_int("UMF_IMPORT_LEASE_SECONDS", 300)
IMPORT_MAX_ATTEMPTS = env_int("UMF_IMPORT_MAX_ATTEMPTS", 3)
# Deleted conversations stay in the trash this many days, then beat purges them; an
# export job's file (kept in PostgreSQL like uploads) is deleted with the job this many
# days after it ends.
TRASH_DAYS = env_int("UMF_TRASH_DAYS", 30)
EXPORT_KEEP_DAYS = env_int("UMF_EXPORT_KEEP_DAYS", 7)
FILE_UPLOAD_MAX_MEMORY_SIZE = 8 * 1024 * 1024

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PARSER_CLASSES": ["conversations.api.parsers.OrjsonParser"],
    "DEFAULT_RENDERER_CLASSES": ["conversations.api.renderers.OrjsonRenderer"],
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_SCHEMA_CLASS": "conversations.api.schema.ApiSchema",
    "EXCEPTION_HANDLER": "conversations.api.errors.exception_handler",
    "DEFAULT_THROTTLE_RATES": {
        "imports": os.environ.get("UMF_RATE_IMPORTS", "120/min"),
        "replays": os.environ.get("UMF_RATE_REPLAYS", "30/min"),
        # Failed logins per client address and username (conversations.views.login).
        "login": os.environ.get("UMF_RATE_LOGIN", "10/hour"),
    },
    # Proxies in front of the app that append to X-Forwarded-For (a load balancer: 1):
    # throttles then count the client's address, not the proxy's. 0 trusts no such header.
    "NUM_PROXIES": env_int("UMF_NUM_PROXIES", 0),
    # `?format=` names a conversation format (export), not a DRF renderer.
    "URL_FORMAT_OVERRIDE": None,
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}
API_MAX_PAGE_SIZE = 200

SPECTACULAR_SETTINGS = {
    "TITLE": "UMF Archive API",
    "DESCRIPTION": "Import, store, convert, search and export LLM conversations in every "
    "provider format, through the Unified Message Format.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "ENUM_NAME_OVERRIDES": {
        # Replay runs and import jobs share one set: queued, running, succeeded, failed.
        "JobStatusEnum": "conversations.models.replays.ReplayRun.Status",
        "ReplayTurnStatusEnum": "conversations.models.replays.ReplayTurn.Status",
        "ImportItemStatusEnum": "conversations.models.imports.ImportItem.Status",
        # Format ids: any a payload can be read as (with auto), any one can be written in.
        "SourceFormatEnum": "conversations.api.serializers.common.SOURCE_FORMAT_IDS",
        "TargetFormatEnum": "conversations.api.serializers.common.TARGET_FORMAT_IDS",
    },
}

# Celery: with no broker configured, tasks run in-process (the embedded default).
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "")
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
# In-process tasks run in a background thread of the web process (make run sets it), so
# an upload or a replay answers at once as with a worker; off, they run inside the
# request that sends them (the tests, which then read the finished rows).
UMF_TASKS_IN_BACKGROUND = env_bool("UMF_TASKS_IN_BACKGROUND", False)
if CELERY_BROKER_URL.startswith("redis://"):
    # kombu's Redis transport, sharing one client per channel (see umfsite/broker.py).
    CELERY_BROKER_TRANSPORT = "umfsite.broker:Transport"
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
# The replay worker's hot statements are prepared once per connection (conversations.pgsql);
# off for a pooler that does not keep sessions (PgBouncer in transaction mode before 1.21).
UMF_PREPARED_STATEMENTS = env_bool("UMF_PREPARED_STATEMENTS", True)
if UMF_PREPARED_STATEMENTS and DATABASES["default"]["ENGINE"].endswith("postgresql"):
    # Plan those statements once: PostgreSQL otherwise plans each of the first five runs
    # of a prepared statement again (a connection of a worker's pool runs each a handful
    # of times), and they look rows up by key, where a generic plan is the plan. Only
    # prepared statements are affected: Django's own bind their values on the client.
    # Added to what DATABASE_URL may already pass (``?options=-c search_path=...``).
    _options = DATABASES["default"].setdefault("OPTIONS", {})
    _options["options"] = f"{_options.get('options', '')} -c plan_cache_mode=force_generic_plan"
    _options["options"] = _options["options"].strip()
# Tasks a worker holds per thread (acknowledged late, so each stays in Redis until done).
CELERY_WORKER_PREFETCH_MULTIPLIER = env_int("CELERY_PREFETCH_MULTIPLIER", 1)
# Redis hands an unacknowledged task (its worker died) to another worker once it is older
# than the visibility timeout; the sweeps that look for such tasks run about every
# interval x throttle seconds, under a lock that a worker killed mid-sweep leaves behind
# until it expires.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", 3600),
    "unacked_restore_interval": env_int("CELERY_RESTORE_INTERVAL", 10),
    "unacked_restore_throttle": env_int("CELERY_RESTORE_THROTTLE", 10),
    "unacked_mutex_expire": env_int("CELERY_RESTORE_LOCK_SECONDS", 300),
}
CELERY_TASK_IGNORE_RESULT = True
# A broker that cannot be reached is known within a second (Celery's default retries take
# about 7 s): the request answers 503 and the row waits for the reconciler.
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 2,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.5,
}
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("CELERY_QUEUE", "celery")

# Provider credentials (read here only; never logged or returned by the API).
OPENAI_API_KEY = os.environ.get("OPENAI_API_KEY", "")
OPENAI_BASE_URL = os.environ.get("OPENAI_BASE_URL", "https://api.openai.com/v1")
ANTHROPIC_API_KEY = os.environ.get("ANTHROPIC_API_KEY", "")
ANTHROPIC_BASE_URL = os.environ.get("ANTHROPIC_BASE_URL", "https://api.anthropic.com")
GEMINI_API_KEY = os.environ.get("GEMINI_API_KEY", "")
OLLAMA_HOST = os.environ.get("OLLAMA_HOST", "")

# The providers replays can call. `echo` answers offline; the others appear when their key
# (or host) is set. UMF_EXTRA_PROVIDERS adds OpenAI-compatible servers and others as JSON:
# [{"name": "vllm", "kind": "openai-chat", "base_url": "http://10.0.0.5:8000/v1",
#   "api_key_env": "VLLM_KEY", "models": ["llama-3.1-8b"], "allow_private_network": true}]
# A provider on a loopback or private address needs "allow_private_network": true.
UMF_PROVIDERS: list[dict[str, object]] = [
    {"name": "echo", "kind": "echo", "base_url": "", "models": ["echo-1"]},
]
if OPENAI_API_KEY:
    UMF_PROVIDERS.append(
        {
            "name": "openai",
            "kind": "openai-chat",
            "base_url": OPENAI_BASE_URL,
            "api_key": OPENAI_API_KEY,
            "models": ["gpt-4.1", "gpt-4o", "gpt-4o-mini"],
        }
    )
if ANTHROPIC_API_KEY:
    UMF_PROVIDERS.append(
        {
            "name": "anthropic",
            "kind": "anthropic",
            "base_url": ANTHROPIC_BASE_URL,
            "api_key": ANTHROPIC_API_KEY,
            "models": ["claude-sonnet-4-5", "claude-haiku-4-5"],
        }
    )
if GEMINI_API_KEY:
    UMF_PROVIDERS.append(
        {
            "name": "gemini",
            "kind": "gemini",
            "base_url": "https://generativelanguage.googleapis.com",
            "api_key": GEMINI_API_KEY,
            "models": ["gemini-2.5-pro", "gemini-2.5-flash"],
        }
    )
if OLLAMA_HOST:
    # Ollama usually runs on this machine: the operator who sets OLLAMA_HOST allows that.
    UMF_PROVIDERS.append(
        {"name": "ollama", "kind": "ollama", "base_url": OLLAMA_HOST, "allow_private_network": True}
    )
for extra_provider in json.loads(os.environ.get("UMF_EXTRA_PROVIDERS") or "[]"):
    key_variable = extra_provider.pop("api_key_env", "")
    extra_provider["api_key"] = os.environ.get(key_variable, "") if key_variable else ""
    UMF_PROVIDERS.append(extra_provider)

# Replays: how a run is retried and held. Countdowns must stay well under the broker's
# visibility timeout, or Redis hands a waiting task to a second worker (a test checks).
REPLAY_MAX_ATTEMPTS = env_int("UMF_REPLAY_MAX_ATTEMPTS", 6)
REPLAY_MAX_COUNTDOWN = env_int("UMF_REPLAY_MAX_COUNTDOWN", 300)
REPLAY_LEASE_SECONDS = env_int("UMF_REPLAY_LEASE_SECONDS", 120)
# What one user may spend on providers: the assistant turns one run in mode "each" may
# regenerate, and the provider calls (turns) a user may start per UTC day (429 after).
REPLAY_MAX_TURNS = env_int("UMF_REPLAY_MAX_TURNS", 50)
REPLAY_DAILY_CALLS = env_int("UMF_REPLAY_DAILY_CALLS", 500)
# beat ticks at least every 30 s and touches a heartbeat file for its healthcheck
# (umfsite/beat.py; UMF_BEAT_HEARTBEAT_FILE is read there, before Django starts).
CELERY_BEAT_SCHEDULER = "umfsite.beat:Scheduler"
CELERY_BEAT_MAX_LOOP_INTERVAL = 30
CELERY_BEAT_SCHEDULE = {
    "reconcile-replays": {
        "task": "conversations.tasks.replay_reconcile",
        "schedule": env_int("UMF_REPLAY_RECONCILE_SECONDS", 60),
    },
    # Conversations trashed more than UMF_TRASH_DAYS ago, and old export jobs.
    "purge-trash": {"task": "conversations.tasks.trash_purge", "schedule": 3600},
}

# One format for web and workers (Celery leaves the root logger to this), every line with
# the request id it belongs to (umfsite/requestlog.py); UMF_LOG_FORMAT=json writes JSON
# lines for a log collector. UMF_ACCESS_LOG=false drops the line per request.
LOG_FORMAT = os.environ.get("UMF_LOG_FORMAT", "plain")
if LOG_FORMAT not in {"plain", "json"}:
    raise ImproperlyConfigured("UMF_LOG_FORMAT must be plain or json")
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"request_id": {"()": "umfsite.requestlog.RequestIdFilter"}},
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"},
        "json": {"()": "umfsite.requestlog.JsonFormatter"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": LOG_FORMAT,
            "filters": ["request_id"],
        }
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        # httpx logs every provider call at INFO; a replay stores its request and answer
        # already, so workers log those lines only when asked (UMF_HTTP_LOG_LEVEL=INFO).
        **{
            name: {"level": os.environ.get("UMF_HTTP_LOG_LEVEL", "WARNING")}
            for name in ("httpx", "httpcore")
        },
        "umf.access": {"level": "INFO" if env_bool("UMF_ACCESS_LOG", True) else "WARNING"},
        # The access log says it already, with the request id.
        "django.request": {"level": "ERROR"},
    },
}

if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    # Off only to try the production image over plain http on one machine (compose).
    SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", True)
    # Cookies go over https only, also when TLS ends at a load balancer in front (and
    # SECURE_SSL_REDIRECT is off): false only to try the image over plain http.
    SESSION_COOKIE_SECURE = env_bool("DJANGO_SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
    SECURE_HSTS_SECONDS = env_int("DJANGO_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
