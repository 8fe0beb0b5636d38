"""What an operator's probes ask (docs/hosting.md): is the process up (liveness), and can it
serve (readiness: the database answers and has every migration of this code, Redis answers, a
Celery worker has reported lately). Each check is cheap enough to be polled every few
seconds: a SELECT 1, the names of the applied migrations, a PING per Redis and a cache read.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

import redis
from django.conf import settings
from django.db import DatabaseError, connection
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.recorder import MigrationRecorder

from sessions import caching

# When a worker last said it is there (``worker_reported``), kept for twice the time a worker
# may stay silent, so that a silent one is told apart from a cache that lost the key.
WORKER_SEEN_KEY = "health:worker-seen"


def worker_reported() -> None:
    """A worker's heartbeat (``babel_companion.celery.Heartbeat``, every few seconds)."""
    caching.set_value(WORKER_SEEN_KEY, time.time(), timeout=2 * settings.WORKER_REPORT_SECONDS)


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    detail: str  # what an operator reads: never a URL, a host or a secret
    ms: float


def readiness() -> list[Check]:
    """Every check, in order; the process is ready when all are ok."""
    checks = [("database", _database), ("migrations", _migrations), ("redis", _redis), ("worker", _worker)]
    return [_timed(name, check) for name, check in checks]


def _timed(name: str, check: Callable[[], tuple[bool, str]]) -> Check:
    began = time.perf_counter()
    ok, detail = check()
    return Check(name, ok, detail, round((time.perf_counter() - began) * 1000, 1))


def _database() -> tuple[bool, str]:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except DatabaseError as error:
        return False, f"does not answer ({type(error).__name__})"
    return True, "answers"


@cache
def _migrations_of_this_code() -> dict[tuple[str, str], frozenset[tuple[str, str]]]:
    """The migrations of this code, each with those it replaces (a squashed one): read from
    disk once a process, since the code does not change under it."""
    loader = MigrationLoader(None, ignore_no_migrations=True)
    return {key: frozenset(loader.disk_migrations[key].replaces) for key in loader.graph.nodes}


def _migrations() -> tuple[bool, str]:
    try:
        applied = set(MigrationRecorder(connection).applied_migrations())
    except DatabaseError as error:
        return False, f"cannot be read ({type(error).__name__})"
    wanted = _migrations_of_this_code().items()
    missing = [key for key, replaced in wanted if key not in applied and not (replaced and replaced <= applied)]
    if missing:
        return False, f"{len(missing)} not applied: run manage.py migrate"
    return True, "all applied"


def _redis() -> tuple[bool, str]:
    """Each Redis the app uses (the cache, the push, the broker), by role, never by address."""
    roles = {"cache": settings.REDIS_CACHE_URL, "push": settings.REDIS_PUSH_URL, "broker": settings.REDIS_URL}
    used = {role: url for role, url in roles.items() if url}
    if not used:
        return True, "not used (local memory, tasks run inline)"
    silent = []
    for role, url in used.items():
        try:
            redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=1).ping()
        except (redis.RedisError, OSError):
            silent.append(role)
    if silent:
        return False, "does not answer: " + ", ".join(silent)
    return True, "answers: " + ", ".join(used)


def _worker() -> tuple[bool, str]:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return True, "tasks run inline (no worker)"
    seen = caching.get(WORKER_SEEN_KEY)
    if seen is None:
        return False, f"none has reported in {settings.WORKER_REPORT_SECONDS} s"
    age = time.time() - float(seen)
    if age > settings.WORKER_REPORT_SECONDS:
        return False, f"last reported {age:.0f} s ago"
    return True, f"reported {age:.0f} s ago"
