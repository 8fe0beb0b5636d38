"""Settings, driven by environment variables only (docs/hosting.md has every one in a table).

With no variable set this is the embedded default: SQLite in WAL mode, Celery tasks run
inline, a local-memory cache, DEBUG off, and a secret key generated once and kept
outside the repository.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import secrets
import tempfile
import tomllib
from datetime import timedelta
from pathlib import Path
from typing import Any

import dj_database_url
from celery.schedules import crontab
from csp.constants import NONE, SELF
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent
# The release, as pyproject.toml names it: in the footer, the API (/api/v1/about/) and the
# health checks. CHANGELOG.md says what each one changed.
VERSION: str = tomllib.loads((BASE_DIR / "pyproject.toml").read_text())["project"]["version"]


def envbool(name: str, default: str) -> bool:
    return os.getenv(name, default).strip().lower() in ("1", "true", "yes", "on")


def envint(name: str, default: str) -> int:
    return int(os.getenv(name, default))


def envstr(name: str, default: str) -> str:
    return os.getenv(name, default)


def envlist(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.getenv(name, default).split(",") if item.strip()]


def local_secret_key(path: Path) -> str:
    """A key generated on first use and kept in the user's state folder, never in git.

    Several processes may start at once (uvicorn's workers): each writes a candidate to a file
    of its own and links it into place; the first link wins, the others fail and everyone
    reads the winner, so no process ever reads a half-written or another key."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        descriptor, candidate = tempfile.mkstemp(dir=path.parent, prefix=".secret_key-")  # mode 0600
        try:
            with os.fdopen(descriptor, "w") as file:
                file.write(secrets.token_urlsafe(50))
            with contextlib.suppress(FileExistsError):
                os.link(candidate, path)
        finally:
            os.unlink(candidate)
    return path.read_text().strip()


STATE_DIR = Path(envstr("STATE_DIR", str(Path.home() / ".local" / "state" / "babel-companion")))
SECRET_KEY = os.getenv("SECRET_KEY") or local_secret_key(STATE_DIR / "secret_key")
# The cube game's solved positions, built once per machine on first use (scoring/babel_cubes/table.py).
CUBE_TABLES_DIR = Path(envstr("CUBE_TABLES_DIR", str(STATE_DIR / "cube-tables")))
DEBUG = envbool("DEBUG", "false")
ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", "127.0.0.1,localhost,[::1]")
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS", "")
SITE_NAME = envstr("SITE_NAME", "Babel Companion")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "rest_framework",
    "knox",
    "axes",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "sessions.apps.SessionsConfig",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # What the live table keeps in the cache: read ahead, and written in one round trip.
    "sessions.table.keys.one_request_middleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Pages and regions, compressed (static files come compressed from WhiteNoise, above).
    # Django's gzip pads each response with random bytes ("Heal The Breach") and masks the CSRF
    # token afresh in every response, so the token cannot be guessed by compression (BREACH).
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # A login's answer empties the device's copies of the pages the account before it kept.
    "sessions.views.accounts.forget_the_last_accounts_copies",
    # Last, as django-axes asks: turns a locked-out login into the login page with a 429.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "babel_companion.urls"
WSGI_APPLICATION = "babel_companion.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "OPTIONS": {
            # Django's own loaders, cached as by default, reading templates without their
            # indentation (babel_companion/template_loaders.py says why).
            "loaders": [
                (
                    "django.template.loaders.cached.Loader",
                    [
                        "babel_companion.template_loaders.FilesystemLoader",
                        "babel_companion.template_loaders.AppDirectoriesLoader",
                    ],
                )
            ],
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "sessions.themes.theme",
                "sessions.release.release",
            ],
        },
    },
]


def database(url: str | None) -> dict[str, Any]:
    if url:
        config: dict[str, Any] = dict(dj_database_url.parse(url))
        if config["ENGINE"] == "django.db.backends.postgresql":
            # Under ASGI every request runs in a thread of its own, so a connection kept by its
            # thread (CONN_MAX_AGE) would never serve another request: each request would
            # connect anew and the old connections pile up. A pool per process is shared by all.
            pool = {"min_size": 1, "max_size": envint("DB_POOL_SIZE", "10"), "timeout": 10}
            # With a pool, Django has psycopg check each connection as it is lent: one the server
            # ended (a restart, a failover, an administrator) is replaced, never handed to a
            # request that would answer 500 with it. A round trip a request (tests/integration/
            # test_dead_database_connections.py).
            config["CONN_HEALTH_CHECKS"] = True
            config["OPTIONS"] = {**config.get("OPTIONS", {}), "pool": pool}
        return config
    # WAL lets readers go on while a phone writes; IMMEDIATE takes the write lock at the
    # start of a transaction, so two writers queue (up to the timeout) instead of failing.
    return {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": envstr("SQLITE_PATH", str(BASE_DIR / "db.sqlite3")),
        "OPTIONS": {
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
        },
    }


DATABASES = {"default": database(os.getenv("DATABASE_URL"))}
# Requests served at once by each server process (babel_companion.asgi): as many as the
# database pool lends connections, so that none waits for one (docs/live-table.md).
REQUEST_THREADS = envint("REQUEST_THREADS", os.getenv("DB_POOL_SIZE", "10"))
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = os.getenv("REDIS_URL", "")
# Best a separate Redis database from the broker's: clearing the cache flushes its database.
REDIS_CACHE_URL = os.getenv("REDIS_CACHE_URL", REDIS_URL)
CACHES: dict[str, dict[str, Any]]
if REDIS_CACHE_URL:
    # A cache that does not answer fails fast (pages recompute, the rate limits refuse with
    # a 503: sessions.caching) instead of holding the request up for the kernel's timeouts.
    CACHES = {
        "default": {
            "BACKEND": "babel_companion.redis_cache.RedisCache",
            "LOCATION": REDIS_CACHE_URL,
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# The parts of a live region that a move mostly leaves as they were (a wonder of Tower of
# Babel, ...), kept rendered in each process under what they show ({% cache ... using="fragments" %}):
# a fetch after a move renders only what changed. In the process, not in Redis: a fragment
# takes 0.05-0.2 ms to render, less than a round trip. 0.1-2.3 kB each (a log line, a wonder):
# 12 MB a process at most.
CACHES["fragments"] = {
    "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
    "LOCATION": "fragments",
    "TIMEOUT": 600,
    "OPTIONS": {"MAX_ENTRIES": 5000},
}

# What the live table keeps under keys that name their version (sessions.table.keys): each
# process keeps what it read or wrote of them, for their lifetime (30-300 s), and reads Redis
# only for the rest. A render is about 3 kB compressed, a session's log told 5-20 kB.
CACHES["here"] = {
    "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
    "LOCATION": "here",
    "TIMEOUT": 300,
    "OPTIONS": {"MAX_ENTRIES": 2000},
}

# Push: every server process tells its connected devices "session N is at version V" (each
# device then fetches its own view). Redis's publish/subscribe reaches every process and
# machine; without Redis (`make run`, one process) an in-process layer does.
ASGI_APPLICATION = "babel_companion.asgi.application"
REDIS_PUSH_URL = os.getenv("REDIS_PUSH_URL", REDIS_URL)


def push_prefix(database: dict[str, Any]) -> str:
    """The names of this deployment's push channels begin with it. Redis's publish/subscribe
    ignores the database number of the URL: two deployments on one Redis server would hear each
    other's ``night-<id>`` news. By default it names the deployment's database (its host, port
    and name), which every process of one deployment shares and two deployments do not."""
    where = f"{database.get('HOST', '')}:{database.get('PORT', '')}/{database['NAME']}"
    return "babel-" + hashlib.sha256(where.encode()).hexdigest()[:12] + ":"


PUSH_PREFIX = envstr("PUSH_PREFIX", push_prefix(DATABASES["default"]))
if REDIS_PUSH_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [REDIS_PUSH_URL], "prefix": PUSH_PREFIX},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A pool child that holds more than this (KB resident) after a task is replaced by a fresh
# one: the memory a nightly rebuild took goes back to the machine instead of staying with
# the worker until it restarts. (Django and the tasks loaded: 58 MB here.)
CELERY_WORKER_MAX_MEMORY_PER_CHILD = envint("WORKER_MAX_MEMORY_KB", "150000")
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_SERIALIZER = "json"
# A broker that is down must not hang a request: publishing gives up quickly and the
# nightly rebuild catches up (see sessions.tasks).
# A task taken by a worker that is then killed whole (acks_late covers only a lost pool
# child) goes back to the queue once it has been unacknowledged this long; it must exceed
# the longest task (the nightly rebuild: 13 s for 100,000 sessions, see bench/statistics.py),
# or a task still running is delivered again (harmless, the tasks are idempotent, but wasted).
# Workers look for such tasks every tenth of it (between 1 and 10 s).
BROKER_VISIBILITY_TIMEOUT_SECONDS = envint("BROKER_VISIBILITY_TIMEOUT_SECONDS", "600")
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "max_retries": 1,
    "socket_connect_timeout": 2,
    "visibility_timeout": BROKER_VISIBILITY_TIMEOUT_SECONDS,
    "unacked_restore_interval": max(1, min(10, BROKER_VISIBILITY_TIMEOUT_SECONDS // 10)),
    "unacked_restore_throttle": 1,
}
# A worker reports every WORKER_HEARTBEAT_SECONDS (babel_companion.celery.Heartbeat); the
# readiness check (/health/ready) fails when none has for WORKER_REPORT_SECONDS.
WORKER_HEARTBEAT_SECONDS = 15
WORKER_REPORT_SECONDS = envint("WORKER_REPORT_SECONDS", "120")
CELERY_BEAT_SCHEDULE = {
    # Recomputes ratings, history, tallies and game totals from the Results.
    "nightly-statistics-rebuild": {"task": "sessions.tasks.rebuild_statistics", "schedule": crontab(hour=4, minute=15)},
    # Counts finished sessions whose update was never queued (the broker was down).
    "statistics-catch-up": {"task": "sessions.tasks.catch_up_statistics", "schedule": crontab(minute="*/10")},
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# A login is refused before its password is checked (docs/security.md says why these limits):
# - one account from one address, after LOGIN_FAILURE_LIMIT failures within LOGIN_COOLOFF_MINUTES
#   (django-axes, in the database shared by every process): the same account from another address
#   is not, so nobody can lock its owner out;
# - one address, whatever the accounts, after LOGIN_FAILURES_PER_ADDRESS failures in a window of
#   LOGIN_COOLOFF_MINUTES from its first try (in the cache, as the join codes' limits; django-axes
#   has one limit for all its lockout parameters). High enough for a venue's shared Wi-Fi.
# Both by the address client_address() gives.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
LOGIN_FAILURE_LIMIT = envint("LOGIN_FAILURE_LIMIT", "10")
LOGIN_FAILURES_PER_ADDRESS = envint("LOGIN_FAILURES_PER_ADDRESS", "100")
LOGIN_COOLOFF_MINUTES = envint("LOGIN_COOLOFF_MINUTES", "15")
AXES_FAILURE_LIMIT = LOGIN_FAILURE_LIMIT
AXES_COOLOFF_TIME = timedelta(minutes=LOGIN_COOLOFF_MINUTES)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_HANDLER = "sessions.views.accounts.LoginLimits"
AXES_CLIENT_IP_CALLABLE = "sessions.http.client_address"
AXES_LOCKOUT_CALLABLE = "sessions.views.accounts.locked_out"
AXES_RESET_ON_SUCCESS = True
# A try while locked out does not restart the cool-off: the wait the page names holds.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
# Only the failures are kept (and only for the cool-off), not a log of every login.
AXES_DISABLE_ACCESS_LOG = True
AXES_VERBOSE = False
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("it", _("Italian")), ("fr", _("French")), ("de", _("German"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = envstr("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(envstr("STATIC_ROOT", str(BASE_DIR / "static-collected")))
# Served by WhiteNoise from STATIC_ROOT after `collectstatic` (the Makefile runs it).
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

SESSION_COOKIE_SECURE = envbool("SECURE_COOKIES", "false")
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
# Served over HTTPS (SECURE_COOKIES on): plain HTTP is redirected and browsers are told to
# come back over HTTPS only, for a year (HSTS_SECONDS). The venue box sets 0: its names
# (localhost, the laptop's .local name) must stay usable over plain HTTP afterwards.
SECURE_SSL_REDIRECT = SESSION_COOKIE_SECURE
# A probe on the machine itself asks over plain HTTP (docs/hosting.md).
SECURE_REDIRECT_EXEMPT = [r"^health/"]
SECURE_HSTS_SECONDS = envint("HSTS_SECONDS", "31536000") if SESSION_COOKIE_SECURE else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = SESSION_COOKIE_SECURE
# Asking browsers to preload HSTS binds the whole domain for good: its owner's decision, not
# the app's, so `check --deploy`'s reminder about it is silenced.
SILENCED_SYSTEM_CHECKS = ["security.W021"]
# The pages load scripts, styles and images from this site only and have no inline script or
# style (htmx's eval and injected indicator styles are off in base.html); the push sockets
# are same-origin. django-csp sets the header.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if envbool("BEHIND_HTTPS_PROXY", "false") else None
# How many trusted proxies append to X-Forwarded-For in front of the app (0: the client is
# REMOTE_ADDR). sessions.http.client_address and DRF's throttles both use it.
PROXY_COUNT = envint("PROXY_COUNT", "0")

CALCULATOR_ANON_RATE = envstr("CALCULATOR_ANON_RATE", "120/minute")
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "sessions.api.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "EXCEPTION_HANDLER": "sessions.api.errors.exception_handler",
    # JSON bodies only, refusing documents nested too deep with a 400 (not a RecursionError).
    "DEFAULT_PARSER_CLASSES": ["sessions.api.parsers.JSONParser"],
    # "120/minute" style; 0 switches the anonymous calculator throttle off.
    "DEFAULT_THROTTLE_RATES": {"calculator": None if CALCULATOR_ANON_RATE == "0" else CALCULATOR_ANON_RATE},
    "NUM_PROXIES": PROXY_COUNT,
    "DEFAULT_PAGINATION_CLASS": "sessions.api.pagination.Page",
    "PAGE_SIZE": 50,
    # drf-spectacular's, documenting the error answers of every operation.
    "DEFAULT_SCHEMA_CLASS": "sessions.api.schema.AutoSchema",
}
# API tokens (django-rest-knox): the database keeps a SHA-512 digest of each key, never the
# key; each token has a name and expires (the owner picks 30, 90 or 365 days).
KNOX_TOKEN_MODEL = "babel.ApiToken"
# knox's own migrations would create a table for its default model even though ours replaces
# it: an unused table whose key to auth_user stops PostgreSQL from flushing the tables.
MIGRATION_MODULES = {"knox": None}
REST_KNOX = {"TOKEN_TTL": timedelta(days=90), "AUTH_HEADER_PREFIX": "Token", "AUTO_REFRESH": False}
API_TOKENS_PER_ACCOUNT = envint("API_TOKENS_PER_ACCOUNT", "20")

# The OpenAPI 3 schema at /api/schema/ and its docs at /api/docs/ (assets vendored by the
# sidecar package: no CDN).
SPECTACULAR_SETTINGS = {
    "TITLE": "Babel Companion API",
    "DESCRIPTION": "Groups, players, game nights, sessions with their event logs, results, and the public calculators.",
    "VERSION": VERSION,
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "SCHEMA_PATH_PREFIX": "/api/v1",
    # The games' JSON (event payloads, states, options, breakdowns, the export) typed.
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "sessions.api.shapes.add_shapes",
    ],
    "ENUM_NAME_OVERRIDES": {
        "SessionStatusEnum": "sessions.models.GameSession.STATUSES",
        "CubeStatusEnum": "sessions.api.schema.CUBE_STATUSES",
    },
}

# Join codes: how many wrong codes one device (a visitor's Django session) and one address
# may try per window before they must wait; a device that already joined is never counted.
JOIN_ATTEMPTS_PER_DEVICE = envint("JOIN_ATTEMPTS_PER_DEVICE", "10")
JOIN_ATTEMPTS_PER_ADDRESS = envint("JOIN_ATTEMPTS_PER_ADDRESS", "300")
JOIN_ATTEMPT_WINDOW_SECONDS = envint("JOIN_ATTEMPT_WINDOW_SECONDS", "600")
# A night's code stops working this many hours after its last session ended (none open).
JOIN_CODE_HOURS_AFTER_LAST_GAME = envint("JOIN_CODE_HOURS_AFTER_LAST_GAME", "6")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": envstr("LOG_LEVEL", "INFO")},
}
