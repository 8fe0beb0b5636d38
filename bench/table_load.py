"""How many tables one machine holds, each moving once a second with six devices following it
(issue 16, item 3): the production set-up on this 2-core box, measured end to end over HTTP.

Run from the repository root: ``.venv/bin/python -m bench.table_load`` (about 5 minutes;
``--tables 1,2,4,8,16,32``, ``--seconds 10``, ``--runs 3``). It works on PostgreSQL (``BENCH_DATABASE_URL``,
default postgres://postgres@127.0.0.1:5432/babel_bench_tables, dropped, created and migrated
afresh) and Redis (``BENCH_REDIS_URL``, default redis://127.0.0.1:6379/7, flushed), serves the
app with ``uvicorn --workers 2`` as docs/hosting.md's production section does (``--workers``), and drives it from
one client process (uvloop, one kept-alive connection per device) on the same two cores.

A table is a Tower of Babel session of five players, each with a phone holding its seat, and
the host's screen: six devices. Once in every second, at a moment drawn afresh, each table's host
sends a pass as the page does (an htmx POST, answered 204), and as soon as it is answered the
five phones and the host's screen fetch their regions as the push makes them do (no ETag: the
version is new to them; each phone's view is its own, so each renders, around a board rendered
once for all five), each sending back the ticket of its last answer as static/js/app.js does. The push itself is
``bench.push``'s subject; here the fetches follow the answer at once.

Printed for each run of each number of tables (each run on connections opened afresh): the
moves and fetches answered, their p50 and p95 (ms) and whether every table kept its
once-a-second pace; then the largest number of tables whose median run's p95 stays under
200 ms, with every smaller number's too. Baselines in the same run:
a static file's p50 and the phone's 304 (nothing new) p50, one at a time on an idle server.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from bench import servers
from bench.push import exchange, exchange_with_head, http_get, prepare, static_request

DATABASE_URL = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/babel_bench_tables")
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/7")
TARGET_P95_MS = 200.0
WARM_UP_SECONDS = 5.0
PLAYERS = ("Ada", "Bruno", "Chiara", "Dieter", "Elena")


@dataclass
class Table:
    port: int
    session_id: int
    version: int
    host_cookie: str
    csrf: str
    phone_requests: list[bytes]
    host_fetch: bytes
    tickets: dict[int, str] = field(default_factory=dict)  # each device's last ticket, by its index

    def move(self) -> bytes:
        body = urlencode({"expected_version": self.version, "csrfmiddlewaretoken": self.csrf}).encode()
        head = [
            f"POST /s/{self.session_id}/play/pass/ HTTP/1.1",
            f"Host: 127.0.0.1:{self.port}",
            f"Cookie: {self.host_cookie}",
            "HX-Request: true",
            "HX-Target: session",
            "Content-Type: application/x-www-form-urlencoded",
            f"Content-Length: {len(body)}",
        ]
        return ("\r\n".join(head) + "\r\n\r\n").encode() + body


@dataclass
class Load:
    tables: int
    seconds: float
    moves: list[float] = field(default_factory=list)  # ms
    fetches: list[float] = field(default_factory=list)
    refused: int = 0  # answers other than 204 to a move, 200 to a fetch
    late: int = 0  # moves sent more than a second after their tick: the table fell behind

    def p(self, q: float) -> float:
        every = sorted(self.moves + self.fetches)
        return every[min(len(every) - 1, int(q * len(every)))] if every else float("nan")

    def row(self) -> str:
        moves95 = sorted(self.moves)[int(0.95 * (len(self.moves) - 1))]
        fetches95 = sorted(self.fetches)[int(0.95 * (len(self.fetches) - 1))]
        return (
            f"{len(self.moves)} | {len(self.fetches)} | {self.p(0.5):.1f} | {self.p(0.95):.1f} | "
            f"{moves95:.1f} | {fetches95:.1f} | {self.refused} | {self.late}"
        )


def cookie_of(client: Any) -> str:
    return "; ".join(f"{name}={morsel.value}" for name, morsel in client.cookies.items())


def set_tables(count: int, port: int) -> list[Table]:
    """``count`` started 5-player Tower of Babel tables, each on a night of its own with its
    join code and five phones holding the seats, and the host logged in."""
    import datetime

    from django.conf import settings
    from django.contrib.auth.models import User
    from django.test import Client

    from scoring.tower_of_babel import engine as tob
    from sessions import services

    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]  # this process's own set-up requests

    owner = User.objects.create_user("host", password="bench-pass-123")
    group = services.create_group(owner=owner, name="Club")
    host = Client()
    host.force_login(owner)
    made = []
    for number in range(count):
        players = [services.create_player(group=group, name=f"{name} {number}") for name in PLAYERS]
        night = services.create_night(group=group, date=datetime.date.today(), place=f"Table {number}")
        session = services.create_session(night=night, game="tower-of-babel", players=players)
        services.append_event(session_id=session.pk, expected_version=0, type="session.start")
        services.append_event(
            session_id=session.pk, expected_version=1, type=tob.FIRST_PLAYER, payload={"seat": str(players[0].pk)}
        )
        code = services.create_join_code(session=session).code
        phones = []
        for player in players:
            phone = Client()
            assert phone.post(f"/j/{code}/seat/", {"seat": str(player.pk)}).status_code == 302
            headers = {"Cookie": cookie_of(phone), "HX-Request": "true", "HX-Target": "guest", "Accept": "*/*"}
            phones.append(http_get(port, f"/j/{code}/live/", headers))
        host.get(f"/s/{session.pk}/")  # the CSRF cookie, as the page gives it
        region = {"Cookie": cookie_of(host), "HX-Request": "true", "HX-Target": "session", "Accept": "*/*"}
        made.append(
            Table(
                port=port,
                session_id=session.pk,
                version=2,
                host_cookie=cookie_of(host),
                csrf=host.cookies["csrftoken"].value,
                phone_requests=phones,
                host_fetch=http_get(port, f"/s/{session.pk}/live/", region),
            )
        )
    return made


async def timed(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, request: bytes) -> tuple[int, float]:
    sent = time.monotonic()
    status = await exchange(reader, writer, request)
    return status, (time.monotonic() - sent) * 1000


async def fetched(
    table: Table, device: int, connection: tuple[asyncio.StreamReader, asyncio.StreamWriter], request: bytes
) -> tuple[int, float]:
    """A device's fetch as static/js/app.js makes it: with the ticket of its last answer (the
    answer's new one kept for the next)."""
    from sessions.table.tickets import TICKET_HEADER

    if table.tickets.get(device):
        request = request[:-2] + f"{TICKET_HEADER}: {table.tickets[device]}\r\n\r\n".encode()
    sent = time.monotonic()
    status, head = await exchange_with_head(*connection, request)
    took = (time.monotonic() - sent) * 1000
    ticket = [line for line in head.split(b"\r\n") if line.lower().startswith(TICKET_HEADER.lower().encode() + b":")]
    table.tickets[device] = ticket[0].split(b":", 1)[1].strip().decode() if ticket else ""
    return status, took


async def run_table(table: Table, load: Load, start: float) -> None:
    """One table for ``load.seconds``: a move a second, each followed by its phones' fetches."""
    host = await asyncio.open_connection("127.0.0.1", table.port)
    phones = [await asyncio.open_connection("127.0.0.1", table.port) for _ in table.phone_requests]
    second = 0
    tick = start + random.random()
    while tick < start + load.seconds:
        await asyncio.sleep(max(0.0, tick - time.monotonic()))
        if time.monotonic() - tick > 1.0:
            load.late += 1
        status, took = await timed(*host, table.move())
        load.moves.append(took)
        if status != 204:
            load.refused += 1
            break  # the version this client counts on is no longer the table's
        table.version += 1
        devices = [*phones, host]
        answers = await asyncio.gather(
            *(
                fetched(table, index, device, request)
                for index, (device, request) in enumerate(
                    zip(devices, [*table.phone_requests, table.host_fetch], strict=True)
                )
            )
        )
        load.fetches.extend(took for _status, took in answers)
        load.refused += sum(1 for status, _took in answers if status != 200)
        # The next move in the next second, at a moment drawn afresh: tables move once a second
        # but not in step (with one phase each for the whole run, the same tables collided
        # every second and a step's figure was its draw's).
        second += 1
        tick = start + second + random.random()
    for _reader, writer in [host, *phones]:
        writer.close()


async def run_load(tables: list[Table], seconds: float) -> Load:
    load = Load(tables=len(tables), seconds=seconds)
    start = time.monotonic() + 0.5
    await asyncio.gather(*(run_table(table, load, start) for table in tables))
    return load


def not_modified(request: bytes, port: int) -> bytes:
    """``request`` (a phone's fetch) again with the ETag of its answer now: a 304."""
    import http.client

    head = request.decode().split("\r\n")
    path = head[0].split(" ")[1]
    headers = dict(line.split(": ", 1) for line in head[1:] if ": " in line)
    headers.pop("Host")
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("GET", path, headers=headers)
    response = connection.getresponse()
    response.read()
    connection.close()
    return http_get(port, path, {**headers, "If-None-Match": response.headers["ETag"]})


async def one_at_a_time(port: int, request: bytes, count: int = 50) -> float:
    """The median of ``count`` requests sent one after another on one connection (ms)."""
    connection = await asyncio.open_connection("127.0.0.1", port)
    times = [(await timed(*connection, request))[1] for _ in range(count)]
    connection[1].close()
    return statistics.median(times)


def parse_arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", default="1,2,4,8,16,32", help="numbers of tables, comma-separated, increasing")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--workers", type=int, default=2, help="uvicorn's worker processes (2: docs/hosting.md's)")
    parser.add_argument("--runs", type=int, default=3, help="runs of each number of tables; the median decides")
    return parser.parse_args()


def main() -> None:
    import uvloop

    args = parse_arguments()
    counts = [int(n) for n in args.tables.split(",")]
    prepare(DATABASE_URL, REDIS_URL)
    extra = ("--no-access-log", "--log-level", "warning")
    with (
        tempfile.TemporaryDirectory(prefix="babel-bench-tables-") as folder,
        servers.running(1, env=dict(os.environ), log_dir=Path(folder), workers=args.workers, extra=extra) as (server,),
    ):
        every = set_tables(max(counts), server.port)
        # Warm up, not measured: every worker's templates compiled and its database and Redis
        # connections opened, as on a server that has been up for a while.
        uvloop.run(run_load(every, WARM_UP_SECONDS))
        static = uvloop.run(one_at_a_time(server.port, static_request(server)))
        unchanged = uvloop.run(one_at_a_time(server.port, not_modified(every[0].phone_requests[0], server.port)))
        print(f"PostgreSQL + Redis, uvicorn --workers {args.workers}, one client process; {args.seconds:.0f} s a step")
        print(f"baselines, one request at a time: a static file {static:.2f} ms, a phone's 304 {unchanged:.2f} ms")
        print("tables | run | moves | fetches | p50 ms | p95 ms | moves p95 | fetches p95 | refused | late")
        held, failed = 0, False
        for count in counts:
            runs = []
            for run in range(1, args.runs + 1):
                try:
                    load = uvloop.run(run_load(every[:count], args.seconds))
                except (asyncio.IncompleteReadError, ConnectionError):  # the server closed a connection: why
                    print(server.output()[-3000:])
                    raise
                print(f"{count} | {run} | {load.row()}", flush=True)
                runs.append(load)
            # The run of median p95 decides: each run opens its connections afresh, and how the
            # kernel spreads them over the workers (55/45 in one run, 68/32 in the next) moved a
            # step's p95 from under 150 ms to over 600 on this machine.
            median = sorted(runs, key=lambda run: run.p(0.95))[len(runs) // 2]
            failed = failed or median.p(0.95) >= TARGET_P95_MS or bool(median.refused) or bool(median.late)
            held = count if not failed else held  # held only if every smaller count was too
        print(f"held at p95 < {TARGET_P95_MS:.0f} ms, every table on its pace: {held} tables moving once a second")


if __name__ == "__main__":
    signal.signal(signal.SIGINT, signal.default_int_handler)
    main()
