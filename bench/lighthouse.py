"""Lighthouse (mobile, in Debian's Chromium) on the pages a game night uses most.

Run from the repository root, with Lighthouse from the npm registry (it is not part of the
project's dependencies, nor of CI)::

    npm install --prefix /tmp/lighthouse lighthouse@12
    LIGHTHOUSE=/tmp/lighthouse/node_modules/.bin/lighthouse .venv/bin/python -m bench.lighthouse

It serves the app as ``make run`` does (SQLite, one uvicorn process) on a fresh database with a
Tower of Babel table, and audits the landing page, the join page, a seated phone, the host's
page, the group's leaderboard and the table display, each with its device's real cookie (the
host's login, the phone's seat) in the Chromium that Lighthouse drives, so that the pages open
their push sockets as at the table (a header added to the requests does not reach a socket).
It prints each page's performance, accessibility, best-practices and SEO scores (0-100), then
what performance is made of: total blocking time, largest and first contentful paint, layout
shift, the DOM's size and the main thread's script time (Lighthouse's, simulated on a phone 4x
slower), and from the trace the page's main thread as it ran here: its tasks' CPU time, their
wall time, and the CPU time of its longest task. Lighthouse simulates from the wall time, so a
machine busy with other work lowers the score; the CPU time is what the page itself costs.
Targets (issue 39): performance >= 90, the others >= 95.

The private pages (every page but the landing and join pages) are ``noindex`` on purpose, which
Lighthouse's "is-crawlable" audit counts against them: for those, "SEO w/o crawl" is the SEO
score re-weighted from the report's own audit weights with that one audit left out, so that it
shows whether every other SEO audit passes. It is not Lighthouse's score.

Options: ``--pages join,leaderboard`` (names as printed, spaces as ``-``), ``--runs 3`` (each
page audited that many times, one line per run), ``--keep DIR`` (the JSON reports kept there),
``--traces`` (with ``--keep``, each run's trace and DevTools log too), ``--priority 10`` (Chromium
and its renderers run at nice -10, as root: on a machine busy with other work the page's tasks
then wait less for a core; say so with the figures); ``LIGHTHOUSE_FLAGS`` in the environment
adds flags to Lighthouse's command line.
"""

from __future__ import annotations

import argparse
import http.cookiejar
import json
import os
import re
import shutil
import subprocess
import tempfile
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from playwright._impl._api_structures import SetCookieParam
from playwright.sync_api import Playwright, sync_playwright

from bench.chromium import CHROMIUM, CHROMIUM_ARGS
from bench.phone_paint import PASSWORD, prepare
from bench.push_browser import SETUPS, server_env
from bench.servers import running

CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
PUBLIC = ("landing", "join")  # the pages search engines may list; the others are noindex
# The metrics behind the performance score, as (column, audit, unit divisor, format).
METRICS = (
    ("TBT ms", "total-blocking-time", 1, "{:.0f}"),
    ("LCP s", "largest-contentful-paint", 1000, "{:.2f}"),
    ("FCP s", "first-contentful-paint", 1000, "{:.2f}"),
    ("CLS", "cumulative-layout-shift", 1, "{:.3f}"),
    ("DOM", "dom-size", 1, "{:.0f}"),
)
CPU = ("CPU ms", "wall ms", "max task CPU")  # the page's main thread, from the trace (main_thread_cpu)
PORT = 9333  # Chromium's remote debugging, where Lighthouse finds the browser with the cookies


class Device:
    """A browser's cookies, kept across the requests that log it in or seat it."""

    def __init__(self, origin: str) -> None:
        self.origin = origin
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def get(self, path: str) -> str:
        with self.opener.open(self.origin + path) as answer:
            return str(answer.read().decode())

    def post(self, page: str, action: str, fields: dict[str, str]) -> None:
        """Sends a form of ``page`` to ``action``, as the browser would from that page."""
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', self.get(page))
        assert token is not None, f"no form on {page}"
        data = urllib.parse.urlencode({**fields, "csrfmiddlewaretoken": token.group(1)}).encode()
        request = urllib.request.Request(self.origin + action, data=data, headers={"Referer": self.origin + page})
        self.opener.open(request).close()

    def cookies(self) -> list[SetCookieParam]:
        return [{"name": c.name, "value": c.value or "", "url": self.origin} for c in self.jar]


@contextmanager
def debuggable_chromium(profile: Path, priority: int = 0) -> Iterator[None]:
    """Chromium, headless, listening for DevTools on PORT, with nothing else attached to it.

    Playwright only sets each device's cookies and then lets go (a browser Playwright had
    launched would keep its own DevTools session on every tab Lighthouse opens: a navigation
    that moves to a new renderer process, as one under a service worker does, then waits for
    that session to be attached again, 150-250 ms of the page's main thread that Lighthouse
    counts as blocking time and that no visitor's browser spends)."""
    command = [str(CHROMIUM), *CHROMIUM_ARGS, "--headless", f"--remote-debugging-port={PORT}"]
    command += [f"--user-data-dir={profile}", "about:blank"]

    def raised() -> None:  # its renderers inherit it
        os.nice(-priority)

    setup = raised if priority else None
    browser = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=setup)
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{PORT}/json/version").close()
                break
            except OSError:
                time.sleep(0.1)
        yield
    finally:
        browser.terminate()
        browser.wait(timeout=10)


def set_cookies(driver: Playwright, device: Device | None) -> None:
    """Only ``device``'s cookies in the Chromium on PORT (none for a visitor's first visit)."""
    browser = driver.chromium.connect_over_cdp(f"http://127.0.0.1:{PORT}")
    context = browser.contexts[0]
    context.clear_cookies()
    if device is not None:
        context.add_cookies(device.cookies())
    browser.close()  # a browser connected to: this only disconnects


def audit(lighthouse: str, url: str, report: Path) -> dict[str, Any]:
    """Lighthouse's mobile audit of ``url``, in a new tab of the Chromium listening on PORT;
    the JSON report is written to ``report``, the trace and DevTools log beside it."""
    command = [lighthouse, url, f"--port={PORT}", "--quiet", "--output=json", f"--output-path={report}"]
    command.append("--save-assets")
    command.extend(os.environ.get("LIGHTHOUSE_FLAGS", "").split())
    command.append(f"--only-categories={','.join(CATEGORIES)}")
    for attempt in (1, 2):  # a loaded machine sometimes fails Lighthouse's own time limits
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode == 0:
            break
        print(f"Lighthouse failed on {url} (attempt {attempt}): {done.stderr.strip()[-2000:]}", flush=True)
    done.check_returncode()
    return dict(json.loads(report.read_text()))


def scores(report: dict[str, Any]) -> dict[str, int]:
    categories = report["categories"]
    return {name: round(100 * (categories[name]["score"] or 0)) for name in CATEGORIES}


def seo_without_crawlable(report: dict[str, Any]) -> int:
    """The SEO score re-weighted from the report's audit weights, "is-crawlable" left out
    (not a Lighthouse score: it says whether every other SEO audit passes)."""
    category = report["categories"]["seo"]
    audits = report["audits"]
    total = weighted = 0.0
    for ref in category["auditRefs"]:
        weight = float(ref["weight"])
        if ref["id"] == "is-crawlable" or not weight:
            continue
        score = audits[str(ref["id"])]["score"]
        if score is None:  # not applicable: left out, as Lighthouse does
            continue
        total += weight
        weighted += weight * float(score)
    return round(100 * weighted / total) if total else 0


def metrics(report: dict[str, Any]) -> dict[str, str]:
    audits = report["audits"]
    shown = {}
    for column, name, divisor, form in METRICS:
        value = audits.get(name, {}).get("numericValue")
        shown[column] = form.format(float(value) / divisor) if value is not None else "-"
    bootup = audits.get("bootup-time", {}).get("details", {})
    script = sum(float(item.get("scripting", 0)) for item in bootup.get("items", []))
    shown["script ms"] = f"{script:.0f}"
    return shown


def main_thread_cpu(trace: Path) -> dict[str, str]:
    """The page's main thread in Lighthouse's trace, from the navigation on: its tasks' CPU time
    (thread time) and their wall time, and the CPU time of its longest task. Lighthouse's
    simulation takes the wall time, four times over: on a machine busy with other work a task
    waits for a core and seems longer, while its CPU time stays what the page costs."""
    events = json.loads(trace.read_text())["traceEvents"]
    starts = [
        e
        for e in events
        if e.get("name") == "navigationStart"
        and str(e.get("args", {}).get("data", {}).get("documentLoaderURL", "")).startswith("http")
    ]
    if not starts:
        return {"CPU ms": "-", "wall ms": "-", "max task CPU": "-"}
    start, page = min(e["ts"] for e in starts), starts[0]["pid"]
    main = {
        e["tid"]
        for e in events
        if e.get("name") == "thread_name" and e["pid"] == page and e["args"]["name"] == "CrRendererMain"
    }
    tasks = [
        e
        for e in events
        if e.get("name") == "RunTask"
        and e.get("ph") == "X"
        and e["pid"] == page
        and e["tid"] in main
        and e["ts"] >= start
    ]
    cpu = [e.get("tdur", 0) / 1000 for e in tasks]
    return {
        "CPU ms": f"{sum(cpu):.0f}",
        "wall ms": f"{sum(e['dur'] for e in tasks) / 1000:.0f}",
        "max task CPU": f"{max(cpu, default=0):.0f}",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pages", default="", help="comma-separated page names (default: all)")
    parser.add_argument("--runs", type=int, default=1, help="audits per page")
    parser.add_argument("--keep", type=Path, help="a directory to keep the JSON reports in")
    parser.add_argument("--traces", action="store_true", help="with --keep, keep each run's trace too")
    parser.add_argument(
        "--priority", type=int, default=0, help="run Chromium that much above the machine's other work (nice -N; root)"
    )
    options = parser.parse_args()
    chosen = {name.strip().replace("-", " ") for name in options.pages.split(",") if name.strip()}
    lighthouse = os.environ.get("LIGHTHOUSE", "lighthouse")
    setup = SETUPS["sqlite"]
    with tempfile.TemporaryDirectory(prefix="bench-lighthouse-") as folder:
        scratch = Path(folder)
        env = server_env(setup, scratch)
        table = prepare(env)
        with running(1, env=env, log_dir=scratch, workers=setup.workers) as servers:
            origin = servers[0].origin
            host, phone, tv = Device(origin), Device(origin), Device(origin)
            host.post("/login/", "/login/", {"username": "host", "password": PASSWORD})
            code = table["code"]
            phone.post(f"/j/{code}/", f"/j/{code}/seat/", {"action": "claim", "seat": str(table["seat"])})
            tv.get(f"/j/{table['code']}/table/")
            pages = [
                ("landing", "/", None),
                ("join", "/join/", None),
                ("seated phone", f"/j/{table['code']}/", phone),
                ("host", f"/s/{table['session']}/", host),
                ("leaderboard", f"/g/{table['group']}/leaderboard/", host),
                ("table display", f"/j/{table['code']}/table/", tv),
            ]
            pages = [page for page in pages if not chosen or page[0] in chosen]
            columns = [*CATEGORIES, "SEO w/o crawl", *(column for column, *_ in METRICS), "script ms", *CPU]
            print(f"{'page':<16}" + "".join(f"{name:>15}" for name in columns))
            with debuggable_chromium(scratch / "profile", options.priority), sync_playwright() as driver:
                for run in range(options.runs):
                    for name, path, device in pages:
                        set_cookies(driver, device)
                        report_path = scratch / "report.json"
                        report = audit(lighthouse, origin + path, report_path)
                        shown: dict[str, Any] = {**scores(report), **metrics(report)}
                        shown.update(main_thread_cpu(scratch / "report-0.trace.json"))
                        if options.keep:
                            options.keep.mkdir(parents=True, exist_ok=True)
                            kept = f"{name.replace(' ', '-')}-{run + 1}"
                            shutil.copy(report_path, options.keep / f"{kept}.json")
                        for asset in scratch.glob("report-0.*"):
                            if options.keep and options.traces:
                                shutil.move(asset, options.keep / f"{kept}.{asset.name.split('.', 1)[1]}")
                            else:
                                asset.unlink()
                        shown["SEO w/o crawl"] = "-" if name in PUBLIC else seo_without_crawlable(report)
                        print(f"{name:<16}" + "".join(f"{shown[c]!s:>15}" for c in columns), flush=True)


if __name__ == "__main__":
    main()
