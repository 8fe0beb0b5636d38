"""Playwright against Debian's Chromium and pytest-django's live server.

Chromium comes from Debian (``apt-get install chromium``), never from ``playwright
install``. Without it the tests skip on a developer's machine and fail in CI.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Playwright, sync_playwright
from pytest_django.live_server_helper import LiveServer

# Playwright's sync API runs an event loop in this thread; Django's ORM calls made by
# the test itself would otherwise be refused as "called from an async context".
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"


@pytest.fixture(scope="session")
def chromium_path() -> Path:
    if not CHROMIUM.exists():
        message = f"{CHROMIUM} is missing: apt-get install chromium"
        if os.environ.get("CI", "").strip().lower() == "true":
            pytest.fail(f"{message}. CI=true, so the browser tests must run.", pytrace=False)
        pytest.skip(message)
    return CHROMIUM


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="session")
def browser(chromium_path: Path, playwright: Playwright) -> Iterator[Browser]:
    browser = playwright.chromium.launch(executable_path=str(chromium_path), args=CHROMIUM_ARGS, headless=True)
    yield browser
    browser.close()


@pytest.fixture
def new_context(browser: Browser, live_server: LiveServer) -> Iterator[Callable[[], BrowserContext]]:
    """Opens fresh browser contexts (separate cookies: separate people) on the live server."""
    contexts: list[BrowserContext] = []

    def open_context() -> BrowserContext:
        context = browser.new_context(base_url=live_server.url, locale="en-GB", viewport={"width": 420, "height": 900})
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context

    yield open_context
    for context in contexts:
        context.close()


@pytest.fixture
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS
