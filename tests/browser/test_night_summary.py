"""The night's summary in the browser (issue 44, point 4): the host finishes the night's last
game, and both phones and the table display say "Tonight: ..." with the night's winner, by
push, without a reload."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from sessions import services
from tests.browser.conftest import OpenContext, log_in, phone_of
from tests.conftest import advance, finish_with_scores

pytestmark = pytest.mark.browser


def marked(page: Page) -> Page:
    """Marks the loaded page: a reload would lose the mark."""
    page.evaluate("window.loadedOnce = true")
    return page


def still_the_same_page(page: Page) -> bool:
    return bool(page.evaluate("window.loadedOnce === true"))


def test_the_last_game_finished_on_the_host_puts_the_nights_summary_on_every_phone_and_the_display(
    new_context: OpenContext, screenshots: Path
):
    owner = User.objects.create_user("sofia", password="night-pass-123")
    group = services.create_group(owner=owner, name="Friday table")
    sofia, bruno, chiara = (services.create_player(group=group, name=name) for name in ("Sofia", "Bruno", "Chiara"))
    night = services.create_night(group=group, date=datetime.date(2026, 11, 27))
    first = services.create_session(night=night, game="tower-of-babel", players=[sofia, bruno, chiara], secret="5")
    advance(first, "session.start")
    finish_with_scores(first, [52, 41, 37])  # Sofia wins the first game
    last = services.create_session(night=night, game="tower-of-babel", players=[sofia, bruno, chiara], secret="6")
    advance(last, "session.start")
    advance(last, "scores.record", scores={str(sofia.pk): 48, str(bruno.pk): 45, str(chiara.pk): 30})
    code = services.create_join_code(night=night).code

    host = new_context().new_page()
    log_in(host, "sofia", "night-pass-123")
    host.goto(f"/s/{last.pk}/")
    phones = [
        marked(phone_of(new_context(phone=True), code, "Sofia")),
        marked(phone_of(new_context(phone=True), code, "Bruno")),
    ]
    display = new_context().new_page()
    display.set_viewport_size({"width": 1280, "height": 800})
    display.goto(f"/j/{code}/table/")
    marked(display)
    for page in (*phones, display):  # a night still playing shows the game, not the summary
        expect(page.get_by_test_id("standings")).to_contain_text("Sofia")
        expect(page.get_by_test_id("night-summary")).to_have_count(0)

    host.get_by_role("button", name="Finish and record results").click()

    for page in (*phones, display):
        expect(page.get_by_test_id("night-headline")).to_have_text("Tonight: 2 games, Sofia 2 wins", timeout=3_000)
        expect(page.get_by_test_id("night-winner").locator("strong")).to_have_text("Sofia wins the night!")
        games = page.get_by_test_id("night-games").locator("li")
        expect(games).to_have_count(2)
        expect(games.nth(1)).to_contain_text("won by Sofia")
        assert still_the_same_page(page), page.url
    for number, phone in enumerate(phones, start=1):
        phone.evaluate("window.scrollTo(0, 0)")
        phone.screenshot(path=screenshots / f"night-summary-phone-{number}-390.png")
        width = phone.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, width
    display.screenshot(path=screenshots / "night-summary-table-display-1280.png")
    display.set_viewport_size({"width": 390, "height": 844})
    display.screenshot(path=screenshots / "night-summary-table-display-390.png")
