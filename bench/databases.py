"""The two databases a benchmark runs on, each in a process of its own (Django is set up once
per process, for one database): PostgreSQL as in production, SQLite as ``make run``."""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from bench.push import fresh_database

NAMES = ("postgres", "sqlite")


def environment(database: str, folder: Path, *, postgres_url: str, redis_url: str | None) -> tuple[dict[str, str], str]:
    """The environment for ``database`` (PostgreSQL dropped and created afresh, Redis flushed;
    SQLite a new file in ``folder``, without Redis) and a line saying what it is."""
    env = {key: value for key, value in os.environ.items() if not key.startswith(("DATABASE_URL", "REDIS"))}
    env |= {"DJANGO_SETTINGS_MODULE": "babel_companion.settings", "LOG_LEVEL": "WARNING", "DEBUG": "0"}
    env.setdefault("SECRET_KEY", "bench-" + "x" * 50)
    if database == "sqlite":
        env["SQLITE_PATH"] = str(folder / "bench.sqlite3")
        return env, "SQLite (a new file, WAL), no Redis"
    if database != "postgres":
        raise SystemExit(f"unknown database {database!r}: postgres or sqlite")
    url = os.environ.get("BENCH_DATABASE_URL", postgres_url)
    fresh_database(url)
    env["DATABASE_URL"] = url
    described = f"PostgreSQL {url} (fresh)"
    if redis_url is not None:
        import redis

        url = os.environ.get("BENCH_REDIS_URL", redis_url)
        redis.Redis.from_url(url).flushdb()
        env |= {"REDIS_URL": url, "REDIS_CACHE_URL": url, "REDIS_PUSH_URL": url}
        described += f", Redis {url} (flushed)"
    return env, described


def set_up_django(env: dict[str, str]) -> None:
    """This process's Django, on the database ``env`` names, migrated."""
    os.environ.clear()
    os.environ.update(env)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def _run(pipe: Connection, target: Callable[..., Any], args: tuple[Any, ...]) -> None:
    pipe.send(target(*args))


def apart(target: Callable[..., Any], *args: Any) -> Any:
    """``target(*args)`` in a new process (spawned: nothing of this one's Django), its result."""
    context = multiprocessing.get_context("spawn")
    ours, theirs = context.Pipe()
    process = context.Process(target=_run, args=(theirs, target, args))
    process.start()
    result = ours.recv()
    process.join()
    return result
