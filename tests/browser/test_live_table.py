"""The host's page follows the table with no reload, and nothing another device does closes
a form someone is filling in, moves their focus or loses what they typed."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import BrowserContext, Request, expect

from scoring.tower_of_babel import engine as tob
from sessions import services
from sessions.models import GameSession
from tests.browser.conftest import a_table, log_in, phone_of, send
from tests.conftest import advance

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def table(game: str, **options: object) -> tuple[GameSession, list[str]]:
    """A started session with Ada (the owner) and Bruno (a member) able to log in."""
    session = a_table(game, password="table-pass-123", options=options)
    member = User.objects.create_user("bruno", password="table-pass-123")
    services.add_member(group=session.group, user=member)
    return session, [seat.key for seat in session.seats.all()]


def test_the_hosts_controls_follow_the_offers_without_a_reload(
    new_context: Callable[[], BrowserContext], screenshots: Path
) -> None:
    session, seats = table("tower-of-babel")
    advance(session, tob.FIRST_PLAYER, seat=seats[0])
    game = session.state["game"]
    disc, spec = next(iter(game["discs"].items()))
    advance(session, tob.CHOOSE, wonder=spec["wonder"], disc=disc)
    host = new_context().new_page()
    log_in(host, "ada", "table-pass-123")
    host.goto(f"/s/{session.pk}/")
    expect(host.get_by_role("heading", name="Waiting for the offers")).to_be_visible()
    for seat in seats[1:]:  # the phones offer
        advance(session, tob.OFFER, seat=seat, cards={}, trading=False, triple=False)
    expect(host.get_by_role("heading", name="Offers are in: accept and complete")).to_be_visible(timeout=3_000)
    expect(host.get_by_role("button", name="Record the build")).to_be_visible()
    host.screenshot(path=screenshots / "live-table-host-controls-follow.png", full_page=True)


def test_someone_elses_move_keeps_an_open_sheet_its_values_and_the_focus(
    new_context: Callable[[], BrowserContext], screenshots: Path
) -> None:
    session, seats = table("seven-wonders", tower_tiles=False, great_projects=False)
    ada, bruno = new_context().new_page(), new_context().new_page()
    log_in(ada, "ada", "table-pass-123")
    log_in(bruno, "bruno", "table-pass-123")
    ada.goto(f"/s/{session.pk}/")
    bruno.goto(f"/s/{session.pk}/")

    # Ada opens Chiara's sheet (folded by default) and types, her cursor in the coins box.
    chiara = ada.locator(f"#sheet-{seats[2]}")
    ada.locator("details.final-player", has=chiara).locator("summary").click()
    chiara.locator('input[name="military"]').fill("3+4")
    coins = chiara.locator('input[name="coins"]')
    coins.fill("12")
    ada.evaluate("window.scrollBy(0, 200)")
    scrolled = ada.evaluate("window.scrollY")

    # Meanwhile Bruno saves Ada's own sheet on his device: the session moves on.
    bruno_sheet = bruno.locator(f"#sheet-{seats[0]}")
    bruno_sheet.locator('input[name="coins"]').fill("5")
    bruno_sheet.get_by_role("button", name="Save this sheet").click()
    expect(ada.locator("#live")).to_contain_text("Ada", timeout=3_000)
    expect(ada.locator(f"#sheet-{seats[0]} input[name='coins']")).to_have_value("5", timeout=3_000)

    # Ada's sheet is still open, as typed, with her cursor where it was, and the page did not jump.
    expect(chiara).to_be_visible()
    expect(chiara.locator('input[name="military"]')).to_have_value("3+4")
    expect(coins).to_have_value("12")
    expect(coins).to_be_focused()
    expect(chiara.locator(".stale-note")).to_be_visible()
    assert abs(ada.evaluate("window.scrollY") - scrolled) < 2
    ada.screenshot(path=screenshots / "live-table-sheet-kept.png", full_page=True)

    # Sending it: the table moved on, so it comes back once, as typed; sending again saves it.
    chiara.get_by_role("button", name="Save this sheet").click()
    expect(chiara.get_by_text("Someone else changed this session a moment ago.")).to_be_visible()
    expect(chiara.locator('input[name="coins"]')).to_have_value("12")
    chiara.get_by_role("button", name="Save this sheet").click()
    expect(chiara.locator(".msg.error")).to_have_count(0)
    session.refresh_from_db()
    assert session.state["game"]["sheets"][seats[2]]["coins"] == 12
    assert session.state["game"]["sheets"][seats[2]]["military"] == 7


def test_a_phones_open_score_sheet_stays_open_and_as_typed_while_the_host_plays(
    new_context: Callable[[], BrowserContext], screenshots: Path
) -> None:
    session, seats = table("seven-wonders", tower_tiles=False, great_projects=True)
    code = services.create_join_code(session=session).code
    host = new_context().new_page()
    log_in(host, "ada", "table-pass-123")
    host.goto(f"/s/{session.pk}/")
    phone = phone_of(new_context(), code, "Chiara")

    # Chiara unfolds her sheet (folded while the ages are played) and types, cursor in coins.
    sheet = phone.get_by_test_id("my-sheet")
    sheet.locator("summary").click()
    sheet.locator('input[name="military"]').fill("9")
    coins = sheet.locator('input[name="coins"]')
    coins.fill("6")

    # The host records that Bruno takes a Great Project marker: the table moves on.
    send(host, host.get_by_role("button", name="Bruno takes a marker"))
    expect(phone.get_by_test_id("sw-project")).to_contain_text("Bruno 1", timeout=3_000)

    expect(sheet).to_have_attribute("open", "")
    expect(sheet.locator('input[name="military"]')).to_have_value("9")
    expect(coins).to_have_value("6")
    expect(coins).to_be_focused()
    phone.screenshot(path=screenshots / "live-table-phone-sheet-kept.png", full_page=True)

    # Her sheet concerns her seat alone, so it is saved against the table as it is now.
    send(phone, sheet.get_by_role("button", name="Save this sheet"))
    session.refresh_from_db()
    assert session.state["game"]["sheets"][seats[2]]["coins"] == 6


def test_a_phone_joins_the_night_once_and_follows_the_result_then_the_next_game(
    new_context: Callable[[], BrowserContext], screenshots: Path
) -> None:
    session, seats = table("tower-of-babel")
    code = services.create_join_code(session=session).code
    phone = phone_of(new_context(), code, "Bruno")
    phone.evaluate("window.stillTheSamePage = true")  # gone if anything reloads the page

    advance(session, "places.record", places={seat: index + 1 for index, seat in enumerate(seats)})
    advance(session, "session.finish")
    expect(phone.get_by_test_id("status")).to_have_text("finished", timeout=3_000)
    phone.screenshot(path=screenshots / "live-table-phone-result.png", full_page=True)

    players = [seat.player for seat in session.seats.all()]
    following = services.create_session(night=session.night, game="babel-cubes", players=players[:2], secret="3")
    advance(following, "session.start")
    expect(phone.get_by_role("heading", name="babel", exact=True)).to_be_visible(timeout=3_000)
    expect(phone.get_by_test_id("guest-me")).to_have_text("You are Bruno")
    expect(phone.get_by_test_id("bc-waiting")).to_contain_text("Waiting for Ada")
    assert phone.evaluate("window.stillTheSamePage") is True, "the phone's page was reloaded"
    phone.screenshot(path=screenshots / "live-table-phone-next-game.png", full_page=True)


def _ticket_of_live_fetches(fetches: list[str], request: Request) -> None:
    if "/live/" in request.url:
        fetches.append(request.headers.get("babel-live-ticket", ""))


def test_phones_send_back_their_tickets_and_keep_following_the_table(
    new_context: Callable[[], BrowserContext],
) -> None:
    session, seats = table("tower-of-babel")
    advance(session, tob.FIRST_PLAYER, seat=seats[0])
    code = services.create_join_code(session=session).code
    sent: dict[str, list[str]] = {"Bruno": [], "Chiara": []}
    phones = {}
    for name, fetches in sent.items():
        context = new_context()
        context.on("request", partial(_ticket_of_live_fetches, fetches))
        phones[name] = phone_of(context, code, name)
    for _ in range(3):  # the host passes: every phone follows, each sending its ticket back
        advance(session, tob.PASS)
        for name, phone in phones.items():
            expect(phone.locator("#guest")).to_have_attribute(
                "data-version", re.compile(rf"^{session.version}\."), timeout=3_000
            )
            expect(phone.get_by_test_id("guest-me")).to_have_text(f"You are {name}")
    for fetches in sent.values():
        assert fetches[0] == ""  # the page's first fetch is checked in full
        assert sum(1 for ticket in fetches if ticket) >= 2
