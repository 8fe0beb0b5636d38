"""The keyboard alone plays a whole game on the host's page: no mouse, no touch. Each control is
reached with Tab (from the skip link) and used with Enter, Space, arrows or typing."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.browser.conftest import OpenContext, a_table, log_in

pytestmark = pytest.mark.browser

MOST_TABS = 150


def tab_to(page: Page, target: Locator) -> None:
    """Presses Tab until ``target`` has the focus, as a keyboard user moves through the page."""
    for _ in range(MOST_TABS):
        if target.evaluate("element => element === document.activeElement"):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"{MOST_TABS} presses of Tab never reached {target}")


def press_on(page: Page, target: Locator, key: str = "Enter") -> None:
    tab_to(page, target)
    page.keyboard.press(key)


def test_the_skip_link_comes_first_and_leads_to_the_content(new_context: OpenContext):
    page = new_context().new_page()
    page.goto("/join/")
    page.keyboard.press("Tab")
    skip = page.get_by_role("link", name="Skip to the content")
    expect(skip).to_be_focused()
    expect(skip).to_be_visible()
    page.keyboard.press("Enter")
    expect(page.locator("main")).to_be_focused()


def test_the_keyboard_alone_plays_a_game_of_tower_of_babel_to_its_result(new_context: OpenContext, screenshots: Path):
    session = a_table("tower-of-babel", password="keys-pass-123")
    host = new_context().new_page()
    log_in(host, "ada", "keys-pass-123")
    host.goto(f"/s/{session.pk}/")
    picker = host.get_by_role("combobox", name="First player")
    tab_to(host, picker)
    host.keyboard.press("Home")  # the first seat: Ada
    press_on(host, host.get_by_role("button", name="Start with this player"))
    expect(host.get_by_test_id("tob-board")).to_contain_text("Ada to play")
    press_on(host, host.get_by_role("button", name="Pass", exact=True))
    expect(host.get_by_test_id("tob-board")).to_contain_text("Bruno to play")
    press_on(host, host.get_by_text("Played without the tracker? Enter the final scores by hand"))
    for name, points in (("Ada", "41"), ("Bruno", "37"), ("Chiara", "52")):
        tab_to(host, host.get_by_role("spinbutton", name=name).or_(host.get_by_role("textbox", name=name)).first)
        host.keyboard.type(points)
    press_on(host, host.get_by_role("button", name="Save scores"))
    press_on(host, host.get_by_role("button", name="Finish and record results"))
    expect(host.get_by_test_id("status")).to_have_text("finished")
    expect(host.get_by_test_id("standings")).to_contain_text("Chiara")
    host.screenshot(path=screenshots / "keyboard-only-game-finished.png", full_page=True)
