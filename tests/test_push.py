"""Push: a device's socket is refused like its page; once in, it hears "session N is at
version V" when a change to its night is committed, and nothing secret ever."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from babel_companion.asgi import application
from scoring.tower_of_babel import engine as tob
from sessions import services
from sessions.table import push
from tests.conftest import advance

pytestmark = pytest.mark.django_db(transaction=True)


def cookie_of(client: Client) -> bytes:
    return "; ".join(f"{name}={morsel.value}" for name, morsel in client.cookies.items()).encode()


def socket(path: str, client: Client | None = None) -> WebsocketCommunicator:
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
    if client is not None:
        headers.append((b"cookie", cookie_of(client)))
    return WebsocketCommunicator(application, path, headers=headers)


def run(coroutine_function: Callable[[], Awaitable[Any]]) -> Any:
    """Runs it on an event loop in a thread of its own (the browser tests leave theirs running
    in this one)."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(async_to_sync(coroutine_function)).result()


def connects(path: str, client: Client | None = None) -> bool:
    async def attempt() -> bool:
        communicator = socket(path, client)
        accepted, _code = await communicator.connect()
        await communicator.disconnect()
        return bool(accepted)

    return run(attempt)


def first_message(path: str, client: Client) -> dict[str, Any]:
    """What the socket hears first once connected."""

    async def listen() -> dict[str, Any]:
        communicator = socket(path, client)
        accepted, _code = await communicator.connect()
        assert accepted
        message = await communicator.receive_json_from(timeout=3)
        await communicator.disconnect()
        return message

    return run(listen)


def news_after(path: str, client: Client, change: Any) -> dict[str, Any]:
    """The first message the socket hears after ``change()`` (run while it is connected,
    once it said what the table shows)."""

    async def listen() -> dict[str, Any]:
        communicator = socket(path, client)
        accepted, _code = await communicator.connect()
        assert accepted
        assert "now" in await communicator.receive_json_from(timeout=3)
        await sync_to_async(change)()
        message = await communicator.receive_json_from(timeout=3)
        await communicator.disconnect()
        return message

    return run(listen)


def test_a_member_connects_and_an_outsider_or_a_stranger_is_refused(member_client, outsider_client, session):
    member_client.get("/")
    outsider_client.get("/")
    assert connects(f"/ws/sessions/{session.pk}/", member_client)
    assert not connects(f"/ws/sessions/{session.pk}/", outsider_client)
    assert not connects(f"/ws/sessions/{session.pk}/")


def test_a_phone_that_joined_connects_and_one_that_did_not_or_whose_code_was_revoked_is_refused(session):
    join_code = services.create_join_code(session=session)
    phone, stranger = Client(), Client()
    phone.get(f"/j/{join_code.code}/")
    stranger.get("/")
    assert connects(f"/ws/j/{join_code.code}/", phone)
    assert not connects(f"/ws/j/{join_code.code}/", stranger)
    services.revoke_join_code(join_code=join_code)
    assert not connects(f"/ws/j/{join_code.code}/", phone)


def region_of(client: Client, path: str) -> dict[str, Any]:
    """The session and the version the live region at ``path`` shows, as the page reads them."""
    html = client.get(path, headers={"HX-Request": "true"}).content.decode()
    found: dict[str, str] = {}
    for name, value in re.findall(r'data-(session|version)="([^"]*)"', html):
        found.setdefault(name, value)  # the region's own, which comes first
    return {"session": int(found["session"]) if found["session"] else None, "region": found["version"]}


def test_a_hosts_socket_first_says_what_its_region_shows_now(member_client, session):
    advance(session, "session.start")
    advance(session, tob.FIRST_PLAYER, seat=session.seats.first().key)
    member_client.get("/")
    now = first_message(f"/ws/sessions/{session.pk}/", member_client)
    assert now == {"now": region_of(member_client, f"/s/{session.pk}/live/")}
    assert now["now"]["region"].startswith("2.")


def test_a_phones_socket_first_says_what_its_region_shows_now(session):
    code = services.create_join_code(session=session).code
    phone = Client()
    phone.get(f"/j/{code}/")
    advance(session, "session.start")
    assert first_message(f"/ws/j/{code}/", phone) == {"now": region_of(phone, f"/j/{code}/live/")}


def test_a_committed_move_is_announced_as_the_sessions_new_version_only(member_client, session):
    advance(session, "session.start")  # a start also tells the night: the game its screens show may change
    member_client.get("/")
    seat = session.seats.first().key

    def move() -> None:  # not a start: a move the night's screens follow by the session's news alone
        advance(session, tob.FIRST_PLAYER, seat=seat)

    news = news_after(f"/ws/sessions/{session.pk}/", member_client, move)
    assert news == {"session": session.pk, "version": 2}


def test_a_phone_hears_when_a_seat_changes_on_its_night(session):
    code = services.create_join_code(session=session).code
    phone, other = Client(), Client()
    phone.get(f"/j/{code}/")
    other.get(f"/j/{code}/")
    seat = session.seats.first().key
    news = news_after(f"/ws/j/{code}/", phone, lambda: other.post(f"/j/{code}/seat/", {"seat": seat}))
    assert news == {"session": None, "version": None}


def test_a_change_made_by_a_thread_that_runs_an_event_loop_is_announced_too(member_client, session):
    """Such as a script, or a test driving a browser through Playwright's sync API."""

    async def announce_inside_a_loop() -> None:
        push.announce(night_id=session.night_id, session_id=session.pk, version=41)

    member_client.get("/")
    news = news_after(f"/ws/sessions/{session.pk}/", member_client, lambda: asyncio.run(announce_inside_a_loop()))
    assert news == {"session": session.pk, "version": 41}


def test_a_push_that_cannot_be_sent_never_fails_the_write(session, monkeypatch):
    def broken() -> None:
        raise ConnectionError("the layer's Redis is down")

    monkeypatch.setattr(push, "get_channel_layer", broken)
    advance(session, "session.start")
    session.refresh_from_db()
    assert session.version == 1


def test_a_push_through_redis_that_fails_later_is_logged_and_the_write_stands(session, monkeypatch, caplog):
    class RedisDown:  # a Redis layer, whose sends go out from the process's own loop
        async def group_send(self, group: str, message: dict[str, Any]) -> None:
            raise ConnectionError("the layer's Redis is down")

    monkeypatch.setattr(push, "get_channel_layer", RedisDown)
    advance(session, "session.start")
    session.refresh_from_db()
    assert session.version == 1
    waited = 0.0
    while "push to night" not in caplog.text and waited < 3:
        time.sleep(0.05)
        waited += 0.05
    assert f"push to night {session.night_id} failed" in caplog.text
