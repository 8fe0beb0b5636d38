"""Backup and restore on PostgreSQL (issue 43, point 5), as docs/backup-and-upgrades.md tells
an operator: the demo's database backed up with ``manage.py backup``, restored with ``manage.py
restore`` into an empty database, shows the same pages, keeps event logs that replay to their
stored states, and the same statistics and rows. Each database is read by
``tests.integration.database_digest`` in a process of its own, with DATABASE_URL naming it.
SQLite's side is tests/test_backup.py."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.integration.conftest import unavailable
from tests.integration.database_digest import Server, checked, digest_of, run

pytestmark = pytest.mark.integration

# Databases of these tests' own, dropped at the end (never the other integration tests' babel,
# test_babel or the benchmarks' babel_bench_*).
SOURCE, TARGET, DAMAGED = "babel_backup_src", "babel_backup_dst", "babel_backup_damaged"


@dataclass
class Restored:
    server: Server
    backup: Path
    state_dir: Path
    said: str  # what `manage.py restore` printed
    source: dict[str, Any]  # the digests
    target: dict[str, Any]

    def manage(self, database: str, *arguments: str) -> Any:
        return run(["manage.py", *arguments], database_url=self.server.url(database), state_dir=self.state_dir)


@pytest.fixture(scope="module")
def restored(postgres_service: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Restored]:
    if shutil.which("pg_dump") is None or shutil.which("pg_restore") is None:
        unavailable("pg_dump and pg_restore are not installed (Debian: postgresql-client)")
    server = Server.of_the_tests()
    directory = tmp_path_factory.mktemp("backup")
    backup, state_dir = directory / "babel.backup", directory / "state"
    try:
        server.create(SOURCE)
        source = server.url(SOURCE)
        checked(run(["manage.py", "migrate", "--noinput"], database_url=source, state_dir=state_dir))
        checked(run(["manage.py", "load_demo"], database_url=source, state_dir=state_dir))
        checked(run(["manage.py", "backup", str(backup)], database_url=source, state_dir=state_dir))
        server.create(TARGET)
        target = server.url(TARGET)
        said = checked(run(["manage.py", "restore", str(backup)], database_url=target, state_dir=state_dir)).stdout
        yield Restored(
            server=server,
            backup=backup,
            state_dir=state_dir,
            said=said,
            source=digest_of(source, state_dir),
            target=digest_of(target, state_dir),
        )
    finally:
        for database in (SOURCE, TARGET, DAMAGED):
            server.drop(database)


def test_restore_says_what_it_restored_and_that_the_site_can_start(restored):
    assert restored.said == (
        f"Restored {restored.backup} into the PostgreSQL database {TARGET} on "
        f"{restored.server.host}:{restored.server.port}.\nIts migrations are this code's: the site can start.\n"
    )


def test_the_restored_database_shows_the_same_pages(restored):
    pages, again = restored.source["pages"], restored.target["pages"]
    # The group's pages, its night, its 5 sessions (and their live regions), its 5 players.
    assert len(pages) >= 20
    assert all(page["status"] == 200 for page in pages.values())
    assert sorted(again) == sorted(pages)
    for path, page in pages.items():
        assert again[path] == page, f"{path} differs after the restore"


def test_every_restored_event_log_replays_to_the_stored_state_of_its_session(restored):
    replays = restored.target["replays"]
    assert len(replays) == 5
    for session, replay in replays.items():
        assert replay["replayed"] == replay["stored"], f"session {session}'s log does not replay to its state"
    assert replays == restored.source["replays"]


def test_the_restored_statistics_tables_hold_the_same_rows(restored):
    statistics = restored.source["statistics"]
    assert all(statistics.values())  # the demo counts its games: no table is empty
    assert restored.target["statistics"] == statistics


def test_every_table_comes_back_with_the_same_rows(restored):
    assert restored.target["tables"] == restored.source["tables"]


def test_restore_refuses_the_database_it_filled_and_names_its_tables(restored):
    finished = restored.manage(TARGET, "restore", str(restored.backup))

    assert finished.returncode == 1
    assert finished.stderr.startswith(
        f"CommandError: The PostgreSQL database {TARGET} on {restored.server.host}:{restored.server.port} "
        "already has 35 tables (auth_group, auth_group_permissions, auth_permission, auth_user, auth_user_groups, "
        "...): restore only into an empty database"
    )
    assert "Traceback" not in finished.stderr
    events = restored.server.rows(TARGET, "SELECT count(*) FROM babel_sessionevent")
    assert events == [(restored.target["tables"]["babel_sessionevent"]["rows"],)]


def test_a_backup_that_fails_to_restore_leaves_the_database_empty(restored, tmp_path):
    # Bytes of the data near the end overwritten: the table of contents still reads, the data does not.
    damaged = bytearray(restored.backup.read_bytes())
    damaged[-4000:-3000] = b"A" * 1000
    (tmp_path / "damaged.backup").write_bytes(bytes(damaged))
    restored.server.create(DAMAGED)

    finished = restored.manage(DAMAGED, "restore", str(tmp_path / "damaged.backup"))

    assert finished.returncode == 1
    assert finished.stderr.startswith(
        f"CommandError: pg_restore could not restore {tmp_path / 'damaged.backup'} into the PostgreSQL database "
        f"{DAMAGED} on {restored.server.host}:{restored.server.port} (nothing was restored):\n"
    )
    tables = "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'"
    assert restored.server.rows(DAMAGED, tables) == [(0,)]


def test_restore_names_a_database_that_does_not_exist(restored):
    finished = restored.manage("babel_backup_nowhere", "restore", str(restored.backup))

    assert finished.returncode == 1
    assert finished.stderr.startswith(
        "CommandError: Cannot connect to the PostgreSQL database babel_backup_nowhere on "
        f"{restored.server.host}:{restored.server.port}: "
    )
    assert "createdb --owner=<the site's user> babel_backup_nowhere" in finished.stderr
    assert "Traceback" not in finished.stderr
