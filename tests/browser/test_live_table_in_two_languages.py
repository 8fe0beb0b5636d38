"""A table in two languages: the host's screen and Ada's phone in English, Bruno's phone in
Italian. Whatever the mover's own language, each screen follows every move, by push alone, in
its own language (each view's first device renders it for the others)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, expect

from scoring.tower_of_babel import engine as tob
from sessions import services
from sessions.models import GameSession
from tests.browser.conftest import a_table, log_in, phone_of
from tests.conftest import advance

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_italian_phone_and_the_english_host_follow_each_others_moves(
    new_context: Callable[..., BrowserContext], screenshots: Path
) -> None:
    session = a_table("tower-of-babel", password="tower-pass-123")
    ada_seat = next(seat.key for seat in session.seats.all())
    advance(session, tob.FIRST_PLAYER, seat=ada_seat)
    code = services.create_join_code(session=session).code

    host = new_context().new_page()
    log_in(host, "ada", "tower-pass-123")
    host.goto(f"/s/{session.pk}/")
    ada, bruno = phone_of(new_context(), code, "Ada"), phone_of(new_context(), code, "Bruno")
    language = bruno.locator("form.language")
    language.get_by_label("Language").select_option("it")
    language.get_by_role("button", name="Change").click()
    expect(bruno.get_by_test_id("guest-me")).to_have_text("Sei Bruno")
    expect(bruno.get_by_test_id("my-waiting")).to_have_text("In attesa di Ada")

    # Ada passes on her English phone: Bruno's Italian phone shows his turn, the host's screen
    # says so in English.
    ada.get_by_test_id("my-turn").get_by_role("button", name="Pass").click()
    expect(bruno.get_by_test_id("my-turn")).to_contain_text("Tocca a te", timeout=3_000)
    expect(host.get_by_text("Bruno to play")).to_be_visible(timeout=3_000)
    expect(ada.get_by_test_id("my-waiting")).to_have_text("Waiting for Bruno")
    bruno.evaluate("window.scrollTo(0, 0)")
    bruno.screenshot(path=screenshots / "two-languages-01-bruno-in-italian.png")

    # Bruno passes in Italian: the English screens follow in English, his own in Italian.
    bruno.get_by_test_id("my-turn").get_by_role("button", name="Passa").click()
    expect(bruno.get_by_test_id("my-waiting")).to_have_text("In attesa di Chiara")
    expect(host.get_by_text("Chiara to play")).to_be_visible(timeout=3_000)
    expect(ada.get_by_test_id("my-waiting")).to_have_text("Waiting for Chiara", timeout=3_000)
    host.screenshot(path=screenshots / "two-languages-02-host-in-english.png")

    # The host passes for Chiara, who has no phone: back to Ada, each phone in its language.
    host.get_by_role("button", name="Pass").first.click()
    expect(ada.get_by_test_id("my-turn")).to_contain_text("Your turn", timeout=3_000)
    expect(bruno.get_by_test_id("my-waiting")).to_have_text("In attesa di Ada", timeout=3_000)
    passes = [e.type for e in GameSession.objects.get(pk=session.pk).events.order_by("seq")][-3:]
    assert passes == [tob.PASS, tob.PASS, tob.PASS]
