"""Restore a backup made by ``manage.py backup`` into an empty database.

Only into an empty one: a restore into a database that has tables would mix the backup with
what is there (PostgreSQL: fail midway on the first table that exists; SQLite: overwrite it
whole), so the command refuses one and names its tables. PostgreSQL: pg_restore in a single
transaction (a restore that fails leaves the database empty), the restoring user owning
everything. SQLite: SQLite's backup API into the database file the settings name.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db.migrations.loader import MigrationLoader

from sessions.management.commands.backup import (
    Database,
    file_kind,
    postgres_tool,
    run_tool,
    sqlite_connection,
    sqlite_error,
)

# The tables a refusal names, at most.
NAMED = 5
KIND_NAMES = {"postgresql": "PostgreSQL", "sqlite": "SQLite"}
ARTICLES = {"postgresql": "a", "sqlite": "an"}
PG_TABLES = """
    SELECT n.nspname, c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f')
      AND n.nspname <> 'information_schema' AND n.nspname !~ '^pg_'
    ORDER BY n.nspname = 'public' DESC, n.nspname, c.relname
"""
SQLITE_TABLES = (
    "SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"
)


def listed(names: list[str]) -> str:
    shown = ", ".join(names[:NAMED])
    return f"{shown}, ..." if len(names) > NAMED else shown


class Command(BaseCommand):
    help = (
        "Restore a backup made by `manage.py backup` into this site's database, which must be empty "
        "(PostgreSQL: a new database from createdb; SQLite: no file yet at SQLITE_PATH). Stop the site first."
    )
    # Nothing but the settings is needed, and the database is empty until the restore is done.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="A backup written by `manage.py backup`.")

    def handle(self, *args: Any, **options: Any) -> None:
        database = Database.configured()
        source = Path(options["file"]).expanduser()
        self.check_backup_file(source, database)
        if database.postgresql:
            self.restore_postgresql(source, database)
        else:
            self.restore_sqlite(source, database)
        self.stdout.write(f"Restored {source} into {database.describe()}.")
        self.advise_on_migrations(database)

    def check_backup_file(self, source: Path, database: Database) -> None:
        if not source.exists():
            raise CommandError(f"There is no file {source}.")
        if not source.is_file():
            raise CommandError(f"{source} is not a file: name the backup file that `manage.py backup` wrote.")
        try:
            kind = file_kind(source)
        except OSError as error:
            raise CommandError(f"Cannot read {source}: {error.strerror or error}") from error
        if kind is None:
            raise CommandError(
                f"{source} is not a backup made by `manage.py backup`: neither a pg_dump archive (custom format) "
                "nor an SQLite database."
            )
        wanted = "postgresql" if database.postgresql else "sqlite"
        if kind != wanted:
            raise CommandError(
                f"{source} is a backup of {ARTICLES[kind]} {KIND_NAMES[kind]} database, and this site's database is "
                f"{KIND_NAMES[wanted]} ({database.describe()}): a backup goes back into the kind of database "
                "it came from. (To move groups between the two, use export_group and import_group.)"
            )

    # --- PostgreSQL ---------------------------------------------------------------------------

    def restore_postgresql(self, source: Path, database: Database) -> None:
        pg_restore = postgres_tool("pg_restore")
        conninfo, environment = database.libpq()
        # The archive's table of contents: a file cut short or damaged is named here, before the
        # database is touched.
        run_tool([pg_restore, "--list", str(source)], environment, f"{source} is not a whole pg_dump archive:")
        tables = self.postgresql_tables(database)
        if tables:
            raise CommandError(
                f"{database.describe(starting=True)} already has {len(tables)} table{'s' * (len(tables) != 1)} "
                f"({listed(tables)}): restore only into an empty database, so that nothing there mixes with "
                f"the backup. Create a new one (createdb --owner=<the site's user> <name>) and point DATABASE_URL "
                f"at it, or, to replace this one, drop it and create it again empty (dropdb {database.name}; "
                f"createdb {database.name}): only once you have a backup of it."
            )
        # --single-transaction: all or nothing (a failure rolls everything back and stops).
        # --no-owner, --no-privileges: everything belongs to the user restoring (the site's user),
        # whatever roles the backed-up server had.
        command = [pg_restore, "--no-owner", "--no-privileges", "--single-transaction"]
        run_tool(
            [*command, f"--dbname={conninfo}", str(source)],
            environment,
            f"pg_restore could not restore {source} into {database.describe()} (nothing was restored):",
        )

    def postgresql_rows(self, database: Database, query: str) -> list[tuple[Any, ...]]:
        import psycopg

        conninfo, environment = database.libpq()
        try:
            with psycopg.connect(conninfo, password=environment.get("PGPASSWORD")) as connection:
                return connection.execute(query).fetchall()
        except psycopg.OperationalError as error:
            said = str(error).strip()
            hint = ""
            if f'database "{database.name}" does not exist' in said:
                hint = "\nA restore needs an empty database: create it first (createdb --owner=<the site's user> "
                hint += f"{database.name})."
            raise CommandError(f"Cannot connect to {database.describe()}: {said}{hint}") from error

    def postgresql_tables(self, database: Database) -> list[str]:
        rows = self.postgresql_rows(database, PG_TABLES)
        return [name if schema == "public" else f"{schema}.{name}" for schema, name in rows]

    # --- SQLite -------------------------------------------------------------------------------

    def restore_sqlite(self, source: Path, database: Database) -> None:
        target = database.sqlite_path()
        if not target.parent.is_dir():
            raise CommandError(f"The folder {target.parent} (of SQLITE_PATH) does not exist: create it first.")
        tables = self.sqlite_tables(target, database) if target.exists() else []
        if tables:
            raise CommandError(
                f"{database.describe(starting=True)} already has {len(tables)} table{'s' * (len(tables) != 1)} "
                f"({listed(tables)}): restore only into an empty database, so that nothing there is overwritten. "
                f"Point SQLITE_PATH at a file that does not exist yet, or, to replace this one, move it away "
                f"(with its -wal and -shm files): only once you have a backup of it."
            )
        try:
            with sqlite_connection(source, read_only=True) as backup:
                problems = [line for (line,) in backup.execute("PRAGMA quick_check(5)")]
                if problems != ["ok"]:
                    raise CommandError(f"{source} is damaged: SQLite's check finds {'; '.join(problems)}")
                if not backup.execute(f"{SQLITE_TABLES} AND name = 'django_migrations'").fetchone():
                    raise CommandError(f"{source} is an SQLite database, but not a backup of this site's.")
                with sqlite_connection(target) as restored:
                    # Into the empty file in one step: the copy is written whole or not at all.
                    backup.backup(restored)
        except sqlite3.Error as error:
            raise sqlite_error(error, f"Cannot restore {source} into {database.describe()}") from error

    def sqlite_tables(self, target: Path, database: Database) -> list[str]:
        try:
            with sqlite_connection(target, read_only=True) as existing:
                return sorted(name for (name,) in existing.execute(SQLITE_TABLES))
        except sqlite3.Error as error:
            raise sqlite_error(error, f"Cannot read {database.describe()}") from error

    # --- after ----------------------------------------------------------------------------------

    def applied_migrations(self, database: Database) -> set[tuple[str, str]]:
        query = "SELECT app, name FROM django_migrations"
        if database.postgresql:
            return {(app, name) for app, name in self.postgresql_rows(database, query)}
        with sqlite_connection(database.sqlite_path(), read_only=True) as restored:
            return {(app, name) for app, name in restored.execute(query)}

    def advise_on_migrations(self, database: Database) -> None:
        """Says whether this code's migrations match the backup's: a backup from an older release
        needs `migrate`, one from a newer release needs that release's code."""
        known = set(MigrationLoader(None, ignore_no_migrations=True).graph.nodes)
        applied = self.applied_migrations(database)
        apps = {app for app, _name in known}
        newer = sorted(f"{app}.{name}" for app, name in applied - known if app in apps)
        older = sorted(f"{app}.{name}" for app, name in known - applied)
        if newer:
            self.stdout.write(
                f"The backup was made by a newer release than this code: it has migrations this code does not "
                f"know ({listed(newer)}). Check out that release before starting the site."
            )
        elif older:
            self.stdout.write(
                f"The backup is from an older release: run `manage.py migrate` before starting the site "
                f"({len(older)} migration{'s' * (len(older) != 1)} to apply: {listed(older)})."
            )
        else:
            self.stdout.write("Its migrations are this code's: the site can start.")
