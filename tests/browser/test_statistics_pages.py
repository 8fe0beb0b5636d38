"""The statistics pages on a 390 px phone (issue 44, point 2): nothing scrolls sideways, the
overview cards stand two to a row, and the leaderboard's filters apply as a select changes,
without a button, the address following; without JavaScript, the button does it."""

from __future__ import annotations

import datetime
import re
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, Page, expect

from sessions import services
from sessions.games import BABEL_ON
from sessions.models import Group
from sessions.statistics import services as statistics
from tests.browser.conftest import PHONE, OpenContext, log_in
from tests.test_statistics import play

pytestmark = pytest.mark.browser

PASSWORD = "browser-pass-123"


def a_played_group() -> Group:
    """Five players, one with a long name, who have played Tower of Babel and Babel On!."""
    owner = User.objects.create_user("ada", password=PASSWORD)
    group = services.create_group(owner=owner, name="Thursday table")
    names = ["Ada", "Bruno", "Chiara", "Maximiliane Wolkenstein-Ferraro", "Dieter"]
    ada, bruno, chiara, maxi, dieter = (services.create_player(group=group, name=name) for name in names)
    night = services.create_night(group=group, date=datetime.date(2026, 11, 19))
    for day, scores in enumerate([[40, 30, 20, 35], [35, 30, 32, 20], [10, 30, 20, 25]]):
        play(night, [ada, bruno, chiara, maxi], scores, days=day)
    play(night, [ada, dieter], [1, 2], game=BABEL_ON, days=4, places=True)
    play(night, [maxi, dieter], [2, 1], game=BABEL_ON, days=5, places=True)
    statistics.rebuild_group(group_id=group.pk)
    return group


def sideways(page: Page) -> int:
    """How far the page scrolls sideways, in CSS pixels."""
    return int(page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth"))


def card_columns(page: Page) -> int:
    """How many columns the first overview cards stand in (by their left edges in a row)."""
    lefts = page.evaluate(
        """() => {
          const cards = [...document.querySelectorAll('.stat-card')];
          const top = cards[0].getBoundingClientRect().top;
          const inTheRow = cards.filter(c => Math.abs(c.getBoundingClientRect().top - top) < 1);
          return inTheRow.map(c => c.getBoundingClientRect().left);
        }"""
    )
    return len(lefts)


def test_on_a_phone_no_statistics_page_scrolls_sideways_and_the_cards_stand_two_to_a_row(
    new_context: OpenContext, screenshots: Path
):
    group = a_played_group()
    player = group.players.get(name="Maximiliane Wolkenstein-Ferraro")
    page = new_context(phone=True).new_page()
    log_in(page, "ada", PASSWORD)
    # The group page's statistics section (the rest of that page is not the statistics').
    page.goto(f"/g/{group.pk}/")
    section = page.get_by_test_id("group-statistics")
    assert section.evaluate("s => s.getBoundingClientRect().right <= innerWidth && s.scrollWidth <= s.clientWidth")
    assert card_columns(page) == 2
    section.screenshot(path=screenshots / "statistics-group-section-390.png")
    for name, path, with_cards in [
        ("player", f"/p/{player.pk}/statistics/", True),
        ("game", f"/g/{group.pk}/games/tower-of-babel/", True),
        ("game-by-places", f"/g/{group.pk}/games/babel-on/", True),
        ("leaderboard", f"/g/{group.pk}/leaderboard/", False),
    ]:
        page.goto(path)
        assert page.viewport_size == PHONE
        assert sideways(page) == 0, name
        if with_cards:
            expect(page.get_by_test_id("cards")).to_be_visible()
            assert card_columns(page) == 2, name
        page.screenshot(path=screenshots / f"statistics-{name}-390.png", full_page=True)
    # The player page's table of eight columns scrolls in its own box, its first column kept.
    page.goto(f"/p/{player.pk}/statistics/")
    box = page.get_by_role("region", name="Figures by game")
    assert box.evaluate("box => box.scrollWidth > box.clientWidth")
    first = box.locator("tbody th").first
    before = first.bounding_box()
    box.evaluate("box => { box.scrollLeft = box.scrollWidth; }")
    after = first.bounding_box()
    assert before is not None
    assert after is not None
    assert after["x"] == pytest.approx(before["x"], abs=1)
    assert sideways(page) == 0


def test_a_leaderboard_filter_applies_as_its_select_changes_and_the_address_follows(
    new_context: OpenContext, screenshots: Path
):
    group = a_played_group()
    page = new_context(phone=True).new_page()
    log_in(page, "ada", PASSWORD)
    page.goto(f"/g/{group.pk}/leaderboard/")
    table = page.get_by_test_id("leaderboard-table")
    expect(table.get_by_role("link", name="Bruno")).to_be_visible()
    expect(page.get_by_role("button", name="Show")).to_be_hidden()  # JavaScript runs: no button to press
    loads = []
    page.on("load", lambda _page: loads.append(1))
    page.get_by_label("Game").select_option(BABEL_ON)
    expect(table.get_by_role("link", name="Bruno")).to_have_count(0)
    expect(page.get_by_test_id("leaderboard-table").get_by_role("link", name="Dieter")).to_be_visible()
    expect(page).to_have_url(re.compile(rf"/g/{group.pk}/leaderboard/\?.*game=babel-on"))
    assert loads == []  # the table was swapped in, the page not loaded again
    page.get_by_label("Order by").select_option("win_rate")
    expect(page).to_have_url(re.compile(r"game=babel-on.*order=win_rate"))
    assert sideways(page) == 0
    page.screenshot(path=screenshots / "statistics-leaderboard-filtered-390.png", full_page=True)
    page.reload()  # the address is the page's: the same filters, the same rows
    expect(page.get_by_label("Game")).to_have_value(BABEL_ON)
    expect(page.get_by_test_id("leaderboard-table").get_by_role("link", name="Bruno")).to_have_count(0)
    # Back, through the filters chosen, to the page as it came: the page of each address (the
    # script loads it again; page.go_back() would wait for a load that the reload replaces).
    page.evaluate("history.back()")
    expect(page).to_have_url(re.compile(r"game=babel-on&.*order=rating"))
    expect(page.get_by_label("Order by")).to_have_value("rating")
    page.evaluate("history.back()")
    expect(page).to_have_url(re.compile(rf"/g/{group.pk}/leaderboard/$"))
    expect(page.get_by_test_id("leaderboard-table").get_by_role("link", name="Bruno")).to_be_visible()
    expect(page.get_by_label("Game")).to_have_value("")


def test_without_javascript_the_leaderboard_s_button_applies_its_filters(
    new_context: OpenContext, browser: Browser, asgi_server: str
):
    group = a_played_group()
    context = browser.new_context(base_url=asgi_server, viewport=PHONE, java_script_enabled=False)
    try:
        page = context.new_page()
        log_in(page, "ada", PASSWORD)
        page.goto(f"/g/{group.pk}/leaderboard/")
        page.get_by_label("Game").select_option(BABEL_ON)
        expect(page).to_have_url(re.compile(r"/leaderboard/$"))  # nothing applies by itself
        page.get_by_role("button", name="Show").click()
        expect(page).to_have_url(re.compile(r"game=babel-on"))
        expect(page.get_by_test_id("leaderboard-table").get_by_role("link", name="Bruno")).to_have_count(0)
        assert sideways(page) == 0
    finally:
        context.close()
