"""Lighthouse (mobile, in Debian's Chromium) on the pages a game night uses most.

Run from the repository root, with Lighthouse from the npm registry (it is not part of the
project's dependencies, nor of CI)::

    npm install --prefix /tmp/lighthouse lighthouse@12
    LIGHTHOUSE=/tmp/lighthouse/node_modules/.bin/lighthouse .venv/bin/python -m bench.lighthouse

It serves the app as ``make run`` does (SQLite, one uvicorn process) on a fresh database with a
Tower of Babel table, and audits the landing page, the join page, a seated phone, the host's
page, the group's leaderboard and the table display, each with its device's real cookie (the
host's login, the phone's seat), so that the pages open their push sockets as at the table.
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

from bench.chromium import CHROMIUM, CHROMIUM_ARGS
from bench.phone_paint import PASSWORD, prepare
from bench.push_browser import SETUPS, server_env
from bench.servers import running

CATEGORIES = ("performance", "accessibility", "best-practices", "seo")


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

    def cookie(self) -> str:
        return "; ".join(f"{cookie.name}={cookie.value}" for cookie in self.jar)


def audit(lighthouse: str, url: str, cookie: str, scratch: Path) -> dict[str, int]:
    report = scratch / "report.json"
    flags = " ".join([*CHROMIUM_ARGS, "--headless=new"])
    command = [lighthouse, url, f"--chrome-path={CHROMIUM}", f"--chrome-flags={flags}", "--quiet"]
    command += ["--output=json", f"--output-path={report}", f"--only-categories={','.join(CATEGORIES)}"]
    if cookie:
        command.append("--extra-headers=" + json.dumps({"Cookie": cookie}))
    subprocess.run(command, check=True, env={**os.environ, "CHROME_PATH": str(CHROMIUM)})
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
            for name, path, device in pages:
                scores = audit(lighthouse, origin + path, device.cookie() if device else "", scratch)
                print(f"{name:<16}" + "".join(f"{scores[category]:>16}" for category in CATEGORIES), flush=True)


if __name__ == "__main__":
    main()
