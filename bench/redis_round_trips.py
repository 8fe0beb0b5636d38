"""Redis round trips of a move and of its devices' fetches (issue 41, point 3: at most 8 for a
move and all its fetches), on PostgreSQL and Redis as in production.

Run from the repository root: ``.venv/bin/python -m bench.redis_round_trips``. PostgreSQL is
``BENCH_DATABASE_URL`` (default postgres://postgres@127.0.0.1:5432/babel_bench_trips, dropped
and created afresh), Redis ``BENCH_REDIS_URL`` (default redis://127.0.0.1:6379/9, flushed).
A Tower of Babel table of three players, each with a seated phone, and the host's screen; the
host passes, then the host's screen and the three phones fetch their regions as the push makes
them (each sending back the ticket of its last answer, as static/js/app.js does, and its ETag,
as the browser does). Three
cycles warm it up; the fourth is counted: each command or pipeline the cache's Redis client
sends is one round trip (the push's PUBLISH, sent by the channel layer's own client, is one
more and not counted here). Printed: the round trips of the move and of each fetch, by command.
"""

from __future__ import annotations

import tempfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.databases import environment, set_up_django

POSTGRES_URL = "postgres://postgres@127.0.0.1:5432/babel_bench_trips"
REDIS_URL = "redis://127.0.0.1:6379/9"


def counted_round_trips(*, apart: bool) -> list[tuple[str, Counter[str]]]:
    """The round trips of each step of the fourth cycle; ``apart``: each device (and the move)
    served by a process of its own, which keeps only what it read or wrote itself."""
    import redis
    from django.core.cache.backends.locmem import LocMemCache
    from django.test import Client

    from bench.tables import started_tower
    from sessions import services
    from sessions.table.tickets import TICKET_HEADER

    trips: Counter[str] = Counter()
    command, pipeline = redis.Redis.execute_command, redis.client.Pipeline.execute

    def one_command(self: Any, *args: Any, **options: Any) -> Any:
        trips[str(args[0])] += 1
        return command(self, *args, **options)

    def one_pipeline(self: Any, *args: Any, **options: Any) -> Any:
        trips[f"pipeline of {len(self.command_stack)}"] += 1
        return pipeline(self, *args, **options)

    redis.Redis.execute_command = one_command  # type: ignore[method-assign]
    redis.client.Pipeline.execute = one_pipeline  # type: ignore[method-assign]

    owner, session, _players = started_tower()
    code = services.create_join_code(session=session).code
    host = Client()
    host.force_login(owner)
    phones = []
    for seat in session.seats.all():
        phone = Client()
        phone.get(f"/j/{code}/")
        phone.post(f"/j/{code}/seat/", {"seat": seat.key})
        phones.append(phone)
    tickets: dict[int, str] = {}
    etags: dict[int, str] = {}

    def fetch(device: Client, url: str, target: str) -> None:
        headers = {"HX-Request": "true", "HX-Target": target, TICKET_HEADER: tickets.get(id(device), "")}
        headers["If-None-Match"] = etags.get(id(device), "")
        answer = device.get(url, headers=headers)
        assert answer.status_code == 200, answer.status_code
        tickets[id(device)], etags[id(device)] = answer.get(TICKET_HEADER, ""), answer.get("ETag", "")

    def move() -> None:
        session.refresh_from_db()
        headers = {"HX-Request": "true", "HX-Target": "session"}
        answer = host.post(f"/s/{session.pk}/play/pass/", {"expected_version": session.version}, headers=headers)
        assert answer.status_code == 204, answer.status_code

    steps: list[tuple[str, Callable[[], None]]] = [
        ("the move (the host's pass)", move),
        ("the host's fetch", lambda: fetch(host, f"/s/{session.pk}/live/", "session")),
    ]

    def phone_fetch(phone: Client) -> Callable[[], None]:
        return lambda: fetch(phone, f"/j/{code}/live/", "guest")

    steps += [(f"phone {number}'s fetch", phone_fetch(phone)) for number, phone in enumerate(phones, 1)]
    if apart:
        processes = {name: LocMemCache(f"bench-{name}", {}) for name, _step in steps}
        steps = [(name, in_a_process_of_its_own(processes[name], step)) for name, step in steps]
    for _warm in range(3):
        for _name, step in steps:
            step()
    counted = []
    for name, step in steps:
        trips.clear()
        step()
        counted.append((name, Counter(trips)))
    redis.Redis.execute_command, redis.client.Pipeline.execute = command, pipeline  # type: ignore[method-assign]
    return counted


def in_a_process_of_its_own(memory: Any, step: Callable[[], None]) -> Callable[[], None]:
    """``step`` as served by a process of its own: its memory of kept values is ``memory``, and
    it has shown no session (the sessions a process shows are kept apart, less often)."""
    from sessions import selectors
    from sessions.table import keys

    def served() -> None:
        shared, keys._here = keys._here, lambda: memory
        selectors.forget_shown_sessions()
        try:
            step()
        finally:
            keys._here = shared

    return served


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        env, described = environment("postgres", Path(folder), postgres_url=POSTGRES_URL, redis_url=REDIS_URL)
        set_up_django(env)
        from django.test.utils import setup_test_environment

        setup_test_environment()  # the test client's host name allowed
        print(described)
        together, apart = counted_round_trips(apart=False), counted_round_trips(apart=True)
    for title, counted in (("one server process", together), ("each device on a process of its own", apart)):
        print(f"\n{title}:")
        for name, trips in counted:
            print(f"{name:28} {sum(trips.values()):3}  {dict(sorted(trips.items()))}")
        print(f"{'a move and its fetches':28} {sum(sum(t.values()) for _n, t in counted):3}  (target: 8)")


if __name__ == "__main__":
    main()
