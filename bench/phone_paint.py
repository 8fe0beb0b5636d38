"""A move made elsewhere, painted on a mid-range phone: the app's page against a minimal one.

Run from the repository root: ``.venv/bin/python -m bench.phone_paint`` (``--moves``,
``--rounds``, ``--setups``). For each set-up it serves the app with uvicorn and opens, in
Debian's Chromium, the host's page (1280 px) and a phone (390x844, touch, its CPU slowed 4x
as a mid-range phone's) seated as Bruno at a Tower of Babel table. The host passes, turn after
turn (so the phone is off its turn twice in three moves and on it once); for each move it
measures the time from the host's click to the phone's next frame painted with the move
(the browser's wall clock, shared by its pages).

The phone shows, by turns in each round, the app's page (push, the region fetched with its
ticket and morphed in place, the turn's attention) and a minimal page on the same device and
origin: a WebSocket to the same push, and on each message one fetch of the same region,
swapped in with ``outerHTML``, under the app's stylesheet. The ratio of their medians is the
app's cost on the phone beyond fetching and showing the news. Target (issue 39): <= 2x.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

from bench.chromium import CHROMIUM, CHROMIUM_ARGS
from bench.push_browser import (
    SETUPS,
    Setup,
    create_postgres_database,
    empty_database,
    percentile,
    prepared_in_a_child,
    server_env,
)
from bench.servers import running

PASSWORD = "bench-pass-123"
PLAYERS = ("Ada", "Bruno", "Chiara")
SLOWER = 4  # Chromium's CPU throttling: a mid-range phone
NOW = "const now = () => performance.timeOrigin + performance.now();"
# The host's page: when a button is clicked.
CLICKS = (
    NOW
    + """
window.benchClicks = [];
document.addEventListener("click", (event) => {
  if (event.target.closest && event.target.closest("button")) benchClicks.push(now());
}, true);
"""
)
# The app's phone page: when its live region's new version is first painted.
PAINTS = (
    NOW
    + """
window.benchShown = [];
new MutationObserver((records) => {
  for (const record of records) {
    const version = Number(record.target.getAttribute("data-version").split(".")[0]);
    requestAnimationFrame(() => benchShown.push([version, now()]));
  }
}).observe(document, {attributes: true, attributeFilter: ["data-version"], subtree: true});
"""
)
MINIMAL = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>Minimal phone</title><link rel="stylesheet" href="{stylesheet}"></head>
<body><main><div id="guest"></div></main><script>
{now}
window.benchShown = [];
const socket = new WebSocket(`ws://${{location.host}}/ws/j/{code}/`);
socket.onopen = () => {{ window.benchOpen = true; }};
socket.onmessage = async (event) => {{
  const news = JSON.parse(event.data);
  const answer = await fetch("/j/{code}/live/", {{headers: {{"HX-Request": "true", "HX-Target": "guest"}}}});
  document.getElementById("guest").outerHTML = await answer.text();
  requestAnimationFrame(() => benchShown.push([news.version, now()]));
}};
</script></body></html>"""
SHOWN = "v => window.benchShown.some(([version]) => version >= v)"
FIRST_SHOWN = "v => { for (const [version, at] of benchShown) if (version >= v) return at; return null; }"


@contextmanager
def browser() -> Iterator[Browser]:
    """Chromium as the other benchmarks launch it; its checks of local network access let the
    minimal page, which comes from no address (page.route), reach the server on loopback."""
    with sync_playwright() as driver:
        args = [*CHROMIUM_ARGS, "--disable-features=LocalNetworkAccessChecks"]
        chromium = driver.chromium.launch(executable_path=str(CHROMIUM), args=args, headless=True)
        try:
            yield chromium
        finally:
            chromium.close()


def prepare(env: dict[str, str]) -> dict[str, Any]:
    return dict(prepared_in_a_child(env, "bench.phone_paint"))


def prepare_here() -> None:
    """In the child process: an empty database, and a Tower of Babel table, Ada first."""
    import datetime

    empty_database()
    from django.contrib.auth.models import User

    from sessions import services

    owner = User.objects.create_user("host", password=PASSWORD)
    group = services.create_group(owner=owner, name="Paint table")
    players = [services.create_player(group=group, name=name) for name in PLAYERS]
    night = services.create_night(group=group, date=datetime.date(2026, 11, 27))
    session = services.create_session(night=night, game="tower-of-babel", players=players, secret="7")
    services.append_event(session_id=session.pk, expected_version=0, type="session.start")
    ada, bruno, _chiara = (seat.key for seat in session.seats.all())
    services.append_event(session_id=session.pk, expected_version=1, type="tob.first_player", payload={"seat": ada})
    code = services.create_join_code(session=session).code
    print(json.dumps({"session": session.pk, "code": code, "group": group.pk, "seat": bruno}))


def host_page(chromium: Browser, origin: str, table: dict[str, Any]) -> Page:
    context = chromium.new_context(
        base_url=origin, locale="en-GB", viewport={"width": 1280, "height": 800}, bypass_csp=True
    )
    context.set_default_timeout(15_000)
    context.add_init_script(CLICKS)
    page = context.new_page()
    page.goto("/login/")
    page.get_by_label("Username").fill("host")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url("**/")
    page.goto(f"/s/{table['session']}/")
    page.locator("[data-version][data-pushed]").wait_for()
    return page


def seated_phone(chromium: Browser, origin: str, code: str) -> tuple[BrowserContext, str]:
    """The phone's context, Bruno's seat taken; the app's stylesheet, for the minimal page."""
    context = chromium.new_context(
        base_url=origin,
        locale="en-GB",
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
        bypass_csp=True,  # Playwright's waits evaluate their predicates
        service_workers="block",  # page.route() serves the minimal page: a worker would fetch it
    )
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.goto(f"/j/{code}/")
    page.get_by_test_id("seat-chooser").get_by_role("button", name="Bruno", exact=True).click()
    page.get_by_test_id("guest-me").wait_for()
    stylesheet = str(page.evaluate("document.querySelector('link[rel=stylesheet]').href"))
    page.close()
    return context, stylesheet


def open_phone(context: BrowserContext, code: str, stylesheet: str, *, minimal: bool) -> Page:
    page = context.new_page()
    page.context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": SLOWER})
    if minimal:
        html = MINIMAL.format(stylesheet=stylesheet, code=code, now=NOW)
        page.route("**/bench-minimal/", lambda route: route.fulfill(content_type="text/html", body=html))
        page.goto("/bench-minimal/")
        page.wait_for_function("window.benchOpen === true")
    else:
        page.add_init_script(PAINTS)
        page.goto(f"/j/{code}/")
        page.locator("[data-version][data-pushed]").wait_for()
    return page


def play(host: Page, phone: Page, moves: int) -> list[float]:
    """``moves`` passes on the host's page; the milliseconds from each click to the phone's paint."""
    latencies = []
    for _move in range(moves):
        target = (
            int(host.evaluate("Number(document.querySelector('[data-version]').dataset.version.split('.')[0])")) + 1
        )
        host.locator("#tob-pass").get_by_role("button", name="Pass").click()
        phone.wait_for_function(SHOWN, arg=target)
        host.wait_for_function(
            "v => Number(document.querySelector('[data-version]').dataset.version.split('.')[0]) >= v", arg=target
        )
        clicked = host.evaluate("benchClicks[benchClicks.length - 1]")
        latencies.append(phone.evaluate(FIRST_SHOWN, target) - clicked)
        time.sleep(0.3)  # the phone settles (a turn's attention, the fetch's ticket) before the next move
    return latencies


def measure(setup: Setup, moves: int, rounds: int) -> list[str]:
    with tempfile.TemporaryDirectory(prefix="bench-phone-paint-") as scratch:
        env = server_env(setup, Path(scratch))
        if setup.name == "postgresql":
            create_postgres_database(env["DATABASE_URL"])
        table = prepare(env)
        app: list[float] = []
        minimal: list[float] = []
        ratios: list[float] = []
        with running(1, env=env, log_dir=Path(scratch), workers=setup.workers) as servers, browser() as chromium:
            origin = servers[0].origin
            host = host_page(chromium, origin, table)
            context, stylesheet = seated_phone(chromium, origin, table["code"])
            for _round in range(rounds):
                timed = {}
                for kind in ("app", "minimal"):
                    phone = open_phone(context, table["code"], stylesheet, minimal=kind == "minimal")
                    timed[kind] = play(host, phone, moves)
                    phone.close()
                app += timed["app"]
                minimal += timed["minimal"]
                ratios.append(statistics.median(timed["app"]) / statistics.median(timed["minimal"]))
    return [
        setup.label,
        row("  the app's phone page", app),
        row("  a minimal page: socket, fetch, swap", minimal),
        f"  app p50 / minimal p50, round by round: {', '.join(f'{r:.2f}' for r in ratios)} (target <= 2)",
    ]


def row(label: str, values: list[float]) -> str:
    return f"{label:<42} {len(values):>7} {statistics.median(values):>7.0f} {percentile(values, 0.95):>7.0f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=15, help="moves per page and round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--setups", default="postgresql,sqlite", help="comma-separated: postgresql, sqlite")
    parser.add_argument("--prepare", action="store_true", help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.prepare:
        prepare_here()
        return
    lines = []
    for name in arguments.setups.split(","):
        lines += measure(SETUPS[name.strip()], arguments.moves, arguments.rounds)
    print(f"\nCPU {SLOWER}x slower; from the host's click to the phone's paint, ms  samples     p50     p95")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
