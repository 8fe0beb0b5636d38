"""Logging in is limited per account and address (django-axes): after LOGIN_FAILURE_LIMIT
failures within the cool-off, the login page says so with a 429, even to the right password,
until LOGIN_COOLOFF_MINUTES have passed. From another address, and the limit of an address
whatever the account: tests/test_login_lockout_per_account_and_address.py."""

import datetime
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from axes.models import AccessAttempt
from django.conf import settings
from django.db import connections
from django.test import AsyncClient

LIMIT = settings.LOGIN_FAILURE_LIMIT


def log_in(client, username, password, **extra):
    return client.post("/login/", {"username": username, "password": password}, **extra)


def fail(client, username, times, **extra):
    for _ in range(times):
        assert log_in(client, username, "wrong-pass-000", **extra).status_code == 200


def test_the_limit_is_ten_failures_and_fifteen_minutes_by_default():
    assert (settings.LOGIN_FAILURE_LIMIT, settings.LOGIN_COOLOFF_MINUTES) == (10, 15)


def test_an_account_is_locked_after_the_limit_even_for_the_right_password(client, owner):
    fail(client, "olga", LIMIT - 1)
    refused = log_in(client, "olga", "wrong-pass-000")
    assert refused.status_code == 429
    page = refused.content.decode()
    assert "Too many failed logins for this account from this address:" in page
    assert "blocked for up to 15 minutes" in page
    assert 'name="username"' in page
    assert 'value="olga"' in page
    right = log_in(client, "olga", "owner-pass-123")
    assert right.status_code == 429
    assert not client.get("/").context["user"].is_authenticated


def test_after_the_cool_off_the_right_password_works_again(client, owner):
    fail(client, "olga", LIMIT - 1)
    assert log_in(client, "olga", "wrong-pass-000").status_code == 429
    cool_off = datetime.timedelta(minutes=settings.LOGIN_COOLOFF_MINUTES)
    almost = (
        AccessAttempt.objects.values_list("attempt_time", flat=True).get() - cool_off + datetime.timedelta(minutes=1)
    )
    AccessAttempt.objects.update(attempt_time=almost)
    assert log_in(client, "olga", "owner-pass-123").status_code == 429
    AccessAttempt.objects.update(attempt_time=almost - datetime.timedelta(minutes=2))
    assert log_in(client, "olga", "owner-pass-123").status_code == 302
    assert client.get("/").context["user"].is_authenticated


def test_tries_while_locked_out_do_not_restart_the_cool_off(client, owner):
    fail(client, "olga", LIMIT - 1)
    assert log_in(client, "olga", "wrong-pass-000").status_code == 429
    locked_at = AccessAttempt.objects.values_list("attempt_time", flat=True).get()
    for _ in range(5):
        assert log_in(client, "olga", "wrong-pass-000").status_code == 429
    assert AccessAttempt.objects.values_list("attempt_time", flat=True).get() == locked_at


def test_a_successful_login_clears_the_accounts_failures(client, owner):
    fail(client, "olga", LIMIT - 1)
    assert log_in(client, "olga", "owner-pass-123").status_code == 302
    client.post("/logout/")
    fail(client, "olga", LIMIT - 1)
    assert log_in(client, "olga", "owner-pass-123").status_code == 302


def test_three_hundred_wrong_passwords_get_ten_tries_then_429s(client, owner):
    codes = [log_in(client, "olga", f"wrong-{n}").status_code for n in range(300)]
    assert codes.count(200) == LIMIT - 1
    assert codes.count(429) == 300 - (LIMIT - 1)
    assert log_in(client, "olga", "owner-pass-123").status_code == 429


@pytest.mark.django_db(transaction=True)
def test_the_lockout_page_is_served_under_asgi_too(owner):
    client = AsyncClient()
    # On an event loop in a thread of its own (the browser tests may leave theirs running in
    # this one), one thread for every request, so they share one database connection.
    with ThreadPoolExecutor(max_workers=1) as thread:

        def post(data: dict[str, str]) -> Any:
            return thread.submit(async_to_sync(client.post), "/login/", data).result()

        for _ in range(LIMIT):
            post({"username": "olga", "password": "wrong-pass-000"})
        refused = post({"username": "olga", "password": "owner-pass-123"})
        thread.submit(connections.close_all).result()
    assert refused.status_code == 429
    assert "Too many failed logins" in refused.content.decode()
