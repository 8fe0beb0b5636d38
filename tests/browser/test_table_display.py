"""The table display in the browser: opened from the host's join code on a third device, it
follows the host's moves by push, in big type, and says whether it keeps the screen on."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, ViewportSize, expect

from scoring.tower_of_babel import engine as tob
from sessions import services
from tests.browser.conftest import OpenContext, a_table, log_in, send
from tests.conftest import advance, finish_with_scores

pytestmark = pytest.mark.browser


def test_the_display_follows_the_hosts_pass_and_keeps_the_screen_on(new_context: OpenContext, screenshots: Path):
    session = a_table("tower-of-babel", password="display-pass-123")
    seats = [seat.key for seat in session.seats.all()]
    advance(session, tob.FIRST_PLAYER, seat=seats[0])
    services.create_join_code(session=session)
    host = new_context().new_page()
    log_in(host, "ada", "display-pass-123")
    host.goto(f"/s/{session.pk}/")
    with host.expect_popup() as opened:
        host.get_by_role("link", name="Open the table display").click()
    address = opened.value.url
    display = new_context().new_page()  # a tablet in the middle of the table
    display.set_viewport_size({"width": 1280, "height": 800})
    display.goto(address)
    expect(display.get_by_test_id("tob-board")).to_contain_text("Ada to play")
    expect(display.locator("[data-wake-lock]")).not_to_be_empty()
    expect(display.locator("#table form")).to_have_count(0)
    send(host, host.get_by_role("button", name="Pass"))
    expect(display.get_by_test_id("tob-board")).to_contain_text("Bruno to play", timeout=3_000)
    display.screenshot(path=screenshots / "table-display-after-a-pass.png", full_page=True)


TV = ViewportSize(width=1920, height=1080)


def in_first_screen(page: Page, locator: Locator) -> bool:
    """The element lies whole within the viewport, the page scrolled to its top."""
    box = locator.bounding_box()
    size = page.viewport_size
    assert box is not None
    assert size is not None
    return (
        box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= size["width"]
        and box["y"] + box["height"] <= size["height"]
    )


def font_size(locator: Locator) -> float:
    return float(locator.evaluate("element => parseFloat(getComputedStyle(element).fontSize)"))


def test_a_tv_shows_whose_turn_and_the_standings_in_big_type_then_keeps_the_podium_while_the_rematch_waits(
    new_context: OpenContext, screenshots: Path
):
    session = a_table("tower-of-babel", password="tv-pass-123", names=("Ada", "Bruno", "Chiara", "Dieter"))
    seats = [seat.key for seat in session.seats.all()]
    advance(session, tob.FIRST_PLAYER, seat=seats[0])
    code = services.create_join_code(session=session).code
    tv = new_context().new_page()
    tv.set_viewport_size(TV)
    tv.goto(f"/j/{code}/table/")
    turn = tv.locator(".tob-status")
    expect(turn).to_contain_text("Ada to play")
    standings = tv.get_by_test_id("standings")
    assert in_first_screen(tv, turn)
    assert in_first_screen(tv, standings)
    for chrome in ("Log in", "Sign up", "Dark theme"):
        expect(tv.get_by_text(chrome, exact=True)).to_have_count(0)
    expect(tv.get_by_label("Language")).to_have_count(0)
    expect(tv.locator("[data-wake-lock]")).not_to_be_empty()
    phone = new_context(phone=True).new_page()
    phone.goto(f"/j/{code}/")
    on_the_phone = font_size(phone.get_by_test_id("standings").locator("li").first)
    on_the_tv = font_size(standings.locator("li").first)
    assert on_the_tv >= 2 * on_the_phone, (on_the_tv, on_the_phone)
    phone.close()
    tv.screenshot(path=screenshots / "tv-1920-tower-of-babel-playing.png")

    finish_with_scores(session, [30, 42, 25, 12])
    rematch = services.rematch_session(session=session).session
    expect(tv.get_by_test_id("podium")).to_be_visible(timeout=3_000)
    expect(tv.get_by_test_id("next-game")).to_have_text("Next: Tower of Babel rematch, waiting to start")
    expect(tv.get_by_role("img", name="Winner")).to_be_visible()
    expect(tv.get_by_test_id("winner")).to_contain_text("Bruno")
    assert in_first_screen(tv, tv.get_by_test_id("podium"))
    assert in_first_screen(tv, standings)
    expect(tv.get_by_role("button", name="Share the result")).to_have_count(0)
    tv.screenshot(path=screenshots / "tv-1920-podium-while-the-rematch-waits.png")

    advance(rematch, tob.PASS)  # Bruno, first this time, passes: the rematch takes the table
    expect(turn).to_contain_text("Chiara to play", timeout=3_000)
    expect(tv.get_by_test_id("podium")).to_have_count(0)
    expect(tv.get_by_test_id("next-game")).to_have_count(0)
    assert in_first_screen(tv, turn)
    assert in_first_screen(tv, standings)
    tv.screenshot(path=screenshots / "tv-1920-rematch-under-way.png")
