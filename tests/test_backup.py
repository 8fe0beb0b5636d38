"""``manage.py backup`` and ``manage.py restore`` on SQLite (issue 43, point 5): a backup of the
demo restores row for row into an empty database, and an operator's mistakes (a database that
has tables, a file that is no backup, a backup of the other kind of database, a missing folder)
are refused with a sentence that names the problem, not a traceback. PostgreSQL's round trip is
tests/integration/test_backup_restore.py."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from contextlib import closing, contextmanager
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import override_settings

from sessions.management.commands import backup

REPO = Path(__file__).resolve().parent.parent
# The commands read DATABASES, never a connection, so overriding it is safe here: the test run's
# own connection stays on its test database.
pytestmark = pytest.mark.filterwarnings("ignore:Overriding setting DATABASES:UserWarning")


@contextmanager
def site_on(path: Path) -> Iterator[None]:
    """The commands run as on a site whose SQLite database is ``path`` (they read the settings
    only, never the test run's own connection)."""
    database = {"ENGINE": "django.db.backends.sqlite3", "NAME": str(path)}
    with override_settings(DATABASES={"default": database}):
        yield


def run(command: str, path: Path, *args: Any) -> str:
    out = StringIO()
    with site_on(path):
        call_command(command, *map(str, args), stdout=out)
    return out.getvalue()


def refusal(command: str, path: Path, *args: Any) -> str:
    with pytest.raises(CommandError) as refused:
        run(command, path, *args)
    return str(refused.value)


def rows_of(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every table's rows, sorted."""
    with closing(sqlite3.connect(path)) as database:
        names = [name for (name,) in database.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {name: sorted(database.execute(f'SELECT * FROM "{name}"'), key=repr) for name in names}


def small_site(path: Path) -> Path:
    """A database with a table and the migrations table, as any of this site's has."""
    with closing(sqlite3.connect(path)) as database:
        database.execute("CREATE TABLE django_migrations (id INTEGER PRIMARY KEY, app TEXT, name TEXT, applied TEXT)")
        database.execute("CREATE TABLE babel_group (id INTEGER PRIMARY KEY, name TEXT)")
        database.execute("INSERT INTO babel_group (name) VALUES ('Thursday table')")
        database.commit()
    return path


def site_environment(path: Path, state_dir: Path) -> dict[str, str]:
    """A site on the SQLite file ``path``, whatever database and Redis this test run uses."""
    theirs = ("DATABASE_URL", "REDIS_URL", "REDIS_CACHE_URL", "REDIS_PUSH_URL")
    environment = {name: value for name, value in os.environ.items() if name not in theirs}
    return environment | {"SQLITE_PATH": str(path), "STATE_DIR": str(state_dir)}


def manage(site: Path, state_dir: Path, *command: str) -> subprocess.CompletedProcess[str]:
    """``manage.py <command>`` in a process of its own, on the site at ``site``."""
    environment = site_environment(site, state_dir)
    return subprocess.run(
        [sys.executable, "manage.py", *command], cwd=REPO, env=environment, capture_output=True, text=True, timeout=300
    )


@pytest.fixture(scope="module")
def demo_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo's database as `make demo-data` makes it (WAL mode), once for the module."""
    directory = tmp_path_factory.mktemp("demo")
    for command in (["migrate", "--noinput"], ["load_demo"]):
        finished = manage(directory / "site.sqlite3", directory / "state", *command)
        assert finished.returncode == 0, f"manage.py {' '.join(command)}: {finished.stderr[-3000:]}"
    return directory / "site.sqlite3"


@pytest.fixture
def demo(demo_site: Path, tmp_path: Path) -> Path:
    """A copy of the demo's database for one test (its files: nothing writes to them now)."""
    for suffix in ("", "-wal"):
        if Path(f"{demo_site}{suffix}").exists():
            shutil.copyfile(f"{demo_site}{suffix}", tmp_path / f"site.sqlite3{suffix}")
    return tmp_path / "site.sqlite3"


def test_a_backup_of_the_demo_restores_every_row_into_an_empty_database(demo, tmp_path):
    said = run("backup", demo, tmp_path / "demo.backup")
    assert said.startswith(f"Backed up the SQLite database {demo} to {tmp_path / 'demo.backup'} (")

    restored = tmp_path / "restored.sqlite3"
    said = run("restore", restored, tmp_path / "demo.backup")

    assert f"Restored {tmp_path / 'demo.backup'} into the SQLite database {restored}." in said
    assert "Its migrations are this code's: the site can start." in said
    original = rows_of(demo)
    assert original["babel_sessionevent"]  # the demo, not an empty database
    assert rows_of(restored) == original


def test_a_backup_is_one_file_that_only_its_owner_can_read(demo, tmp_path):
    run("backup", demo, tmp_path / "demo.backup")

    # The password hashes and the open sessions' secrets are in it.
    assert (tmp_path / "demo.backup").stat().st_mode & 0o777 == 0o600
    assert sorted(path.name for path in tmp_path.iterdir() if path.name.startswith("demo")) == ["demo.backup"]
    with closing(sqlite3.connect(demo)) as site:
        assert site.execute("PRAGMA journal_mode").fetchone() == ("wal",)  # as the site keeps it
    with closing(sqlite3.connect(tmp_path / "demo.backup")) as copy:
        assert copy.execute("PRAGMA journal_mode").fetchone() == ("delete",)  # no log file needed beside it


def test_restore_refuses_a_database_that_has_tables_and_names_them(tmp_path):
    small_site(tmp_path / "site.sqlite3")
    run("backup", tmp_path / "site.sqlite3", tmp_path / "site.backup")
    there = small_site(tmp_path / "there.sqlite3")
    with closing(sqlite3.connect(there)) as database:
        database.execute("INSERT INTO babel_group (name) VALUES ('Only here')")
        database.commit()
    before = rows_of(there)

    said = refusal("restore", there, tmp_path / "site.backup")

    assert said.startswith(f"The SQLite database {there} already has 2 tables (babel_group, django_migrations)")
    assert "restore only into an empty database" in said
    assert rows_of(there) == before


def test_restore_fills_an_empty_database_file(tmp_path):
    small_site(tmp_path / "site.sqlite3")
    run("backup", tmp_path / "site.sqlite3", tmp_path / "site.backup")
    empty = tmp_path / "empty.sqlite3"
    empty.touch()  # an empty file is an SQLite database with no table yet

    run("restore", empty, tmp_path / "site.backup")

    assert rows_of(empty) == rows_of(tmp_path / "site.sqlite3")


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (b"hello\n", "is not a backup made by `manage.py backup`"),
        (b"PGDMP\x01\x0f\x00" + bytes(100), "is a backup of a PostgreSQL database, and this site's database is SQLite"),
    ],
    ids=["not-a-backup", "a-postgresql-backup"],
)
def test_restore_refuses_a_file_that_is_not_a_backup_of_this_kind_of_database(tmp_path, content, problem):
    (tmp_path / "file").write_bytes(content)

    said = refusal("restore", tmp_path / "site.sqlite3", tmp_path / "file")

    assert problem in said
    assert not (tmp_path / "site.sqlite3").exists()


def test_restore_refuses_an_sqlite_database_that_is_not_this_sites(tmp_path):
    with closing(sqlite3.connect(tmp_path / "other.sqlite3")) as other:
        other.execute("CREATE TABLE notes (text TEXT)")

    said = refusal("restore", tmp_path / "site.sqlite3", tmp_path / "other.sqlite3")

    assert said == f"{tmp_path / 'other.sqlite3'} is an SQLite database, but not a backup of this site's."


def test_restore_refuses_a_damaged_backup_and_leaves_the_database_empty(demo, tmp_path):
    run("backup", demo, tmp_path / "demo.backup")
    damaged = bytearray((tmp_path / "demo.backup").read_bytes())
    page = 4096 * (len(damaged) // 4096 // 2)  # a page in the middle, past the schema
    damaged[page : page + 4096] = b"\xff" * 4096
    (tmp_path / "demo.backup").write_bytes(bytes(damaged))

    said = refusal("restore", tmp_path / "restored.sqlite3", tmp_path / "demo.backup")

    assert said.startswith(f"{tmp_path / 'demo.backup'} is damaged: SQLite's check finds *** in database main ***")
    restored = tmp_path / "restored.sqlite3"
    assert not restored.exists() or rows_of(restored) == {}


def test_restore_names_a_missing_file_a_folder_and_a_missing_folder(tmp_path):
    small_site(tmp_path / "site.sqlite3")
    run("backup", tmp_path / "site.sqlite3", tmp_path / "site.backup")

    assert (
        refusal("restore", tmp_path / "new.sqlite3", tmp_path / "nothing")
        == f"There is no file {tmp_path / 'nothing'}."
    )
    assert refusal("restore", tmp_path / "new.sqlite3", tmp_path).startswith(f"{tmp_path} is not a file")
    assert refusal("restore", tmp_path / "none" / "new.sqlite3", tmp_path / "site.backup") == (
        f"The folder {tmp_path / 'none'} (of SQLITE_PATH) does not exist: create it first."
    )


def test_backup_names_a_missing_database_and_a_missing_folder(tmp_path):
    missing = tmp_path / "missing.sqlite3"
    assert refusal("backup", missing, tmp_path / "x.backup") == (
        f"There is no SQLite database at {missing}: nothing to back up."
    )
    small_site(tmp_path / "site.sqlite3")
    assert refusal("backup", tmp_path / "site.sqlite3", tmp_path / "none" / "x.backup") == (
        f"The folder {tmp_path / 'none'} does not exist: create it first."
    )
    assert refusal("backup", tmp_path / "site.sqlite3", tmp_path).startswith(f"{tmp_path} is a folder")


def test_a_backup_that_fails_leaves_the_older_backup_of_that_name_as_it_was(tmp_path):
    small_site(tmp_path / "site.sqlite3")
    run("backup", tmp_path / "site.sqlite3", tmp_path / "site.backup")
    older = (tmp_path / "site.backup").read_bytes()
    (tmp_path / "broken.sqlite3").write_bytes(b"not a database" * 100)

    said = refusal("backup", tmp_path / "broken.sqlite3", tmp_path / "site.backup")

    assert said.startswith(f"Cannot back up the SQLite database {tmp_path / 'broken.sqlite3'}: ")
    assert (tmp_path / "site.backup").read_bytes() == older
    assert not [path for path in tmp_path.iterdir() if path.name.endswith(".partial")]


def test_a_backup_replaces_an_older_backup_of_that_name_once_it_is_whole(tmp_path):
    site = small_site(tmp_path / "site.sqlite3")
    run("backup", site, tmp_path / "site.backup")
    with closing(sqlite3.connect(site)) as database:
        database.execute("INSERT INTO babel_group (name) VALUES ('Friday table')")
        database.commit()

    run("backup", site, tmp_path / "site.backup")

    run("restore", tmp_path / "restored.sqlite3", tmp_path / "site.backup")
    assert [name for _id, name in rows_of(tmp_path / "restored.sqlite3")["babel_group"]] == [
        "Thursday table",
        "Friday table",
    ]


def test_restore_says_a_backup_from_an_older_release_needs_migrate(demo, tmp_path):
    with closing(sqlite3.connect(demo)) as database:
        database.execute("DELETE FROM django_migrations WHERE app = 'babel' AND name = '0018_player_page_figures'")
        database.commit()
    run("backup", demo, tmp_path / "demo.backup")

    said = run("restore", tmp_path / "restored.sqlite3", tmp_path / "demo.backup")

    assert "The backup is from an older release: run `manage.py migrate` before starting the site" in said
    assert "(1 migration to apply: babel.0018_player_page_figures)." in said


def test_restore_says_a_backup_from_a_newer_release_needs_that_release(demo, tmp_path):
    with closing(sqlite3.connect(demo)) as database:
        database.execute(
            "INSERT INTO django_migrations (app, name, applied) VALUES ('babel', '9999_from_the_future', '2030-01-01')"
        )
        database.commit()
    run("backup", demo, tmp_path / "demo.backup")

    said = run("restore", tmp_path / "restored.sqlite3", tmp_path / "demo.backup")

    assert "The backup was made by a newer release than this code" in said
    assert "(babel.9999_from_the_future). Check out that release before starting the site." in said


def test_an_operators_mistake_is_one_sentence_on_standard_error_and_no_traceback(tmp_path):
    finished = manage(tmp_path / "site.sqlite3", tmp_path / "state", "restore", str(tmp_path / "nothing"))

    assert finished.returncode == 1
    assert finished.stderr == f"CommandError: There is no file {tmp_path / 'nothing'}.\n"


def test_pg_dump_and_pg_restore_get_the_password_in_their_environment_not_on_their_command_line():
    database = backup.Database(
        engine=backup.POSTGRESQL,
        config={
            "NAME": "babel",
            "USER": "babel",
            "PASSWORD": "s3cret pass'word",
            "HOST": "db.example",
            "PORT": 5433,
            "OPTIONS": {"sslmode": "require", "pool": {"max_size": 10}},
        },
    )

    conninfo, environment = database.libpq()

    assert "s3cret" not in conninfo
    assert environment["PGPASSWORD"] == "s3cret pass'word"
    assert dict(part.split("=") for part in conninfo.split()) == {
        "dbname": "babel",
        "host": "db.example",
        "port": "5433",
        "user": "babel",
        "sslmode": "require",
    }


def test_a_postgresql_site_without_pg_dump_is_told_what_to_install(monkeypatch, tmp_path):
    monkeypatch.setattr(backup.shutil, "which", lambda name: None)
    database = {"ENGINE": backup.POSTGRESQL, "NAME": "babel", "HOST": "127.0.0.1", "PORT": 5432, "USER": "postgres"}

    with override_settings(DATABASES={"default": database}), pytest.raises(CommandError) as refused:
        call_command("backup", str(tmp_path / "babel.backup"))

    assert str(refused.value).startswith("pg_dump is not installed, and backups of PostgreSQL need it")
    assert not list(tmp_path.iterdir())
