"""A shared device (issue 42): every login empties the device's copies of the pages the account
before it kept (Clear-Site-Data, as logging out does), since that account's session may have
ended without "Log out". What it says in Chromium: tests/browser/test_a_shared_device.py."""

from django.contrib.auth.models import User
from django.test import Client

EMPTIED = '"cache", "storage"'


def test_logging_in_empties_the_devices_copies(owner):
    answer = Client().post("/login/", {"username": "olga", "password": "owner-pass-123"})
    assert answer.status_code == 302
    assert answer["Clear-Site-Data"] == EMPTIED


def test_logging_in_again_over_an_expired_session_empties_them_too(owner, member):
    device = Client()
    device.post("/login/", {"username": "olga", "password": "owner-pass-123"})
    device.cookies.clear()  # her session ends without "Log out"
    answer = device.post("/login/", {"username": "milo", "password": "member-pass-123"})
    assert answer["Clear-Site-Data"] == EMPTIED


def test_signing_up_empties_them(db):
    answer = Client().post(
        "/signup/", {"username": "newcomer", "password1": "a-long-pass-4821", "password2": "a-long-pass-4821"}
    )
    assert answer.status_code == 302
    assert User.objects.filter(username="newcomer").exists()
    assert answer["Clear-Site-Data"] == EMPTIED


def test_the_admins_login_empties_them(owner):
    owner.is_staff = True
    owner.save()
    answer = Client().post("/admin/login/", {"username": "olga", "password": "owner-pass-123", "next": "/admin/"})
    assert answer.status_code == 302
    assert answer["Clear-Site-Data"] == EMPTIED


def test_nothing_else_empties_them(owner_client, owner):
    assert not owner_client.get("/").has_header("Clear-Site-Data")
    assert not owner_client.get("/login/").has_header("Clear-Site-Data")
    refused = Client().post("/login/", {"username": "olga", "password": "wrong-pass-000"})
    assert refused.status_code == 200
    assert not refused.has_header("Clear-Site-Data")
