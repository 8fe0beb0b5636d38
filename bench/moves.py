"""What a move costs the server, and what each device's fetch after it costs (issue 16,
items 2 and 3), against a "hello" view in the same process.

Run from the repository root: ``.venv/bin/python -m bench.moves`` (``--repeats 40``,
``--database postgres,sqlite``; PostgreSQL with Redis as the cache, as in production, SQLite
without, as ``make run``). Requests go through Django's whole stack in this process
(``django.test.Client``: middleware, sessions, CSRF, templates; no network), so the figures
are the server's own work. On a Tower of Babel table of 3 players, each with a phone:

- hello: a view answering ``HttpResponse("hello")`` (the baseline);
- a move: the host's pass (``POST /s/<id>/play/pass/`` from htmx, answered 204: the region
  then fetches itself, as every member's screen does) and a score entry
  (``POST /s/<id>/scores/``);
- the fetches after a change (a pass, made before each and not timed), as each device makes
  them when it hears of it, without an ETag (the version is new to them): the first device of
  a view renders it (the host's region ``GET /s/<id>/live/``, a seated phone's
  ``GET /j/<code>/live/``); every other device of the same view gets that render from the
  cache (a second member's screen, a phone watching without a seat); another seated phone
  renders its own region around the board the first one rendered;
- a phone's 304 (its version unchanged).

Every device sends back the ticket of its last fetch, as static/js/app.js does (see
sessions/live.py); the last row is a 304 without one (a page's first fetch, or an old ticket).

Printed for each: the median and p90 time of ``--repeats`` requests, its ratio to hello's
median, and its queries. Targets: a move at most 10x hello and 8 queries; a device's fetch
after a change at most 3x hello.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench import databases, tables

DATABASE_URL = "postgres://postgres@127.0.0.1:5432/babel_bench_moves"
REDIS_URL = "redis://127.0.0.1:6379/8"  # PostgreSQL runs as in production: with Redis as the cache


@dataclass
class Measured:
    name: str
    times: list[float]  # ms
    queries: int

    @property
    def median(self) -> float:
        return statistics.median(self.times)

    @property
    def p90(self) -> float:
        ordered = sorted(self.times)
        return ordered[int(0.9 * (len(ordered) - 1))]


def measure(name: str, repeats: int, request: Callable[[], Any], prepare: Callable[[], Any] = lambda: None) -> Measured:
    """``request()`` timed ``repeats`` times, each after ``prepare()`` (not timed)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    prepare()
    request()  # warm: templates loaded, translations read
    times = []
    for _ in range(repeats):
        prepare()
        began = time.perf_counter()
        request()
        times.append((time.perf_counter() - began) * 1000)
    prepare()
    with CaptureQueriesContext(connection) as captured:
        request()
    return Measured(name=name, times=times, queries=len(captured))


def run(database: str, repeats: int) -> str:
    """In a process of its own, on one database."""
    with tempfile.TemporaryDirectory(prefix="babel-bench-moves-") as folder:
        env, setup = databases.environment(database, Path(folder), postgres_url=DATABASE_URL, redis_url=REDIS_URL)
        databases.set_up_django(env)
        from django.conf import settings

        settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
        settings.STORAGES = {
            **settings.STORAGES,
            "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
        }
        lines = [f"{database}: {setup}; {repeats} requests each, Django's whole stack in-process"]
        results = measure_table(repeats)
        hello = results[0].median
        lines.append("request | median ms | p90 ms | x hello | queries")
        for result in results:
            ratio = result.median / hello
            lines.append(f"{result.name} | {result.median:.2f} | {result.p90:.2f} | {ratio:.1f} | {result.queries}")
        return "\n".join(lines)


def measure_table(repeats: int) -> list[Measured]:

    from django.contrib.auth.models import User
    from django.http import HttpRequest, HttpResponse
    from django.test import Client
    from django.urls import clear_url_caches, path

    from babel_companion import urls
    from sessions import services
    from sessions.live import TICKET_HEADER
    from sessions.models import GameSession

    def hello(request: HttpRequest) -> HttpResponse:
        return HttpResponse("hello")

    urls.urlpatterns.insert(0, path("bench-hello/", hello))
    clear_url_caches()
    owner, session, players = tables.started_tower()
    code = services.create_join_code(session=session).code
    host, second_member = Client(), Client()
    host.force_login(owner)
    member = User.objects.create_user("bench-member", password="bench-pass-123")
    services.add_member(group=session.group, user=member)
    second_member.force_login(member)
    phone, another_phone, watching, another_watching = Client(), Client(), Client(), Client()
    phone.post(f"/j/{code}/seat/", {"seat": str(players[1].pk)})
    another_phone.post(f"/j/{code}/seat/", {"seat": str(players[2].pk)})
    for spectator in (watching, another_watching):
        spectator.get(f"/j/{code}/")
    htmx = {"HX-Request": "true", "HX-Target": "session"}

    def version() -> int:
        return GameSession.objects.values_list("version", flat=True).get(pk=session.pk)

    seen = {"version": 0}  # the version the host's page shows, read before each move (not timed)

    def read_version() -> None:
        seen["version"] = version()

    def a_pass() -> None:
        answer = host.post(f"/s/{session.pk}/play/pass/", {"expected_version": seen["version"]}, headers=htmx)
        assert answer.status_code == 204, answer.status_code

    scores = {f"score_{p.pk}": 10 + index for index, p in enumerate(players)}

    def a_score_entry() -> None:
        answer = host.post(f"/s/{session.pk}/scores/", {"expected_version": seen["version"], **scores}, headers=htmx)
        assert answer.status_code == 204, answer.status_code

    def a_change() -> None:
        services.append_event(session_id=session.pk, expected_version=version(), type="tob.pass")

    tickets: dict[Client, str] = {}  # each device's last ticket, sent back as app.js does

    def fetch(client: Client, url: str, **headers: str) -> Any:
        answer = client.get(url, headers={**headers, TICKET_HEADER: tickets.get(client, "")})
        tickets[client] = answer.get(TICKET_HEADER, "")
        return answer

    def host_fetch(client: Client) -> Callable[[], None]:
        def fetched() -> None:
            assert fetch(client, f"/s/{session.pk}/live/", **htmx).status_code == 200

        return fetched

    def phone_fetch(client: Client) -> Callable[[], None]:
        def fetched() -> None:
            assert fetch(client, f"/j/{code}/live/", **{"HX-Request": "true"}).status_code == 200

        return fetched

    def change_seen_by(fetch: Callable[[], None]) -> Callable[[], None]:
        """A change, then the first device of a view fetching it (its render is kept)."""

        def prepare() -> None:
            a_change()
            fetch()

        return prepare

    results = [
        measure("hello", repeats, lambda: host.get("/bench-hello/")),
        measure("move: a pass (host, htmx)", repeats, a_pass, read_version),
        measure("move: a score entry (host, htmx)", repeats, a_score_entry, read_version),
        measure("after a change, first of its view: host region", repeats, host_fetch(host), a_change),
        measure("after a change, first of its view: seated phone", repeats, phone_fetch(phone), a_change),
        measure(
            "after a change, 2nd seated phone (board kept)",
            repeats,
            phone_fetch(another_phone),
            change_seen_by(phone_fetch(phone)),
        ),
        measure(
            "after a change, kept render: 2nd member",
            repeats,
            host_fetch(second_member),
            change_seen_by(host_fetch(host)),
        ),
        measure(
            "after a change, kept render: 2nd watcher",
            repeats,
            phone_fetch(another_watching),
            change_seen_by(phone_fetch(watching)),
        ),
    ]
    etag = fetch(phone, f"/j/{code}/live/", **{"HX-Request": "true"})["ETag"]

    def phone_304() -> None:
        assert fetch(phone, f"/j/{code}/live/", **{"HX-Request": "true", "If-None-Match": etag}).status_code == 304

    def phone_304_in_full() -> None:
        answer = phone.get(f"/j/{code}/live/", headers={"HX-Request": "true", "If-None-Match": etag})
        assert answer.status_code == 304

    results.append(measure("phone 304 (nothing new)", repeats, phone_304))
    results.append(measure("phone 304, no ticket (checked in full)", repeats, phone_304_in_full))
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=40)
    parser.add_argument("--database", default="postgres,sqlite", help="postgres, sqlite or both, comma-separated")
    args = parser.parse_args()
    for database in args.database.split(","):
        print(databases.apart(run, database, args.repeats), flush=True)


if __name__ == "__main__":
    main()
