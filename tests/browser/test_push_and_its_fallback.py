"""Push in the browser: a page whose socket is refused still follows the table by the poll,
and news that comes while a page is fetching itself is never lost."""

from __future__ import annotations

import re
import threading
import time

import pytest
from django.db import connection
from playwright.sync_api import Page, Route, WebSocketRoute, expect

from scoring.tower_of_babel import engine as tob
from sessions.models import GameSession
from tests.browser.conftest import OpenContext, a_table, log_in
from tests.conftest import advance

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def host_page(new_context: OpenContext, session: GameSession, *, push: bool = True, worker: bool = True) -> Page:
    host = new_context(push=push, worker=worker).new_page()
    log_in(host, "ada", "push-pass-123")
    host.goto(f"/s/{session.pk}/")
    return host


def shows_version(page: Page, version: int, timeout: float) -> None:
    expect(page.locator("#session")).to_have_attribute("data-version", re.compile(rf"^{version}\."), timeout=timeout)


def test_a_page_whose_socket_is_refused_follows_the_table_by_the_poll(new_context: OpenContext) -> None:
    session = a_table("tower-of-babel", password="push-pass-123")
    host = host_page(new_context, session, push=False)
    seat = session.seats.first()
    assert seat is not None
    advance(session, tob.FIRST_PLAYER, seat=seat.key)
    shows_version(host, session.version, timeout=3_000)
    assert host.locator("#session").get_attribute("data-pushed") is None
    assert host.evaluate("window.tablePolls") > 0


def test_news_that_comes_while_the_page_fetches_itself_is_not_lost(new_context: OpenContext) -> None:
    session = a_table("tower-of-babel", password="push-pass-123")
    seats = [seat.key for seat in session.seats.all()]
    host = host_page(new_context, session, worker=False)  # its live fetches are held back below
    expect(host.locator("#session[data-pushed]")).to_have_count(1)
    # Any fetch of the page's load has come back: the next fetch is the one a push causes.
    host.wait_for_load_state("networkidle")
    host.wait_for_function("() => !document.querySelector('#session.htmx-request')")
    slowed: list[Route] = []

    def move_on_while_the_answer_travels(route: Route) -> None:
        """The first fetch answers the version it was asked at, but only after the table has
        moved on again, its news has come, and the poll has ticked at least once."""
        if slowed:
            route.continue_()
            return
        slowed.append(route)
        answer = route.fetch()
        game = GameSession.objects.get(pk=session.pk).state["game"]
        disc, spec = next(iter(game["discs"].items()))
        writer = threading.Thread(target=choose, args=(session.pk, spec["wonder"], disc))
        writer.start()
        writer.join()
        time.sleep(2.5)
        route.fulfill(response=answer)

    host.route(re.compile(r"/s/\d+/live/"), move_on_while_the_answer_travels)
    advance(session, tob.FIRST_PLAYER, seat=seats[0])
    shows_version(host, session.version + 1, timeout=8_000)
    assert slowed, "the page never fetched itself"


def choose(session_id: int, wonder: str, disc: str) -> None:
    """The active player chooses a disc: a write from another thread, as another device's."""
    advance(GameSession.objects.get(pk=session_id), tob.CHOOSE, wonder=wonder, disc=disc)
    connection.close()


def live_fetches(page: Page) -> list[str]:
    """The URLs of the live region's fetches the page makes from now on."""
    fetched: list[str] = []
    page.on("request", lambda request: fetched.append(request.url) if "/live/" in request.url else None)
    return fetched


def test_a_page_that_shows_the_table_as_it_is_fetches_nothing_when_its_socket_opens(
    new_context: OpenContext,
) -> None:
    session = a_table("tower-of-babel", password="push-pass-123")
    context = new_context()
    host = context.new_page()
    log_in(host, "ada", "push-pass-123")
    fetched = live_fetches(host)
    host.goto(f"/s/{session.pk}/")
    expect(host.locator("#session[data-pushed]")).to_have_count(1)
    host.wait_for_timeout(3_000)  # longer than the wait for the socket's first message (HELLO_MS)
    assert fetched == []


def test_a_move_made_before_the_socket_joined_is_fetched_once_it_has(new_context: OpenContext) -> None:
    session = a_table("tower-of-babel", password="push-pass-123")
    seat = session.seats.first()
    assert seat is not None
    context, moved = new_context(), list[bool]()

    def move_then_connect(socket: WebSocketRoute) -> None:
        """The page is loaded at the table's version; a move is committed before its socket
        joins the night, so that no news of it ever reaches this socket."""
        if not moved:
            advance(GameSession.objects.get(pk=session.pk), tob.FIRST_PLAYER, seat=seat.key)
            moved.append(True)
        socket.connect_to_server()

    context.route_web_socket("**/ws/**", move_then_connect)
    host = context.new_page()
    log_in(host, "ada", "push-pass-123")
    host.goto(f"/s/{session.pk}/")
    shows_version(host, session.version + 1, timeout=3_000)
    assert host.locator("#session").get_attribute("data-pushed") == ""


def test_news_a_broken_push_layer_lost_is_fetched_by_the_safety_fetch_while_the_socket_stays_open(
    new_context: OpenContext,
) -> None:
    """A socket that stays open but hears nothing after its first message (its server's Redis
    went away): the page still fetches itself every 30 seconds, and finds the move."""
    session = a_table("tower-of-babel", password="push-pass-123")
    seat = session.seats.first()
    assert seat is not None
    context = new_context()

    def first_message_only(socket: WebSocketRoute) -> None:
        server, heard = socket.connect_to_server(), list[str | bytes]()

        def forward_the_first(message: str | bytes) -> None:
            if not heard:
                socket.send(message)
            heard.append(message)

        server.on_message(forward_the_first)

    context.route_web_socket("**/ws/**", first_message_only)
    context.clock.install()
    host = context.new_page()
    log_in(host, "ada", "push-pass-123")
    fetched = live_fetches(host)
    host.goto(f"/s/{session.pk}/")
    expect(host.locator("#session[data-pushed]")).to_have_count(1)
    advance(session, tob.FIRST_PLAYER, seat=seat.key)
    host.wait_for_timeout(3_000)
    assert fetched == []  # the news was lost and the poll is quiet while the socket is open
    host.clock.fast_forward("00:31")
    shows_version(host, session.version, timeout=5_000)
    assert len(fetched) == 1
    assert host.evaluate("window.safetyFetches") == 1
