"""A whole evening through the real pages, as two people at the table see it."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from django.core.cache import cache
from django.test import RequestFactory
from playwright.sync_api import BrowserContext, Locator, Page, expect

from sessions.views import join

pytestmark = pytest.mark.browser

PLAYERS = ["Ada", "Bruno", "Chiara"]


@pytest.fixture
def fresh_join_attempts() -> Iterator[None]:
    """Wrong-code counts live in the cache, which is a shared Redis under make test-integration."""

    def forget() -> None:
        for address in ("127.0.0.1", "::1"):
            cache.delete(join._attempts_key(RequestFactory().get("/", REMOTE_ADDR=address)))

    forget()
    yield
    forget()


class Shots:
    """Numbered full-page screenshots, in the order the test takes them."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.count = 0

    def __call__(self, page: Page, name: str) -> None:
        self.count += 1
        page.screenshot(path=self.folder / f"table-flow-{self.count:02d}-{name}.png", full_page=True)


def field(scope: Page | Locator, label: str) -> Locator:
    """The form field with exactly this label (Django adds a colon after it)."""
    return scope.get_by_label(re.compile(rf"^{re.escape(label)}:?$"))


def watch_for_problems(page: Page, problems: list[str]) -> None:
    page.on("pageerror", lambda error: problems.append(f"script error: {error}"))
    page.on(
        "response",
        lambda response: (
            problems.append(f"{response.status} {response.url}")
            if "/static/" in response.url and response.status >= 400
            else None
        ),
    )


def standings(page: Page) -> list[tuple[str, str, str]]:
    """(place, name, points) of each row of the standings, top to bottom."""
    rows = page.locator("[data-testid=standings] li")
    return [
        (
            (row.locator(".rank").text_content() or "").strip() if row.locator(".rank").count() else "",
            (row.locator(".name").text_content() or "").strip(),
            (row.locator(".score").text_content() or "").strip() if row.locator(".score").count() else "",
        )
        for row in rows.all()
    ]


def test_a_table_plays_a_session_while_a_phone_follows_it_by_join_code(
    new_context: Callable[[], BrowserContext], screenshots: Path, fresh_join_attempts: None
) -> None:
    shot = Shots(screenshots)
    problems: list[str] = []
    host = new_context().new_page()
    watch_for_problems(host, problems)

    # A new user signs up through the real page.
    host.goto("/")
    host.get_by_role("link", name="Sign up").first.click()
    expect(host.get_by_role("heading", name="Sign up")).to_be_visible()
    field(host, "Username").fill("olga")
    field(host, "Password").fill("a-long-table-secret-42")
    field(host, "Password confirmation").fill("a-long-table-secret-42")
    shot(host, "signup")
    host.get_by_role("button", name="Create my account").click()
    expect(host.get_by_role("heading", name="Your groups")).to_be_visible()
    expect(host.get_by_text("You are not in a group yet.")).to_be_visible()
    expect(host.get_by_role("button", name="Log out")).to_be_visible()
    # htmx is for the pages that use it (a live region, a form sent by htmx): not this one.
    assert host.evaluate("typeof window.htmx") == "undefined", "htmx loaded where nothing uses it"
    shot(host, "home")

    # A group with three players.
    host.get_by_role("link", name="Create a group").click()
    field(host, "Group name").fill("Thursday table")
    shot(host, "new-group")
    host.get_by_role("button", name="Create").click()
    expect(host.get_by_role("heading", name="Thursday table", level=1)).to_be_visible()
    field(host, "Players to add").fill(", ".join(PLAYERS))  # all three at once
    host.get_by_role("button", name="Add players").click()
    expect(host.locator(".players li > a.player-name")).to_have_text(PLAYERS)
    shot(host, "group-with-players")

    # Tonight's game night, and a Tower of Babel session with the three in seats.
    host.get_by_text("Date, place and notes").click()
    field(host, "Place").fill("Ada's kitchen")
    host.get_by_role("button", name="Start a game night").click()
    expect(host.get_by_text("Ada's kitchen")).to_be_visible()
    expect(host.get_by_text("No sessions yet tonight.")).to_be_visible()
    shot(host, "night")
    host.get_by_role("link", name="Tower of Babel", exact=True).click()
    for seat, name in enumerate(PLAYERS, start=1):
        field(host, f"Seat {seat}").select_option(label=name)
    shot(host, "new-session")
    host.get_by_role("button", name="Create the session").click()
    expect(host.get_by_role("heading", name="Tower of Babel", level=1)).to_be_visible()
    expect(host.get_by_test_id("status")).to_have_text("setting up")
    assert host.evaluate("typeof window.htmx") == "object", "htmx did not load"

    # Starting is an htmx swap: the page stays, the session region changes.
    host.evaluate("window.stillTheSamePage = true")
    host.get_by_role("button", name="Start playing").click()
    expect(host.get_by_test_id("status")).to_have_text("playing")
    assert host.evaluate("window.stillTheSamePage") is True, "Start playing reloaded the page instead of swapping"
    shot(host, "session-playing")

    # A join code for the phones.
    host.get_by_role("button", name="Show a join code").click()
    code = (host.get_by_test_id("join-code").text_content() or "").strip()
    assert re.fullmatch(r"[2-9A-HJ-NP-Z]{8}", code), code
    expect(host.get_by_role("img", name=re.compile("^QR code for "))).to_be_visible()
    shot(host, "join-code")

    # A phone without an account joins from the home page.
    phone = new_context().new_page()
    watch_for_problems(phone, problems)
    phone.goto("/")
    expect(phone.get_by_role("navigation").get_by_role("link", name="Log in")).to_be_visible()  # no account
    join_section = phone.locator("section", has=phone.get_by_role("heading", name="Join a table"))
    field(join_section, "Join code").fill(code.lower())
    join_section.get_by_role("button", name="Join").click()
    expect(phone.get_by_text(f"Watching with code {code}")).to_be_visible()
    expect(phone.get_by_test_id("status")).to_have_text("playing")
    assert standings(phone) == [("", name, "") for name in PLAYERS]
    expect(phone.get_by_role("button", name="Save scores")).to_have_count(0)
    phone.evaluate("window.stillTheSamePage = true")
    shot(phone, "phone-watching")

    # The table played without the tracker: it types the final scores, with a tie for first
    # (one typed as a sum), and finishes.
    host.get_by_text("Played without the tracker? Enter the final scores by hand").click()
    scores = host.locator("form", has=host.get_by_role("button", name="Save scores"))
    field(scores, "Ada").fill("42")
    field(scores, "Bruno").fill("30+12")
    field(scores, "Chiara").fill("35")
    shot(host, "scores-typed")
    host.get_by_role("button", name="Save scores").click()
    expect(host.get_by_test_id("status")).to_have_text("scoring")
    expect(host.get_by_text("Not final until someone taps Finish.")).to_be_visible()
    host.get_by_role("button", name="Finish and record results").click()
    expect(host.get_by_test_id("status")).to_have_text("finished")

    # The phone follows by itself, within two seconds, without reloading.
    expect(phone.get_by_test_id("status")).to_have_text("finished", timeout=2_000)
    final = [("1", "Ada", "42"), ("1", "Bruno", "42"), ("3", "Chiara", "35")]
    assert standings(host) == final
    shot(host, "finished")
    assert standings(phone) == final
    assert phone.evaluate("window.stillTheSamePage") is True, "the phone's page was reloaded"
    shot(phone, "phone-finished")

    assert problems == []
