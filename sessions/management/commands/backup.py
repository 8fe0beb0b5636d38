"""Back up the whole database to one file, which ``manage.py restore`` reads back.

PostgreSQL: pg_dump's custom format (compressed; pg_restore reads it). SQLite: a copy of the
database made by SQLite's own backup API, consistent even while the site writes. What else to
keep (the secret key) is in docs/backup-and-upgrades.md.

The commands read the database settings, never the ORM: a restore must not touch the database
it fills before it has checked it is empty, and both work the same on a site whose code is
newer or older than its database.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

POSTGRESQL, SQLITE = "django.db.backends.postgresql", "django.db.backends.sqlite3"
# The first bytes of each kind of backup file, to name a file of the wrong kind.
PG_DUMP_MAGIC, SQLITE_MAGIC = b"PGDMP", b"SQLite format 3\x00"
# Connection settings of libpq that DATABASE_URL may carry (?sslmode=require, ...): pg_dump
# and pg_restore must connect as the site does.
LIBPQ_OPTIONS = (
    "sslmode",
    "sslrootcert",
    "sslcert",
    "sslkey",
    "sslpassword",
    "connect_timeout",
    "options",
    "application_name",
    "target_session_attrs",
    "passfile",
    "service",
)


@dataclass(frozen=True)
class Database:
    """The site's database as its settings name it (``DATABASES["default"]``)."""

    engine: str
    config: dict[str, Any]

    @classmethod
    def configured(cls) -> Database:
        config = dict(settings.DATABASES["default"])
        engine = config["ENGINE"]
        if engine not in (POSTGRESQL, SQLITE):
            raise CommandError(f"Backups know PostgreSQL and SQLite; this site's database is {engine}.")
        return cls(engine=engine, config=config)

    @property
    def postgresql(self) -> bool:
        return self.engine == POSTGRESQL

    @property
    def name(self) -> str:
        return str(self.config["NAME"])

    def describe(self, *, starting: bool = False) -> str:
        """How messages name it ("the PostgreSQL database babel on db:5432"), capitalised to
        start a sentence."""
        described = self._described()
        return described[0].upper() + described[1:] if starting else described

    def _described(self) -> str:
        if self.postgresql:
            where = f"{self.config.get('HOST') or 'localhost'}:{self.config.get('PORT') or 5432}"
            return f"the PostgreSQL database {self.name} on {where}"
        return f"the SQLite database {self.name}"

    def sqlite_path(self) -> Path:
        if self.name == ":memory:" or self.name.startswith("file:"):
            raise CommandError(f"The SQLite database {self.name} is not a file: nothing to back up or restore.")
        return Path(self.name)

    def libpq(self) -> tuple[str, dict[str, str]]:
        """The connection string pg_dump and pg_restore take (``--dbname``), and their
        environment: the password goes there, not on a command line every user can read."""
        from psycopg.conninfo import make_conninfo

        config, options = self.config, self.config.get("OPTIONS") or {}
        params = {
            "dbname": self.name,
            "host": config.get("HOST"),
            "port": config.get("PORT"),
            "user": config.get("USER"),
        }
        params |= {key: options[key] for key in LIBPQ_OPTIONS if key in options}
        environment = dict(os.environ)
        if config.get("PASSWORD"):
            environment["PGPASSWORD"] = str(config["PASSWORD"])
        given = {key: str(value) for key, value in params.items() if value not in (None, "")}
        return make_conninfo(**given), environment


def postgres_tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise CommandError(
            f"{name} is not installed, and backups of PostgreSQL need it: install PostgreSQL's client tools "
            "of the server's version or newer (Debian: apt-get install postgresql-client)."
        )
    return found


def run_tool(command: list[str], environment: dict[str, str], failure: str) -> None:
    """Run pg_dump or pg_restore; when it fails, its own words (they name the problem: no such
    database, a refused password, a server newer than the tool) follow ``failure``."""
    finished = subprocess.run(command, env=environment, capture_output=True, text=True, check=False)
    if finished.returncode != 0:
        tool, code = Path(command[0]).name, finished.returncode
        ended = f"{tool} was killed by signal {-code}" if code < 0 else f"{tool} failed (exit status {code})"
        said = finished.stderr.strip() or finished.stdout.strip() or ended
        raise CommandError(f"{failure}\n{said}")


def sqlite_error(error: sqlite3.Error, what: str) -> CommandError:
    return CommandError(f"{what}: {error}")


@contextlib.contextmanager
def sqlite_connection(path: Path | str, *, read_only: bool = False) -> Iterator[sqlite3.Connection]:
    """A plain sqlite3 connection, closed after use (sqlite3's own context manager only commits)."""
    target = f"file:{Path(path).resolve().as_posix()}?mode=ro" if read_only else str(path)
    connection = sqlite3.connect(target, uri=read_only)
    try:
        yield connection
    finally:
        connection.close()


def file_kind(path: Path) -> str | None:
    """``postgresql`` or ``sqlite`` by the file's first bytes, None for anything else."""
    with path.open("rb") as file:
        start = file.read(len(SQLITE_MAGIC))
    if start.startswith(PG_DUMP_MAGIC):
        return "postgresql"
    if start == SQLITE_MAGIC:
        return "sqlite"
    return None


@contextlib.contextmanager
def written_in_place(target: Path) -> Iterator[Path]:
    """A file beside ``target`` to write, moved onto it only once written whole: a backup that
    fails midway leaves no half file, and an older backup of that name as it was. Created with
    mode 0600: a backup holds the password hashes and the open sessions' secrets."""
    descriptor, partial = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".partial")
    os.close(descriptor)
    try:
        yield Path(partial)
        os.replace(partial, target)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(partial)


def size(path: Path) -> str:
    count, unit = float(path.stat().st_size), "bytes"
    for larger in ("kB", "MB", "GB"):
        if count < 1000:
            break
        count, unit = count / 1000, larger
    return f"{count:.0f} bytes" if unit == "bytes" else f"{count:.1f} {unit}"


class Command(BaseCommand):
    help = (
        "Back up the whole database to FILE: pg_dump's custom format on PostgreSQL, a copy of the "
        "database file on SQLite. `manage.py restore FILE` puts it back into an empty database."
    )
    # Nothing but the settings is needed: a backup must work whatever state the code is in.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="The file to write (replaced, once the backup is whole, if it exists).")

    def handle(self, *args: Any, **options: Any) -> None:
        database = Database.configured()
        target = Path(options["file"]).expanduser()
        if target.is_dir():
            raise CommandError(f"{target} is a folder: name the file to write, e.g. {target / 'babel.backup'}.")
        if not target.parent.is_dir():
            raise CommandError(f"The folder {target.parent} does not exist: create it first.")
        try:
            with written_in_place(target) as partial:
                if database.postgresql:
                    self.dump_postgresql(database, partial)
                else:
                    self.copy_sqlite(database, partial)
        except OSError as error:
            raise CommandError(f"Cannot write {target}: {error.strerror or error}") from error
        self.stdout.write(f"Backed up {database.describe()} to {target} ({size(target)}).")

    def dump_postgresql(self, database: Database, partial: Path) -> None:
        conninfo, environment = database.libpq()
        command = [postgres_tool("pg_dump"), "--format=custom", f"--file={partial}", f"--dbname={conninfo}"]
        run_tool(command, environment, f"pg_dump could not back up {database.describe()}:")

    def copy_sqlite(self, database: Database, partial: Path) -> None:
        source = database.sqlite_path()
        if not source.is_file():
            raise CommandError(f"There is no SQLite database at {source}: nothing to back up.")
        try:
            # Read-only: the backup never writes to the site's database. SQLite's backup API
            # copies one consistent state of it, whatever the site writes meanwhile.
            with sqlite_connection(source, read_only=True) as live, sqlite_connection(partial) as copy:
                live.backup(copy)
                # One self-contained file: no write-ahead log beside it.
                copy.execute("PRAGMA journal_mode=DELETE")
        except sqlite3.Error as error:
            raise sqlite_error(error, f"Cannot back up {database.describe()}") from error
