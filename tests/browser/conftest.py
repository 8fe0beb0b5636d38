"""Playwright against Debian's Chromium and pytest-django's live server.

Chromium comes from Debian (``apt-get install chromium``), never from ``playwright
install``. Without it the tests skip on a developer's machine and fail in CI.
"""

from __future__ import annotations

import datetime
import os
from collections.abc import Callable, Generator, Iterator
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, BrowserContext, Locator, Page, Playwright, expect, sync_playwright
from pytest_django.live_server_helper import LiveServer

from sessions import services
from sessions.models import GameSession
from tests.conftest import advance

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
def playwright_driver() -> Iterator[Playwright]:
    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="session")
def browser(chromium_path: Path, playwright_driver: Playwright) -> Iterator[Browser]:
    browser = playwright_driver.chromium.launch(executable_path=str(chromium_path), args=CHROMIUM_ARGS, headless=True)
    yield browser
    browser.close()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """Keep each phase's report on the test, so fixtures can tell whether it failed."""
    report = yield
    setattr(item, f"report_{report.when}", report)
    return report


@pytest.fixture
def new_context(
    browser: Browser, live_server: LiveServer, request: pytest.FixtureRequest
) -> Iterator[Callable[[], BrowserContext]]:
    """Opens fresh browser contexts (separate cookies: separate people) on the live server.

    When the test fails, every open page is saved as a screenshot for the CI artifacts.
    """
    contexts: list[BrowserContext] = []

    def open_context() -> BrowserContext:
        context = browser.new_context(base_url=live_server.url, locale="en-GB", viewport={"width": 420, "height": 900})
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context

    yield open_context
    call = getattr(request.node, "report_call", None)
    if call is not None and call.failed:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        for number, context in enumerate(contexts, start=1):
            for index, page in enumerate(context.pages, start=1):
                page.screenshot(path=SCREENSHOTS / f"{request.node.name}-failed-context{number}-page{index}.png")
    for context in contexts:
        context.close()


def log_in(page: Page, username: str, password: str) -> None:
    page.goto("/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()


def phone_of(context: BrowserContext, code: str, name: str) -> Page:
    """A phone at the table: it opens the join code, picks its (free) player from the picker,
    which preselects nobody, and waits until the phone says whom it plays."""
    phone = context.new_page()
    phone.goto(f"/j/{code}/")
    picker = phone.locator('select[name="seat"]')
    expect(picker).to_have_value("")
    picker.select_option(label=name)
    phone.get_by_role("button", name="This is me").click()
    expect(phone.get_by_test_id("guest-me")).to_have_text(f"You are {name}")
    return phone


@pytest.fixture
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


def send(page: Page, button: Locator) -> None:
    """Presses a form's button and waits until its answer is on the page (the forms of the live
    regions are sent in the background and their answer swapped in)."""
    with page.expect_response(lambda response: response.request.method == "POST"):
        button.click()
    page.wait_for_function("() => !document.querySelector('form.htmx-request, [data-version].htmx-request')")


def a_table(
    game: str,
    *,
    password: str,
    names: tuple[str, ...] = ("Ada", "Bruno", "Chiara"),
    options: dict[str, object] | None = None,
) -> GameSession:
    """A started session of ``game`` in a new group owned by "ada" (logging in with
    ``password``) whose players are ``names``, seated in that order."""
    owner = User.objects.create_user("ada", password=password)
    group = services.create_group(owner=owner, name="Thursday table")
    players = [services.create_player(group=group, name=name) for name in names]
    night = services.create_night(group=group, date=datetime.date(2026, 11, 23))
    session = services.create_session(night=night, game=game, players=players, options=options or {}, seed=5)
    advance(session, "session.start")
    return session
