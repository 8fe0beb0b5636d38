"""The settings module reads only the environment."""

import importlib
import multiprocessing
import os
import stat
from pathlib import Path
from typing import Any
from unittest import mock

import pytest

import babel_companion.settings as settings_module


def load(**env):
    with mock.patch.dict(os.environ, env, clear=True):
        return importlib.reload(settings_module)


@pytest.fixture(autouse=True)
def _restore_settings():
    yield
    importlib.reload(settings_module)


def test_with_no_variables_it_runs_on_sqlite_in_wal_mode_with_inline_tasks(tmp_path):
    s = load(STATE_DIR=str(tmp_path))
    assert s.DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3"
    assert "journal_mode=WAL" in s.DATABASES["default"]["OPTIONS"]["init_command"]
    assert s.DATABASES["default"]["OPTIONS"]["timeout"] >= 5
    assert s.CELERY_TASK_ALWAYS_EAGER is True
    assert s.CACHES["default"]["BACKEND"].endswith("LocMemCache")
    assert s.DEBUG is False


def test_it_generates_a_secret_key_once_and_keeps_it_outside_the_repository(tmp_path):
    first = load(STATE_DIR=str(tmp_path)).SECRET_KEY
    second = load(STATE_DIR=str(tmp_path)).SECRET_KEY
    assert first == second
    assert len(first) >= 50
    key_file = tmp_path / "secret_key"
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert not str(key_file).startswith(str(settings_module.BASE_DIR))


def candidate_key(path: str, start: Any) -> str:
    start.wait()  # every process asks at the same moment
    return settings_module.local_secret_key(Path(path))


def test_processes_that_start_at_once_all_get_the_same_secret_key(tmp_path):
    """uvicorn's workers start together: before the key was linked into place atomically some
    read an empty or another process's key."""
    context = multiprocessing.get_context("fork")
    for round_number in range(5):
        path = tmp_path / f"round-{round_number}" / "secret_key"
        with context.Manager() as manager:
            start = manager.Barrier(12)
            with context.Pool(12) as pool:
                keys = pool.starmap(candidate_key, [(str(path), start)] * 12)
        assert len(set(keys)) == 1
        assert len(keys[0]) >= 50
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        assert [p.name for p in path.parent.iterdir()] == ["secret_key"]  # no candidate left behind


def test_a_database_url_selects_postgresql(tmp_path):
    s = load(STATE_DIR=str(tmp_path), DATABASE_URL="postgres://app:pw@db.example:5432/babel")
    db = s.DATABASES["default"]
    assert db["ENGINE"] == "django.db.backends.postgresql"
    assert (db["HOST"], db["NAME"], db["USER"]) == ("db.example", "babel", "app")


def test_a_redis_url_makes_redis_the_broker_and_the_cache(tmp_path):
    s = load(STATE_DIR=str(tmp_path), REDIS_URL="redis://cache:6379/1")
    assert s.CELERY_BROKER_URL == "redis://cache:6379/1"
    assert s.CELERY_TASK_ALWAYS_EAGER is False
    assert s.CACHES["default"]["BACKEND"].endswith("RedisCache")


def test_the_cache_can_live_in_its_own_redis_database(tmp_path):
    s = load(STATE_DIR=str(tmp_path), REDIS_URL="redis://r:6379/0", REDIS_CACHE_URL="redis://r:6379/1")
    assert (s.CELERY_BROKER_URL, s.CACHES["default"]["LOCATION"]) == ("redis://r:6379/0", "redis://r:6379/1")


def test_secret_key_and_debug_come_from_the_environment(tmp_path):
    s = load(STATE_DIR=str(tmp_path), SECRET_KEY="from-env", DEBUG="true", ALLOWED_HOSTS="babel.example, x.example")
    assert (s.SECRET_KEY, s.DEBUG) == ("from-env", True)
    assert s.ALLOWED_HOSTS == ["babel.example", "x.example"]


def test_secure_cookies_also_redirect_to_https_and_ask_for_hsts(tmp_path):
    s = load(STATE_DIR=str(tmp_path), SECURE_COOKIES="true")
    assert (s.SECURE_SSL_REDIRECT, s.SECURE_HSTS_SECONDS, s.SECURE_HSTS_INCLUDE_SUBDOMAINS) == (True, 31_536_000, True)
    plain = load(STATE_DIR=str(tmp_path))
    assert (plain.SECURE_SSL_REDIRECT, plain.SECURE_HSTS_SECONDS) == (False, 0)


def test_a_venue_box_keeps_secure_cookies_without_binding_its_names_to_https(tmp_path):
    s = load(STATE_DIR=str(tmp_path), SECURE_COOKIES="true", HSTS_SECONDS="0")
    assert (s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SECURE_HSTS_SECONDS) == (True, True, 0)


def test_a_worker_child_that_grew_past_the_limit_is_replaced(tmp_path):
    assert load(STATE_DIR=str(tmp_path)).CELERY_WORKER_MAX_MEMORY_PER_CHILD == 150_000
    assert load(STATE_DIR=str(tmp_path), WORKER_MAX_MEMORY_KB="90000").CELERY_WORKER_MAX_MEMORY_PER_CHILD == 90_000
