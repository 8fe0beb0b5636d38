"""The host's page without a connection: a move waits on the device and is sent once when the
connection is back; one the server refuses comes back with its values and its reason; a send
whose answer was lost is not applied twice; a page reopened offline keeps its waiting moves."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, Page, Route, expect

from scoring.tower_of_babel import engine as tob
from sessions.models import GameSession
from tests.browser.conftest import a_table, kept_by_the_worker, log_in
from tests.conftest import advance

pytestmark = pytest.mark.browser
PASSWORD = "offline-table-123"


def a_tower_of_babel_table() -> GameSession:
    session = a_table("tower-of-babel", password=PASSWORD)
    advance(session, tob.FIRST_PLAYER, seat=str(session.seats.get(order=0).player_id))
    return session


def a_host(new_context: Callable[..., BrowserContext], session: GameSession) -> Page:
    """The host's page, once loaded through the service worker (which then keeps it)."""
    host = new_context().new_page()
    log_in(host, "ada", PASSWORD)
    host.goto(f"/s/{session.pk}/")
    kept_by_the_worker(host)
    expect(host.get_by_test_id("tob-board")).to_contain_text("Ada to play")
    return host


def moves_of(session: GameSession) -> list[str]:
    return list(session.events.order_by("seq").values_list("type", flat=True))


def caught_up(page: Page) -> None:
    """Back online, the page is pushed again. The polls it made while offline were the fallback
    doing its job: the fixture's check that it is pushed, not polled, starts again from here."""
    expect(page.locator("#session")).to_have_attribute("data-pushed", "")
    page.evaluate("window.tablePolls = 0")


def test_a_pass_made_offline_waits_and_is_sent_once_when_the_connection_is_back(
    new_context: Callable[..., BrowserContext],
) -> None:
    session = a_tower_of_babel_table()
    host = a_host(new_context, session)
    before = moves_of(session)
    host.context.set_offline(True)
    host.get_by_role("button", name="Pass", exact=True).click()
    panel = host.get_by_test_id("offline-panel")
    expect(panel).to_contain_text("Offline: the table is as of")
    expect(host.get_by_test_id("offline-waiting")).to_contain_text("Pass, made at")
    expect(host.get_by_test_id("tob-board")).to_contain_text("Ada to play")  # as it last was
    assert moves_of(session) == before

    host.reload()  # the device's copy of the page, and the move still waiting
    expect(host.get_by_test_id("tob-board")).to_contain_text("Ada to play")
    expect(host.get_by_test_id("offline-waiting")).to_contain_text("Pass, made at")

    host.context.set_offline(False)
    expect(host.get_by_test_id("tob-board")).to_contain_text("Bruno to play", timeout=15_000)
    expect(panel).to_be_hidden()
    assert moves_of(session) == [*before, tob.PASS]
    caught_up(host)


def test_a_score_entry_refused_when_sent_comes_back_with_its_values_and_reason(
    new_context: Callable[..., BrowserContext],
) -> None:
    session = a_tower_of_babel_table()
    host = a_host(new_context, session)
    other = a_host(new_context, session)  # the same host on a second device, online
    before = moves_of(session)
    host.context.set_offline(True)
    host.get_by_text("Played without the tracker? Enter the final scores by hand").click()
    scores = host.locator("form#scores")
    for name, value in (("Ada", "30"), ("Bruno", "12"), ("Chiara", "7")):
        scores.get_by_label(re.compile(rf"^{name}:?$")).fill(value)
    scores.get_by_role("button", name="Save scores").click()
    expect(host.get_by_test_id("offline-waiting")).to_contain_text("Save scores, made at")
    expect(host.get_by_test_id("offline-waiting")).to_contain_text("Ada: 30, Bruno: 12, Chiara: 7")

    other.get_by_role("button", name="Pass", exact=True).click()  # meanwhile, the table moves on
    expect(other.get_by_test_id("tob-board")).to_contain_text("Bruno to play")

    host.context.set_offline(False)
    refused = host.get_by_test_id("offline-refused")
    expect(refused).to_contain_text("Save scores, made at", timeout=15_000)
    expect(refused).to_contain_text("Ada: 30, Bruno: 12, Chiara: 7")
    expect(refused.get_by_role("alert")).to_contain_text("Someone else changed this session a moment ago")
    expect(host.get_by_test_id("tob-board")).to_contain_text("Bruno to play")  # the table as it is
    assert moves_of(session) == [*before, tob.PASS]  # the other device's pass, no scores

    refused.get_by_role("button", name="Put it back in its form").click()
    for name, value in (("Ada", "30"), ("Bruno", "12"), ("Chiara", "7")):
        expect(scores.get_by_label(re.compile(rf"^{name}:?$"))).to_have_value(value)
    expect(host.get_by_test_id("offline-panel")).to_be_hidden()
    caught_up(host)
    caught_up(other)


def test_a_refused_move_can_be_dropped(new_context: Callable[..., BrowserContext]) -> None:
    session = a_tower_of_babel_table()
    host = a_host(new_context, session)
    other = a_host(new_context, session)
    host.context.set_offline(True)
    host.get_by_role("button", name="Pass", exact=True).click()
    other.get_by_role("button", name="Pass", exact=True).click()
    expect(other.get_by_test_id("tob-board")).to_contain_text("Bruno to play")
    host.context.set_offline(False)
    refused = host.get_by_test_id("offline-refused")
    expect(refused).to_contain_text("Pass, made at", timeout=15_000)
    refused.get_by_role("button", name="Drop it").click()
    expect(host.get_by_test_id("offline-panel")).to_be_hidden()
    host.reload()
    expect(host.get_by_test_id("offline-panel")).to_be_hidden()  # gone from the device too
    assert moves_of(session).count(tob.PASS) == 1
    caught_up(host)
    caught_up(other)


def test_a_send_whose_answer_was_lost_is_sent_again_and_applied_once(
    new_context: Callable[..., BrowserContext],
) -> None:
    session = a_tower_of_babel_table()
    host = a_host(new_context, session)
    before = moves_of(session)
    lost: list[int] = []

    def reach_the_server_then_drop_the_answer(route: Route) -> None:
        if lost:
            route.continue_()
            return
        lost.append(route.fetch().status)
        route.abort("internetdisconnected")

    host.route("**/play/pass/", reach_the_server_then_drop_the_answer)
    host.get_by_role("button", name="Pass", exact=True).click()
    expect(host.get_by_test_id("tob-board")).to_contain_text("Bruno to play", timeout=15_000)
    expect(host.get_by_test_id("offline-panel")).to_be_hidden(timeout=15_000)
    assert lost == [204]  # the first send was applied; its answer never came
    assert moves_of(session) == [*before, tob.PASS]  # and the second send was the same move
    caught_up(host)
