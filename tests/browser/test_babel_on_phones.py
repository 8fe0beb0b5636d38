"""A turn of Babel On! on a host and two phones, with no reload anywhere: the player whose turn
it is calls, rolls and places the drawn blocks on their phone; the host's board and the other
phone follow by themselves."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, expect

from scoring.babel_on import engine as bo
from sessions import services
from sessions.models import GameSession
from tests.browser.conftest import a_table, log_in, phone_of, send
from tests.conftest import advance

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_active_phone_plays_a_turn_and_the_host_and_the_other_phone_follow(
    new_context: Callable[[], BrowserContext], screenshots: Path
) -> None:
    session = a_table("babel-on", password="babel-on-pass-123", names=("Ada", "Bruno"))
    ada, bruno = (seat.key for seat in session.seats.all())
    advance(session, bo.SETUP, colours={ada: "blue", bruno: "red"}, extra="green")
    advance(session, bo.ROLLOFF, rolls={ada: 5, bruno: 2})
    code = services.create_join_code(session=session).code

    host = new_context().new_page()
    log_in(host, "ada", "babel-on-pass-123")
    host.goto(f"/s/{session.pk}/")
    ada_phone = phone_of(new_context(), code, "Ada")
    bruno_phone = phone_of(new_context(), code, "Bruno")
    expect(bruno_phone.get_by_test_id("bo-waiting")).to_have_text("Waiting for Ada to play.")

    # Ada calls even and types the real die's 2 on her phone: two blocks to draw and place.
    turn = ada_phone.get_by_test_id("bo-my-turn")
    turn.get_by_label("even", exact=True).check()
    turn.locator('input[name="roll"]').fill("2")
    send(ada_phone, turn.get_by_role("button", name="Record this roll"))
    expect(host.get_by_test_id("bo-roll")).to_contain_text("Ada called even and rolled 2", timeout=3_000)
    expect(bruno_phone.get_by_test_id("bo-roll")).to_contain_text("draw 2 blocks from the bag", timeout=3_000)
    for row in range(2):
        turn.get_by_role("group", name=f"Block {row + 1}", exact=True).get_by_label("blue", exact=True).check()
    ada_phone.screenshot(path=screenshots / "babel-on-phone-01-draw.png", full_page=True)
    send(ada_phone, turn.get_by_role("button", name="Place the blocks"))

    # The host's tower picture and Bruno's phone show the two blue blocks; it is Bruno's turn.
    for page in (host, bruno_phone):
        tower = page.get_by_test_id(f"bo-tower-{ada}")
        expect(tower.locator(".bo-cell.colour-blue")).to_have_count(2, timeout=3_000)
        expect(page.get_by_test_id("bo-status")).to_contain_text("Bruno to play")
    expect(bruno_phone.get_by_test_id("bo-my-turn")).to_be_visible()
    expect(ada_phone.get_by_test_id("bo-waiting")).to_have_text("Waiting for Bruno to play.", timeout=3_000)
    bruno_phone.screenshot(path=screenshots / "babel-on-phone-02-bruno-to-play.png", full_page=True)
    host.screenshot(path=screenshots / "babel-on-phone-03-host.png", full_page=True)
    phones = host.locator("#join")  # the host sees which seats have a phone
    expect(phones).to_contain_text("Ada")
    phones.screenshot(path=screenshots / "babel-on-phone-04-host-phones.png")
    assert GameSession.objects.get(pk=session.pk).state["game"]["towers"][ada][0][:2] == ["blue", "blue"]
