"""Nobody can lock an account's owner out (issue 42): wrong passwords lock that account from the
address they came from only (django-axes, per account and address), and one address is refused
for every account only past a higher limit of its own, high enough for a venue's shared Wi-Fi.
Guessing stays slow: LOGIN_FAILURE_LIMIT passwords an account an address, and
LOGIN_FAILURES_PER_ADDRESS an address whatever the accounts, per LOGIN_COOLOFF_MINUTES.

Most tests lower the limits (``limits``: 3 an account an address, 12 an address) to stay fast;
the defaults are checked on their own, and where a venue needs them."""

import time
from concurrent.futures import ThreadPoolExecutor
from unittest import mock

import pytest
from django.conf import settings as django_settings
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import User
from django.core.cache import cache
from django.core.cache.backends import locmem
from django.test import Client, RequestFactory

from sessions.views import accounts
from tests.test_cache_down import cache_down  # noqa: F401 (a fixture)

PER_ACCOUNT = 3
PER_ADDRESS = 12
ATTACKER = "198.51.100.7"
HOME = "203.0.113.20"
ACCOUNT_LOCKED = "Too many failed logins for this account from this address"
ADDRESS_LOCKED = "Too many failed logins from this address, whatever the account"


@pytest.fixture
def limits(settings):
    settings.LOGIN_FAILURE_LIMIT = settings.AXES_FAILURE_LIMIT = PER_ACCOUNT
    settings.LOGIN_FAILURES_PER_ADDRESS = PER_ADDRESS
    return settings


@pytest.fixture
def checked():
    """How many passwords were checked: the tries that reached Django's ModelBackend."""
    with mock.patch.object(ModelBackend, "authenticate", autospec=True, side_effect=ModelBackend.authenticate) as spy:
        yield lambda: spy.call_count


def log_in(username, password, address, **extra):
    return Client(REMOTE_ADDR=address).post("/login/", {"username": username, "password": password}, **extra)


def test_the_defaults_are_ten_an_account_an_address_and_a_hundred_an_address_for_fifteen_minutes():
    limits = (django_settings.LOGIN_FAILURE_LIMIT, django_settings.LOGIN_FAILURES_PER_ADDRESS)
    assert (*limits, django_settings.LOGIN_COOLOFF_MINUTES) == (10, 100, 15)
    assert django_settings.AXES_FAILURE_LIMIT == django_settings.LOGIN_FAILURE_LIMIT
    assert django_settings.AXES_LOCKOUT_PARAMETERS == [["username", "ip_address"]]


def test_wrong_passwords_lock_the_account_from_their_address_and_its_owner_logs_in_from_another(owner, limits, checked):
    for n in range(PER_ACCOUNT + 10):
        log_in("olga", f"wrong-{n}", ATTACKER)
    assert checked() == PER_ACCOUNT
    refused = log_in("olga", "owner-pass-123", ATTACKER)
    assert refused.status_code == 429
    assert ACCOUNT_LOCKED in refused.content.decode()
    assert "blocked for up to 15 minutes" in refused.content.decode()
    assert log_in("olga", "owner-pass-123", HOME).status_code == 302


def test_wrong_passwords_from_many_addresses_never_lock_the_owner_out(owner, limits, checked):
    addresses = [f"198.51.100.{n}" for n in range(1, 11)]
    for address in addresses:
        for n in range(PER_ACCOUNT + 2):
            log_in("olga", f"wrong-{n}", address)
    # Each address had its passwords checked up to the limit, no more.
    assert checked() == len(addresses) * PER_ACCOUNT
    assert log_in("olga", "owner-pass-123", addresses[0]).status_code == 429
    assert log_in("olga", "owner-pass-123", HOME).status_code == 302


def test_one_address_trying_every_account_is_refused_past_its_own_limit(owner, limits, checked):
    for n in range(PER_ADDRESS + 5):
        log_in(f"guess{n}", "wrong-pass-000", ATTACKER)
    assert checked() == PER_ADDRESS
    refused = log_in("olga", "owner-pass-123", ATTACKER)  # an account nobody failed on
    assert refused.status_code == 429
    assert ADDRESS_LOCKED in refused.content.decode()
    assert "blocked for up to 15 minutes" in refused.content.decode()
    assert log_in("olga", "owner-pass-123", HOME).status_code == 302


def test_one_address_gets_the_account_limit_on_each_account_until_its_own_limit(db, limits, checked):
    per_account = []
    for account in range(6):
        before = checked()
        for n in range(PER_ACCOUNT + 2):
            log_in(f"player{account}", f"guess-{n}", ATTACKER)
        per_account.append(checked() - before)
    assert per_account == [PER_ACCOUNT] * 4 + [0, 0]  # 4 accounts x 3 = the address's 12


def test_a_venues_shared_address_logs_thirty_people_in_through_two_typos_each(db):
    venue = "192.0.2.1"
    for n in range(30):
        User.objects.create_user(f"player{n}", password=f"right-pass-{n}")
    for n in range(30):
        assert log_in(f"player{n}", "typo-1", venue).status_code == 200
        assert log_in(f"player{n}", "typo-2", venue).status_code == 200
        assert log_in(f"player{n}", f"right-pass-{n}", venue).status_code == 302
    # 60 failures of the 100 the address may have; one of them mistyping ten times locks only
    # their own account, from there.
    for n in range(django_settings.LOGIN_FAILURE_LIMIT):
        log_in("player0", f"typo-{n}", venue)
    assert log_in("player0", "right-pass-0", venue).status_code == 429
    assert log_in("player1", "right-pass-1", venue).status_code == 302


def test_right_passwords_do_not_count_towards_the_address_limit(owner, limits):
    for _n in range(PER_ADDRESS + 3):
        assert log_in("olga", "owner-pass-123", ATTACKER).status_code == 302
    assert cache.get(accounts._address_key(RequestFactory().get("/", REMOTE_ADDR=ATTACKER))) == 0


def test_an_attackers_own_logins_do_not_reset_the_addresss_count(owner, member, limits):
    for n in range(PER_ADDRESS - 1):
        log_in(f"guess{n}", "wrong-pass-000", ATTACKER)
    assert log_in("milo", "member-pass-123", ATTACKER).status_code == 302  # the attacker's own account
    assert log_in("guess-last", "wrong-pass-000", ATTACKER).status_code == 200  # the 12th failure
    assert log_in("olga", "owner-pass-123", ATTACKER).status_code == 429


def test_the_address_limit_lasts_fifteen_minutes_from_the_addresss_first_failure(owner, limits, monkeypatch):
    # A local memory cache, whose clock the test moves (Redis, in the integration run, keeps its own).
    local = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "address-limit-clock"}
    limits.CACHES = {**limits.CACHES, "default": local}
    for n in range(PER_ADDRESS):
        log_in(f"guess{n}", "wrong-pass-000", ATTACKER)
    assert log_in("olga", "owner-pass-123", ATTACKER).status_code == 429
    now = time.time()
    # The local memory cache of the tests reads the clock through the time module.
    monkeypatch.setattr(locmem.time, "time", lambda: now + 14 * 60)
    assert log_in("olga", "owner-pass-123", ATTACKER).status_code == 429
    monkeypatch.setattr(locmem.time, "time", lambda: now + 15 * 60 + 1)
    assert log_in("olga", "owner-pass-123", ATTACKER).status_code == 302


def test_the_admin_login_counts_for_the_address_too(owner, limits):
    admin = Client(REMOTE_ADDR=ATTACKER)
    for n in range(PER_ADDRESS):
        admin.post("/admin/login/", {"username": f"guess{n}", "password": "wrong-pass-000"})
    assert log_in("olga", "owner-pass-123", ATTACKER).status_code == 429


def test_concurrent_tries_cannot_pass_the_address_limit():
    with ThreadPoolExecutor(max_workers=16) as pool:
        allowed = list(pool.map(lambda _n: accounts._reserve("login-failures:test", 3), range(64)))
    assert allowed.count(True) == 3


def test_behind_a_proxy_the_limits_count_the_address_the_proxy_saw(owner, limits, checked):
    limits.PROXY_COUNT = 1

    def through_the_proxy(password, forwarded):
        client = Client(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=forwarded)
        return client.post("/login/", {"username": "olga", "password": password})

    # Whatever the attacker writes into X-Forwarded-For stays left of what the proxy appends.
    for n in range(PER_ACCOUNT + 3):
        through_the_proxy(f"wrong-{n}", f"10.0.0.{n}, {ATTACKER}")
    assert checked() == PER_ACCOUNT
    assert through_the_proxy("owner-pass-123", f"10.0.0.99, {ATTACKER}").status_code == 429
    assert through_the_proxy("owner-pass-123", HOME).status_code == 302


def test_a_cache_that_does_not_answer_refuses_logins_with_a_503_that_says_why(owner, cache_down):  # noqa: F811
    cache_down()
    refused = log_in("olga", "owner-pass-123", HOME)
    assert refused.status_code == 503
    assert refused["Retry-After"] == "30"
    assert "cannot check the limit on failed logins" in refused.content.decode()
    assert 'value="olga"' in refused.content.decode()


@pytest.mark.parametrize(
    ("language", "account", "address"),
    [
        ("it", "per questo account da questo indirizzo", "da questo indirizzo, qualunque sia"),
        ("fr", "pour ce compte depuis cette adresse", "depuis cette adresse, quel que soit"),
        ("de", "für dieses Konto von dieser Adresse", "von dieser Adresse, gleich bei welchem"),
    ],
)
def test_the_refusals_speak_the_visitors_language(owner, limits, language, account, address):
    for n in range(PER_ACCOUNT):
        log_in("olga", f"wrong-{n}", ATTACKER)
    refused = log_in("olga", "x", ATTACKER, HTTP_ACCEPT_LANGUAGE=language)
    assert refused.status_code == 429
    assert account in refused.content.decode()
    for n in range(PER_ADDRESS):
        log_in(f"guess{n}", "wrong-pass-000", ATTACKER)
    refused = log_in("milo", "x", ATTACKER, HTTP_ACCEPT_LANGUAGE=language)
    assert address in refused.content.decode()
