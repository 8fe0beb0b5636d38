# Run from the repository root after `make setup`: .venv/bin/python docs/images/take_screenshots.py
"""Takes docs/images/host.png and docs/images/phone.png from the real app.

It serves the app as `make run` does (uvicorn, SQLite, tasks inline) on a database of its own
in a temporary folder, with the demo data (`manage.py load_demo`); logs in as the demo account
at 1280 px, starts a game night and a Tower of Babel game, plays a few turns, and shows the join
code; then a 390 px phone joins with that code and takes the seat of the player to move. Debian's Chromium
(/usr/bin/chromium), driven by Playwright for Python (in .venv).
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import Page, expect, sync_playwright

REPO = Path(__file__).resolve().parents[2]
IMAGES = REPO / "docs" / "images"
PYTHON = REPO / ".venv" / "bin" / "python"
CHROMIUM = "/usr/bin/chromium"
DEMO_USER, DEMO_PASSWORD = "demo", "demo-table-2026"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def serve(folder: Path, port: int) -> subprocess.Popen[bytes]:
    """The app on a fresh SQLite file with the demo data, as `make run` serves it."""
    env = {**os.environ, "SQLITE_PATH": str(folder / "db.sqlite3"), "STATIC_ROOT": str(folder / "static")}
    env.pop("DATABASE_URL", None)
    env.pop("REDIS_URL", None)
    for command in (["migrate", "--noinput", "-v0"], ["load_demo"], ["collectstatic", "--noinput", "-v0"]):
        subprocess.run([str(PYTHON), "manage.py", *command], cwd=REPO, env=env, check=True, capture_output=True)
    server = subprocess.Popen(
        [str(PYTHON), "-m", "uvicorn", "babel_companion.asgi:application", "--host", "127.0.0.1", "--port", str(port)],
        cwd=REPO,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/health/live", timeout=2):
                return server
        except OSError:
            time.sleep(0.5)
    server.terminate()
    sys.exit("the app did not answer on /health/live within 60 s")


def host_starts_a_game(page: Page) -> tuple[str, str]:
    """The host's page of a Tower of Babel game in progress; returns the night's join code and
    the player to move."""
    page.goto("/login/")
    page.get_by_label("Username").fill(DEMO_USER)
    page.get_by_label("Password").fill(DEMO_PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.get_by_role("link", name="Demo table").first.click()
    page.get_by_role("button", name="Start a game night").click()
    page.get_by_role("region", name="Start a game").get_by_role("link", name="Tower of Babel", exact=True).click()
    # The form comes with the group's last table (two players of babel): a third seat for Tower of Babel.
    page.select_option("#id_seat_2", label="Chiara")
    page.select_option("#id_colour_2", label="green")
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_role("button", name="Pass", exact=True)).to_be_enabled()
    for _turn in range(2):
        page.get_by_role("button", name="Pass", exact=True).click()
        page.wait_for_timeout(800)
    join_bar = page.get_by_role("region", name="Join code")
    if join_bar.get_by_role("button", name="Show a join code").count():
        join_bar.get_by_role("button", name="Show a join code").click()
    code = page.get_by_test_id("join-code").inner_text().strip()
    to_play = re.search(r"(\w+) to play", page.get_by_test_id("tob-board").inner_text())
    assert to_play, "the board names the player to move"
    return code, to_play.group(1)


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="babel-shots-") as folder:
        port = free_port()
        server = serve(Path(folder), port)
        try:
            with sync_playwright() as driver:
                browser = driver.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
                base = f"http://127.0.0.1:{port}"
                host = browser.new_context(viewport={"width": 1280, "height": 900}, base_url=base).new_page()
                code, to_play = host_starts_a_game(host)

                phone_context = browser.new_context(
                    viewport={"width": 390, "height": 844},
                    device_scale_factor=1,
                    is_mobile=True,
                    has_touch=True,
                    base_url=base,
                )
                phone = phone_context.new_page()
                phone.goto(f"/j/{code}/")
                phone.get_by_test_id("seat-button").filter(has_text=to_play).click()
                expect(phone.get_by_text(f"You are {to_play}")).to_be_visible()
                phone.wait_for_timeout(1000)
                phone.evaluate(
                    "window.scrollTo(0, 0)"
                )  # its turn scrolled the panel into view: the top, with who it is
                phone.wait_for_timeout(300)
                phone.screenshot(path=IMAGES / "phone.png")

                host.wait_for_timeout(1500)  # the host's page hears of the seat taken
                host.screenshot(path=IMAGES / "host.png")
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=30)
    for name in ("host.png", "phone.png"):
        print(f"docs/images/{name}: {(IMAGES / name).stat().st_size // 1024} KB")


if __name__ == "__main__":
    main()
