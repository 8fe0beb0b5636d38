"""The server's CPU per request under uvicorn (issue 41): the live region's cheapest answers
next to the floor's region, in the same run.

Run from the repository root: ``.venv/bin/python -m bench.asgi_overhead`` (``--requests 1000``).
PostgreSQL is ``BENCH_DATABASE_URL`` (default postgres://postgres@127.0.0.1:5432/babel_bench_asgi,
dropped and created afresh), Redis ``BENCH_REDIS_URL`` (default redis://127.0.0.1:6379/7,
flushed). One Tower of Babel table (``bench.game_pace``'s set-up); the app and then the floor
(``bench.floor``) are each served by one ``uvicorn`` worker, and one kept-alive connection asks
the same request over and over. Printed: the worker's CPU per request (its CPU over the
requests, divided by them) for

- the host's region, answered 304 on its ticket and its ETag (what every device of a table asks
  when nothing changed: the app's least work);
- the same region with its ticket and no ETag: the render the cache kept, served (gzip asked);
- a page that is not there (404): the whole middleware chain and a small template;
- the floor's region: one SELECT and 1.4 KB of HTML, no framework (the baseline);

and each against the floor's.
"""

from __future__ import annotations

import argparse
import os
import socket
import tempfile
from pathlib import Path

from bench import servers
from bench.game_pace import EXTRA, serving, set_app_tables
from bench.push import http_get, prepare

DATABASE_URL = "postgres://postgres@127.0.0.1:5432/babel_bench_asgi"
REDIS_URL = "redis://127.0.0.1:6379/7"


def exchange(connection: socket.socket, request: bytes) -> tuple[bytes, bytes]:
    """One request on a kept-alive connection: the answer's head and body."""
    connection.sendall(request)
    data = b""
    while b"\r\n\r\n" not in data:
        data += connection.recv(65536)
    head, _, body = data.partition(b"\r\n\r\n")
    length = int(header(head, "Content-Length") or 0)
    while len(body) < length:
        body += connection.recv(65536)
    return head, body


def header(head: bytes, name: str) -> str:
    for line in head.split(b"\r\n")[1:]:
        key, _, value = line.partition(b":")
        if key.decode().lower() == name.lower():
            return value.strip().decode()
    return ""


def cpu_ms_per_request(server: servers.Server, request: bytes, count: int) -> tuple[str, float]:
    """The answer's status line and the server's CPU per request, over ``count`` of them (after
    a hundred not counted)."""
    workers = server.worker_pids()
    with socket.create_connection(("127.0.0.1", server.port)) as connection:
        for _ in range(100):
            exchange(connection, request)
        before = servers.cpu_seconds(workers)
        for _ in range(count):
            head, _body = exchange(connection, request)
        spent = servers.cpu_seconds(workers) - before
    return head.split(b"\r\n")[0].decode(), spent * 1000 / count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=1000)
    args = parser.parse_args()
    prepare(os.environ.get("BENCH_DATABASE_URL", DATABASE_URL), os.environ.get("BENCH_REDIS_URL", REDIS_URL))
    table = set_app_tables(1)[0]
    from django.db import connections

    connections.close_all()  # the set-up's; the server has its own
    results: list[tuple[str, str, float]] = []
    with tempfile.TemporaryDirectory() as logs:
        with servers.running(1, env=dict(os.environ), log_dir=Path(logs), extra=EXTRA) as (app,):
            region = f"/s/{table.session_id}/live/"
            asked = {"HX-Request": "true", "HX-Target": "session", "Accept-Encoding": "gzip"}
            asked["Cookie"] = table.host_cookie
            with socket.create_connection(("127.0.0.1", app.port)) as connection:
                head, _body = exchange(connection, http_get(app.port, region, asked))
            ticketed = {**asked, "Babel-Live-Ticket": header(head, "Babel-Live-Ticket")}
            unchanged = {**ticketed, "If-None-Match": header(head, "ETag")}
            requests = [
                ("app: the host's region, 304 on its ticket", unchanged, region),
                ("app: the host's region, the kept render", ticketed, region),
                ("app: a page that is not there (404)", {}, "/nothing-here/"),
            ]
            for name, headers, path in requests:
                results.append((name, *cpu_ms_per_request(app, http_get(app.port, path, headers), args.requests)))
        with serving("floor", 1, Path(logs)) as floor:
            request = http_get(floor.port, "/region/1/1", {})
            results.append(("floor: a region (the baseline)", *cpu_ms_per_request(floor, request, args.requests)))
    baseline = results[-1][2]
    print(f"uvicorn, one worker, {args.requests} requests each on one kept-alive connection")
    print(f"{'request':48} {'answer':>8} {'CPU ms':>8} {'x floor':>8}")
    for name, status, cpu in results:
        print(f"{name:48} {status.split(' ')[1]:>8} {cpu:8.3f} {cpu / baseline:7.1f}x")


if __name__ == "__main__":
    main()
