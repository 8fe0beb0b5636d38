"""The 6-player 7 Wonders sheet on a 390 px phone (issue 39, point 10): the table scrolls inside
its region under its whole caption (it was cut to "Scor"), its row names in view."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext

from tests.browser.conftest import a_table, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIX = ("Ada", "Bruno", "Chiara", "Dario", "Elena", "Franca")


def test_the_six_player_sheet_scrolls_under_a_whole_caption(new_context: Callable[[], BrowserContext]) -> None:
    session = a_table("seven-wonders", password="sheet-pass-123", names=SIX, options={"great_projects": True})
    host = new_context().new_page()
    host.set_viewport_size({"width": 390, "height": 844})
    log_in(host, "ada", "sheet-pass-123")
    host.goto(f"/s/{session.pk}/")
    region = host.get_by_test_id("sw-sheet")
    assert region.evaluate("el => el.scrollWidth > el.clientWidth")  # six columns: it scrolls
    text, shown = region.evaluate(WHERE_THE_CAPTION_IS)
    assert text["text"] == "Score sheet"
    assert shown["left"] <= text["left"]
    assert text["right"] <= shown["right"], "the caption is cut"
    region.evaluate("el => { el.scrollLeft = el.scrollWidth; }")  # to the last player
    assert region.evaluate("el => el.scrollLeft > 0")
    row_name = region.get_by_role("rowheader").first.bounding_box()
    assert row_name is not None
    assert row_name["x"] >= shown["left"] - 0.5  # the row names stay in view


# The caption's words (not its box, which spans the table) and the region that shows them.
WHERE_THE_CAPTION_IS = """el => {
  const words = document.createRange();
  words.selectNodeContents(el.querySelector("caption"));
  const text = words.getBoundingClientRect(), shown = el.getBoundingClientRect();
  return [{left: text.left, right: text.right, text: words.toString().trim()}, {left: shown.left, right: shown.right}];
}"""
