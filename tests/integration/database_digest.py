"""What a database shows, as JSON: run as ``python -m tests.integration.database_digest`` with
DATABASE_URL (or SQLITE_PATH) naming the database. The backup and upgrade tests run it against
two databases and compare what each printed.

- ``pages``: the HTML of the pages its groups' owners see (each group's pages, each night,
  each session and its live region, each player's page), with what differs from one request
  to the next masked (CSRF tokens, the forms' idempotency keys; the live tickets and ETags
  travel in headers, which are not compared);
- ``replays``: per session, its stored state and the state its event log replays to;
- ``statistics``: the rows of the statistics tables, as sorted lists;
- ``tables``: per table, how many rows and a hash of them (for a restore: every row back).

It reads only: the logins and whatever the pages write are rolled back at the end. Run it
without REDIS_CACHE_URL, so that no render or version cached for one database is read for the
other.

The tests' side is at the end: databases of their own on the integration tests' PostgreSQL,
and ``manage.py`` and this digest run against one of them in a process of their own.
"""

from __future__ import annotations

import datetime
import decimal
import hashlib
import json
import os
import re
import subprocess
import sys
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import django
import psycopg

# Django's settings are read from the environment the test gave this process.
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "babel_companion.settings")
django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection, models, transaction  # noqa: E402
from django.test import Client  # noqa: E402
from django.urls import reverse  # noqa: E402

from sessions.games import GAMES  # noqa: E402
from sessions.models import (  # noqa: E402
    GameNight,
    GameSession,
    GameStatistics,
    Group,
    Membership,
    Player,
    PlayerMonth,
    PlayerRating,
    PlayerTally,
    RatedSession,
    RatingHistory,
)
from sessions.selectors import replayed_state  # noqa: E402

STATISTICS: list[type[models.Model]] = [
    PlayerRating,
    RatingHistory,
    PlayerMonth,
    GameStatistics,
    RatedSession,
    PlayerTally,
]

# What a page holds that is new on every request, whatever the database: the masked CSRF token
# (in forms and in the htmx headers) and the idempotency key of each form (a fresh one per
# render, so that a double tap records once). Each is replaced by its name. The live ticket
# (signed with the time it was given) and the ETag travel in headers, which are not compared.
VARYING = [
    (re.compile(r'(name="csrfmiddlewaretoken" value=")[^"]*(")'), r"\1CSRF\2"),
    (re.compile(r"(&quot;X-CSRFToken&quot;: ?&quot;)[^&]*(&quot;)"), r"\1CSRF\2"),
    (re.compile(r'("X-CSRFToken": ?")[^"]*(")'), r"\1CSRF\2"),
    (re.compile(r'(name="csrf-token" content=")[^"]*(")'), r"\1CSRF\2"),
    (re.compile(r'(name="idempotency_key" value=")[^"]*(")'), r"\1KEY\2"),
]


def masked(html: str) -> str:
    for pattern, replacement in VARYING:
        html = pattern.sub(replacement, html)
    return html


def plain(value: Any) -> Any:
    """A database value as JSON can hold it, the same for the same value on either database."""
    if isinstance(value, datetime.datetime | datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, decimal.Decimal | uuid.UUID):
        return str(value)
    if isinstance(value, bytes | memoryview):
        return bytes(value).hex()
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, dict | list):
        return json.loads(json.dumps(value, sort_keys=True, default=str))
    return value


def rows(model: type[models.Model]) -> list[list[Any]]:
    names = [field.attname for field in model._meta.concrete_fields]
    found = [[plain(value) for value in row] for row in model._default_manager.order_by().values_list(*names)]
    return sorted(found, key=lambda row: json.dumps(row, sort_keys=True))


def ids(rows: models.QuerySet[Any]) -> list[int]:
    return list(rows.order_by("pk").values_list("pk", flat=True))


def pages() -> dict[str, dict[str, Any]]:
    """Each group's pages as its owner sees them, by the owner's id and the path: the status and
    the masked HTML."""
    shown: dict[str, dict[str, Any]] = {}
    users = get_user_model().objects
    for group in Group.objects.order_by("pk"):
        owner = Membership.objects.filter(group=group, role=Membership.OWNER).order_by("pk").first()
        if owner is None:
            continue
        # localhost is one of the default ALLOWED_HOSTS ("testserver" is not).
        client = Client(SERVER_NAME="localhost")
        client.force_login(users.get(pk=owner.user_id))
        paths = ["/", *(reverse(name, args=[group.pk]) for name in ("group", "play_log", "leaderboard", "members"))]
        games = set(GameSession.objects.filter(group=group).values_list("game", flat=True))
        paths += [reverse("game_statistics", args=[group.pk, game]) for game in sorted(games & set(GAMES))]
        paths += [reverse("night", args=[pk]) for pk in ids(GameNight.objects.filter(group=group))]
        for pk in ids(GameSession.objects.filter(group=group)):
            # The page, and the live region its devices fetch after each move.
            paths += [reverse("session", args=[pk]), reverse("session_live", args=[pk])]
        paths += [reverse("player_statistics", args=[pk]) for pk in ids(Player.objects.filter(group=group))]
        for path in paths:
            answer = client.get(path, HTTP_ACCEPT_LANGUAGE="en")
            shown[f"{owner.user_id}:{path}"] = {
                "status": answer.status_code,
                "html": masked(answer.content.decode()),
            }
    return shown


def replays() -> dict[str, dict[str, Any]]:
    """Per session: the state stored with it, and the state its event log replays to (through
    the current code's rules, from the session's initial state)."""
    found: dict[str, dict[str, Any]] = {}
    for session in GameSession.objects.order_by("pk").prefetch_related("seats", "events"):
        try:
            replayed = plain(replayed_state(session))
        except Exception as refused:  # a log the rules refuse: reported, compared as a difference
            replayed = {"refused": f"{type(refused).__name__}: {refused}"}
        found[str(session.pk)] = {
            "version": session.version,
            "events": session.events.count(),
            "stored": plain(session.state),
            "replayed": replayed,
        }
    return found


def tables() -> dict[str, dict[str, Any]]:
    """Per table: its number of rows and a hash of them, read as the database gives them."""
    found: dict[str, dict[str, Any]] = {}
    with connection.cursor() as cursor:
        for table in sorted(connection.introspection.table_names(cursor)):
            cursor.execute(f"SELECT * FROM {connection.ops.quote_name(table)}")
            lines = sorted(json.dumps([plain(value) for value in row], default=str) for row in cursor.fetchall())
            found[table] = {"rows": len(lines), "sha256": hashlib.sha256("\n".join(lines).encode()).hexdigest()}
    return found


def digest() -> dict[str, Any]:
    with transaction.atomic():
        # Read before the pages, which log in (a Django session, the user's last login).
        found = {
            "tables": tables(),
            "statistics": {model._meta.db_table: rows(model) for model in STATISTICS},
            "replays": replays(),
            "pages": pages(),
        }
        transaction.set_rollback(True)
    return found


# --- the tests' side ----------------------------------------------------------------------------

REPO = Path(__file__).resolve().parents[2]
# The test run's own settings, which a process working on another database must not inherit:
# its database, Redis (a cache shared by two databases would answer one's pages with the
# other's renders; flushing it would disturb the other integration tests), and what would make
# the pages answer a test client otherwise (a redirect to HTTPS, a refused host name).
THE_RUNS_OWN = (
    *("DATABASE_URL", "SQLITE_PATH", "REDIS_URL", "REDIS_CACHE_URL", "REDIS_PUSH_URL", "PUSH_PREFIX"),
    *("ALLOWED_HOSTS", "SECURE_COOKIES", "BEHIND_HTTPS_PROXY", "PROXY_COUNT", "DEBUG"),
)


@dataclass(frozen=True)
class Server:
    """The integration tests' PostgreSQL server (DATABASE_URL's), for databases of a test's own."""

    host: str
    port: str
    user: str
    password: str

    @classmethod
    def of_the_tests(cls) -> Server:
        config = settings.DATABASES["default"]
        return cls(
            host=str(config.get("HOST") or "127.0.0.1"),
            port=str(config.get("PORT") or 5432),
            user=str(config.get("USER") or "postgres"),
            password=str(config.get("PASSWORD") or ""),
        )

    def url(self, database: str) -> str:
        password = f":{quote(self.password, safe='')}" if self.password else ""
        return f"postgres://{quote(self.user, safe='')}{password}@{self.host}:{self.port}/{database}"

    def connect(self, database: str = "postgres") -> psycopg.Connection[Any]:
        return psycopg.connect(
            dbname=database,
            host=self.host,
            port=self.port,
            user=self.user,
            password=self.password or None,
            autocommit=True,
            connect_timeout=5,
        )

    def create(self, database: str) -> None:
        """A new empty database of that name (one left by an interrupted run is dropped first)."""
        self.drop(database)
        with self.connect() as connection:
            connection.execute(f'CREATE DATABASE "{database}"')

    def drop(self, database: str) -> None:
        with self.connect() as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')

    def rows(self, database: str, query: str) -> list[tuple[Any, ...]]:
        with self.connect(database) as connection:
            return connection.execute(query).fetchall()


def environment(database_url: str, state_dir: Path) -> dict[str, str]:
    """A site on ``database_url``, with a secret key of its own and no Redis."""
    kept = {name: value for name, value in os.environ.items() if name not in THE_RUNS_OWN}
    return kept | {
        "DATABASE_URL": database_url,
        "SECRET_KEY": "database-digest-not-secret",
        "STATE_DIR": str(state_dir),
    }


def run(
    arguments: list[str], *, database_url: str, state_dir: Path, cwd: Path = REPO, timeout: float = 300
) -> subprocess.CompletedProcess[str]:
    """``python <arguments>`` in ``cwd`` (this checkout by default) against ``database_url``."""
    return subprocess.run(
        [sys.executable, *arguments],
        cwd=cwd,
        env=environment(database_url, state_dir),
        capture_output=True,
        text=True,
        check=False,
        timeout=timeout,
    )


class CommandFailed(Exception):
    """A command the tests ran to set a database up failed (its output says why)."""


def checked(finished: subprocess.CompletedProcess[str]) -> subprocess.CompletedProcess[str]:
    if finished.returncode != 0:
        raise CommandFailed(
            f"{' '.join(finished.args)} exited with {finished.returncode}:\n{finished.stdout[-3000:]}\n"
            f"{finished.stderr[-3000:]}"
        )
    return finished


def digest_of(database_url: str, state_dir: Path) -> dict[str, Any]:
    finished = checked(run(["-m", "tests.integration.database_digest"], database_url=database_url, state_dir=state_dir))
    return dict(json.loads(finished.stdout))


if __name__ == "__main__":
    json.dump(digest(), sys.stdout, sort_keys=True)
