"""The floor of a move (issue 41): a bare ASGI app, no Django, that does only what a move and
its devices need at least, as the baseline ``bench.game_pace`` sets the app against.

- ``POST /move/<table>``: one INSERT into a table of its own (``bench_floor_moves``, created
  when missing) and one Redis PUBLISH of ``version N`` to the table's channel; answers 204
  with the new version in ``Babel-Version``, as the app's move does. A version is the row's
  id: it only grows, for each table as for all.
- ``/ws/<table>`` (WebSocket): forwards each ``version N`` of the table's channel.
- ``GET /region/<table>/<device>``: one SELECT (the table's latest version), answered with
  about 1.4 KB of HTML naming it in ``data-version``, as a live region does.

It reads PostgreSQL at ``DATABASE_URL`` (psycopg, a pool per process, autocommit) and Redis
at ``REDIS_URL``, as the app does. Serve it as the app is served:
``uvicorn bench.floor:application --workers 2`` from the repository root.
"""

from __future__ import annotations

import asyncio
import os
from collections import defaultdict
from typing import Any

import redis.asyncio as redis
from psycopg_pool import AsyncConnectionPool

Scope = dict[str, Any]
Receive = Any
Send = Any

DATABASE_URL = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/babel_bench_pace")
REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/8")
POOL_SIZE = 10  # the app's DB_POOL_SIZE default
CHANNEL = "bench-floor:{table}"

# What a live region weighs, about: its version, a title and rows of the table's state.
REGION = (
    '<div id="region" data-version="{version}.0" data-table="{table}" data-device="{device}">'
    "<h1>Table {table}</h1><p>This device shows the table at version {version}.</p><ol>"
    + "".join(
        f'<li class="row" id="row-{row}">Row {row} of the table, as every device sees it.</li>' for row in range(16)
    )
    + "</ol></div>\n"
)


class Hub:
    """The sockets of one process and the one Redis subscription that feeds them all, as the
    app's channel layer holds one connection per process (not one per socket)."""

    def __init__(self, client: redis.Redis) -> None:
        self.pubsub = client.pubsub(ignore_subscribe_messages=True)
        self.queues: dict[str, set[asyncio.Queue[str]]] = defaultdict(set)
        self.subscribed: set[str] = set()
        # One subscribe at a time: two sockets' first ones would each open a connection.
        self.subscribing = asyncio.Lock()
        self.reader: asyncio.Task[None] | None = None

    async def join(self, channel: str, queue: asyncio.Queue[str]) -> None:
        async with self.subscribing:
            if channel not in self.subscribed:
                # A channel stays subscribed once it was (messages nobody listens to are
                # dropped): the pubsub then never checks its connection while the reader reads.
                await self.pubsub.subscribe(channel)
                self.subscribed.add(channel)
        self.queues[channel].add(queue)
        if self.reader is None:  # started after the first subscribe: nothing to read before it
            self.reader = asyncio.create_task(self.read())

    def leave(self, channel: str, queue: asyncio.Queue[str]) -> None:
        self.queues[channel].discard(queue)

    async def read(self) -> None:
        while True:
            message = await self.pubsub.get_message(timeout=None)
            if message is None or message["type"] != "message":
                continue
            text = message["data"].decode()
            for queue in self.queues[message["channel"].decode()]:
                queue.put_nowait(text)


class Floor:
    """The ASGI app: its pool, Redis client and hub are opened at lifespan start-up."""

    pool: AsyncConnectionPool
    redis: redis.Redis
    hub: Hub

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self.lifespan(receive, send)
        elif scope["type"] == "websocket":
            await self.socket(scope, receive, send)
        else:
            await self.http(scope, receive, send)

    async def lifespan(self, receive: Receive, send: Send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                try:
                    await self.open()
                except Exception as error:  # told to uvicorn, which then exits
                    await send({"type": "lifespan.startup.failed", "message": repr(error)})
                    return
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await self.pool.close()
                await self.redis.aclose()
                await send({"type": "lifespan.shutdown.complete"})
                return

    async def open(self) -> None:
        self.pool = AsyncConnectionPool(
            DATABASE_URL, min_size=1, max_size=POOL_SIZE, kwargs={"autocommit": True}, open=False
        )
        await self.pool.open(wait=True)
        self.redis = redis.Redis.from_url(REDIS_URL)
        self.hub = Hub(self.redis)
        async with self.pool.connection() as connection, connection.transaction():
            # Both workers start at once: the lock keeps their CREATEs from racing.
            await connection.execute("SELECT pg_advisory_xact_lock(41)")
            await connection.execute(
                "CREATE TABLE IF NOT EXISTS bench_floor_moves ("
                "id bigserial PRIMARY KEY, table_id integer NOT NULL, made_at timestamptz NOT NULL DEFAULT now())"
            )
            # The region's SELECT reads the index only: the last entry of its table.
            await connection.execute(
                "CREATE INDEX IF NOT EXISTS bench_floor_moves_table ON bench_floor_moves (table_id, id)"
            )

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        parts = scope["path"].strip("/").split("/")
        while (await receive()).get("more_body"):  # a move's body says nothing the floor needs
            pass
        if scope["method"] == "POST" and len(parts) == 2 and parts[0] == "move" and parts[1].isdigit():
            version = await self.move(int(parts[1]))
            await respond(send, 204, b"", [(b"babel-version", str(version).encode())])
        elif scope["method"] == "GET" and len(parts) == 3 and parts[0] == "region" and parts[1].isdigit():
            table = int(parts[1])
            async with self.pool.connection() as connection:
                cursor = await connection.execute(
                    "SELECT coalesce(max(id), 0) FROM bench_floor_moves WHERE table_id = %s", [table]
                )
                row = await cursor.fetchone()
            version = row[0] if row else 0
            body = REGION.format(version=version, table=table, device=parts[2][:8]).encode()
            await respond(send, 200, body, [(b"content-type", b"text/html; charset=utf-8")])
        else:
            await respond(send, 404, b"", [])

    async def move(self, table: int) -> int:
        async with self.pool.connection() as connection:
            cursor = await connection.execute(
                "INSERT INTO bench_floor_moves (table_id) VALUES (%s) RETURNING id", [table]
            )
            row = await cursor.fetchone()
        assert row is not None
        version = int(row[0])
        await self.redis.publish(CHANNEL.format(table=table), f"version {version}")
        return version

    async def socket(self, scope: Scope, receive: Receive, send: Send) -> None:
        parts = scope["path"].strip("/").split("/")
        if (await receive())["type"] != "websocket.connect":
            return
        if len(parts) != 2 or parts[0] != "ws" or not parts[1].isdigit():
            await send({"type": "websocket.close", "code": 4404})
            return
        channel = CHANNEL.format(table=int(parts[1]))
        queue: asyncio.Queue[str] = asyncio.Queue()
        await self.hub.join(channel, queue)  # before accepting: a move after the accept is heard
        await send({"type": "websocket.accept"})
        forward = asyncio.create_task(forwarded(queue, send))
        try:
            while (await receive())["type"] != "websocket.disconnect":
                pass  # a device says nothing on its socket
        finally:
            forward.cancel()
            self.hub.leave(channel, queue)


async def forwarded(queue: asyncio.Queue[str], send: Send) -> None:
    while True:
        await send({"type": "websocket.send", "text": await queue.get()})


async def respond(send: Send, status: int, body: bytes, headers: list[tuple[bytes, bytes]]) -> None:
    headers = [*headers, (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


application = Floor()
