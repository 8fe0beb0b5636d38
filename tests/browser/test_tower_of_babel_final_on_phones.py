"""The final scoring of Tower of Babel on the phones (TB-20): the host's page and two phones at
game over. Each phone shows its own player's choices; a player says on their phone which
action cards they hold, and the host's page shows the new total by itself."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, expect

from scoring.tower_of_babel import engine as tob
from sessions import services
from sessions.models import GameSession
from tests.browser.conftest import a_table, log_in, phone_of, send
from tests.browser.test_tower_of_babel_phone_turn import assert_fits, assert_tappable
from tests.test_tower_of_babel_pages import play_to_the_end

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_phone_sets_its_held_cards_and_the_hosts_page_shows_the_new_total(
    new_context: Callable[[], BrowserContext], screenshots: Path
) -> None:
    session = a_table("tower-of-babel", password="tower-pass-123", options={"two_kind_discs": True})
    play_to_the_end(session)
    seats = [seat.key for seat in session.seats.all()]
    game = GameSession.objects.get(pk=session.pk).state["game"]
    # The player with action cards still in hand, and another phone.
    holder = next(i for i, seat in enumerate(seats) if game["cards"][seat]["drawn"])
    other = (holder + 1) % len(seats)
    names = ["Ada", "Bruno", "Chiara"]
    total = sum(tob.final_points(game)[seats[holder]].values())
    discs = len(tob.discs_held(game, seats[holder]))
    code = services.create_join_code(session=session).code

    host = new_context().new_page()
    log_in(host, "ada", "tower-pass-123")
    host.goto(f"/s/{session.pk}/")
    expect(host.get_by_role("heading", name="Final scoring")).to_be_visible()
    host_total = host.get_by_test_id("tob-total").nth(holder)
    expect(host_total).to_have_text(str(total))
    mine, theirs = phone_of(new_context(), code, names[holder]), phone_of(new_context(), code, names[other])

    # Each phone shows its own player's final scoring, the cards prefilled with none held.
    final = mine.get_by_test_id("my-final")
    expect(final.get_by_role("heading", name="Final scoring")).to_be_visible()
    cards = final.locator("#phone-cards")
    expect(cards.get_by_label("Building disc bonus cards")).to_have_value("0")
    expect(cards.get_by_label("5 victory points cards")).to_have_value("0")
    expect(theirs.get_by_test_id("my-final").locator("#phone-cards")).to_be_visible()
    expect(mine.locator('[id^="tob-cards-"], [id^="tob-assign-"]')).to_have_count(0)
    assert_tappable(final.locator("button, select, input:not([type=hidden])"))
    assert_fits(mine)

    # The player says they hold one of each card: +1 per disc held, and +5.
    cards.get_by_label("Building disc bonus cards").fill("1")
    cards.get_by_label("5 victory points cards").fill("1")
    final.screenshot(path=screenshots / "tower-of-babel-final-on-phones-01-held-cards.png")
    send(mine, cards.get_by_role("button", name="Save held cards"))
    new_total = str(total + discs + 5)
    expect(host_total).to_have_text(new_total, timeout=3_000)
    expect(host.locator(f"#tob-cards-{seats[holder]}").get_by_label("5 victory points cards")).to_have_value(
        "1", timeout=3_000
    )
    expect(
        mine.get_by_test_id("my-final").locator("#phone-cards").get_by_label("5 victory points cards")
    ).to_have_value("1")
    mine.evaluate("window.scrollTo(0, 0)")
    mine.screenshot(path=screenshots / "tower-of-babel-final-on-phones-02-phone.png", full_page=True)
    host.screenshot(path=screenshots / "tower-of-babel-final-on-phones-03-host.png", full_page=True)

    held = GameSession.objects.get(pk=session.pk).state["game"]["cards"]
    assert held[seats[holder]]["held"] == {"building_disc_bonus": 1, "five_points": 1}
    assert held[seats[other]]["held"] == {"building_disc_bonus": 0, "five_points": 0}
