"""A shared device (issue 42): the pages an account kept for offline use do not outlive a change
of account. Logging out empties them; so does the next login, for a session that ended
without "Log out" (it expired, or its cookie was cleared)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import BrowserContext, expect

from sessions import services
from tests.browser.conftest import kept_by_the_worker, log_in

pytestmark = pytest.mark.browser
ALICE_PASSWORD = "alice-pass-123"
EVE_PASSWORD = "eve-pass-123"
# The pages answer with "Vary: Cookie": the worker matches them to a navigation, this to a URL.
KEPT = "urls => Promise.all(urls.map(url => caches.match(url, {ignoreVary: true}).then(found => Boolean(found))))"
ALL_KEPT = f"urls => ({KEPT})(urls).then(kept => kept.every(Boolean))"
# What the pages store in IndexedDB (static/js/offline.js): the keys of the moves sent from here.
SENT_KEYS = """() => new Promise((resolve, reject) => {
  const opening = indexedDB.open("babel-table", 1);
  opening.onerror = () => reject(opening.error);
  opening.onsuccess = () => {
    const keys = opening.result.transaction("sent").objectStore("sent").getAllKeys();
    keys.onsuccess = () => { opening.result.close(); resolve(keys.result); };
  };
})"""
KEEP_A_SENT_KEY = """key => new Promise((resolve, reject) => {
  const opening = indexedDB.open("babel-table", 1);
  opening.onerror = () => reject(opening.error);
  opening.onsuccess = () => {
    const writing = opening.result.transaction("sent", "readwrite");
    writing.objectStore("sent").put({ key: key, at: Date.now() });
    writing.oncomplete = () => { opening.result.close(); resolve(true); };
  };
})"""


def test_after_alices_session_ends_without_logging_out_eve_logging_in_cannot_open_alices_pages_offline(
    new_context: Callable[..., BrowserContext],
) -> None:
    alice = User.objects.create_user("alice", password=ALICE_PASSWORD)
    User.objects.create_user("eve", password=EVE_PASSWORD)
    group = services.create_group(owner=alice, name="Alice's secret table")
    services.create_player(group=group, name="Ada")
    alices_pages = [f"/g/{group.pk}/", f"/g/{group.pk}/log/", f"/g/{group.pk}/leaderboard/"]
    device = new_context()
    page = device.new_page()
    log_in(page, "alice", ALICE_PASSWORD)
    page.goto(alices_pages[0])
    kept_by_the_worker(page)
    for url in alices_pages[1:]:
        page.goto(url)
    # The device keeps all three, so that the end of the test is not a worker that never kept them.
    page.wait_for_function(ALL_KEPT, arg=alices_pages)
    page.evaluate(KEEP_A_SENT_KEY, "alices-move")
    assert page.evaluate(SENT_KEYS) == ["alices-move"]

    device.clear_cookies()  # her session ends without "Log out"
    log_in(page, "eve", EVE_PASSWORD)
    expect(page.get_by_role("button", name="Log out")).to_be_visible()
    kept_by_the_worker(page)  # eve's home page: the worker keeps hers again
    assert page.evaluate(SENT_KEYS) == []
    assert page.evaluate(KEPT, alices_pages) == [False, False, False]

    device.set_offline(True)
    for url in alices_pages:
        page.goto(url)
        expect(page.get_by_role("heading", level=1)).to_have_text("Offline")
        expect(page.locator("body")).not_to_contain_text("Alice's secret table")
    # What eve opened since her login is kept for her: the worker still works offline.
    page.goto("/")
    expect(page.get_by_test_id("offline-panel")).to_contain_text("Offline: this page is as of")
