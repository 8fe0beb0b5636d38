"""Push in the browser: from a move on one device to the other devices' screens showing it.

Run from the repository root: ``.venv/bin/python -m bench.push_browser`` (``--moves``,
``--setups``). For each set-up it serves the app with uvicorn, opens three Chromium contexts
(the host's page at 1280 px, two phones at 390 px with touch) on a 7 Wonders table, and plays
``--moves`` moves (default 50): the two phones take turns to declare the tile they build this
turn and to take it back, each a real form sent by a click. For every move and every other
device it measures the time from the click (the submit button's click event in the mover's
page) to the observer's next frame painted after its live region reached the move's version
(a MutationObserver, then requestAnimationFrame: the screen shows it). Times are the browser's
wall clock, shared by its pages.

The same moves are then played with the sockets refused (the page falls back to today's poll:
one conditional fetch a second), in the same run, and the cheapest request a device makes (a
conditional fetch of its live region answered 304) is timed as the baseline.

Set-ups: ``postgresql`` (production: PostgreSQL, Redis as the push layer, ``--workers 2``)
and ``sqlite`` (the embedded default of ``make run``: SQLite, the in-process layer, one
process). Target: push p95 < 300 ms.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

from bench.chromium import CHROMIUM, CHROMIUM_ARGS
from bench.servers import running

PASSWORD = "bench-pass-123"
PLAYERS = ("Ada", "Bruno", "Chiara")
# In every page: when a submit button is clicked, and when the live region's new version is
# first painted (the frame after the attribute changed).
INSTRUMENT = """
window.benchClicks = [];
window.benchShown = [];
const now = () => performance.timeOrigin + performance.now();
document.addEventListener("click", (event) => {
  if (event.target.closest && event.target.closest("button[type=submit]")) benchClicks.push(now());
}, true);
new MutationObserver((records) => {
  for (const record of records) {
    const version = Number(record.target.getAttribute("data-version").split(".")[0]);
    requestAnimationFrame(() => benchShown.push([version, now()]));
  }
}).observe(document, {attributes: true, attributeFilter: ["data-version"], subtree: true});
"""
BASELINE = """async (url) => {
  const times = [];
  const first = await fetch(url, {headers: {"HX-Request": "true"}});
  const etag = first.headers.get("ETag");
  for (let i = 0; i < 30; i++) {
    const start = performance.now();
    const answer = await fetch(url, {headers: {"HX-Request": "true", "If-None-Match": etag}, cache: "no-store"});
    if (answer.status !== 304) throw new Error("expected 304, got " + answer.status);
    times.push(performance.now() - start);
  }
  return times;
}"""


Table = dict[str, int | str]  # the session's id and the join code


@dataclass(frozen=True)
class Setup:
    name: str
    label: str
    workers: int


SETUPS = {
    "postgresql": Setup("postgresql", "PostgreSQL + Redis, uvicorn --workers 2", 2),
    "sqlite": Setup("sqlite", "SQLite + in-process layer, 1 process (make run)", 1),
}


def server_env(setup: Setup, scratch: Path) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key not in ("DATABASE_URL", "REDIS_URL")}
    env["DJANGO_SETTINGS_MODULE"] = "babel_companion.settings"
    if setup.name == "postgresql":
        env["DATABASE_URL"] = os.environ.get(
            "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/babel_bench_browser"
        )
        env["REDIS_URL"] = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/7")
        env["REDIS_CACHE_URL"] = os.environ.get("BENCH_REDIS_CACHE_URL", "redis://127.0.0.1:6379/8")
    else:
        env["SQLITE_PATH"] = str(scratch / "bench.sqlite3")
        env.pop("REDIS_CACHE_URL", None)
        env.pop("REDIS_PUSH_URL", None)
    return env


def prepare(env: dict[str, str]) -> list[Table]:
    """A fresh database with two 7 Wonders tables past their draft, one for the pushed run and
    one for the polled (a player's seat stays with the phone that took it)."""
    return list(prepared_in_a_child(env, "bench.push_browser"))


def prepared_in_a_child(env: dict[str, str], module: str) -> Any:
    """What ``python -m <module> --prepare`` prints last (JSON): run in a process of its own,
    so that each set-up gets its own Django settings."""
    done = subprocess.run(
        [sys.executable, "-m", module, "--prepare"], env=env, capture_output=True, text=True, check=False
    )
    if done.returncode:
        raise SystemExit(f"preparing the tables failed:\n{done.stderr}")
    return json.loads(done.stdout.splitlines()[-1])


def empty_database() -> None:
    """In the child process: Django set up, the database and its Redis emptied and migrated,
    the static files collected (the server serves what is collected)."""
    import django

    django.setup()
    import redis
    from django.conf import settings
    from django.core.management import call_command

    for url in {settings.REDIS_URL, settings.REDIS_CACHE_URL} - {""}:
        redis.Redis.from_url(url).flushdb()
    call_command("collectstatic", interactive=False, verbosity=0)
    call_command("migrate", verbosity=0)
    call_command("flush", interactive=False, verbosity=0)


def prepare_here() -> None:
    """In the child process: an empty database, and the tables."""
    empty_database()
    from django.contrib.auth.models import User

    owner = User.objects.create_user("host", password=PASSWORD)
    print(json.dumps([a_table(owner, name) for name in ("Pushed table", "Polled table")]))


def a_table(owner: Any, name: str) -> Table:
    """A group of three, its night, and a 7 Wonders session past its draft."""
    import datetime

    from sessions import services

    group = services.create_group(owner=owner, name=name)
    players = [services.create_player(group=group, name=name) for name in PLAYERS]
    night = services.create_night(group=group, date=datetime.date(2026, 11, 23))
    options = {"tower_tiles": True, "great_projects": True}
    session = services.create_session(night=night, game="seven-wonders", players=players, options=options, secret="7")
    services.append_event(session_id=session.pk, expected_version=0, type="session.start")
    seats = [seat.key for seat in session.seats.all()]
    tiles = {seat: [3 * index + 1, 3 * index + 2, 3 * index + 3] for index, seat in enumerate(seats)}
    services.append_event(session_id=session.pk, expected_version=1, type="sw.draft_record", payload={"tiles": tiles})
    return {"session": session.pk, "code": services.create_join_code(session=session).code}


def create_postgres_database(url: str) -> None:
    import psycopg

    name = url.rsplit("/", 1)[1]
    with psycopg.connect(url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{name}"')


@contextmanager
def browser() -> Iterator[Browser]:
    with sync_playwright() as driver:
        chromium = driver.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        try:
            yield chromium
        finally:
            chromium.close()


@contextmanager
def open_table(chromium: Browser, origin: str, table: Table, *, push: bool) -> Iterator[list[Page]]:
    """The host's page and two phones, each in its own context (own cookies)."""
    contexts: list[BrowserContext] = []
    try:
        yield [open_device(chromium, contexts, origin, table, index, push=push) for index in range(3)]
    finally:
        for context in contexts:
            context.close()


def open_device(
    chromium: Browser,
    contexts: list[BrowserContext],
    origin: str,
    table: Table,
    index: int,
    *,
    push: bool,
) -> Page:
    shape: dict[str, object] = {"viewport": {"width": 1280, "height": 800}}
    if index:
        shape = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
    context = chromium.new_context(base_url=origin, locale="en-GB", **shape)  # type: ignore[arg-type]
    contexts.append(context)
    context.set_default_timeout(15_000)
    context.add_init_script(INSTRUMENT)
    if not push:
        context.route_web_socket("**/ws/**", lambda socket: socket.close())
    page = context.new_page()
    if index == 0:
        page.goto("/login/")
        page.get_by_label("Username").fill("host")
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Log in").click()
        page.wait_for_url("**/")
        page.goto(f"/s/{table['session']}/")
    else:
        page.goto(f"/j/{table['code']}/")
        page.get_by_test_id("seat-chooser").get_by_role("button", name=PLAYERS[index - 1], exact=True).click()
        page.get_by_test_id("my-build").wait_for()
    if push:
        page.locator("[data-version][data-pushed]").wait_for()
    return page


VERSION = "() => Number(document.querySelector('[data-version]').dataset.version.split('.')[0])"
FIRST_SHOWN = "v => { for (const [version, at] of benchShown) if (version >= v) return at; return null; }"


def play(pages: list[Page], moves: int) -> list[float]:
    """``moves`` moves, the phones taking turns; the milliseconds from each click to each
    other device's screen showing it."""
    latencies: list[float] = []
    pauses = random.Random(2026)
    for move in range(moves):
        mover = pages[1 + move % 2]
        observers = [page for page in pages if page is not mover]
        build = mover.get_by_test_id("my-build")
        target = mover.evaluate(VERSION) + 1
        take_back = build.get_by_role("button", name="Take it back")
        if take_back.count():
            take_back.click()
        else:
            build.locator('input[name="tile"]').first.check()
            build.get_by_role("button", name="I build this tile this turn").click()
        for page in (mover, *observers):
            page.wait_for_function(f"v => ({VERSION})() >= v", arg=target)
        clicked = mover.evaluate("benchClicks[benchClicks.length - 1]")
        latencies += [page.evaluate(FIRST_SHOWN, target) - clicked for page in observers]
        # A person's next tap comes at no particular moment: a random pause puts the moves at
        # random phases of the poll's second (a fixed one would favour or spite the poll).
        time.sleep(pauses.uniform(0.15, 1.15))
    return latencies


def baseline(page: Page, session: int | str) -> list[float]:
    return list(page.evaluate(BASELINE, f"/s/{session}/live/"))


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def row(label: str, values: list[float]) -> str:
    return (
        f"{label:<58} {len(values):>7} {statistics.median(values):>7.0f} "
        f"{percentile(values, 0.95):>7.0f} {max(values):>7.0f}"
    )


def measure(setup: Setup, moves: int) -> list[str]:
    with tempfile.TemporaryDirectory(prefix="bench-push-browser-") as scratch:
        env = server_env(setup, Path(scratch))
        if setup.name == "postgresql":
            create_postgres_database(env["DATABASE_URL"])
        pushed_table, polled_table = prepare(env)
        with running(1, env=env, log_dir=Path(scratch), workers=setup.workers) as servers, browser() as chromium:
            origin = servers[0].origin
            with open_table(chromium, origin, pushed_table, push=True) as pages:
                pushed = play(pages, moves)
            with open_table(chromium, origin, polled_table, push=False) as pages:
                polled = play(pages, moves)
                bare = baseline(pages[0], polled_table["session"])
    push_p50 = statistics.median(pushed)
    return [
        f"{setup.label}",
        row("  push: move to the other devices' screens", pushed),
        row("  poll (sockets refused): the same", polled),
        row("  baseline: one conditional fetch of the live region (304)", bare),
        f"  push p95 {percentile(pushed, 0.95):.0f} ms (target < 300 ms); push p50 / poll p50 = "
        f"{push_p50 / statistics.median(polled):.2f}; push p50 / baseline p50 = "
        f"{push_p50 / statistics.median(bare):.1f}",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=50)
    parser.add_argument("--setups", default="postgresql,sqlite", help="comma-separated: postgresql, sqlite")
    parser.add_argument("--prepare", action="store_true", help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.prepare:
        prepare_here()
        return
    lines = []
    for name in arguments.setups.split(","):
        lines += measure(SETUPS[name.strip()], arguments.moves)
    print(f"\n{arguments.moves} moves; milliseconds{'':<29} samples     p50     p95     max")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
