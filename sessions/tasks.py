"""Celery tasks: they take ids and call a service; the services make them idempotent."""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from sessions import services


@shared_task(acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def refresh_tallies(session_id: int) -> None:
    services.refresh_tallies(session_id=session_id)


@shared_task(acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True, max_retries=3)
def rebuild_tallies() -> None:
    services.rebuild_tallies()
