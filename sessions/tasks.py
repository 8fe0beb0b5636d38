"""Celery tasks: they take ids and call a service; the services make them idempotent."""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from sessions.statistics import services as statistics

RETRY = (OperationalError,)  # the database was busy or away: try again later, with backoff


@shared_task(acks_late=True, autoretry_for=RETRY, retry_backoff=True, max_retries=5)
def update_statistics(session_id: int) -> int:
    """After a session finishes: count it (and whatever else its group has pending)."""
    return statistics.update_statistics(session_id=session_id)


@shared_task(acks_late=True, autoretry_for=RETRY, retry_backoff=True, max_retries=3)
def catch_up_statistics() -> int:
    """Count the finished sessions whose task was lost (e.g. the broker was down)."""
    return statistics.catch_up()


@shared_task(acks_late=True, autoretry_for=RETRY, retry_backoff=True, max_retries=3)
def rebuild_statistics() -> None:
    """Recompute every statistic from the Results (the nightly consistency run)."""
    statistics.rebuild_all()


@shared_task(acks_late=True, autoretry_for=RETRY, retry_backoff=True, max_retries=3)
def rebuild_group_statistics(group_id: int) -> None:
    """After results changed players (a merge): recompute the group's statistics."""
    statistics.rebuild_group(group_id=group_id)


# The names of the tasks before the statistics took the tallies over: messages already
# queued under them still run.
@shared_task(acks_late=True, autoretry_for=RETRY, retry_backoff=True, max_retries=5)
def refresh_tallies(session_id: int) -> int:
    return statistics.update_statistics(session_id=session_id)


@shared_task(acks_late=True, autoretry_for=RETRY, retry_backoff=True, max_retries=3)
def rebuild_tallies() -> None:
    statistics.rebuild_all()
