"""PostgreSQL ends the app's connections (a restart, a failover, an administrator): the pool
never lends a dead one, so no request after it answers 500 (issue 41, point 7).

A real uvicorn process on the test database; its connections are terminated from the
database's side, as a restart does, between two rounds of requests."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from django.db import connection

from bench import servers as server_processes
from sessions import services
from tests.integration.conftest import Table
from tests.integration.test_push_across_processes import logged_in

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def server(django_db_setup: None, tmp_path) -> Iterator[server_processes.Server]:
    env = {**os.environ, "DATABASE_URL": server_processes.database_url(connection.settings_dict)}
    with server_processes.running(1, env=env, log_dir=tmp_path) as (started,):
        yield started


def terminate_the_apps_connections() -> int:
    """Ends every other connection to the test database, as a restart of PostgreSQL does."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        return int(cursor.fetchone()[0])


def test_no_request_answers_500_after_postgresql_ended_the_apps_connections(
    server: server_processes.Server, table: Table
) -> None:
    session = table.new_session()
    services.append_event(session_id=session.pk, expected_version=0, type="session.start")
    host = logged_in(table.owner)
    page = f"/s/{session.pk}/"
    assert [host.request(server, "GET", page)[0] for _ in range(5)] == [200] * 5
    for _round in range(3):
        assert terminate_the_apps_connections() >= 1  # the server's pooled connections
        statuses = [host.request(server, "GET", page)[0] for _ in range(20)]
        assert statuses == [200] * 20, f"after the connections ended: {statuses}"
