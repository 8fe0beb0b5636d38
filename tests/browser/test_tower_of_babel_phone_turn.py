"""A whole Tower of Babel turn on the phones: the host's page and two phones joined by code. The
player whose turn it is chooses the disc on their own phone (TB-12), the other phone gets the
offer form by itself, and later a player passes from their phone (TB-11)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, Locator, Page, expect

from scoring.tower_of_babel import engine as tob
from sessions import services
from sessions.models import GameSession
from tests.browser.conftest import a_table, log_in, phone_of
from tests.conftest import advance

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def assert_tappable(targets: Locator) -> None:
    """Every target is at least 44 px high and wide enough to hit with a thumb."""
    for index in range(targets.count()):
        box = targets.nth(index).bounding_box()
        assert box is not None
        assert box["height"] >= 44, box
        assert box["width"] >= 44, box


def assert_fits(phone: Page) -> None:
    """Nothing makes the 420 px wide phone scroll sideways."""
    assert phone.evaluate("document.documentElement.scrollWidth") <= 420


def test_the_active_player_chooses_a_disc_and_later_passes_on_their_own_phone(
    new_context: Callable[[], BrowserContext], screenshots: Path
) -> None:
    session = a_table("tower-of-babel", password="tower-pass-123")
    ada_seat, bruno_seat, chiara_seat = (seat.key for seat in session.seats.all())
    advance(session, tob.FIRST_PLAYER, seat=ada_seat)
    code = services.create_join_code(session=session).code
    game = GameSession.objects.get(pk=session.pk).state["game"]
    disc = next(d for d, v in game["discs"].items() if len(v["demand"]) == 1)
    kind, number = next(iter(game["discs"][disc]["demand"].items()))

    host = new_context().new_page()
    log_in(host, "ada", "tower-pass-123")
    host.goto(f"/s/{session.pk}/")
    ada, bruno = phone_of(new_context(), code, "Ada"), phone_of(new_context(), code, "Bruno")

    # Ada's phone offers her turn: the board's discs by wonder, and Pass; Bruno's waits.
    turn = ada.get_by_test_id("my-turn")
    expect(turn).to_contain_text("Your turn")
    expect(turn.get_by_role("heading", name="Pyramids of Giza")).to_be_visible()
    expect(turn.locator("button[data-disc]")).to_have_count(24)
    expect(turn.get_by_label("Double turn card")).to_be_visible()
    expect(bruno.get_by_test_id("my-waiting")).to_have_text("Waiting for Ada")
    expect(bruno.get_by_test_id("my-turn")).to_have_count(0)
    assert_tappable(turn.locator("button, label.check"))
    assert_fits(ada)
    ada.screenshot(path=screenshots / "tower-of-babel-phone-turn-01-your-turn.png", full_page=True)
    turn.screenshot(path=screenshots / "tower-of-babel-phone-turn-01-your-turn-section.png")
    ada.evaluate("window.scrollTo(0, 0)")
    ada.screenshot(path=screenshots / "tower-of-babel-phone-turn-01-first-screen.png")
    bruno.evaluate("window.scrollTo(0, 0)")
    bruno.screenshot(path=screenshots / "tower-of-babel-phone-turn-02-waiting.png")

    # Ada taps a disc: the secret offers start, and Bruno's phone shows its form by itself.
    turn.locator(f'button[data-disc="{disc}"]').click()
    expect(ada.get_by_test_id("my-turn")).to_have_count(0)
    expect(bruno.get_by_test_id("my-offer-form")).to_be_visible(timeout=3_000)
    expect(host.get_by_role("heading", name="Waiting for the offers")).to_be_visible(timeout=3_000)
    bruno.locator(f'input[name="offer_{kind}"]').fill("1")
    bruno.get_by_role("button", name="Offer in secret").click()
    expect(bruno.get_by_test_id("my-offer")).to_contain_text("Your offer is in")

    # Chiara has no phone: the host enters her offer (nothing); Ada completes on her phone.
    expect(host.get_by_test_id("tob-pending")).to_contain_text("Bruno: has offered", timeout=3_000)
    host.get_by_text("Enter an offer for a player without a phone").click()
    host.get_by_role("button", name="Record this offer").click()
    resolve = ada.get_by_test_id("my-resolve")
    expect(resolve).to_contain_text("Offers are in: accept and complete", timeout=3_000)
    resolve.locator(f'input[name="accept_{bruno_seat}"]').check()
    resolve.locator(f'input[name="own_{kind}"]').fill(str(number - 1))
    resolve.get_by_role("button", name="Record the build").click()

    # Bruno's turn: his phone shows the disc left and Pass; he passes; Ada's phone waits.
    turn = bruno.get_by_test_id("my-turn")
    expect(turn).to_contain_text("Your turn", timeout=3_000)
    expect(turn.locator(f'button[data-disc="{disc}"]')).to_have_count(0)
    expect(turn.locator("button[data-disc]")).to_have_count(23)
    expect(ada.get_by_test_id("my-waiting")).to_have_text("Waiting for Bruno", timeout=3_000)
    assert_fits(bruno)
    bruno.screenshot(path=screenshots / "tower-of-babel-phone-turn-03-bruno-to-play.png", full_page=True)
    turn.get_by_role("button", name="Pass").click()
    expect(bruno.get_by_test_id("my-waiting")).to_have_text("Waiting for Chiara")
    expect(ada.get_by_test_id("my-waiting")).to_have_text("Waiting for Chiara", timeout=3_000)
    expect(host.get_by_text("Chiara to play")).to_be_visible(timeout=3_000)

    game = GameSession.objects.get(pk=session.pk).state["game"]
    assert game["discs"][disc]["owner"] == ada_seat
    assert game["active"] == chiara_seat
    assert game["wonders"][game["discs"][disc]["wonder"]]["parts"] == {ada_seat: number - 1, bruno_seat: 1}
    assert [e.type for e in GameSession.objects.get(pk=session.pk).events.order_by("seq")][-1] == tob.PASS
