"""Playwright against Debian's Chromium and the ASGI application served by uvicorn.

Chromium comes from Debian (``apt-get install chromium``), never from ``playwright
install``. Without it the tests skip on a developer's machine and fail in CI.

The pages are served as in production, by uvicorn (in a thread of this process, so it uses
the test database), push sockets included: every page that shows a live region must be
kept current by push alone. A page that fetched its region by the every-second fallback
poll fails the test (``no_poll_on``), unless its context was opened with ``push=False``;
so does anything the Content-Security-Policy blocked in any page (``nothing_blocked_on``).
"""

from __future__ import annotations

import datetime
import os
import socket
import threading
import time
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Protocol

import pytest
import uvicorn
from django.contrib.auth.models import User
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
from playwright.sync_api import (
    Browser,
    BrowserContext,
    Locator,
    Page,
    Playwright,
    ViewportSize,
    expect,
    sync_playwright,
)

from bench.chromium import CHROMIUM, CHROMIUM_ARGS
from sessions import services
from sessions.models import GameSession
from tests.conftest import advance

# Playwright's sync API runs an event loop in this thread; Django's ORM calls made by
# the test itself would otherwise be refused as "called from an async context".
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

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


# A tab whose renderer process died ("Target crashed", "Page crashed") says nothing about the
# page: CI saw one in 2,426 tests on a machine it shared. Such a test runs again, at most
# twice, in new tabs; any other failure fails at once (pytest-rerunfailures' only_rerun).
RENDERER_CRASHED = ["Target crashed", "Page crashed"]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.get_closest_marker("browser"):
            item.add_marker(pytest.mark.flaky(reruns=2, only_rerun=RENDERER_CRASHED))


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """Keep each phase's report on the test, so fixtures can tell whether it failed."""
    report = yield
    setattr(item, f"report_{report.when}", report)
    return report


@pytest.fixture(scope="session")
def asgi_server() -> Iterator[str]:
    """The ASGI application (pages, static files and push sockets) served by uvicorn in a
    thread of this process; its address."""
    from babel_companion.asgi import application

    listening = socket.create_server(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(ASGIStaticFilesHandler(application), lifespan="off", log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listening]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert thread.is_alive(), "uvicorn stopped as it started"
        assert time.monotonic() < deadline, "uvicorn did not start within 10 s"
        time.sleep(0.02)
    host, port = listening.getsockname()[:2]
    yield f"http://{host}:{port}"
    server.should_exit = True
    thread.join(timeout=10)


# Counts, in each page, the fetches of a live region made by the every-second poll while its
# socket was closed: those no event triggered (a push's news and a socket's (re)connection
# trigger "table-changed"). The safety fetch an open socket lets through every 30 s is not one.
COUNT_POLLS = """
window.tablePolls = 0;
window.safetyFetches = 0;
document.addEventListener("htmx:beforeSend", function (event) {
  var config = event.detail.requestConfig, elt = event.detail.elt;
  if (!elt.hasAttribute("data-version") || !config || config.triggeringEvent) return;
  if (elt.hasAttribute("data-pushed")) window.safetyFetches++;
  else window.tablePolls++;
});
"""


# Keeps, for the whole tab (across its navigations), what the Content-Security-Policy blocked.
COUNT_CSP_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", function (event) {
  var seen = JSON.parse(sessionStorage.getItem("cspViolations") || "[]");
  seen.push(event.violatedDirective + " " + event.blockedURI + " " + event.sourceFile + ":" + event.lineNumber);
  sessionStorage.setItem("cspViolations", JSON.stringify(seen));
});
"""


def nothing_blocked_on(page: Page) -> None:
    """The page's Content-Security-Policy blocked nothing the app itself sent."""
    if page.is_closed() or not page.url.startswith("http"):
        return
    blocked = page.evaluate("JSON.parse(sessionStorage.getItem('cspViolations') || '[]')")
    assert blocked == [], f"{page.url}: the Content-Security-Policy blocked {blocked}"


def no_poll_on(page: Page) -> None:
    """A page with a live region kept it current by push: its socket is open and it never
    fell back to the poll."""
    if page.is_closed() or not page.locator("[data-version][hx-trigger]").count():
        return
    live = page.locator("[data-version][hx-trigger]").first
    # A test may end as its last page loads: its socket then has a moment to open (on a busy
    # machine it can take more than the poll's second, which the count below would show).
    expect(live, f"{page.url}: the push socket is not open").to_have_attribute("data-pushed", "", timeout=5_000)
    assert page.evaluate("window.tablePolls") == 0, f"{page.url}: the page polled instead of being pushed"


class OpenContext(Protocol):
    def __call__(self, *, push: bool = True, worker: bool = True, phone: bool = False) -> BrowserContext: ...


# A phone as the players hold one: its first screen, a touch screen, a mobile browser's layout.
PHONE: ViewportSize = {"width": 390, "height": 844}


@pytest.fixture
def new_context(
    browser: Browser, asgi_server: str, transactional_db: None, request: pytest.FixtureRequest
) -> Iterator[OpenContext]:
    """Opens fresh browser contexts (separate cookies: separate people) on the ASGI server.

    ``push=False`` refuses the context's push sockets (a network that drops WebSockets), so
    its pages fall back to the poll. ``phone=True`` makes it a phone (``PHONE``, touch, a
    mobile browser), whose pages are played with ``tap()``. When the test passes, no other page may have polled;
    when it fails, every open page is saved as a screenshot for the CI artifacts.
    """
    contexts: list[tuple[BrowserContext, bool]] = []

    def open_context(*, push: bool = True, worker: bool = True, phone: bool = False) -> BrowserContext:
        # Playwright's page.route() does not see what the page's service worker fetches: a test
        # that holds back the live region's fetches opens its context without one.
        context = browser.new_context(
            base_url=asgi_server,
            locale="en-GB",
            viewport=PHONE if phone else {"width": 420, "height": 900},
            is_mobile=phone,
            has_touch=phone,
            service_workers="allow" if worker else "block",
        )
        context.set_default_timeout(10_000)
        context.add_init_script(COUNT_POLLS)
        context.add_init_script(COUNT_CSP_VIOLATIONS)
        if not push:
            context.route_web_socket("**/ws/**", lambda socket: socket.close())
        contexts.append((context, push))
        return context

    yield open_context
    call = getattr(request.node, "report_call", None)
    if call is not None and call.failed:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        for number, (context, _push) in enumerate(contexts, start=1):
            for index, page in enumerate(context.pages, start=1):
                page.screenshot(path=SCREENSHOTS / f"{request.node.name}-failed-context{number}-page{index}.png")
    elif call is not None:
        for context, push in contexts:
            for page in context.pages:
                nothing_blocked_on(page)
                if push:
                    no_poll_on(page)
    for context, _push in contexts:
        context.close()


def log_in(page: Page, username: str, password: str) -> None:
    page.goto("/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()


def phone_of(context: BrowserContext, code: str, name: str) -> Page:
    """A phone at the table: it opens the join code, taps its (free) player's button in the
    seat chooser, and waits until the phone says whom it plays."""
    phone = context.new_page()
    phone.goto(f"/j/{code}/")
    take_seat(phone, name)
    return phone


def take_seat(phone: Page, name: str) -> None:
    """Taps ``name``'s button in the phone's seat chooser, which comes first on its page (a
    touch on a phone's context, a click on another)."""
    button = phone.get_by_test_id("seat-chooser").get_by_role("button", name=name, exact=True)
    if phone.evaluate("navigator.maxTouchPoints > 0"):
        button.tap()
    else:
        button.click()
    expect(phone.get_by_test_id("guest-me")).to_have_text(f"You are {name}")


def kept_by_the_worker(page: Page) -> None:
    """Waits until the page's service worker is active (installing it fetches the app's shell),
    then loads the page again through it, which keeps a copy. The first load came before the
    worker, and may stay without one: a page that loads while the worker is taking over can miss
    its claim."""
    page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")


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
    session = services.create_session(night=night, game=game, players=players, options=options or {}, secret="5")
    advance(session, "session.start")
    return session
