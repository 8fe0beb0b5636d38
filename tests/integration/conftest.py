"""Fixtures for tests against the machine's real services (``make test-integration``).

A service that is not configured or does not answer skips the test on a developer's
machine, and fails it in CI (``CI=true``), where a skipped integration test would hide a
broken pipeline.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Any, NoReturn

import pytest
from django.conf import settings


def unavailable(message: str) -> NoReturn:
    """Skip, or fail when running in CI."""
    if os.environ.get("CI", "").strip().lower() == "true":
        pytest.fail(f"{message} (CI=true: integration services must be available)", pytrace=False)
    pytest.skip(message)


def postgres_problem() -> str | None:
    """Why the configured PostgreSQL cannot be used, or None when it answers."""
    config = settings.DATABASES["default"]
    if config["ENGINE"] != "django.db.backends.postgresql":
        return "DATABASE_URL does not point at PostgreSQL (e.g. postgres://postgres@127.0.0.1:5432/babel)"
    import psycopg

    try:
        # The maintenance database: the configured one is only needed as the test template's name.
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
    import redis

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
def django_db_setup(postgres_service: None, django_db_setup: None) -> Iterator[None]:
    """Check PostgreSQL before pytest-django tries to create the test database on it."""
    yield


def wait_for(check: Callable[[], Any], *, timeout: float, interval: float = 0.1, what: str) -> Any:
    """Poll ``check`` until it returns something truthy, at most ``timeout`` seconds."""
    import time

    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() >= deadline:
            pytest.fail(f"gave up after {timeout:g} s waiting for {what}", pytrace=False)
        time.sleep(interval)
