"""Hot writes: how many moves one session accepts per second when 1, 4 or 20 writers send them
at once through the API, on PostgreSQL (the production set-up) and on SQLite (``make run``).

Run from the repository root: ``.venv/bin/python -m bench.hot_writes`` (``--writers 1,4,20``,
``--seconds 10``, ``--database postgres,sqlite``). PostgreSQL is ``BENCH_DATABASE_URL``
(default postgres://postgres@127.0.0.1:5432/babel_bench_writes, dropped and created afresh)
with Redis ``BENCH_REDIS_URL`` (default redis://127.0.0.1:6379/7, flushed) and
``uvicorn --workers 2``; SQLite is a new file in a temporary folder, with no Redis and one
uvicorn process, as ``make run`` serves.

Each writer is a phone that keeps moving: it POSTs a Tower of Babel pass to
``/api/v1/sessions/<id>/events/`` naming the last version it knows on a kept-alive
connection; a 409 tells it the version now (and nothing else: issue 15, item 11), and it sends
again at once, giving the move up after 200 tries as the audit's writers did. Printed per
database and writer count: accepted moves per second, 409s per accepted move, moves given up,
the time from a move's first try to its acceptance (p50/p95), and errors. The baselines are
measured in the same run, against the same server, by the same client: a static file and the
API's cheapest answer (a session read answered 304), in requests per second at the same
concurrency; the ratios say what share of a bare request rate a move costs. After every step
the session's log is checked: the version moved by exactly the moves accepted (none lost, none
recorded twice) and the sequence has no gap.
"""

from __future__ import annotations

import argparse
import http.client
import json
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench import databases, servers, tables
from bench.push import percentile

DATABASE_URL = "postgres://postgres@127.0.0.1:5432/babel_bench_writes"
REDIS_URL = "redis://127.0.0.1:6379/7"
GIVE_UP_AFTER = 200  # tries, as the audit's writers


@dataclass
class Step:
    """One load: what the writers (or the baseline's readers) got in ``seconds``."""

    clients: int
    seconds: float
    done: int = 0  # accepted moves, or answered requests for a baseline
    conflicts: int = 0
    gave_up: int = 0
    accepted_late: int = 0  # accepted after the window closed (counted for the log check only)
    latencies: list[float] = field(default_factory=list)  # ms, first try to acceptance
    errors: Counter[str] = field(default_factory=Counter)

    @property
    def rate(self) -> float:
        return self.done / self.seconds


# --- the clients (a process of their own, so they never share the bench's interpreter) ----------


def request(
    connection: http.client.HTTPConnection, method: str, path: str, body: bytes | None, headers: dict[str, str]
):
    connection.request(method, path, body=body, headers=headers)
    response = connection.getresponse()
    return response.status, response.read()


def move(port: int, token: str, session_id: int, version: int, deadline: float, step: Step, lock: threading.Lock):
    """One writer: passes until the deadline, each sent again on a 409 with the version it names."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    path = f"/api/v1/sessions/{session_id}/events/"
    headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}
    while time.monotonic() < deadline:
        began, tries = time.monotonic(), 0
        while tries < GIVE_UP_AFTER:
            tries += 1
            body = json.dumps({"type": "tob.pass", "expected_version": version}).encode()
            try:
                status, answer = request(connection, "POST", path, body, headers)
            except OSError as error:
                with lock:
                    step.errors[type(error).__name__] += 1
                connection.close()
                break
            if status == 409:
                version = json.loads(answer)["version"]
                with lock:
                    step.conflicts += 1
                continue
            ended = time.monotonic()
            with lock:
                if status != 201:
                    step.errors[str(status)] += 1
                elif ended <= deadline:
                    step.done += 1
                    step.latencies.append((ended - began) * 1000)
                else:
                    step.accepted_late += 1
            if status == 201:
                version = json.loads(answer)["session"]["version"]
            break
        else:
            with lock:
                step.gave_up += 1
    connection.close()


def read(port: int, path: str, headers: dict[str, str], deadline: float, step: Step, lock: threading.Lock):
    """One baseline reader: the same request back to back until the deadline."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    while time.monotonic() < deadline:
        status, _body = request(connection, "GET", path, None, headers)
        with lock:
            if status in (200, 304) and time.monotonic() <= deadline:
                step.done += 1
            elif status not in (200, 304):
                step.errors[str(status)] += 1
    connection.close()


def run_clients(kind: str, clients: int, seconds: float, arguments: dict[str, Any]) -> Step:
    step, lock = Step(clients=clients, seconds=seconds), threading.Lock()
    deadline = time.monotonic() + seconds
    target: Callable[..., None] = move if kind == "move" else read
    threads = [
        threading.Thread(target=target, kwargs={**arguments, "deadline": deadline, "step": step, "lock": lock})
        for _ in range(clients)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return step


def load(kind: str, clients: int, seconds: float, **arguments: Any) -> Step:
    step: Step = databases.apart(run_clients, kind, clients, seconds, arguments)
    return step


# --- the table ---------------------------------------------------------------------------------


@dataclass
class Table:
    session_id: int
    token: str


def set_table() -> Table:
    from sessions.api.tokens import create_api_token

    owner, session, _players = tables.started_tower()
    return Table(session_id=session.pk, token=create_api_token(user=owner, name="bench")[1])


def version_now(session_id: int) -> int:
    from django.db import connections

    from sessions.models import GameSession, SessionEvent

    connections.close_all()  # a fresh read, not a connection's old snapshot
    version = GameSession.objects.get(pk=session_id).version
    seqs = list(SessionEvent.objects.filter(session_id=session_id).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, version + 1)), "the log has a gap or a sequence number twice"
    return version


def session_etag(port: int, table: Table) -> str:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request(
        "GET", f"/api/v1/sessions/{table.session_id}/", headers={"Authorization": f"Token {table.token}"}
    )
    response = connection.getresponse()
    response.read()
    assert response.status == 200, response.status
    return response.headers["ETag"]


# --- one database ------------------------------------------------------------------------------


@dataclass
class Report:
    database: str
    setup: str
    static: dict[int, Step]
    cheapest: dict[int, Step]
    moves: dict[int, Step]
    checks: list[str]


def measure_writers(port: int, table: Table, count: int, seconds: float, report: Report) -> None:
    """The two baselines, then ``count`` writers, then the log check."""
    from django.templatetags.static import static

    cheap = {"Authorization": f"Token {table.token}", "If-None-Match": session_etag(port, table)}
    report.static[count] = load("read", count, seconds, port=port, path=static("css/app.css"), headers={})
    session_path = f"/api/v1/sessions/{table.session_id}/"
    report.cheapest[count] = load("read", count, seconds, port=port, path=session_path, headers=cheap)
    before = version_now(table.session_id)
    step = load("move", count, seconds, port=port, token=table.token, session_id=table.session_id, version=before)
    report.moves[count] = step
    after = version_now(table.session_id)
    accepted = step.done + step.accepted_late
    verdict = "holds" if after - before == accepted else "BROKEN"
    report.checks.append(f"{count} writers: version {before} -> {after}, {accepted} moves accepted: {verdict}")


def run_database(database: str, writers: list[int], seconds: float) -> Report:
    """In a process of its own: Django set up for this database alone."""
    with tempfile.TemporaryDirectory(prefix="babel-bench-writes-") as folder:
        redis_url = REDIS_URL if database == "postgres" else None
        env, setup = databases.environment(database, Path(folder), postgres_url=DATABASE_URL, redis_url=redis_url)
        databases.set_up_django(env)
        from django.conf import settings
        from django.core.management import call_command
        from django.db import connections

        if not (Path(settings.STATIC_ROOT) / "staticfiles.json").exists():
            call_command("collectstatic", interactive=False, verbosity=0)
        table = set_table()
        connections.close_all()
        # Production's 2 workers on PostgreSQL; one process on SQLite, as make run serves.
        workers = 2 if database == "postgres" else 1
        setup += f", uvicorn with {workers} worker process{'es' if workers > 1 else ''}"
        extra = ("--no-access-log", "--log-level", "warning")
        report = Report(database=database, setup=setup, static={}, cheapest={}, moves={}, checks=[])
        with servers.running(1, env=env, log_dir=Path(folder), workers=workers, extra=extra) as (server,):
            for count in writers:
                measure_writers(server.port, table, count, seconds, report)
                print(f"  {database}, {count} writers: {report.moves[count].rate:.1f} moves/s", flush=True)
        connections.close_all()
    return report


# --- the report --------------------------------------------------------------------------------


def print_report(report: Report) -> None:
    print(f"\n== {report.database}: {report.setup}")
    print(
        "writers | moves/s | 409s per move | given up | first try to accepted p50 / p95 ms | errors "
        "| static req/s | 304 read req/s | moves / static | moves / 304 read"
    )
    for count, step in report.moves.items():
        static, cheap = report.static[count], report.cheapest[count]
        per_move = step.conflicts / step.done if step.done else float("nan")
        errors = ", ".join(f"{k}: {v}" for k, v in sorted(step.errors.items())) or "0"
        print(
            f"{count:>7} | {step.rate:7.1f} | {per_move:13.2f} | {step.gave_up:8} | "
            f"{percentile(step.latencies, 50):8.1f} / {percentile(step.latencies, 95):8.1f} | {errors} | "
            f"{static.rate:12.0f} | {cheap.rate:14.0f} | {step.rate / static.rate:14.3f} | {step.rate / cheap.rate:.3f}"
        )
    one = report.moves.get(min(report.moves))
    for count, step in report.moves.items():
        if one is not None and count != min(report.moves):
            print(f"{count} writers accept {step.rate / one.rate:.2f}x the moves per second of {min(report.moves)}")
    for line in report.checks:
        print(f"log check, {line}")


def parse_arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--writers", default="1,4,20", help="writer counts, comma-separated")
    parser.add_argument("--seconds", type=float, default=10.0, help="per load (each baseline and each writer count)")
    parser.add_argument("--database", default="postgres,sqlite", help="postgres, sqlite or both, comma-separated")
    return parser.parse_args()


def main() -> None:
    args = parse_arguments()
    writers = [int(count) for count in args.writers.split(",")]
    began = time.monotonic()
    reports = [databases.apart(run_database, name, writers, args.seconds) for name in args.database.split(",")]
    for report in reports:
        print_report(report)
    print(f"\nwhole run {time.monotonic() - began:.0f} s")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
