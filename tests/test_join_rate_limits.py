"""Guessing join codes stays infeasible, and one guest's typos never lock the table out."""

from concurrent.futures import ThreadPoolExecutor
from unittest import mock

import pytest
from django.core.cache import cache
from django.test import Client, RequestFactory

from sessions import selectors, services
from sessions.http import client_address
from sessions.views import join

WRONG = ["AAAAAAAA", "BBBBBBBB", "CCCCCCCC", "DDDDDDDD", "EEEEEEEE", "FFFFFFFF"]


@pytest.fixture
def limits(settings):
    settings.JOIN_ATTEMPTS_PER_DEVICE = 3
    settings.JOIN_ATTEMPTS_PER_ADDRESS = 5
    return settings


def test_one_guests_typos_do_not_lock_out_the_other_phones_at_the_table(session, limits):
    good = services.create_join_code(session=session).code
    clumsy = Client()
    for guess in WRONG[:3]:
        assert clumsy.get(f"/j/{guess}/").status_code == 404
    blocked = clumsy.get(f"/j/{good}/")
    assert blocked.status_code == 429
    assert "Too many wrong codes" in blocked.content.decode()
    assert Client().get(f"/j/{good}/").status_code == 200  # same address, another phone


def test_it_never_locks_out_a_phone_that_already_joined(session, limits):
    good = services.create_join_code(session=session).code
    joined = Client()
    assert joined.get(f"/j/{good}/").status_code == 200
    for guess in WRONG[:5]:  # the table's address reaches its ceiling
        Client().get(f"/j/{guess}/")
    for url in ["", "live/"]:
        assert joined.get(f"/j/{good}/{url}").status_code == 200
    assert Client().get(f"/j/{good}/").status_code == 429  # a new phone must wait


def test_phones_polling_a_replaced_code_count_no_failures(member_client, session, limits):
    old = services.create_join_code(session=session).code
    phones = [Client() for _ in range(3)]
    for phone in phones:
        phone.get(f"/j/{old}/")
    member_client.post(f"/s/{session.pk}/code/")
    for _second in range(10):
        for phone in phones:
            assert phone.get(f"/j/{old}/live/").status_code == 410
    assert cache.get(join._attempts_key(RequestFactory().get("/")), 0) == 0
    new = selectors.current_join_code(session)
    assert Client().get(f"/j/{new.code}/").status_code == 200


def test_a_blocked_device_cannot_guess_on_any_route(session, limits):
    services.create_join_code(session=session)
    guesser = Client()
    for guess in WRONG[:3]:
        guesser.get(f"/j/{guess}/live/")
    with mock.patch.object(selectors, "join_code_named", wraps=selectors.join_code_named) as lookup:
        for method, url in [
            ("get", ""),
            ("get", "live/"),
            ("post", "seat/"),
            ("post", "act/"),
            ("post", "preview/"),
            ("post", "hints/"),
        ]:
            assert getattr(guesser, method)(f"/j/{WRONG[4]}/{url}").status_code == 429, url
        assert lookup.call_count == 0  # refused before the code is looked up


def test_cookieless_guessers_hit_the_ceiling_of_their_address(session, limits):
    good = services.create_join_code(session=session).code
    for guess in WRONG[:5]:
        assert Client().get(f"/j/{guess}/").status_code == 404  # a new device each time
    assert Client().get(f"/j/{WRONG[5]}/").status_code == 429
    assert Client(REMOTE_ADDR="10.0.0.9").get(f"/j/{good}/").status_code == 200


def test_concurrent_wrong_codes_cannot_exceed_the_limit(settings):
    settings.JOIN_ATTEMPT_WINDOW_SECONDS = 600
    with ThreadPoolExecutor(max_workers=16) as pool:
        allowed = list(pool.map(lambda _n: join._reserve("join-failures:test", 3), range(64)))
    assert allowed.count(True) == 3


def test_a_right_code_gives_its_reserved_attempt_back(session, limits):
    good = services.create_join_code(session=session).code
    for _n in range(6):
        assert Client().get(f"/j/{good}/").status_code == 200
    assert cache.get(join._attempts_key(RequestFactory().get("/")), 0) == 0


def test_the_client_address_comes_from_the_trusted_proxies(settings):
    request = RequestFactory().get("/", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="6.6.6.6, 1.2.3.4, 10.0.0.2")
    settings.PROXY_COUNT = 0
    assert client_address(request) == "10.0.0.1"
    settings.PROXY_COUNT = 1
    assert client_address(request) == "10.0.0.2"
    settings.PROXY_COUNT = 2
    assert client_address(request) == "1.2.3.4"  # the client cannot choose it by writing the header
    settings.PROXY_COUNT = 9
    assert client_address(request) == "6.6.6.6"


def test_behind_a_proxy_each_visitor_is_counted_apart(session, limits):
    limits.PROXY_COUNT = 1
    good = services.create_join_code(session=session).code
    for guess in WRONG[:5]:
        Client(REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="1.1.1.1").get(f"/j/{guess}/")
    assert Client(REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="2.2.2.2").get(f"/j/{good}/").status_code == 200
