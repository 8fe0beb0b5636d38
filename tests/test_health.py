"""The probes' endpoints (issue 43, point 4): /health/live answers while the process does;
/health/ready says, without a secret, whether the database answers with every migration
applied, Redis answers and a worker reported lately, and answers 503 when one does not."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client

from sessions import health

pytestmark = pytest.mark.django_db


def _ready(client: Client) -> tuple[int, dict[str, Any]]:
    answer = client.get("/health/ready")
    assert answer["Content-Type"] == "application/json"
    return answer.status_code, json.loads(answer.content)


def test_it_says_the_process_is_live_with_its_version_and_no_query(client, django_assert_num_queries):
    with django_assert_num_queries(0):
        answer = client.get("/health/live")
    assert answer.status_code == 200
    assert json.loads(answer.content) == {"status": "live", "version": settings.VERSION}
    assert "no-cache" in answer["Cache-Control"]


def test_it_is_ready_when_the_database_answers_with_every_migration_applied(client):
    health.worker_reported()  # as a worker does, where tasks go to one (REDIS_URL set)
    status, body = _ready(client)
    assert status == 200
    assert body["status"] == "ready"
    assert body["version"] == settings.VERSION
    assert {name: check["ok"] for name, check in body["checks"].items()} == {
        "database": True,
        "migrations": True,
        "redis": True,
        "worker": True,
    }


def test_it_is_not_ready_while_a_migration_of_this_code_is_not_applied(client):
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM django_migrations WHERE app = 'babel' AND name LIKE '0001%%'")
    status, body = _ready(client)
    assert status == 503
    assert body["status"] == "not ready"
    migrations = body["checks"]["migrations"]
    assert (migrations["ok"], migrations["detail"]) == (False, "1 not applied: run manage.py migrate")


def test_it_is_not_ready_until_a_worker_reports_and_again_when_none_has_lately(client, settings, monkeypatch):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    status, body = _ready(client)
    assert (status, body["checks"]["worker"]["ok"]) == (503, False)
    health.worker_reported()
    status, body = _ready(client)
    assert (status, body["checks"]["worker"]["ok"]) == (200, True)
    later = time.time() + settings.WORKER_REPORT_SECONDS + 1
    monkeypatch.setattr(health.time, "time", lambda: later)
    status, body = _ready(client)
    assert (status, body["checks"]["worker"]["ok"]) == (503, False)
    assert body["checks"]["worker"]["detail"].startswith("last reported")


def test_a_redis_that_does_not_answer_is_named_by_its_role_never_by_its_address(client, settings):
    settings.REDIS_PUSH_URL = "redis://someone:hunter2@127.0.0.1:1/0"  # nothing listens on port 1
    status, body = _ready(client)
    assert status == 503
    assert body["checks"]["redis"]["ok"] is False
    assert body["checks"]["redis"]["detail"] == "does not answer: push"
    text = json.dumps(body)
    assert "hunter2" not in text
    assert "127.0.0.1" not in text
    assert settings.SECRET_KEY not in text
