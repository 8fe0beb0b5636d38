"""What a move costs the server, and what each device's fetch after it costs (issue 16,
items 2 and 3), against a "hello" view in the same process.

Run from the repository root: ``.venv/bin/python -m bench.moves`` (``--repeats 40``,
``--database postgres,sqlite``; PostgreSQL with Redis as the cache, as in production, SQLite
without, as ``make run``). Each request is measured twice:

- in-process, through Django's whole stack (``django.test.Client``: middleware, sessions, CSRF,
  templates; no network): the wall time of the server's own work, and its queries;
- through a server, as the issue measured it: one ``uvicorn`` process of the production
  command (``bench/servers.py``, ``DJANGO_SETTINGS_MODULE=bench.hello_settings``, the app with
  the hello view in front), each device on a kept-alive connection with its own cookies; the
  server's CPU time for each request (its process CPU clock, all threads, read when the server
  is quiet before and after it: the work it left once answered, a push, counts), and the time
  the client waited.

On a Tower of Babel table of 3 players, each with a phone:

- hello: a view answering ``HttpResponse("hello")`` (the baseline, ``bench/hello_urls.py``);
- a move: the host's pass (``POST /s/<id>/play/pass/`` from htmx, answered 204: the region
  then fetches itself, as every member's screen does) and a score entry
  (``POST /s/<id>/scores/``). A move renders nothing ahead of the devices (issue 41): its news
  goes out once it is committed;
- the fetches after a change (a pass by the host, made before each and not timed), as each
  device makes them when it hears of it, without an ETag (the version is new to them): the
  host's region (``GET /s/<id>/live/``), kept by the first member's screen that rendered it
  (made before each and not timed: ``change_seen_by``), as every other member's screen gets it;
  each seated phone (``GET /j/<code>/live/``) renders its own part around the board the first
  phone rendered, and so does the first phone watching without a seat, whose render the other
  watchers get;
- the same fetches after a pass made in another language (Italian) than the screens'
  (English): nothing changes, each view is rendered by its own first device;
- a fetch of a version no device rendered yet: the members' region asked of another name of
  the server (its links are absolute), whose first device renders each version;
- a phone's 304 (its version unchanged);
- a table's cycle: the host's pass and the six devices' fetches after it, measured as one (what
  a move costs the server in all, whoever renders what: two cores give 2,000 ms of CPU a
  second, so a table moving once a second can be held at most 2,000 / this many times over);
  through the server, once more with the six fetches sent at once, as a push makes the devices
  send them: the devices of a view that ask for a render nobody has kept yet wait for the
  first one's (within a process: ``live.rendered_once``).

Every device sends back the ticket of its last fetch, as static/js/app.js does (see
sessions/table/live.py); the last row is a 304 without one (a page's first fetch, or an old ticket).

Printed for each: the median and p90 of ``--repeats`` requests, the ratio of the median to
that of the hello requests made between them (one before each: this machine's pace drifts
within a run, and a hello measured once, minutes before, moved the ratios with it), and
(in-process) its queries. Targets: a move at most 10x hello and 8 queries; a
device's fetch after a change at most 3x hello.
"""

from __future__ import annotations

import argparse
import http.client
import statistics
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from email.message import Message
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from bench import databases, servers, tables

DATABASE_URL = "postgres://postgres@127.0.0.1:5432/babel_bench_moves"
REDIS_URL = "redis://127.0.0.1:6379/8"  # PostgreSQL runs as in production: with Redis as the cache


@dataclass
class Measured:
    name: str
    times: list[float]  # ms the request took, as its client saw it
    queries: int | None  # in-process only
    cpu: list[float] = field(default_factory=list)  # ms of the server's CPU, through a server
    # The hello requests made between these, as measured (CPU through a server): the baseline
    # each ratio divides by, taken beside the request and not once for the whole run, since
    # this machine's pace drifts within a run.
    hello: list[float] = field(default_factory=list)

    @property
    def median(self) -> float:
        return statistics.median(self.cpu or self.times)

    @property
    def hello_median(self) -> float:
        return statistics.median(self.hello)

    @property
    def p90(self) -> float:
        ordered = sorted(self.cpu or self.times)
        return ordered[int(0.9 * (len(ordered) - 1))]


@dataclass
class Answer:
    """What the tests' ``Client`` answers too: a status and the headers."""

    status_code: int
    headers: Message

    def get(self, name: str, default: str | None = None) -> str | None:
        return self.headers.get(name, default)

    def __getitem__(self, name: str) -> str:
        return self.headers[name]


class Served:
    """A device's requests to a server, over one kept-alive connection, with the cookies of
    the test ``Client`` that set the device up (kept as the answers set them)."""

    def __init__(self, client: Any, port: int) -> None:
        self.cookies = client.cookies
        self.connection = http.client.HTTPConnection("127.0.0.1", port)

    def get(self, path: str, headers: dict[str, str] | None = None) -> Answer:
        return self._send("GET", path, b"", headers or {})

    def post(self, path: str, data: dict[str, Any], headers: dict[str, str] | None = None) -> Answer:
        token = self.cookies.get("csrftoken")  # a browser sends it back in the form, as the page has it
        fields = {**data, "csrfmiddlewaretoken": token.value} if token else data
        form = {"Content-Type": "application/x-www-form-urlencoded"}
        return self._send("POST", path, urlencode(fields).encode(), {**(headers or {}), **form})

    def _send(self, method: str, path: str, body: bytes, headers: dict[str, str]) -> Answer:
        cookie = "; ".join(f"{name}={morsel.value}" for name, morsel in self.cookies.items())
        try:
            self.connection.request(method, path, body=body, headers={**headers, "Cookie": cookie})
            response = self.connection.getresponse()
        except ConnectionError:  # the server closed a connection idle past its keep-alive: as a browser, again
            self.connection.close()
            self.connection.request(method, path, body=body, headers={**headers, "Cookie": cookie})
            response = self.connection.getresponse()
        response.read()
        for set_cookie in response.headers.get_all("Set-Cookie") or []:
            self.cookies.load(set_cookie)
        return Answer(response.status, response.headers)


def measure(
    name: str,
    repeats: int,
    request: Callable[[], Any],
    prepare: Callable[[], Any] = lambda: None,
    server: servers.Server | None = None,
    hello: Callable[[], Any] | None = None,
) -> Measured:
    """``request()`` timed ``repeats`` times, each after ``prepare()`` (not timed) and after a
    ``hello()`` timed as the baseline; with a ``server``, its CPU time for each request too (the
    queries are then not counted)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    prepare()
    request()  # warm: templates loaded, translations read
    measured = Measured(name=name, times=[], queries=None)
    for _ in range(repeats):
        if hello is not None:
            measured.hello.append(_timed(hello, server)[1 if server else 0])
        prepare()
        waited, cpu = _timed(request, server)
        measured.times.append(waited)
        if server:
            measured.cpu.append(cpu)
    if server is None:
        prepare()
        with CaptureQueriesContext(connection) as captured:
            request()
        measured.queries = len(captured)
    return measured


def _timed(request: Callable[[], Any], server: servers.Server | None) -> tuple[float, float]:
    """(ms the client waited, ms of the server's CPU) for ``request()``. The server's CPU clock is
    read once it is quiet, before and after: what the preparation left to do is not counted,
    what the request left (a move's push) is."""
    cpu = servers.quiet_cpu_ms(server.process.pid) if server else 0.0
    began = time.perf_counter()
    request()
    waited = (time.perf_counter() - began) * 1000
    return waited, (servers.quiet_cpu_ms(server.process.pid) - cpu) if server else 0.0


def run(database: str, repeats: int) -> str:
    """In a process of its own, on one database: in-process, then through a server."""
    with tempfile.TemporaryDirectory(prefix="babel-bench-moves-") as folder:
        env, setup = databases.environment(database, Path(folder), postgres_url=DATABASE_URL, redis_url=REDIS_URL)
        databases.set_up_django(env)
        from django.conf import settings

        settings.ROOT_URLCONF = "bench.hello_urls"
        settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
        settings.STORAGES = {
            **settings.STORAGES,
            "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
        }
        lines = [f"{database}: {setup}; {repeats} requests each"]
        lines += report("Django's whole stack in-process: wall time", measure_table(repeats, server=None))
        served_env = {**env, "DJANGO_SETTINGS_MODULE": "bench.hello_settings"}
        extra = ("--no-access-log", "--log-level", "warning")
        with servers.running(1, env=served_env, log_dir=Path(folder), extra=extra) as (server,):
            served = measure_table(repeats, server=server)
        lines += report("through uvicorn (one process): the server's CPU time", served, waited=True)
        return "\n".join(lines)


def report(title: str, results: list[Measured], *, waited: bool = False) -> list[str]:
    """A row a request: its median and p90, and its median over that of the hellos beside it."""
    last = "client waited, median ms" if waited else "queries"
    lines = [title, f"request | median ms | p90 ms | hello beside it, median ms | x hello | {last}"]
    for result in results:
        hello = result.hello_median if result.hello else result.median
        end = f"{statistics.median(result.times):.2f}" if waited else str(result.queries)
        row = [result.name, f"{result.median:.2f}", f"{result.p90:.2f}", f"{hello:.2f}", f"{result.median / hello:.1f}"]
        lines.append(" | ".join([*row, end]))
    return lines


def measure_table(repeats: int, server: servers.Server | None) -> list[Measured]:
    """The requests on a new table, in-process or (with ``server``) through it."""
    from django.contrib.auth.models import User
    from django.test import Client

    from bench.hello_urls import HELLO_PATH
    from sessions import services
    from sessions.models import GameSession
    from sessions.table.tickets import TICKET_HEADER

    owner, session, players = tables.started_tower()
    code = services.create_join_code(session=session).code
    # The six devices, set up as test clients; through a server, their cookies go with them.
    set_up: list[Any] = [Client() for _ in range(6)]
    host, second_member, phone, another_phone, watching, another_watching = set_up
    host.force_login(owner)
    host.get(f"/s/{session.pk}/")  # the CSRF cookie, as the page gives it
    member = User.objects.create_user(f"bench-member-{session.pk}", password="bench-pass-123")
    services.add_member(group=session.group, user=member)
    second_member.force_login(member)
    phone.post(f"/j/{code}/seat/", {"seat": str(players[1].pk)})
    another_phone.post(f"/j/{code}/seat/", {"seat": str(players[2].pk)})
    for spectator in (watching, another_watching):
        spectator.get(f"/j/{code}/")
    if server is not None:
        host, second_member, phone, another_phone, watching, another_watching = (
            Served(client, server.port) for client in set_up
        )
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
        """A pass by the host, as the table makes them (through the server, when there is one:
        its cache then hears of it as it would)."""
        read_version()
        a_pass()

    def a_change_in_italian() -> None:
        """A pass sent in Italian: the table's English screens render their own views."""
        read_version()
        data = {"expected_version": seen["version"]}
        answer = host.post(f"/s/{session.pk}/play/pass/", data, headers={**htmx, "Accept-Language": "it"})
        assert answer.status_code == 204, answer.status_code

    tickets: dict[Any, str] = {}  # each device's last ticket, sent back as app.js does

    def fetch(device: Any, url: str, **headers: str) -> Any:
        answer = device.get(url, headers={**headers, TICKET_HEADER: tickets.get(device, "")})
        tickets[device] = answer.get(TICKET_HEADER, "")
        return answer

    def host_fetch(device: Any) -> Callable[[], None]:
        def fetched() -> None:
            assert fetch(device, f"/s/{session.pk}/live/", **htmx).status_code == 200

        return fetched

    def phone_fetch(device: Any) -> Callable[[], None]:
        def fetched() -> None:
            assert fetch(device, f"/j/{code}/live/", **{"HX-Request": "true"}).status_code == 200

        return fetched

    def change_seen_by(fetch: Callable[[], None]) -> Callable[[], None]:
        """A change, then the first device of a view fetching it (its render is kept)."""

        def prepare() -> None:
            a_change()
            fetch()

        return prepare

    def elsewhere_fetch(device: Any) -> Callable[[], None]:
        """The members' region asked of another name of the server (its links are absolute):
        the first of its devices renders each version."""
        elsewhere = f"localhost:{server.port}" if server else "localhost"

        def fetched() -> None:
            assert fetch(device, f"/s/{session.pk}/live/", Host=elsewhere, **htmx).status_code == 200

        return fetched

    def hello() -> None:
        host.get(HELLO_PATH)

    def timed(name: str, request: Callable[[], Any], prepare: Callable[[], Any] = lambda: None) -> Measured:
        return measure(name, repeats, request, prepare, server, hello=hello)

    results = [
        measure("hello", repeats, hello, server=server),
        timed("move: a pass (host, htmx)", a_pass, read_version),
        timed("move: a score entry (host, htmx)", a_score_entry, read_version),
        timed("after a move: host region (kept by the move)", host_fetch(host), a_change),
        timed("after a move: 2nd member (kept render)", host_fetch(second_member), change_seen_by(host_fetch(host))),
        timed("after a move: seated phone (board kept by the move)", phone_fetch(phone), a_change),
        timed("after a move: 1st watcher (board kept by the move)", phone_fetch(watching), a_change),
        timed(
            "after a move: 2nd watcher (kept render)",
            phone_fetch(another_watching),
            change_seen_by(phone_fetch(watching)),
        ),
        timed(
            "a move in Italian, English screens: host region (kept in theirs)", host_fetch(host), a_change_in_italian
        ),
        timed("a move in Italian, English screens: seated phone", phone_fetch(phone), a_change_in_italian),
        timed("not kept ahead (a screen of another host): host region", elsewhere_fetch(second_member), a_change),
    ]
    etag = fetch(phone, f"/j/{code}/live/", **{"HX-Request": "true"})["ETag"]

    def phone_304() -> None:
        assert fetch(phone, f"/j/{code}/live/", **{"HX-Request": "true", "If-None-Match": etag}).status_code == 304

    def phone_304_in_full() -> None:
        answer = phone.get(f"/j/{code}/live/", headers={"HX-Request": "true", "If-None-Match": etag})
        assert answer.status_code == 304

    results.append(timed("phone 304 (nothing new)", phone_304))
    results.append(timed("phone 304, no ticket (checked in full)", phone_304_in_full))

    fetches_after_a_move = [
        host_fetch(host),
        host_fetch(second_member),
        *(phone_fetch(device) for device in (phone, another_phone, watching, another_watching)),
    ]

    def a_cycle() -> None:
        """What one move costs the table's server in all: the move, then each device's fetch."""
        a_pass()
        for fetched in fetches_after_a_move:
            fetched()

    def a_cycle_at_once() -> None:
        """The same, the six fetches sent at once, as the push makes the devices send them."""
        a_pass()
        with ThreadPoolExecutor(max_workers=len(fetches_after_a_move)) as devices:
            for sent in [devices.submit(fetched) for fetched in fetches_after_a_move]:
                sent.result()

    results.append(timed("a table's cycle: the pass and its 6 devices' fetches", a_cycle, read_version))
    if server is not None:  # in-process, the test client answers one request at a time
        results.append(timed("a table's cycle, the 6 fetches at once", a_cycle_at_once, read_version))
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
