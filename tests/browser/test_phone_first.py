"""The phone first (issue 39, point 1): a phone with no seat sees the seat chooser first; a
seated one its own panel, then the shared board; when the turn comes to it, its panel comes
into view and takes the focus, the title says so and the phone vibrates once (unless its
switch is off). Checked on a touch phone's first screen (390x844), in each game."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, Locator, Page, expect

from sessions import services
from sessions.models import GameSession
from tests.browser.conftest import PHONE, OpenContext, a_table, phone_of
from tests.conftest import to_the_first_turn

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Counts the phone's vibrations instead of making them (headless Chromium has no motor).
COUNT_VIBRATIONS = """
window.vibrations = 0;
Object.defineProperty(navigator, "vibrate", { value: function () { window.vibrations++; return true; } });
"""


def a_phone(new_context: OpenContext) -> BrowserContext:
    """A touch phone whose vibrations are counted."""
    context = new_context(phone=True)
    context.add_init_script(COUNT_VIBRATIONS)
    return context


PANELS = {
    "tower-of-babel": "my-turn",
    "babel-on": "bo-my-turn",
    "babel-cubes": "bc-my-turn",
    "seven-wonders": "my-build",
}


def at_its_turn(game: str) -> tuple[GameSession, str]:
    """A started session of ``game`` whose first seat, Ada's, is to act on her phone; the
    testid of the panel that asks her."""
    names = ("Ada", "Bruno") if game in ("babel-on", "babel-cubes") else ("Ada", "Bruno", "Chiara")
    options: dict[str, object] | None = (
        {"tower_tiles": True, "great_projects": True} if game == "seven-wonders" else None
    )
    session = a_table(game, password="phone-first-123", names=names, options=options)
    to_the_first_turn(session)
    return session, PANELS[game]


def in_first_screen(target: Locator) -> None:
    """``target`` lies whole in the phone's first screen, the page not scrolled."""
    box = target.bounding_box()
    assert box is not None
    assert target.page.evaluate("window.scrollY") == 0
    assert box["y"] >= 0, box
    assert box["y"] + box["height"] <= PHONE["height"], box


def first_control(panel: Locator) -> Locator:
    return panel.locator("button, input:not([type=hidden]), select, summary").first


GAMES = ["tower-of-babel", "babel-on", "babel-cubes", "seven-wonders"]


@pytest.mark.parametrize("game", GAMES)
def test_a_phone_without_a_seat_sees_one_button_per_player_first(
    new_context: OpenContext, screenshots: Path, game: str
) -> None:
    session, _panel = at_its_turn(game)
    code = services.create_join_code(session=session).code
    phone = new_context(phone=True).new_page()
    phone.goto(f"/j/{code}/")
    chooser = phone.get_by_test_id("seat-chooser")
    names = [seat.player.name for seat in session.seats.all()]
    expect(chooser.get_by_role("button")).to_have_text(names)
    in_first_screen(chooser.get_by_role("button").first)
    # Nothing but the game's name (and its rules) comes before the question.
    assert (
        phone.evaluate(
            """() => {
        const chooser = document.querySelector('[data-testid="seat-chooser"]');
        return [...document.querySelectorAll('#guest > *')].indexOf(chooser);
    }"""
        )
        == 1
    )
    phone.screenshot(path=screenshots / f"phone-first-{game}-1-who-am-i.png")


@pytest.mark.parametrize("game", GAMES)
def test_a_seated_phone_at_its_turn_shows_its_panel_first(
    new_context: OpenContext, screenshots: Path, game: str
) -> None:
    session, panel = at_its_turn(game)
    code = services.create_join_code(session=session).code
    phone = phone_of(new_context(phone=True), code, "Ada")
    mine = phone.get_by_test_id(panel)
    expect(mine).to_be_visible()
    phone.evaluate("window.scrollTo(0, 0)")  # the turn brought the panel into view: look from the top
    in_first_screen(first_control(mine))
    assert phone.title().startswith(mine.locator("h2, .msg.success").first.inner_text().strip() + " · ")
    # The shared board comes after the phone's own panel.
    assert phone.evaluate(
        """(panel) => {
        const mine = document.querySelector(`[data-testid="${panel}"]`), live = document.getElementById('live');
        return Boolean(mine.compareDocumentPosition(live) & Node.DOCUMENT_POSITION_FOLLOWING);
    }""",
        panel,
    )
    phone.screenshot(path=screenshots / f"phone-first-{game}-2-my-turn.png")


def test_when_the_turn_comes_the_panel_is_in_view_focused_named_and_the_phone_vibrates_once(
    new_context: OpenContext, screenshots: Path
) -> None:
    session, _panel = at_its_turn("tower-of-babel")
    code = services.create_join_code(session=session).code
    ada = phone_of(new_context(phone=True), code, "Ada")
    bruno: Page = phone_of(a_phone(new_context), code, "Bruno")
    expect(bruno.get_by_test_id("my-waiting")).to_have_text("Waiting for Ada")
    assert bruno.title() == "Tower of Babel"
    bruno.evaluate("window.scrollTo(0, document.body.scrollHeight)")

    ada.get_by_test_id("my-turn").get_by_role("button", name="Pass", exact=True).tap()

    turn = bruno.get_by_test_id("my-turn")
    expect(turn).to_be_in_viewport()
    expect(turn).to_be_focused()
    expect(bruno).to_have_title("Your turn · Tower of Babel")
    assert bruno.evaluate("window.vibrations") == 1
    bruno.screenshot(path=screenshots / "phone-first-turn-came.png")

    # Once played, the title is the game's again, and nothing vibrates for the others' turns.
    turn.get_by_role("button", name="Pass", exact=True).tap()
    expect(bruno.get_by_test_id("my-waiting")).to_have_text("Waiting for Chiara")
    expect(bruno).to_have_title("Tower of Babel")
    assert bruno.evaluate("window.vibrations") == 1


def test_a_phone_whose_vibration_is_switched_off_stays_still_on_its_turn(
    new_context: OpenContext,
) -> None:
    session, _panel = at_its_turn("tower-of-babel")
    code = services.create_join_code(session=session).code
    ada = phone_of(new_context(phone=True), code, "Ada")
    bruno = phone_of(a_phone(new_context), code, "Bruno")
    switch = bruno.get_by_role("switch", name="Vibrate on my turn")
    expect(switch).to_have_attribute("aria-checked", "true")
    switch.tap()
    expect(switch).to_have_attribute("aria-checked", "false")
    bruno.reload()  # the choice stays on this phone
    expect(bruno.get_by_role("switch", name="Vibrate on my turn")).to_have_attribute("aria-checked", "false")

    ada.get_by_test_id("my-turn").get_by_role("button", name="Pass", exact=True).tap()

    expect(bruno.get_by_test_id("my-turn")).to_be_focused()
    assert bruno.evaluate("window.vibrations") == 0
