"""Secret offers on three devices: the host's and two phones joined by code; on their turn, the
player on a phone accepts the offers and completes the build there."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, expect

from scoring.tower_of_babel import engine as tob
from sessions import services
from sessions.models import GameSession
from tests.browser.conftest import a_table, log_in, phone_of, send
from tests.conftest import advance

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_phones_offer_in_secret_and_the_active_player_accepts_on_the_host_or_their_own_phone(
    new_context: Callable[[], BrowserContext], screenshots: Path
) -> None:
    session = a_table("tower-of-babel", password="tower-pass-123")
    players = [seat.player for seat in session.seats.all()]
    advance(session, tob.FIRST_PLAYER, seat=str(players[0].pk))
    code = services.create_join_code(session=session).code
    game = GameSession.objects.get(pk=session.pk).state["game"]
    disc = next(d for d, v in game["discs"].items() if max(v["demand"].values()) >= 4)
    kind, number = next(iter(game["discs"][disc]["demand"].items()))

    host = new_context().new_page()
    log_in(host, "ada", "tower-pass-123")
    host.goto(f"/s/{session.pk}/")

    phones = {}
    for name in ["Bruno", "Chiara"]:
        phone = phone_of(new_context(), code, name)
        phones[name] = phone

    host.locator(f'a.disc[data-disc="{disc}"]').click()
    host.get_by_role("button", name="Secret offers on the phones instead").click()
    expect(host.get_by_role("heading", name="Waiting for the offers")).to_be_visible()

    # The offer form appears on each phone by itself (the live region polls).
    for phone in phones.values():
        expect(phone.get_by_test_id("my-offer-form")).to_be_visible(timeout=3_000)
    bruno, chiara = phones["Bruno"], phones["Chiara"]
    bruno.locator(f'input[name="offer_{kind}"]').fill("2")
    bruno.get_by_role("button", name="Offer in secret").click()
    expect(bruno.get_by_test_id("my-offer")).to_contain_text("Your offer is in")
    pending = chiara.get_by_test_id("tob-pending")
    expect(pending).to_contain_text("Bruno: has offered", timeout=3_000)
    expect(pending).not_to_contain_text(" 2")
    chiara.screenshot(path=screenshots / "tower-of-babel-secret-01-waiting.png", full_page=True)

    chiara.locator(f'input[name="offer_{kind}"]').fill("1")
    chiara.get_by_role("button", name="Offer in secret").click()

    # Both in: the offers show on the host's page by itself; Ada accepts Bruno's and completes.
    expect(host.get_by_role("heading", name="Offers are in: accept and complete")).to_be_visible(timeout=3_000)
    host.locator(f'input[name="accept_{players[1].pk}"]').check()
    host.locator(f'input[name="own_{kind}"]').fill(str(number - 2))
    host.get_by_role("button", name="Record the build").click()
    expect(host.get_by_text("Bruno to play")).to_be_visible()
    host.screenshot(path=screenshots / "tower-of-babel-secret-02-built.png", full_page=True)

    game = GameSession.objects.get(pk=session.pk).state["game"]
    wonder = game["discs"][disc]["wonder"]
    assert game["wonders"][wonder]["parts"] == {str(players[0].pk): number - 2, str(players[1].pk): 2}
    assert game["points"][str(players[2].pk)]["rejected"] == 1  # TB-14
    expect(chiara.get_by_text("Bruno to play")).to_be_visible(timeout=3_000)

    # Bruno's turn: the host taps a disc on another wonder, Chiara offers on her phone, the
    # host types Ada's (nothing), and Bruno accepts Chiara's offer on his own phone.
    second = next(d for d, v in game["discs"].items() if v["owner"] is None and v["wonder"] != wonder)
    kind, number = next(iter(game["discs"][second]["demand"].items()))
    host.locator(f'a.disc[data-disc="{second}"]').click()
    host.get_by_role("button", name="Secret offers on the phones instead").click()
    expect(chiara.get_by_test_id("my-offer-form")).to_be_visible(timeout=3_000)
    chiara.locator(f'input[name="offer_{kind}"]').fill("1")
    send(chiara, chiara.get_by_role("button", name="Offer in secret"))
    expect(host.get_by_test_id("tob-pending")).to_contain_text("Chiara: has offered", timeout=3_000)
    host.get_by_text("Enter an offer for a player without a phone").click()
    host.get_by_role("button", name="Record this offer").click()

    resolve = bruno.get_by_test_id("my-resolve")
    expect(resolve).to_contain_text("Offers are in: accept and complete", timeout=3_000)
    resolve.locator(f'input[name="accept_{players[2].pk}"]').check()
    resolve.locator(f'input[name="own_{kind}"]').fill(str(number - 1))
    bruno.screenshot(path=screenshots / "tower-of-babel-secret-03-accept-on-the-phone.png", full_page=True)
    resolve.get_by_role("button", name="Record the build").click()
    expect(bruno.get_by_text("Chiara to play")).to_be_visible()
    expect(host.get_by_text("Chiara to play")).to_be_visible(timeout=3_000)
    game = GameSession.objects.get(pk=session.pk).state["game"]
    assert game["wonders"][game["discs"][second]["wonder"]]["parts"] == {
        str(players[1].pk): number - 1,
        str(players[2].pk): 1,
    }
