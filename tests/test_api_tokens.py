"""The account's API tokens over the API (issue 42, point 6): a logged-in browser, or a client
holding a token, lists, creates and revokes the account's tokens; a new key is in the answer
that creates it and nowhere else. Before, a client had to scrape the key from the tokens page."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from sessions.api.tokens import create_api_token

URL = "/api/v1/tokens/"


def logged_in_browser(user) -> Client:
    """A browser that logged in on the site, as a script would with the login form: its session
    and its CSRF token (DRF checks it on a session's writes)."""
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(user)
    browser.get("/account/token/")  # any page gives the CSRF cookie
    return browser


def csrf(browser: Client) -> dict[str, str]:
    return {"HTTP_X_CSRFTOKEN": browser.cookies["csrftoken"].value}


def test_a_logged_in_browser_gets_a_key_that_then_works_as_bearer(member, group):
    browser = logged_in_browser(member)
    created = browser.post(URL, {"name": "my script", "days": 30}, content_type="application/json", **csrf(browser))
    assert created.status_code == 201
    body = created.json()
    assert (body["name"], body["expired"]) == ("my script", False)
    assert body["expiry"] > body["created"]
    assert len(body["key"]) >= 32
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {body['key']}")
    assert [row["id"] for row in client.get("/api/v1/groups/").json()["results"]] == [group.pk]


def test_the_list_names_each_token_and_never_shows_a_key(member):
    _token, key = create_api_token(user=member, name="phone")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    create_api_token(user=member, name="laptop")
    listed = client.get(URL)
    assert listed.status_code == 200
    assert [row["name"] for row in listed.json()] == ["laptop", "phone"]
    assert key not in listed.content.decode()
    assert all("key" not in row for row in listed.json())


def test_a_revoked_token_is_refused_from_then_on(member):
    token, key = create_api_token(user=member, name="phone")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    assert client.delete(f"{URL}{token.digest}/").status_code == 204
    assert client.get(URL).status_code == 401


def test_nobody_revokes_or_sees_another_accounts_token(member, outsider):
    token, _key = create_api_token(user=member, name="phone")
    _theirs, their_key = create_api_token(user=outsider, name="theirs")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {their_key}")
    assert client.delete(f"{URL}{token.digest}/").status_code == 404
    assert [row["name"] for row in client.get(URL).json()] == ["theirs"]
    assert APIClient().get(URL).status_code == 401  # and no account: no tokens


def test_a_session_write_without_its_csrf_token_is_refused(member):
    browser = logged_in_browser(member)
    assert browser.post(URL, {"name": "x"}, content_type="application/json").status_code == 403


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "name"),
        ({"name": ""}, "name"),
        ({"name": 7}, "name"),
        ({"name": "x", "days": 7}, "days"),
        ({"name": "x", "days": "30"}, "days"),
    ],
)
def test_a_bad_request_names_its_field(member, body, field):
    _token, key = create_api_token(user=member, name="phone")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    refused = client.post(URL, body, format="json")
    assert refused.status_code == 400
    assert [error["field"] for error in refused.json()["errors"]] == [field]


def test_an_account_holding_too_many_tokens_is_told_to_revoke_one(member, settings):
    settings.API_TOKENS_PER_ACCOUNT = 2
    _token, key = create_api_token(user=member, name="phone")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    assert client.post(URL, {"name": "second"}, format="json").status_code == 201
    refused = client.post(URL, {"name": "third"}, format="json")
    assert refused.status_code == 409
    assert refused.json()["errors"][0]["code"] == "too_many_tokens"
