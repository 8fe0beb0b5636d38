"""The table display in the browser: opened from the host's join code on a third device, it
follows the host's moves by push, in big type, and says whether it keeps the screen on."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from scoring.tower_of_babel import engine as tob
from sessions import services
from tests.browser.conftest import OpenContext, a_table, log_in, send
from tests.conftest import advance

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
