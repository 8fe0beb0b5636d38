"""Game pace (issue 41): tables playing at a real game's pace, every device following its table
through its push socket, the app next to a bare floor that does only what a move needs.

Run from the repository root: ``.venv/bin/python -m bench.game_pace`` (``--tables 10,50,100``,
``--seconds 60`` a run, ``--runs 1``, ``--pace 10``, ``--workers 2``, ``--only app|floor``). It
works on PostgreSQL (``BENCH_DATABASE_URL``, default
postgres://postgres@127.0.0.1:5432/babel_bench_pace, dropped, created and migrated afresh) and
Redis (``BENCH_REDIS_URL``, default redis://127.0.0.1:6379/8, flushed). For each number of
tables and each run, the APP (``babel_companion.asgi``) and then the FLOOR (``bench.floor``) are
each served afresh by ``uvicorn --workers 2`` (access log off) and driven from this one process
(uvloop), on the same two cores.

An app table is a started Tower of Babel session with four devices: the host's page (a member
logged in) and three phones (each its own cookie, joined by the night's code, holding a seat).
Each device holds its socket (``/ws/sessions/<id>/``, ``/ws/j/<code>/``) and its own kept-alive
connection, and follows static/js/app.js: on news of a newer version it fetches its region
(``/s/<id>/live/`` or ``/j/<code>/live/``, htmx's headers, gzip offered, the ticket of its last
answer and ``If-None-Match`` with its last ETag); news heard while it fetches makes one more
fetch after it only if its answer did not bring that version; the host fetches once its own
move is answered 204 (news of it meanwhile waits);
a device that fetched nothing for 30 s fetches once (the page's safety fetch). At moments drawn
at random, ``--pace`` seconds apart on average (exponentially), the host's page POSTs a pass as
the page does. A floor table is the same four devices and moves: ``POST /move/<n>``,
``/ws/<n>``, ``GET /region/<n>/<device>``.

A move is timed from its POST until every device of its table has a region answer showing the
move's version or a later one (its ``data-version``). Before each measured run every table
makes one move, not counted: templates compiled, connections and tickets held.

Printed per run, app and floor side by side: tables, devices, moves answered 204, p50/p95/max
of move-to-every-device (ms), fetches answered after more than 5 s or never (timeouts), moves
refused (409) or failed, moves some device never showed within 30 s (lost, and which devices),
fetches, 304s, sockets the server closed, and the workers' CPU per move (the uvicorn workers'
CPU over the run, settling included, divided by the moves); the app/floor ratios of p95 and of
CPU per move, with issue 41's targets: at 100 tables p95 <= 300 ms with no timeout and no
refusal, at 200 tables p95 <= 1 s, CPU per move <= 3x the floor's. A summary of every run ends it.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import math
import os
import random
import re
import subprocess
import tempfile
import time
import uuid
from collections.abc import Callable, Coroutine, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed
from websockets.typing import Origin

from bench import servers, tables
from bench.push import http_get, ms, others_busy, percentile, prepare, row, stopped_on_sigterm
from bench.table_load import cookie_of

DATABASE_URL = "postgres://postgres@127.0.0.1:5432/babel_bench_pace"
REDIS_URL = "redis://127.0.0.1:6379/8"
SIDES = {"app": "babel_companion.asgi:application", "floor": "bench.floor:application"}
EXTRA = ("--no-access-log", "--log-level", "warning")
ENCODINGS = "gzip, deflate, br"  # what a browser offers; the app's pages come gzipped then
TICKET = "Babel-Live-Ticket"  # sessions.table.tickets.TICKET_HEADER (importing it needs Django set up)
DATA_VERSION = re.compile(rb'data-version="(\d+)')
FETCH_TIMEOUT = 5.0  # a fetch answered later than this is a timeout
GIVE_UP = 30.0  # a request not answered by then is abandoned: its connection opened again
SAFETY_SECONDS = 30.0  # app.js's SAFETY_MS: a pushed region fetches once after this long idle
SETTLE_SECONDS = 30.0  # after the last move: a move some device still does not show is lost
WARM_UP_SECONDS = 5.0
CONNECTS_AT_ONCE = 50  # devices opening their page and socket at once
P95_TARGETS = ((100, 300.0), (200, 1000.0))  # (up to this many tables, p95 ms), issue 41
CPU_TARGET = 3.0  # the app's CPU per move against the floor's


# --- what a table is made of -------------------------------------------------------------------


@dataclass(frozen=True)
class DeviceSpec:
    name: str
    fetch: bytes  # the region's GET, without ticket or ETag
    socket: str  # the socket's path
    cookie: str


@dataclass(frozen=True)
class TableSpec:
    devices: list[DeviceSpec]  # the host first: it moves
    move: Callable[[int], bytes]  # the move's POST, given the version the host shows


@dataclass(frozen=True)
class AppTable:
    """A started Tower of Babel session, its host logged in, three phones seated."""

    session_id: int
    code: str
    host_cookie: str
    csrf: str
    phone_cookies: list[str]


def set_app_tables(count: int) -> list[AppTable]:
    """``count`` tables, each its own account, group and night (``bench.tables``), joined and
    seated through the app's own views (Django's test client, in this process)."""
    from django.conf import settings
    from django.test import Client

    from sessions import services
    from sessions.table.tickets import TICKET_HEADER

    assert TICKET_HEADER == TICKET, "the live regions' ticket header was renamed"
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]  # this process's set-up requests
    made = []
    for _ in range(count):
        owner, session, players = tables.started_tower()
        code = services.create_join_code(session=session).code
        host = Client()
        host.force_login(owner)
        host.get(f"/s/{session.pk}/")  # the CSRF cookie, as the page gives it
        phones = []
        for player in players:
            phone = Client()
            assert phone.post("/join/", {"code": code}).status_code == 302, "the join code was refused"
            assert phone.post(f"/j/{code}/seat/", {"seat": str(player.pk)}).status_code == 302, "no seat"
            phones.append(cookie_of(phone))
        made.append(AppTable(session.pk, code, cookie_of(host), host.cookies["csrftoken"].value, phones))
    return made


def http_post(port: int, path: str, headers: dict[str, str], body: bytes) -> bytes:
    """``push.http_get``'s request as a POST of ``body``."""
    head = http_get(port, path, {**headers, "Content-Length": str(len(body))})
    return b"POST" + head.removeprefix(b"GET") + body


def app_spec(table: AppTable, port: int) -> TableSpec:
    region = {"HX-Request": "true", "Accept": "*/*", "Accept-Encoding": ENCODINGS}
    host = DeviceSpec(
        "host",
        http_get(port, f"/s/{table.session_id}/live/", {**region, "HX-Target": "session", "Cookie": table.host_cookie}),
        f"/ws/sessions/{table.session_id}/",
        table.host_cookie,
    )
    phones = [
        DeviceSpec(
            f"phone {number}",
            http_get(port, f"/j/{table.code}/live/", {**region, "HX-Target": "guest", "Cookie": cookie}),
            f"/ws/j/{table.code}/",
            cookie,
        )
        for number, cookie in enumerate(table.phone_cookies, 1)
    ]

    def move(version: int) -> bytes:
        """The pass form of the host's controls, sent by htmx: a fresh idempotency key each
        time (the form comes new with each region)."""
        fields = {"csrfmiddlewaretoken": table.csrf, "expected_version": version}
        fields |= {"idempotency_key": uuid.uuid4().hex, "form": "tob-pass"}
        headers = {**region, "HX-Target": "session", "HX-Trigger": "tob-pass", "Cookie": table.host_cookie}
        headers["Content-Type"] = "application/x-www-form-urlencoded"
        return http_post(port, f"/s/{table.session_id}/play/pass/", headers, urlencode(fields).encode())

    return TableSpec([host, *phones], move)


def floor_spec(number: int, port: int) -> TableSpec:
    names = ["host", "phone 1", "phone 2", "phone 3"]
    devices = [
        DeviceSpec(name, http_get(port, f"/region/{number}/{index}", {"Accept": "*/*"}), f"/ws/{number}", "")
        for index, name in enumerate(names)
    ]
    return TableSpec(devices, lambda _version: http_post(port, f"/move/{number}", {}, b""))


# --- the devices -------------------------------------------------------------------------------


@dataclass
class Tally:
    """One side's run."""

    moves: int = 0  # answered 204
    refused: int = 0  # 409
    failed: int = 0  # any other answer, or none
    latencies: list[float] = field(default_factory=list)  # ms, a move's POST to its last device
    lost: int = 0
    behind: list[str] = field(default_factory=list)  # who did not show a lost move
    fetches: int = 0
    not_modified: int = 0
    timeouts: int = 0
    bad_fetches: int = 0  # answered neither 200 (with a version) nor 304, or broken
    sockets_closed: int = 0  # by the server, during the run
    crashed: list[str] = field(default_factory=list)  # this driver's own errors
    cpu_seconds: float = math.nan

    @property
    def p95(self) -> float:
        return percentile(self.latencies, 95)

    @property
    def cpu_ms_per_move(self) -> float:
        return self.cpu_seconds * 1000 / self.moves if self.moves else math.nan


async def answer(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, request: bytes
) -> tuple[int, dict[str, str], bytes]:
    """One HTTP/1.1 exchange on a kept-alive connection: status, headers (lower-cased names),
    body (gunzipped). ``push.exchange_with_head`` drops the body, which holds the version."""
    writer.write(request)
    lines = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ", 2)[1])
    fields = (line.partition(":") for line in lines[1:] if line)
    headers = {name.strip().lower(): value.strip() for name, _, value in fields}
    body = b""
    if headers.get("transfer-encoding") == "chunked":
        while size := int((await reader.readline()).strip(), 16):
            body += (await reader.readexactly(size + 2))[:-2]
        await reader.readline()
    elif "content-length" in headers:
        body = await reader.readexactly(int(headers["content-length"]))
    if headers.get("content-encoding") == "gzip":
        body = gzip.decompress(body)
    return status, headers, body


class Link:
    """A browser's kept-alive connection to the server: opened again when the server closed it
    while idle (uvicorn does after 5 s), and a request it closed under before answering is sent
    once more on a new one, as browsers do."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.stream: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    async def exchange(self, request: bytes) -> tuple[int, dict[str, str], bytes]:
        for attempt in (1, 2):
            if self.stream is None or self.stream[0].at_eof() or self.stream[1].is_closing():
                self.close()
                self.stream = await asyncio.open_connection("127.0.0.1", self.port)
            try:
                return await answer(*self.stream, request)
            except (ConnectionResetError, asyncio.IncompleteReadError) as error:
                self.close()
                if attempt == 2 or (isinstance(error, asyncio.IncompleteReadError) and error.partial):
                    raise
        raise AssertionError("unreachable")

    def close(self) -> None:
        if self.stream is not None:
            self.stream[1].close()
            self.stream = None


def heard_version(raw: str | bytes) -> int | None:
    """The session version a socket message names: the app's news ``{"session": N, "version":
    V}`` or first message ``{"now": {"region": "V.R"}}``, or the floor's ``version V``."""
    text = raw.decode() if isinstance(raw, bytes) else raw
    if text.startswith("version "):
        return int(text.split()[1])
    message = json.loads(text)
    if "now" in message:
        region = message["now"].get("region") or ""
        return int(region.split(".")[0]) if region else None
    return None if message.get("version") is None else int(message["version"])


class Play:
    """One side's run: its server, its tables, the tally being counted and every task."""

    def __init__(self, server: servers.Server, specs: list[TableSpec]) -> None:
        self.server = server
        self.tally = Tally()
        self.tasks: set[asyncio.Task[None]] = set()
        self.tables = [Table(self, number, spec) for number, spec in enumerate(specs, 1)]

    def spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self.tasks.add(task)  # a task nobody holds may be collected mid-flight
        task.add_done_callback(self.ended)

    def ended(self, task: asyncio.Task[None]) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:  # said, never swallowed
            self.tally.crashed.append(repr(task.exception()))


class Device:
    """One page's region, following static/js/app.js."""

    def __init__(self, play: Play, table: Table, spec: DeviceSpec) -> None:
        self.play, self.table, self.spec = play, table, spec
        self.shown = -1  # the session version its region shows
        self.etag = self.ticket = ""
        self.news: int | None = None  # news no fetch has gone out for since
        self.fetching = self.queued = self.sending = False
        self.fetched_at = 0.0
        self.http = Link(play.server.port)  # the page's own, for its region's fetches
        self.socket: ClientConnection | None = None
        self.closing = False

    async def open(self) -> None:
        """The page: its region as it loads, then its socket (whose first message says what
        the region should show)."""
        await self.fetch()
        headers = {"Cookie": self.spec.cookie} if self.spec.cookie else {}
        self.socket = await connect(
            f"ws://127.0.0.1:{self.play.server.port}{self.spec.socket}",
            origin=Origin(self.play.server.origin),
            additional_headers=headers,
            proxy=None,
            open_timeout=120,
            ping_interval=None,  # browsers never ping; the server does
        )
        self.play.spawn(self.listen(self.socket))
        self.play.spawn(self.safety())

    async def listen(self, socket: ClientConnection) -> None:
        try:
            async for raw in socket:
                version = heard_version(raw)
                if version is not None:
                    self.hear(version)
        except ConnectionClosed:
            pass
        if not self.closing:
            self.play.tally.sockets_closed += 1

    def hear(self, version: int) -> None:
        """News: a region that shows it already does nothing; one whose own move is on its way
        waits for the move's answer; any other fetches itself."""
        if version <= self.shown:
            return
        self.news = max(self.news or 0, version)
        if not self.sending:
            self.trigger()

    def trigger(self) -> None:
        """htmx's ``table-changed``: a fetch, or, while one is in flight, news for after it
        (``fetches``)."""
        if self.fetching:
            return
        self.fetching = True
        self.play.spawn(self.fetches())

    async def fetches(self) -> None:
        try:
            while True:
                self.news, self.queued = None, False
                await self.fetch()
                # app.js: news that came meanwhile and that this answer did not bring is fetched
                # (in Chromium, news heard during a fetch that brings it makes no second one).
                if not self.queued and (self.news is None or self.news <= self.shown):
                    return
        finally:
            self.fetching = False

    async def safety(self) -> None:
        """The page's poll while pushed: skipped, but for one fetch SAFETY_SECONDS after the last."""
        while True:
            await asyncio.sleep(max(0.1, self.fetched_at + SAFETY_SECONDS - time.monotonic()))
            if time.monotonic() - self.fetched_at >= SAFETY_SECONDS and not self.fetching:
                self.trigger()

    async def fetch(self) -> None:
        tally = self.play.tally
        request = self.spec.fetch[:-2]
        if self.ticket:
            request += f"{TICKET}: {self.ticket}\r\n".encode()
        if self.etag:
            request += f"If-None-Match: {self.etag}\r\n".encode()
        request += b"\r\n"
        self.fetched_at = sent = time.monotonic()
        try:
            status, headers, body = await asyncio.wait_for(self.http.exchange(request), GIVE_UP)
        except (TimeoutError, OSError, asyncio.IncompleteReadError, ValueError) as error:
            tally.timeouts += isinstance(error, TimeoutError)
            tally.bad_fetches += not isinstance(error, TimeoutError)
            self.http.close()  # a new one for the next
            self.queued = True  # the browser would still wait for it: asked again
            return
        tally.fetches += 1
        tally.timeouts += time.monotonic() - sent > FETCH_TIMEOUT
        self.ticket = headers.get(TICKET.lower(), "")  # app.js: the answer's, or none
        found = DATA_VERSION.search(body) if status == 200 else None
        if found:
            self.shown, self.etag = max(self.shown, int(found[1])), headers.get("etag", "")
        elif status == 304:
            tally.not_modified += 1
        else:
            tally.bad_fetches += 1
        self.table.check()

    async def close(self) -> None:
        self.closing = True
        if self.socket is not None:
            await self.socket.close()
        self.http.close()


class Table:
    def __init__(self, play: Play, number: int, spec: TableSpec) -> None:
        self.play, self.number, self.spec = play, number, spec
        self.devices = [Device(play, self, device) for device in spec.devices]
        self.version = 0  # what the host's forms name as the version they were made on
        self.made: dict[int, tuple[float, Tally]] = {}  # versions no device missed yet: POST time
        # The host's moves go on a connection of their own: a browser does not queue a form's
        # POST behind its region's fetch.
        self.mover = Link(play.server.port)

    @property
    def host(self) -> Device:
        return self.devices[0]

    async def open(self, limit: asyncio.Semaphore) -> None:
        async with limit:
            for device in self.devices:
                await device.open()
        self.version = self.host.shown

    async def move(self) -> None:
        """The host's pass, as the page sends it; on 204 the host's region fetches itself."""
        tally, host = self.play.tally, self.host
        host.sending = True
        sent = time.monotonic()
        try:
            status, headers, body = await asyncio.wait_for(self.mover.exchange(self.spec.move(self.version)), GIVE_UP)
        except (TimeoutError, OSError, asyncio.IncompleteReadError, ValueError):
            tally.failed += 1
            self.mover.close()
            status, headers, body = 0, {}, b""
        host.sending = False
        if status == 204:
            tally.moves += 1
            self.version = int(headers["babel-version"])
            self.made[self.version] = (sent, tally)
        else:
            tally.refused += status == 409
            tally.failed += status not in (0, 409)
            found = DATA_VERSION.search(body)  # a refused move's answer shows the table as it is
            self.version = max(self.version, host.shown, int(found[1]) if found else 0)
        host.trigger()
        self.check()

    def check(self) -> None:
        """Times the moves every device now shows."""
        everyone = min(device.shown for device in self.devices)
        now = time.monotonic()
        for version in [version for version in self.made if version <= everyone]:
            sent, tally = self.made.pop(version)
            tally.latencies.append((now - sent) * 1000)

    async def make_moves(self, until: float, pace: float) -> None:
        while (at := time.monotonic() + random.expovariate(1 / pace)) < until:
            await asyncio.sleep(at - time.monotonic())
            await self.move()

    def lost(self, tally: Tally) -> None:
        """The moves some device still does not show: counted, and who."""
        for version in sorted(self.made):
            tally.lost += 1
            late = [f"{device.spec.name} at {device.shown}" for device in self.devices if device.shown < version]
            tally.behind.append(f"table {self.number} version {version}: {', '.join(late)}")
        self.made.clear()


async def settled(play: Play, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while any(table.made for table in play.tables) and time.monotonic() < deadline:
        await asyncio.sleep(0.05)


async def play_side(server: servers.Server, specs: list[TableSpec], seconds: float, pace: float) -> Tally:
    """One side's run: pages opened, a warm-up move each, then ``seconds`` of play, settled."""
    play = Play(server, specs)
    limit = asyncio.Semaphore(CONNECTS_AT_ONCE // len(specs[0].devices) or 1)
    await asyncio.gather(*(table.open(limit) for table in play.tables))

    async def warm_up(table: Table) -> None:
        await asyncio.sleep(random.uniform(0, WARM_UP_SECONDS))
        await table.move()

    await asyncio.gather(*(warm_up(table) for table in play.tables))
    await settled(play, SETTLE_SECONDS)
    warm = play.tally
    for table in play.tables:
        table.lost(warm)
    play.tally = tally = Tally(crashed=warm.crashed)
    if warm.lost or warm.failed or warm.refused:
        print(f"  warm-up: {warm.lost} lost, {warm.refused} refused, {warm.failed} failed; {warm.behind[:3]}")

    workers = server.worker_pids()
    before = servers.cpu_seconds(workers)
    until = time.monotonic() + seconds
    await asyncio.gather(*(table.make_moves(until, pace) for table in play.tables))
    await settled(play, SETTLE_SECONDS)
    tally.cpu_seconds = servers.cpu_seconds(workers) - before
    for table in play.tables:
        table.lost(tally)
    devices = [device for table in play.tables for device in table.devices]
    await asyncio.wait_for(asyncio.gather(*(device.close() for device in devices), return_exceptions=True), 30)
    for table in play.tables:
        table.mover.close()
    for task in list(play.tasks):
        task.cancel()
    return tally


# --- the servers -------------------------------------------------------------------------------


@contextmanager
def serving(side: str, workers: int, folder: Path) -> Iterator[servers.Server]:
    """A fresh ``uvicorn <side's app> --workers N``, stopped on the way out. ``servers.start``
    names the app's module only, so the floor's process is started as it would start one."""
    if side == "app":
        with servers.running(1, env=dict(os.environ), log_dir=folder, workers=workers, extra=EXTRA) as (server,):
            yield server
        return
    port, log = servers.free_port(), folder / "uvicorn-floor.log"
    command = [str(servers.UVICORN), SIDES[side], "--host", "127.0.0.1", "--port", str(port)]
    command += ["--workers", str(workers)] if workers > 1 else []
    with log.open("wb") as sink:
        process = subprocess.Popen(
            [*command, *EXTRA],
            cwd=servers.REPO,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
            stdout=sink,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    server = servers.Server(process=process, port=port, log=log, workers=workers)
    try:
        servers.wait_until_answering([server])
        yield server
    finally:
        servers.stop(server)


def run_side(side: str, count: int, app_tables: list[AppTable], args: argparse.Namespace, folder: Path) -> Tally:
    import uvloop

    with serving(side, args.workers, folder) as server:
        if side == "app":
            specs = [app_spec(table, server.port) for table in app_tables[:count]]
        else:
            specs = [floor_spec(number, server.port) for number in range(1, count + 1)]
        tally = uvloop.run(play_side(server, specs, args.seconds, args.pace))
        complaints = [line for line in server.output().splitlines() if "Traceback" in line or "ERROR" in line]
    if complaints:  # what the server said went wrong is shown, not left in a temporary file
        print(f"  the {side}'s server log: {len(complaints)} errors, the last: {server.output()[-1500:]}")
    return tally


# --- the report --------------------------------------------------------------------------------


def ratio(app: float, floor: float) -> float:
    return app / floor if floor and not math.isnan(app) and not math.isnan(floor) else math.nan


def times(value: float) -> str:
    return "-" if math.isnan(value) else f"{value:.1f}x"


def verdicts(count: int, app: Tally, floor: Tally | None) -> str:
    said = []
    for most, target in P95_TARGETS:
        if count <= most:
            clean = most > P95_TARGETS[0][0] or not (app.timeouts or app.refused)
            met = app.p95 <= target and clean and not app.lost
            extra = "" if most > P95_TARGETS[0][0] else ", no timeout, no refusal"
            said.append(f"p95 <= {ms(target)} ms{extra} (issue 41, at {most} tables): {'met' if met else 'MISSED'}")
            break
    if floor is not None:
        cpu = ratio(app.cpu_ms_per_move, floor.cpu_ms_per_move)
        said.append(f"CPU per move <= {CPU_TARGET:g}x the floor's: {'met' if cpu <= CPU_TARGET else 'MISSED'}")
    return "; ".join(said)


HEAD = ("side", "moves", "p50 ms", "p95 ms", "max ms", "timeouts", "refused", "failed", "lost", "fetches", "304s")


def print_run(count: int, run: int, args: argparse.Namespace, tallies: dict[str, Tally]) -> None:
    devices = count * 4
    print(
        f"\n{count} tables, {devices} devices, run {run}/{args.runs}: {args.seconds:g} s of play, "
        f"a move every {args.pace:g} s a table on average"
    )
    print(row(*HEAD, "closed", "CPU ms/move"))
    for side, t in tallies.items():
        cells = (side, t.moves, ms(percentile(t.latencies, 50)), ms(t.p95), ms(max(t.latencies, default=math.nan)))
        print(row(*cells, t.timeouts, t.refused, t.failed, t.lost, t.fetches, t.not_modified, t.sockets_closed), end="")
        print(row(f"{t.cpu_ms_per_move:.1f}"))
        for who in t.behind[:5]:
            print(f"  {side} lost: {who}")
        for error in t.crashed[:3]:
            print(f"  {side}: the driver failed: {error}")
    if "app" in tallies and "floor" in tallies:
        app, floor = tallies["app"], tallies["floor"]
        p95, cpu = ratio(app.p95, floor.p95), ratio(app.cpu_ms_per_move, floor.cpu_ms_per_move)
        print(f"app/floor: p95 {times(p95)}, CPU per move {times(cpu)}")
    if "app" in tallies:
        print(f"targets: {verdicts(count, tallies['app'], tallies.get('floor'))}", flush=True)


def print_summary(results: list[tuple[int, int, dict[str, Tally]]]) -> None:
    print("\n== Summary: move-to-every-device (ms) and the workers' CPU per move (ms), app next to floor ==")
    print(row("tables", "run", "app p95", "floor p95", "p95 x", "app CPU", "floor CPU", "CPU x", "timeouts"), end="")
    print(row("refused", "failed", "lost") + "  (timeouts, refused, failed, lost: the app's)")
    for count, run, tallies in results:
        app, floor = tallies.get("app"), tallies.get("floor")
        nan = math.nan
        cells = [count, run, ms(app.p95 if app else nan), ms(floor.p95 if floor else nan)]
        cells.append(times(ratio(app.p95, floor.p95) if app and floor else nan))
        cells += [f"{app.cpu_ms_per_move:.1f}" if app else "-", f"{floor.cpu_ms_per_move:.1f}" if floor else "-"]
        cells.append(times(ratio(app.cpu_ms_per_move, floor.cpu_ms_per_move) if app and floor else nan))
        cells += [app.timeouts, app.refused, app.failed, app.lost] if app else ["-"] * 4
        print(row(*cells))
    for count in sorted({count for count, _run, _tallies in results}):
        runs = [tallies for c, _run, tallies in results if c == count and "app" in tallies]
        if runs:  # the run of median p95 decides, as in bench.table_load
            median = sorted(runs, key=lambda tallies: tallies["app"].p95)[len(runs) // 2]
            print(f"{count} tables, the median run: {verdicts(count, median['app'], median.get('floor'))}")


# --- main --------------------------------------------------------------------------------------


def counts(text: str) -> list[int]:
    return sorted(int(item) for item in text.split(",") if item.strip())


def parse_arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=counts, default=[10, 50, 100], help="numbers of tables (10,50,100)")
    parser.add_argument("--seconds", type=float, default=60.0, help="seconds of play a run (60)")
    parser.add_argument("--runs", type=int, default=1, help="runs of each number of tables (1)")
    parser.add_argument("--pace", type=float, default=10.0, help="mean seconds between a table's moves (10)")
    parser.add_argument("--workers", type=int, default=2, help="uvicorn's worker processes (2: production's)")
    parser.add_argument("--only", choices=sorted(SIDES), help="run one side only")
    return parser.parse_args()


def main() -> None:
    args = parse_arguments()
    sides = [args.only] if args.only else list(SIDES)
    database_url = os.environ.get("BENCH_DATABASE_URL", DATABASE_URL)
    redis_url = os.environ.get("BENCH_REDIS_URL", REDIS_URL)
    began = time.monotonic()
    with stopped_on_sigterm(), tempfile.TemporaryDirectory(prefix="babel-bench-pace-") as logs:
        print(f"the machine before the run: {others_busy():.0f} % busy of 200 % (other processes)", flush=True)
        prepare(database_url, redis_url)
        app_tables = set_app_tables(max(args.tables)) if "app" in sides else []
        from django.db import connections

        connections.close_all()  # the set-up's; the servers have their own
        print(f"database {database_url} (fresh), Redis {redis_url} (flushed), uvicorn --workers {args.workers}")
        results = []
        for count in args.tables:
            for run in range(1, args.runs + 1):
                tallies = {side: run_side(side, count, app_tables, args, Path(logs)) for side in sides}
                print_run(count, run, args, tallies)
                results.append((count, run, tallies))
        print_summary(results)
    print(f"\nwhole run {time.monotonic() - began:.0f} s")


if __name__ == "__main__":
    main()
