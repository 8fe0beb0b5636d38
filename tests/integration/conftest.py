"""Fixtures for tests against the machine's real services (``make test-integration``).

A service that is not configured or does not answer skips the test on a developer's
machine, and fails it in CI (``CI=true``), where a skipped integration test would hide a
broken pipeline.
"""

from __future__ import annotations

import datetime
import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, NoReturn

import psycopg
import pytest
import redis
from django.conf import settings
from django.contrib.auth.models import User

from sessions import services
from sessions.models import GameSession, Player


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() == "true"


def unavailable(message: str) -> NoReturn:
    """Skip, or fail when running in CI."""
    if in_ci():
        pytest.fail(f"{message}. CI=true, so the integration services must be up.", pytrace=False)
    pytest.skip(message)


def postgres_problem() -> str | None:
    """Why the configured PostgreSQL cannot be used, or None when it answers."""
    config = settings.DATABASES["default"]
    if config["ENGINE"] != "django.db.backends.postgresql":
        return "DATABASE_URL does not point at PostgreSQL (e.g. postgres://postgres@127.0.0.1:5432/babel)"
    try:
        # The maintenance database: the configured one need not exist, pytest-django makes test_<name>.
        psycopg.connect(
            dbname="postgres",
            user=config.get("USER") or None,
            password=config.get("PASSWORD") or None,
            host=config.get("HOST") or None,
            port=config.get("PORT") or None,
            connect_timeout=3,
        ).close()
    except psycopg.Error as error:
        return f"PostgreSQL at {config.get('HOST')}:{config.get('PORT')} does not answer: {error}"
    return None


def redis_problem() -> str | None:
    """Why the configured Redis cannot be used, or None when it answers."""
    url = os.environ.get("REDIS_URL", "")
    if not url:
        return "REDIS_URL is not set (e.g. redis://127.0.0.1:6379/0)"
    try:
        redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2).ping()
    except redis.RedisError as error:
        return f"Redis at {url} does not answer: {error}"
    return None


@pytest.fixture(scope="session")
def postgres_service() -> None:
    problem = postgres_problem()
    if problem:
        unavailable(problem)


@pytest.fixture(scope="session")
def redis_service() -> None:
    problem = redis_problem()
    if problem:
        unavailable(problem)


@pytest.fixture(scope="session")
def django_db_setup(postgres_service: None, django_db_setup: None) -> None:
    """Check PostgreSQL (``postgres_service``) before pytest-django creates the test database on it."""


def wait_for(check: Callable[[], Any], *, timeout: float, what: str, interval: float = 0.1) -> Any:
    """Poll ``check`` until it returns something truthy, for at most ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() >= deadline:
            pytest.fail(f"gave up after {timeout:g} s waiting for {what}", pytrace=False)
        time.sleep(interval)


@dataclass
class Table:
    """An owner's group with three players and tonight's game night."""

    owner: User
    players: list[Player]
    night: Any

    def new_session(self) -> GameSession:
        return services.create_session(night=self.night, game="tower-of-babel", players=self.players)

    def play(self, scores: Mapping[str, int]) -> GameSession:
        """A whole session through the services: start, the final scores by name, finish."""
        session = self.new_session()
        by_name = {player.name: player for player in self.players}
        payload = {"scores": {str(by_name[name].pk): points for name, points in scores.items()}}
        for version, (kind, data) in enumerate(
            [("session.start", {}), ("scores.record", payload), ("session.finish", {})]
        ):
            services.append_event(
                session_id=session.pk, expected_version=version, type=kind, payload=data, author=self.owner
            )
        session.refresh_from_db()
        assert session.status == "finished"
        return session


@pytest.fixture
def table(transactional_db: None) -> Table:
    owner = User.objects.create_user("olga", password="owner-pass-123")
    group = services.create_group(owner=owner, name="Thursday table")
    players = [services.create_player(group=group, name=name) for name in ["Ada", "Bruno", "Chiara"]]
    night = services.create_night(group=group, date=datetime.date(2026, 11, 19), place="Ada's")
    return Table(owner=owner, players=players, night=night)
