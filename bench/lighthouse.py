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
It prints each page's performance, accessibility, best-practices and SEO scores (0-100).
Targets (issue 39): performance >= 90, the others >= 95.
"""

from __future__ import annotations

import http.cookiejar
import json
import os
import re
import subprocess
import tempfile
import urllib.parse
import urllib.request
from pathlib import Path

from playwright._impl._api_structures import SetCookieParam
from playwright.sync_api import sync_playwright

from bench.chromium import CHROMIUM, CHROMIUM_ARGS
from bench.phone_paint import PASSWORD, prepare
from bench.push_browser import SETUPS, server_env
from bench.servers import running

CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
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


def audit(lighthouse: str, url: str, scratch: Path) -> dict[str, int]:
    """Lighthouse's mobile audit of ``url``, in a new tab of the Chromium listening on PORT."""
    report = scratch / "report.json"
    command = [lighthouse, url, f"--port={PORT}", "--quiet", "--output=json", f"--output-path={report}"]
    command.append(f"--only-categories={','.join(CATEGORIES)}")
    subprocess.run(command, check=True)
    categories = json.loads(report.read_text())["categories"]
    return {name: round(100 * (categories[name]["score"] or 0)) for name in CATEGORIES}


def main() -> None:
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
            print(f"{'page':<16}" + "".join(f"{name:>16}" for name in CATEGORIES))
            with sync_playwright() as driver:
                args = [*CHROMIUM_ARGS, f"--remote-debugging-port={PORT}"]
                chromium = driver.chromium.launch_persistent_context(
                    scratch / "profile", executable_path=str(CHROMIUM), args=args, headless=True
                )
                for name, path, device in pages:
                    chromium.clear_cookies()
                    if device is not None:
                        chromium.add_cookies(device.cookies())
                    scores = audit(lighthouse, origin + path, scratch)
                    print(f"{name:<16}" + "".join(f"{scores[c]:>16}" for c in CATEGORIES), flush=True)
                chromium.close()


if __name__ == "__main__":
    main()
