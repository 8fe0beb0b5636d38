"""Real uvicorn server processes for the integration tests and the benchmarks: start them,
wait until they answer, read their workers' memory and CPU, stop them.

Each server runs in a session of its own, so stopping it stops its workers too
(``uvicorn --workers N`` forks N worker processes under a supervisor).
"""

from __future__ import annotations

import http.client
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

REPO = Path(__file__).resolve().parents[1]
UVICORN = Path(sys.executable).parent / "uvicorn"
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


class ServerError(RuntimeError):
    """A server process exited or did not answer in time."""


@dataclass
class Server:
    """One ``uvicorn babel_companion.asgi:application`` process listening on ``port``."""

    process: subprocess.Popen[bytes]
    port: int
    log: Path
    workers: int = 1

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def check_alive(self) -> None:
        if self.process.poll() is not None:
            raise ServerError(f"uvicorn on port {self.port} exited with {self.process.returncode}:\n{self.output()}")

    def answers(self) -> bool:
        """Whether it answers an HTTP request (any status: the app is up)."""
        self.check_alive()
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
        try:
            connection.request("GET", "/")
            return connection.getresponse().status > 0
        except OSError:
            return False
        finally:
            connection.close()

    def worker_pids(self) -> list[int]:
        """The processes that serve requests: the process itself, or with ``--workers`` the
        supervisor's spawned children (not multiprocessing's resource tracker, also a child)."""
        if self.workers == 1:
            return [self.process.pid]
        return [pid for pid in children(self.process.pid) if b"spawn_main" in command_line(pid)]


def children(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found += [int(child) for child in (task / "children").read_text().split()]
        except OSError:  # the thread ended meanwhile
            continue
    return found


def command_line(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def rss_kb(pids: list[int]) -> int:
    """The summed resident memory (VmRSS) of ``pids``, in KB."""
    total = 0
    for pid in pids:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1])
    return total


def cpu_seconds(pids: list[int]) -> float:
    """The user and system CPU time ``pids`` and their ended children have used so far (a
    vanished pid counts 0; the children count for PostgreSQL, whose backends come and go)."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += sum(int(field) for field in fields[11:15])  # utime stime cutime cstime, stat(5) 14-17
    return total / CLOCK_TICKS


def process_cpu_ms(pid: int) -> float:
    """The CPU time process ``pid`` has used so far, all its threads, ended ones too, in ms to
    the nanosecond: its process CPU clock (``clock_getcpuclockid``, which Python does not wrap,
    is ``(~pid << 3) | 2``: CPUCLOCK_SCHED, process-wide). ``cpu_seconds`` counts in ticks of
    10 ms, and summing ``/proc/<pid>/task/*`` loses the threads that ended meanwhile."""
    return time.clock_gettime((~pid << 3) | 2) * 1000


def quiet_cpu_ms(pid: int, *, poll: float = 0.001, still: float = 0.02) -> float:
    """``process_cpu_ms(pid)`` once the process has stopped working: its clock advanced less
    than ``still`` ms in ``poll`` seconds (what an answered request left to do, such as a push
    sent from a thread of its own, is done then; idle, a server uses about 3 ms a second)."""
    last = process_cpu_ms(pid)
    while True:
        time.sleep(poll)
        now = process_cpu_ms(pid)
        if now - last < still:
            return now
        last = now


def free_port() -> int:
    """A port nobody listens on now (the kernel's pick; it could be taken before use, rarely)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def database_url(config: Mapping[str, Any]) -> str:
    """A PostgreSQL URL for Django's ``DATABASES`` entry ``config``, for a server to share
    (e.g. the test database pytest-django created)."""
    credentials = quote(config.get("USER") or "", safe="")
    if config.get("PASSWORD"):
        credentials += ":" + quote(config["PASSWORD"], safe="")
    host = f"{config.get('HOST') or '127.0.0.1'}:{config.get('PORT') or 5432}"
    return f"postgres://{credentials}@{host}/{quote(config['NAME'], safe='')}"


def start(*, env: Mapping[str, str], log: Path, workers: int = 1, extra: tuple[str, ...] = ()) -> Server:
    """One uvicorn process on a free port (not yet answering: see ``wait_until_answering``)."""
    port = free_port()
    command = [str(UVICORN), "babel_companion.asgi:application", "--host", "127.0.0.1", "--port", str(port)]
    if workers > 1:
        command += ["--workers", str(workers)]
    with log.open("wb") as sink:
        process = subprocess.Popen(
            [*command, *extra],
            cwd=REPO,
            env={**env, "PYTHONUNBUFFERED": "1"},
            stdout=sink,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    return Server(process=process, port=port, log=log, workers=workers)


def wait_until_answering(servers: list[Server], *, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    for server in servers:
        while not server.answers():
            if time.monotonic() >= deadline:
                raise ServerError(f"uvicorn on port {server.port} did not answer in {timeout:g} s:\n{server.output()}")
            time.sleep(0.1)
        # With --workers the first answer may come from one worker while another still starts.
        while len(server.worker_pids()) < server.workers:
            if time.monotonic() >= deadline:
                raise ServerError(f"uvicorn on port {server.port} did not start {server.workers} workers")
            time.sleep(0.1)


def stop(server: Server, *, timeout: float = 10) -> None:
    """SIGTERM to the server's whole session (supervisor and workers), SIGKILL if it lingers."""
    if server.process.poll() is None:
        signal_session(server, signal.SIGTERM)
        try:
            server.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            signal_session(server, signal.SIGKILL)
            server.process.wait(timeout=timeout)
    signal_session(server, signal.SIGKILL)  # a worker its supervisor left behind


def signal_session(server: Server, number: signal.Signals) -> None:
    with suppress(ProcessLookupError):
        os.killpg(server.process.pid, number)


@contextmanager
def running(
    count: int,
    *,
    env: Mapping[str, str],
    log_dir: Path,
    workers: int = 1,
    extra: tuple[str, ...] = (),
    timeout: float = 30,
) -> Iterator[list[Server]]:
    """``count`` separate server processes that answer, stopped on the way out whatever happens."""
    with ExitStack() as stack:
        servers = []
        for index in range(count):
            server = start(env=env, log=log_dir / f"uvicorn-{index}.log", workers=workers, extra=extra)
            stack.callback(stop, server)
            servers.append(server)
        wait_until_answering(servers, timeout=timeout)
        yield servers
