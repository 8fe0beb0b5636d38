"""The installable app in Chromium: the host's and a guest's pages pass the browser's own
installability checks (those Lighthouse's PWA audit ran), the pages a device opened open
again offline, and a new release replaces the worker's caches."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, Page, Playwright, expect

from bench.chromium import CHROMIUM_ARGS
from sessions import services
from sessions.views import pwa
from tests.browser.conftest import a_table, kept_by_the_worker, log_in

pytestmark = pytest.mark.browser
PASSWORD = "install-me-123"
CACHE_NAMES = "() => caches.keys()"


def installability_errors(page: Page) -> list[dict[str, object]]:
    """What Chromium says stands between the page and its installation (its DevTools check)."""
    devtools = page.context.new_cdp_session(page)
    manifest = devtools.send("Page.getAppManifest")
    assert manifest["errors"] == [], manifest["errors"]
    errors = devtools.send("Page.getInstallabilityErrors")["installabilityErrors"]
    devtools.detach()
    return errors


def a_host_on_its_table(new_context: Callable[..., BrowserContext]) -> tuple[Page, str]:
    session = a_table("tower-of-babel", password=PASSWORD)
    code = services.create_join_code(session=session).code
    host = new_context().new_page()
    log_in(host, "ada", PASSWORD)
    host.goto(f"/s/{session.pk}/")
    kept_by_the_worker(host)
    return host, code


@pytest.fixture
def a_profile(
    playwright_driver: Playwright, chromium_path: Path, asgi_server: str, tmp_path: Path, transactional_db: None
) -> Iterator[BrowserContext]:
    """A browser profile of its own: Chromium never offers to install from an incognito context,
    which is what the other tests' contexts are."""
    context = playwright_driver.chromium.launch_persistent_context(
        tmp_path / "profile",
        executable_path=str(chromium_path),
        args=CHROMIUM_ARGS,
        headless=True,
        base_url=asgi_server,
    )
    yield context
    context.close()


def test_the_host_and_a_guests_pages_are_installable(a_profile: BrowserContext) -> None:
    session = a_table("tower-of-babel", password=PASSWORD)
    code = services.create_join_code(session=session).code
    host = a_profile.new_page()
    log_in(host, "ada", PASSWORD)
    host.goto(f"/s/{session.pk}/")
    kept_by_the_worker(host)
    assert installability_errors(host) == []
    guest = a_profile.new_page()
    guest.goto(f"/j/{code}/")
    kept_by_the_worker(guest)
    assert installability_errors(guest) == []
    manifest = guest.evaluate("() => fetch(document.querySelector('link[rel=manifest]').href).then(r => r.json())")
    assert manifest["start_url"] == f"/j/{code}/"


def test_pages_opened_once_open_again_offline(new_context: Callable[..., BrowserContext]) -> None:
    host, _code = a_host_on_its_table(new_context)
    session_page = host.url
    host.goto("/rules/tower-of-babel/")
    host.context.set_offline(True)
    host.goto(session_page)
    expect(host.get_by_test_id("tob-board")).to_be_visible()
    expect(host.get_by_test_id("offline-panel")).to_contain_text("Offline: the table is as of")
    host.goto("/rules/tower-of-babel/")
    expect(host.get_by_role("heading", level=1)).to_contain_text("Tower of Babel")
    expect(host.get_by_test_id("offline-panel")).to_contain_text("Offline: this page is as of")
    host.goto("/rules/babel-on/")  # never opened on this device
    expect(host.get_by_role("heading", level=1)).to_have_text("Offline")
    expect(host.locator("main")).to_contain_text("this page was not opened on it before")
    host.context.set_offline(False)
    host.goto(session_page)
    expect(host.get_by_test_id("offline-panel")).to_be_hidden()


def test_a_new_release_replaces_the_workers_caches(
    new_context: Callable[..., BrowserContext], monkeypatch: pytest.MonkeyPatch
) -> None:
    host, _code = a_host_on_its_table(new_context)
    first = pwa.release()
    host.wait_for_function(f"() => caches.keys().then(names => names.some(name => name === 'babel-pages-{first}'))")
    monkeypatch.setattr(pwa, "release", lambda: "nextrelease1")
    host.evaluate("() => navigator.serviceWorker.getRegistration().then(registration => registration.update())")
    host.wait_for_function(
        "() => caches.keys().then(names => names.length > 0 && names.every(name => name.endsWith('nextrelease1')))"
    )
    host.reload()
    replaced = f"names => names.includes('babel-pages-nextrelease1') && !names.some(name => name.includes('{first}'))"
    host.wait_for_function(f"() => caches.keys().then({replaced})")
