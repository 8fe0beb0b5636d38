"""Two writers at the same moment on PostgreSQL: the optimistic lock, the idempotency key and the one
rematch per session hold."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connections

from sessions import services
from sessions.models import GameSession, SessionEvent
from tests.integration.conftest import Table

pytestmark = pytest.mark.integration

ROUNDS = 5


def at_once(*calls: Callable[[], Any]) -> list[Any]:
    """Run the calls in threads released together; each gives its result or the exception it raised."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(index: int, call: Callable[[], Any]) -> None:
        try:
            barrier.wait(timeout=10)
            results[index] = call()
        except Exception as error:
            results[index] = error
        finally:
            connections.close_all()  # each thread has its own connection: do not leak it

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert not any(thread.is_alive() for thread in threads), "a writer is stuck"
    return results


def test_two_writers_naming_the_same_version_get_one_success_and_one_stale_write(
    postgres_service: None, table: Table
) -> None:
    session = table.new_session()
    services.append_event(session_id=session.pk, expected_version=0, type="session.start")
    ada, bruno, chiara = (str(p.pk) for p in table.players)

    for version in range(1, ROUNDS + 1):

        def write(points: int, version: int = version) -> services.EventOutcome:
            payload = {"scores": {ada: points, bruno: 10, chiara: 5}}
            return services.append_event(
                session_id=session.pk, expected_version=version, type="scores.record", payload=payload
            )

        outcomes = at_once(lambda: write(100), lambda: write(200))

        stale = [o for o in outcomes if isinstance(o, services.StaleWrite)]
        written = [o for o in outcomes if isinstance(o, services.EventOutcome)]
        assert len(written) == 1, outcomes
        assert len(stale) == 1, outcomes
        assert written[0].created
        assert stale[0].session.version == version + 1, "the refusal carries the fresh state"

    session.refresh_from_db()
    assert session.version == ROUNDS + 1
    assert list(session.events.values_list("seq", flat=True)) == list(range(1, ROUNDS + 2))
    winner = session.events.get(seq=ROUNDS + 1).payload["scores"][ada]
    assert session.state["entry"]["scores"][ada] == winner, "the state is the replay of the recorded events"


def test_two_writers_with_the_same_idempotency_key_record_one_event(postgres_service: None, table: Table) -> None:
    session = table.new_session()

    def start() -> services.EventOutcome:
        return services.append_event(
            session_id=session.pk, expected_version=0, type="session.start", idempotency_key="double-tap"
        )

    outcomes = at_once(start, start)

    assert all(isinstance(o, services.EventOutcome) for o in outcomes), outcomes
    assert sorted(o.created for o in outcomes) == [False, True]
    assert outcomes[0].event.pk == outcomes[1].event.pk
    assert SessionEvent.objects.filter(session=session).count() == 1
    fresh = GameSession.objects.get(pk=session.pk)
    assert (fresh.version, fresh.status) == (1, "playing")


def test_two_devices_asking_for_a_rematch_at_once_get_one_session(postgres_service: None, table: Table) -> None:
    for _round in range(ROUNDS):
        finished = table.play({"Ada": 30, "Bruno": 20, "Chiara": 10})

        def rematch(finished: GameSession = finished) -> services.RematchOutcome:
            return services.rematch_session(session=finished, author=table.owner)

        outcomes = at_once(rematch, rematch)

        assert all(isinstance(o, services.RematchOutcome) for o in outcomes), outcomes
        assert sorted(o.created for o in outcomes) == [False, True]
        assert outcomes[0].session.pk == outcomes[1].session.pk
        assert GameSession.objects.filter(rematch_of=finished).count() == 1
        fresh = GameSession.objects.get(pk=outcomes[0].session.pk)
        assert (fresh.status, fresh.version) == ("playing", 1), "started once"
