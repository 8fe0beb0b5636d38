"""Messages where the eye is (issue 39, point 5): a refusal is said on the form that was sent,
in view and focused (so a screen reader says it); one whose form the table no longer shows
stays in a notice at the bottom of the screen until it is read; and after a move the focus
is this device's own, never in a control that the move handed to the next player."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, expect

from scoring.session import UNDO
from scoring.tower_of_babel import engine as tob
from sessions import services
from tests.browser.conftest import log_in, take_seat
from tests.browser.test_live_table import table
from tests.conftest import advance

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_stale_sheet_comes_back_with_its_reason_in_view_and_focused(
    new_context: Callable[[], BrowserContext],
) -> None:
    session, seats = table("seven-wonders", tower_tiles=False, great_projects=False)
    ada = new_context().new_page()
    log_in(ada, "ada", "table-pass-123")
    ada.goto(f"/s/{session.pk}/")
    chiara = ada.locator(f"#sheet-{seats[2]}")
    ada.locator("details.final-player", has=chiara).locator("summary").click()
    chiara.locator('input[name="coins"]').fill("12")
    advance(session, "sw.sheet", seat=seats[0], sheet={"coins": 5})  # another device saves Ada's sheet
    expect(chiara.locator(".stale-note")).to_be_visible(timeout=3_000)
    ada.evaluate("window.scrollTo(0, 0)")

    chiara.get_by_role("button", name="Save this sheet").click()

    reason = chiara.get_by_role("alert")
    expect(reason).to_contain_text("Someone else changed this session a moment ago.")
    expect(reason).to_be_focused()
    expect(reason).to_be_in_viewport()


def test_a_refusal_whose_form_is_gone_stays_in_a_notice_until_read(
    new_context: Callable[..., BrowserContext], screenshots: Path
) -> None:
    session, seats = table("tower-of-babel")
    advance(session, tob.FIRST_PLAYER, seat=seats[0])
    disc, spec = next((d, s) for d, s in session.state["game"]["discs"].items() if len(s["demand"]) == 1)
    (kind,) = spec["demand"]
    advance(session, tob.CHOOSE, wonder=spec["wonder"], disc=disc)
    code = services.create_join_code(session=session).code
    # Bruno's phone does not hear of the table's moves (no push, its fetches lost), so it still
    # shows the offer form when the build is taken back.
    bruno = new_context(push=False).new_page()
    bruno.goto(f"/j/{code}/")
    take_seat(bruno, "Bruno")
    bruno.route("**/live/", lambda route: route.abort())
    bruno.locator(f'input[name="offer_{kind}"]').fill("1")
    advance(session, UNDO)

    bruno.get_by_role("button", name="Offer in secret").click()

    notice = bruno.get_by_test_id("notice")
    expect(notice).to_contain_text("That build is over: look at the board again.")
    expect(notice).to_be_in_viewport()
    expect(notice.get_by_role("button", name="Got it")).to_be_focused()
    bruno.screenshot(path=screenshots / "messages-notice-until-read.png")
    bruno.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    expect(notice).to_be_in_viewport()  # it stays while the page scrolls
    notice.get_by_role("button", name="Got it").click()
    expect(notice).to_have_count(0)


def test_after_a_pass_the_focus_is_the_tables_news_not_the_next_players_controls(
    new_context: Callable[[], BrowserContext],
) -> None:
    session, seats = table("tower-of-babel")
    advance(session, tob.FIRST_PLAYER, seat=seats[0])
    host = new_context().new_page()
    log_in(host, "ada", "table-pass-123")
    host.goto(f"/s/{session.pk}/")
    host.locator("#tob-pass").get_by_role("button", name="Pass").focus()
    host.keyboard.press("Enter")
    expect(host.get_by_test_id("tob-board")).to_contain_text("Bruno to play")
    expect(host.locator("#live")).to_be_focused()
    host.keyboard.press("Enter")  # one more Enter plays for nobody
    expect(host.get_by_test_id("tob-board")).to_contain_text("Bruno to play")
    session.refresh_from_db()
    assert session.state["game"]["active"] == seats[1]
