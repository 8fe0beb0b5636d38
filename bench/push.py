"""Push: how fast a committed move reaches 10 to thousands of devices, how many sockets the
server holds and what each costs, next to today's 1 s poll, measured in one run on one server.

Run from the repository root: ``.venv/bin/python -m bench.push`` (``--devices 10,200,1000``,
``--writes 30``, ``--poll-devices``, ``--capacity-seconds``, ``--quick``
for a short run). It works on PostgreSQL (``BENCH_DATABASE_URL``, default
postgres://postgres@127.0.0.1:5432/babel_bench, dropped, created and migrated afresh) and
Redis (``BENCH_REDIS_URL``, default redis://127.0.0.1:6379/6, flushed), serves the app with
``uvicorn --workers 2`` (the production set-up on this 2-core machine; access log off), holds
the devices in separate client processes (``--clients``, default 2, sharing the same 2 cores)
and prints:

- baselines: a static file's and a bare Redis PUBLISH -> SUBSCRIBE round trip, one device's
  poll, and the requests per second of a static file and of the poll, back to back;
- the 1 s poll: devices (one member's cookie) each GET the host page's live region
  ``/s/<id>/live/`` every second with ``If-None-Match`` (the 304 path) and ``HX-Request``, at
  increasing counts: request p50/p95, the rate answered against the rate asked, the CPU of the
  server's workers, PostgreSQL, the clients and the whole machine, the workers' memory; the
  largest count kept up with (at least 95 % of the asked requests answered, p95 < 1 s);
- push fan-out: with N sockets connected to the session's night (the host page's socket, one
  member's cookie), for each of ``--writes`` passes committed through ``services.append_event``
  by this process, the time from the commit (our first on-commit hook, which runs before the
  push's own) to each device hearing it: p50/p95/max over every (device, write) pair, and until
  the last device of each write (p50/p95). Targets: p95 < 100 ms at 200 devices, < 1 s at 1,000;
- capacity: N doubled past the largest ``--devices`` until the p95 reaches 1 s, the time
  budget is spent or the file descriptors run out; the largest N under 100 ms and under 1 s;
- memory: the workers' summed VmRSS idle and with N sockets, in KB per connection.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import multiprocessing
import os
import random
import resource
import signal
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any

from bench import servers, tables

DATABASE_URL = "postgres://postgres@127.0.0.1:5432/babel_bench"
REDIS_URL = "redis://127.0.0.1:6379/6"
CONNECTS_AT_ONCE = 100  # handshakes in flight per client process, like a room of phones waking up
PUSH_TARGETS_MS = (100.0, 1000.0)
HEARD_TIMEOUT = 10.0  # a write not heard by every device by then counts its missing pairs as lost
POLL_SECONDS = 6.0
POLL_KEEPS_UP = 0.95
FEW = 100  # below this many connections, memory per connection is noise


# --- figures -----------------------------------------------------------------------------------


def percentile(values: list[float], q: float) -> float:
    """The nearest-rank percentile (nan for no values)."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


def ms(value: float) -> str:
    return "-" if math.isnan(value) else f"{value:.1f}" if value < 100 else f"{value:.0f}"


def split(total: int, parts: int) -> list[int]:
    return [total // parts + (index < total % parts) for index in range(parts)]


def machine_busy_seconds() -> float:
    """CPU time the whole machine spent busy so far, all cores (/proc/stat, less idle and iowait)."""
    fields = [int(field) for field in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]]
    return (sum(fields) - fields[3] - fields[4]) / servers.CLOCK_TICKS


def cpu_now(whose: dict[str, list[int]]) -> dict[str, float]:
    return {**{who: servers.cpu_seconds(pids) for who, pids in whose.items()}, "machine": machine_busy_seconds()}


def cpu_since(before: dict[str, float], whose: dict[str, list[int]]) -> dict[str, float]:
    """CPU seconds used since ``before`` (``cpu_now``), by whom."""
    return {who: seconds - before[who] for who, seconds in cpu_now(whose).items()}


def others_busy(seconds: float = 2.0) -> float:
    """How busy the machine is without us, in % of one core: whatever else runs skews the figures."""
    before = machine_busy_seconds()
    time.sleep(seconds)
    return (machine_busy_seconds() - before) / seconds * 100


def pids_named(name: str) -> list[int]:
    """The processes whose command name is ``name`` (PostgreSQL's: the database's CPU)."""
    found = []
    for comm in Path("/proc").glob("[0-9]*/comm"):
        try:
            if comm.read_text().strip() == name:
                found.append(int(comm.parent.name))
        except OSError:
            continue
    return found


def spawn(target: Any, *args: Any) -> tuple[Connection, Any]:
    """A client process running ``target(pipe, *args)`` and the bench's end of its pipe.
    Spawned, not forked: nothing of the bench's Django, database or event loop goes along."""
    context = multiprocessing.get_context("spawn")
    ours, theirs = context.Pipe()
    process = context.Process(target=target, args=(theirs, *args), daemon=True)
    process.start()
    theirs.close()
    return ours, process


def expect(pipe: Connection, *, timeout: float) -> Any:
    if not pipe.poll(timeout):
        raise RuntimeError(f"a client process said nothing in {timeout:g} s")
    return pipe.recv()


# --- the devices' sockets, held in client processes --------------------------------------------


def hold_devices(pipe: Connection, url: str, origin: str, cookie: str) -> None:
    """A client process: opens sockets on command and notes when each hears each version."""
    import uvloop

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the bench stops its clients itself
    uvloop.run(Devices(pipe, url, origin, cookie).serve())


class Devices:
    """One client process's sockets, as browsers hold them (no client pings, compression offered)."""

    def __init__(self, pipe: Connection, url: str, origin: str, cookie: str) -> None:
        self.pipe, self.url, self.origin, self.cookie = pipe, url, origin, cookie
        self.sockets: list[Any] = []
        self.heard: dict[Any, list[float]] = defaultdict(list)
        self.listeners: set[asyncio.Task[None]] = set()

    async def serve(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            command, argument = await loop.run_in_executor(None, self.pipe.recv)
            if command == "grow":
                limit = asyncio.Semaphore(CONNECTS_AT_ONCE)
                opened = await asyncio.gather(*(self.open(limit) for _ in range(argument - len(self.sockets))))
                errors = [error for error in opened if error]
                self.pipe.send(("grown", (len(self.sockets), len(errors), errors[:1])))
            elif command == "collect":
                self.pipe.send(("heard", (dict(self.heard), len(self.sockets))))
                self.heard.clear()

    async def open(self, limit: asyncio.Semaphore) -> str | None:
        """One more socket, or why it could not be opened."""
        from websockets.asyncio.client import connect
        from websockets.typing import Origin

        async with limit:
            try:
                socket = await connect(
                    self.url,
                    origin=Origin(self.origin),
                    additional_headers={"Cookie": self.cookie},
                    proxy=None,
                    open_timeout=120,
                    ping_interval=None,  # browsers never ping; the server does (uvicorn, every 20 s)
                )
            except Exception as error:  # reported to the bench as a failed connection
                return repr(error)
        self.sockets.append(socket)
        task = asyncio.create_task(self.listen(socket))
        self.listeners.add(task)  # a task nobody holds may be collected mid-flight
        task.add_done_callback(self.listeners.discard)
        return None

    async def listen(self, socket: Any) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            async for raw in socket:
                now = time.monotonic()  # first: parsing is the client's cost, not the push's
                message = json.loads(raw)
                if "now" in message:  # what the table showed when the socket joined: no news
                    continue
                version = message["version"]
                self.heard[version].append(now)
                if len(self.heard[version]) == len(self.sockets):
                    self.pipe.send(("all", version))
        except ConnectionClosed:
            pass


class Fleet:
    """The client processes holding the devices' sockets, seen from the bench."""

    def __init__(self, *, clients: int, url: str, origin: str, cookie: str) -> None:
        spawned = [spawn(hold_devices, url, origin, cookie) for _ in range(clients)]
        self.pipes = [pipe for pipe, _process in spawned]
        self.processes = [process for _pipe, process in spawned]
        self.shares = [0] * clients

    def pids(self) -> list[int]:
        return [process.pid for process in self.processes]

    def grow(self, devices: int) -> tuple[int, int, list[str]]:
        """Connects devices until ``devices`` are connected in all: (connected, failed, an error)."""
        self.shares = split(devices, len(self.pipes))
        for pipe, share in zip(self.pipes, self.shares, strict=True):
            pipe.send(("grow", share))
        replies = self.replies("grown", timeout=900)
        return sum(r[0] for r in replies), sum(r[1] for r in replies), [e for r in replies for e in r[2]]

    def wait_all_heard(self, version: int, *, timeout: float) -> None:
        """Until every device heard ``version``, or ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        waiting = {pipe for pipe, share in zip(self.pipes, self.shares, strict=True) if share}
        while waiting and time.monotonic() < deadline:
            for ready in wait(list(waiting), timeout=max(0.0, deadline - time.monotonic())):
                assert isinstance(ready, Connection)
                if ready.recv() == ("all", version):  # an older write's late notice is dropped
                    waiting.discard(ready)

    def collect(self) -> tuple[dict[Any, list[float]], int]:
        """When devices heard each version since the last call, and how many are connected."""
        for pipe in self.pipes:
            pipe.send(("collect", None))
        merged: dict[Any, list[float]] = defaultdict(list)
        connected = 0
        for heard, count in self.replies("heard", timeout=120):
            connected += count
            for version, times in heard.items():
                merged[version] += times
        return merged, connected

    def replies(self, kind: str, *, timeout: float) -> list[Any]:
        """The next ``kind`` answer of each process (late 'all' notices of a lost write are dropped)."""
        found = []
        for pipe in self.pipes:
            while (answer := expect(pipe, timeout=timeout))[0] != kind:
                pass
            found.append(answer[1])
        return found

    def stop(self) -> None:
        for process in self.processes:
            process.terminate()
        for process in self.processes:
            process.join(timeout=10)


# --- the 1 s poll, by simulated devices in client processes ------------------------------------


@dataclass(frozen=True)
class PollPlan:
    """What each simulated device sends, how often (None: back to back), for how long."""

    port: int
    request: bytes
    devices: int
    interval: float | None
    seconds: float


def poll_devices(pipe: Connection, plan: PollPlan) -> None:
    """A client process: ``plan.devices`` devices polling, each on its own keep-alive connection."""
    import uvloop

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    pipe.send(uvloop.run(run_poll(pipe, plan)))


async def run_poll(pipe: Connection, plan: PollPlan) -> dict[str, Any]:
    connections = [await asyncio.open_connection("127.0.0.1", plan.port) for _ in range(plan.devices)]
    pipe.send("ready")
    start = await asyncio.get_running_loop().run_in_executor(None, pipe.recv)
    results = await asyncio.gather(*(one_device(reader, writer, plan, start) for reader, writer in connections))
    statuses: Counter[int] = Counter()
    for _latencies, counted, _errors in results:
        statuses.update(counted)
    return {
        "latencies": [latency for device in results for latency in device[0]],
        "statuses": dict(statuses),
        "errors": sum(device[2] for device in results),
    }


async def one_device(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, plan: PollPlan, start: float
) -> tuple[list[float], Counter[int], int]:
    """One device's requests sent within ``[start, start + seconds)``: their latencies (ms,
    from sending to the whole answer), statuses and errors."""
    end = start + plan.seconds
    tick = start + (random.random() * plan.interval if plan.interval else 0.0)  # pages opened at random
    latencies: list[float] = []
    statuses: Counter[int] = Counter()
    errors = 0
    while tick < end:
        await asyncio.sleep(max(0.0, tick - time.monotonic()))
        sent = time.monotonic()
        try:
            statuses[await exchange(reader, writer, plan.request)] += 1
            latencies.append((time.monotonic() - sent) * 1000)
        except (OSError, asyncio.IncompleteReadError, ValueError):
            errors += 1
            writer.close()
            reader, writer = await asyncio.open_connection("127.0.0.1", plan.port)
        tick = next_tick(tick, plan.interval, time.monotonic())
    writer.close()
    return latencies, statuses, errors


def next_tick(tick: float, interval: float | None, now: float) -> float:
    """When a device sends again: back to back; else on its next tick, or at once when ticks
    passed while it waited for an answer (htmx queues the last trigger of a busy element and
    drops the others, and its timer keeps its rhythm)."""
    if interval is None:
        return now
    return tick + max(1, math.floor((now - tick) / interval)) * interval


async def exchange(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, request: bytes) -> int:
    """One HTTP/1.1 request on a kept-alive connection; the answer's status (its body read, dropped)."""
    return (await exchange_with_head(reader, writer, request))[0]


async def exchange_with_head(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, request: bytes
) -> tuple[int, bytes]:
    """``exchange``, with the answer's head as it came."""
    writer.write(request)
    raw = await reader.readuntil(b"\r\n\r\n")
    head = raw.lower()
    status = int(head.split(b" ", 2)[1])
    if b"\r\ntransfer-encoding: chunked" in head:
        while size := int((await reader.readline()).strip(), 16):
            await reader.readexactly(size + 2)
        await reader.readline()
    elif b"\r\ncontent-length:" in head:
        await reader.readexactly(int(head.split(b"\r\ncontent-length:", 1)[1].split(b"\r\n", 1)[0]))
    return status, raw


def http_get(port: int, path: str, headers: dict[str, str]) -> bytes:
    lines = [f"GET {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", *(f"{k}: {v}" for k, v in headers.items())]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


@dataclass
class PollStep:
    """One poll load: what was asked and answered, and what it cost."""

    devices: int
    asked: float  # requests per second (nan: back to back)
    seconds: float
    latencies: list[float]
    statuses: dict[int, int]
    errors: int
    cpu: dict[str, float]  # % of one core, by whom (200 % is the whole machine)
    rss_kb: int

    @property
    def answered(self) -> float:
        return len(self.latencies) / self.seconds

    @property
    def keeps_up(self) -> bool:
        good = sum(count for status, count in self.statuses.items() if status < 500) / self.seconds
        return good >= POLL_KEEPS_UP * self.asked and percentile(self.latencies, 95) < 1000


def run_poll_step(server: servers.Server, plan: PollPlan, clients: int) -> PollStep:
    """``plan.devices`` devices over ``clients`` processes, all starting at one moment."""
    spawned = [spawn(poll_devices, replace(plan, devices=share)) for share in split(plan.devices, clients) if share]
    try:
        for pipe, _process in spawned:
            expect(pipe, timeout=120)  # connected
        start = time.monotonic() + 0.5
        for pipe, _process in spawned:
            pipe.send(start)
        whose = {"workers": server.worker_pids(), "postgres": pids_named("postgres")}
        whose["clients"] = [process.pid for _pipe, process in spawned]
        cpu, rss = load_window(server, whose, start, plan.seconds)
        results = [expect(pipe, timeout=120) for pipe, _process in spawned]
    finally:
        for _pipe, process in spawned:
            process.terminate()
            process.join(timeout=10)
    statuses: Counter[int] = Counter()
    for result in results:
        statuses.update(result["statuses"])
    return PollStep(
        devices=plan.devices,
        asked=plan.devices / plan.interval if plan.interval else math.nan,
        seconds=plan.seconds,
        latencies=[latency for result in results for latency in result["latencies"]],
        statuses=dict(statuses),
        errors=sum(result["errors"] for result in results),
        cpu={who: used / plan.seconds * 100 for who, used in cpu.items()},
        rss_kb=rss,
    )


def load_window(
    server: servers.Server, whose: dict[str, list[int]], start: float, seconds: float
) -> tuple[dict[str, float], int]:
    """The CPU seconds used over ``[start, start + seconds)`` by whom, and the workers' memory
    halfway through."""
    time.sleep(max(0.0, start - time.monotonic()))
    before = cpu_now(whose)
    time.sleep(seconds / 2)
    rss = servers.rss_kb(server.worker_pids())
    time.sleep(max(0.0, start + seconds - time.monotonic()))
    return cpu_since(before, whose), rss


def poll_phase(server: servers.Server, live: bytes, counts: list[int], clients: int) -> list[PollStep]:
    """Poll loads of increasing size, up to the first the server does not keep up with."""
    steps: list[PollStep] = []
    for devices in counts:
        steps.append(run_poll_step(server, PollPlan(server.port, live, devices, 1.0, POLL_SECONDS), clients))
        print_poll(steps[-1])
        if not steps[-1].keeps_up:
            break
    return steps


# --- the table the devices follow, and its writes ----------------------------------------------


@dataclass
class Table:
    """The bench's session: a started Tower of Babel with its first player to move."""

    session_id: int
    version: int
    cookie: str


def set_table() -> Table:
    from django.test import Client

    owner, session, _players = tables.started_tower()
    client = Client()
    client.force_login(owner)
    cookie = "; ".join(f"{name}={morsel.value}" for name, morsel in client.cookies.items())
    return Table(session_id=session.pk, version=2, cookie=cookie)


def commit_a_pass(session_id: int, version: int) -> tuple[float, int]:
    """A pass recorded through the services, as a device's move is: when its transaction
    committed (``time.monotonic``, one clock for every process on the machine) and the new
    version. The outer transaction makes our on-commit hook run first, right after COMMIT
    returned and before the push's own (``append_event``'s block becomes a savepoint)."""
    from django.db import transaction

    from scoring.tower_of_babel import engine as tob
    from sessions import services

    committed: list[float] = []
    with transaction.atomic():
        transaction.on_commit(lambda: committed.append(time.monotonic()))
        outcome = services.append_event(session_id=session_id, expected_version=version, type=tob.PASS)
    return committed[0], outcome.session.version


# --- push rounds -------------------------------------------------------------------------------


@dataclass
class PushRound:
    devices: int
    connected: int
    failed: int
    connect_seconds: float
    writes: int
    latencies: list[float]  # ms, one per (device, write) heard
    lasts: list[float]  # ms, per write: until its last device heard it (inf: some never did)
    missed: int  # (device, write) pairs not heard within HEARD_TIMEOUT
    idle_rss_kb: int
    rss_kb: int
    cpu_ms_per_write: dict[str, float]

    @property
    def p95(self) -> float:
        return math.inf if self.missed else percentile(self.latencies, 95)

    @property
    def kb_per_connection(self) -> float:
        if self.connected < FEW:
            return math.nan
        return (self.rss_kb - self.idle_rss_kb) / self.connected


async def push_round(
    fleet: Fleet, table: Table, server: servers.Server, devices: int, writes: int, idle: int
) -> PushRound:
    began = time.monotonic()
    connected, failed, errors = await asyncio.to_thread(fleet.grow, devices)
    connect_seconds = time.monotonic() - began
    if errors:
        print(f"  {failed} sockets failed to connect, e.g. {errors[0]}")
    await asyncio.sleep(1)  # the last handshakes' subscriptions settle; memory after them
    rss = servers.rss_kb(server.worker_pids())
    whose = {"workers": server.worker_pids(), "clients": fleet.pids()}
    before = cpu_now(whose)
    committed = await write_all(fleet, table, writes + 1)
    cpu = {who: used * 1000 / (writes + 1) for who, used in cpu_since(before, whose).items()}
    heard, connected = await asyncio.to_thread(fleet.collect)
    del committed[min(committed)]  # the first write warms the new sockets' path up
    latencies, lasts, missed = [], [], 0
    for version, t0 in committed.items():
        times = heard.get(version, [])
        latencies += [(t - t0) * 1000 for t in times]
        missed += connected - len(times)
        lasts.append((max(times) - t0) * 1000 if times and len(times) == connected else math.inf)
    return PushRound(devices, connected, failed, connect_seconds, writes, latencies, lasts, missed, idle, rss, cpu)


async def write_all(fleet: Fleet, table: Table, writes: int) -> dict[int, float]:
    """``writes`` passes one after the other, each once every device heard the last one (or
    it timed out): the commit time of each version. The writes run in asgiref's thread, so the
    push's ``async_to_sync`` uses this loop and its Redis connection, as in a server process."""
    from asgiref.sync import sync_to_async

    committed: dict[int, float] = {}
    for _ in range(writes):
        t0, table.version = await sync_to_async(commit_a_pass)(table.session_id, table.version)
        committed[table.version] = t0
        await asyncio.to_thread(fleet.wait_all_heard, table.version, timeout=HEARD_TIMEOUT)
        await asyncio.sleep(0.05)  # moves come apart; nothing of this one is still in flight
    return committed


def fd_limit() -> int:
    """How many sockets one process may hold here, less room for the rest (a worker may get most)."""
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0] - 1000


async def push_phase(server: servers.Server, table: Table, args: argparse.Namespace) -> list[PushRound]:
    fleet = Fleet(
        clients=args.clients,
        url=f"ws://127.0.0.1:{server.port}/ws/sessions/{table.session_id}/",
        origin=server.origin,
        cookie=table.cookie,
    )
    rounds: list[PushRound] = []
    try:
        idle = servers.rss_kb(server.worker_pids())
        for devices in args.devices:
            rounds.append(await push_round(fleet, table, server, devices, args.writes, idle))
            print_push(rounds[-1])
        if args.capacity_seconds > 0:
            await capacity(fleet, table, server, args, rounds, idle)
    finally:
        fleet.stop()
    return rounds


async def capacity(
    fleet: Fleet, table: Table, server: servers.Server, args: argparse.Namespace, rounds: list[PushRound], idle: int
) -> None:
    """Doubles the devices until the p95 reaches 1 s, or the budget or the descriptors run out;
    a round is only begun when twice the last one's time is left (doubling about doubles it)."""
    deadline = time.monotonic() + args.capacity_seconds
    devices, took = max(args.devices) * 2, 0.0
    while rounds[-1].p95 < PUSH_TARGETS_MS[1] and not rounds[-1].failed:
        if devices > fd_limit():
            print(f"capacity: stopped before {devices} devices: file descriptor limit")
            return
        if time.monotonic() + 2 * took > deadline:
            print(f"capacity: stopped before {devices} devices: time budget ({args.capacity_seconds:g} s)")
            return
        began = time.monotonic()
        rounds.append(await push_round(fleet, table, server, devices, max(5, args.writes // 3), idle))
        took = time.monotonic() - began
        print_push(rounds[-1])
        devices *= 2


# --- baselines ---------------------------------------------------------------------------------


@dataclass
class Baselines:
    static_ms: list[float]
    poll_ms: list[float]
    pubsub_ms: list[float]
    static_rate: PollStep
    poll_rate: PollStep


async def round_trips(port: int, request: bytes, count: int) -> list[float]:
    """``count`` requests one after the other on one kept-alive connection, in ms."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    times = []
    for _ in range(count):
        sent = time.monotonic()
        await exchange(reader, writer, request)
        times.append((time.monotonic() - sent) * 1000)
    writer.close()
    return times


async def pubsub_round_trips(url: str, count: int) -> list[float]:
    """Bare Redis PUBLISH -> SUBSCRIBE round trips (redis-py's asyncio client), in ms: the
    least a push through Redis can take."""
    import redis.asyncio as redis

    client = redis.Redis.from_url(url)
    pubsub = client.pubsub()
    await pubsub.subscribe("bench-round-trip")
    times = []
    for _ in range(count):
        sent = time.monotonic()
        await client.publish("bench-round-trip", b"x")
        while await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0) is None:
            pass
        times.append((time.monotonic() - sent) * 1000)
    await pubsub.aclose()
    await client.aclose()
    return times


def measure_baselines(server: servers.Server, static: bytes, live: bytes, redis_url: str, clients: int) -> Baselines:
    flat_out = PollPlan(port=server.port, request=static, devices=8 * clients, interval=None, seconds=3.0)
    return Baselines(  # back to back, 8 connections per client process
        static_ms=asyncio.run(round_trips(server.port, static, 300)),
        poll_ms=asyncio.run(round_trips(server.port, live, 300)),
        pubsub_ms=asyncio.run(pubsub_round_trips(redis_url, 300)),
        static_rate=run_poll_step(server, flat_out, clients),
        poll_rate=run_poll_step(server, replace(flat_out, request=live), clients),
    )


# --- set-up ------------------------------------------------------------------------------------


def prepare(database_url: str, redis_url: str) -> None:
    """A fresh database and Redis, named in the environment the server processes inherit."""
    import django
    import redis

    fresh_database(database_url)
    redis.Redis.from_url(redis_url).flushdb()
    os.environ.update(
        {
            "DATABASE_URL": database_url,
            "REDIS_URL": redis_url,
            "REDIS_CACHE_URL": redis_url,
            "REDIS_PUSH_URL": redis_url,
            "DJANGO_SETTINGS_MODULE": "babel_companion.settings",
            "LOG_LEVEL": "WARNING",
        }
    )
    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    call_command("migrate", verbosity=0)
    if not (Path(settings.STATIC_ROOT) / "staticfiles.json").exists():  # the server's manifest storage needs it
        call_command("collectstatic", interactive=False, verbosity=0)


def fresh_database(url: str) -> None:
    import dj_database_url
    import psycopg
    from psycopg import sql

    config = dj_database_url.parse(url)
    with psycopg.connect(
        dbname="postgres",
        user=config.get("USER") or None,
        password=config.get("PASSWORD") or None,
        host=config.get("HOST") or None,
        port=config.get("PORT") or None,
        autocommit=True,
    ) as connection:
        name = sql.Identifier(config["NAME"])
        connection.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(name))
        connection.execute(sql.SQL("CREATE DATABASE {}").format(name))


def live_request(server: servers.Server, table: Table) -> bytes:
    """The host page's poll as htmx sends it once the page has its region: conditional, so
    the answer is the 304 of a table where nothing happened."""
    import http.client

    path = f"/s/{table.session_id}/live/"
    headers = {"Cookie": table.cookie, "HX-Request": "true", "HX-Target": "session", "Accept": "*/*"}
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    connection.request("GET", path, headers=headers)
    response = connection.getresponse()
    response.read()
    connection.close()
    assert response.status == 200, f"the live region answered {response.status}"
    return http_get(server.port, path, {**headers, "If-None-Match": response.headers["ETag"]})


def static_request(server: servers.Server) -> bytes:
    from django.templatetags.static import static

    return http_get(server.port, static("css/app.css"), {"Accept": "*/*"})


# --- the report --------------------------------------------------------------------------------


def print_push(r: PushRound) -> None:
    print(
        f"push, {r.devices} devices ({r.connected} connected in {r.connect_seconds:.1f} s, {r.writes} writes): "
        f"p50 {ms(percentile(r.latencies, 50))} ms, p95 {ms(r.p95)} ms, max {ms(max(r.latencies, default=math.nan))} "
        f"ms; last device p50 {ms(percentile(r.lasts, 50))} ms, p95 {ms(percentile(r.lasts, 95))} ms; "
        f"missed {r.missed}; workers' RSS {r.rss_kb / 1024:.0f} MB",
        flush=True,
    )


def print_poll(step: PollStep) -> None:
    cpu = ", ".join(f"{who} {share:.0f} %" for who, share in step.cpu.items())
    print(
        f"poll, {step.devices} devices: asked {step.asked:.0f}/s, answered {step.answered:.0f}/s, "
        f"p50 {ms(percentile(step.latencies, 50))} ms, p95 {ms(percentile(step.latencies, 95))} ms, "
        f"statuses {step.statuses}, errors {step.errors}; CPU (of one core) {cpu}; "
        f"workers' RSS {step.rss_kb / 1024:.0f} MB{'' if step.keeps_up else ' -- does not keep up'}",
        flush=True,
    )


def row(*cells: object) -> str:
    return " ".join(f"{cell:>9}" for cell in cells)


def print_summary(base: Baselines, idle_kb: int, polls: list[PollStep], pushes: list[PushRound]) -> None:
    static50, poll50, redis50 = (percentile(times, 50) for times in (base.static_ms, base.poll_ms, base.pubsub_ms))
    print("\n== Summary: uvicorn --workers 2, PostgreSQL, Redis; the clients share the same 2 cores ==")
    print(
        f"baseline round trips (p50, one connection): static file {ms(static50)} ms, one device's 304 poll "
        f"{ms(poll50)} ms ({poll50 / static50:.1f}x), bare Redis PUBLISH->SUBSCRIBE {ms(redis50)} ms"
    )
    print(
        f"baseline throughput ({base.static_rate.devices} connections back to back): static file "
        f"{base.static_rate.answered:.0f} req/s, poll 304 {base.poll_rate.answered:.0f} req/s "
        f"({base.poll_rate.answered / base.static_rate.answered:.2f}x); workers' RSS idle {idle_kb / 1024:.0f} MB"
    )
    print("\npush: t0 = the write's COMMIT returned; one pair = one device hearing one write; CPU ms per write")
    print("(CPU srv: the workers, cli: the client processes, all: the whole machine, other processes included)")
    print(row("devices", "p50 ms", "p95 ms", "max ms", "last p50", "last p95", "missed", "KB/conn"), end=" ")
    print(row("CPU srv", "CPU cli", "CPU all"))
    for r in pushes:
        target = PUSH_TARGETS_MS[0] if r.devices <= 200 else PUSH_TARGETS_MS[1]
        print(
            row(r.devices, ms(percentile(r.latencies, 50)), ms(r.p95), ms(max(r.latencies, default=math.nan)))
            + " "
            + row(ms(percentile(r.lasts, 50)), ms(percentile(r.lasts, 95)), r.missed, ms(r.kb_per_connection))
            + " "
            + row(*(f"{r.cpu_ms_per_write[who]:.0f}" for who in ("workers", "clients", "machine")))
            + f"  target < {ms(target)} ms {'met' if r.p95 < target else 'MISSED'}"
        )
    print("\npoll: each device 1 conditional GET/s of /s/<id>/live/; CPU in % of one core (the machine has 200 %)")
    print(row("devices", "asked/s", "good/s", "p50 ms", "p95 ms", "workers", "postgres", "clients", "machine"), end="")
    print(row("RSS MB", "KB/dev") + "  keeps up")
    for s in polls:
        good = sum(count for status, count in s.statuses.items() if status < 500) / s.seconds
        cpu = [f"{s.cpu[who]:.0f}" for who in ("workers", "postgres", "clients", "machine")]
        print(row(s.devices, f"{s.asked:.0f}", f"{good:.0f}", ms(percentile(s.latencies, 50))), end=" ")
        print(row(ms(percentile(s.latencies, 95)), *cpu, f"{s.rss_kb / 1024:.0f}"), end=" ")
        print(row(ms((s.rss_kb - idle_kb) / s.devices)) + f"  {'yes' if s.keeps_up else 'no'}")
    print_capacity(base, polls, pushes)


def print_capacity(base: Baselines, polls: list[PollStep], pushes: list[PushRound]) -> None:
    fast = max((r.devices for r in pushes if r.p95 < PUSH_TARGETS_MS[0]), default=0)
    slow = max((r.devices for r in pushes if r.p95 < PUSH_TARGETS_MS[1]), default=0)
    kept = max((s.devices for s in polls if s.keeps_up), default=0)
    print(
        f"\ncapacity: push p95 < 100 ms up to {fast} devices, < 1 s up to {slow} "
        f"(largest tried {max(r.devices for r in pushes)}); the 1 s poll keeps up with {kept} devices "
        f"(largest tried {max(s.devices for s in polls)}); push (< 1 s) / poll = {slow / max(kept, 1):.0f}x"
    )
    first = pushes[0]
    print(
        f"ratios: push p50 at {first.devices} devices / bare Redis round trip = "
        f"{percentile(first.latencies, 50) / percentile(base.pubsub_ms, 50):.0f}x; poll request p50 at "
        f"{polls[0].devices} devices / static round trip = "
        f"{percentile(polls[0].latencies, 50) / percentile(base.static_ms, 50):.0f}x"
    )


# --- main --------------------------------------------------------------------------------------


def counts(text: str) -> list[int]:
    return sorted(int(item) for item in text.split(",") if item.strip())


def parse_arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--devices", type=counts, default=[10, 200, 1000], help="push device counts (10,200,1000)")
    parser.add_argument("--writes", type=int, default=30, help="writes per device count (30)")
    parser.add_argument("--poll-devices", type=counts, default=[25, 50, 100, 200, 400, 800], help="poll counts")
    parser.add_argument("--capacity-seconds", type=float, default=120, help="time budget of the capacity search")
    parser.add_argument("--clients", type=int, default=2, help="client processes holding the devices (2)")
    parser.add_argument("--quick", action="store_true", help="10,200 devices, 10 writes, 2 poll counts, no capacity")
    args = parser.parse_args()
    if args.quick:
        args.devices, args.writes, args.poll_devices, args.capacity_seconds = [10, 200], 10, [25, 100], 0
    return args


@contextmanager
def stopped_on_sigterm() -> Iterator[None]:
    """SIGTERM unwinds like Ctrl-C, so the server and the clients are stopped on the way out."""

    def leave(number: int, frame: Any) -> None:
        raise SystemExit(128 + number)

    previous = signal.signal(signal.SIGTERM, leave)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def main() -> None:
    args = parse_arguments()
    began = time.monotonic()
    database_url = os.environ.get("BENCH_DATABASE_URL", DATABASE_URL)
    redis_url = os.environ.get("BENCH_REDIS_URL", REDIS_URL)
    with stopped_on_sigterm(), tempfile.TemporaryDirectory(prefix="babel-bench-push-") as logs:
        print(f"the machine before the run: {others_busy():.0f} % busy of 200 % (other processes)", flush=True)
        prepare(database_url, redis_url)
        table = set_table()
        print(
            f"database {database_url} (fresh, a pool of connections per process), Redis {redis_url} "
            f"(flushed), {args.clients} client processes",
            flush=True,
        )
        extra = ("--no-access-log", "--log-level", "warning")
        with servers.running(1, env=dict(os.environ), log_dir=Path(logs), workers=2, extra=extra) as (server,):
            static, live = static_request(server), live_request(server, table)
            idle, workers = servers.rss_kb(server.worker_pids()), server.worker_pids()
            base = measure_baselines(server, static, live, redis_url, args.clients)
            print(f"baselines measured; workers {server.worker_pids()}, idle RSS {idle / 1024:.0f} MB", flush=True)
            polls = poll_phase(server, live, args.poll_devices, args.clients)
            pushes = asyncio.run(push_phase(server, table, args))
            restarted = server.worker_pids() != workers
        print_summary(base, idle, polls, pushes)
        print(f"\nworkers {workers}{' RESTARTED during the run' if restarted else ', never restarted'}; ", end="")
        print(f"whole run {time.monotonic() - began:.0f} s; the machine after it: {others_busy():.0f} % busy")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
