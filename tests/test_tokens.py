"""Per-user API tokens: created, replaced and revoked on the account page, shown once."""

import re

import pytest
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient


def key_on(page):
    found = re.search(r'id="api-key"[^>]*value="([0-9a-f]{40})"', page.content.decode())
    return found.group(1) if found else None


def api_with(key):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def test_the_token_page_needs_an_account(db, client):
    response = client.get("/account/token/")
    assert response.status_code == 302
    assert response["Location"].startswith("/login/")
    assert client.post("/account/token/").status_code == 302
    assert not Token.objects.exists()


def test_creating_a_token_shows_its_key_once(member_client, member, group):
    assert key_on(member_client.get("/account/token/")) is None
    created = member_client.post("/account/token/")
    key = key_on(created)
    assert key == Token.objects.get(user=member).key
    assert "no-store" in created["Cache-Control"]
    later = member_client.get("/account/token/")
    assert key_on(later) is None
    assert key not in later.content.decode()
    assert api_with(key).get(f"/api/v1/groups/{group.pk}/").status_code == 200


def test_a_new_token_replaces_the_old_one(member_client, member, group):
    first = key_on(member_client.post("/account/token/"))
    second = key_on(member_client.post("/account/token/"))
    assert first != second
    assert Token.objects.filter(user=member).count() == 1
    assert api_with(first).get(f"/api/v1/groups/{group.pk}/").status_code == 401
    assert api_with(second).get(f"/api/v1/groups/{group.pk}/").status_code == 200


def test_a_revoked_token_is_refused(member_client, member, group):
    key = key_on(member_client.post("/account/token/"))
    response = member_client.post("/account/token/revoke/", follow=True)
    assert response.status_code == 200
    assert not Token.objects.filter(user=member).exists()
    assert "You have no API token." in response.content.decode()
    assert api_with(key).get(f"/api/v1/groups/{group.pk}/").status_code == 401


def test_revoking_without_a_token_is_harmless(member_client):
    assert member_client.post("/account/token/revoke/").status_code == 302


def test_revoking_is_post_only(member_client, member):
    Token.objects.create(user=member)
    assert member_client.get("/account/token/revoke/").status_code == 405
    assert Token.objects.filter(user=member).exists()


@pytest.mark.parametrize("path", ["/account/token/", "/account/token/revoke/"])
def test_the_token_forms_need_the_csrf_token(member, path):
    Token.objects.create(user=member)
    before = Token.objects.get(user=member).key
    client = Client(enforce_csrf_checks=True)
    client.force_login(member)
    assert client.post(path).status_code == 403
    assert Token.objects.get(user=member).key == before


def test_a_token_reaches_only_its_owners_groups(outsider_client, outsider, group):
    key = key_on(outsider_client.post("/account/token/"))
    assert api_with(key).get(f"/api/v1/groups/{group.pk}/").status_code == 404
    assert api_with(key).get("/api/v1/groups/").json()["count"] == 0


def test_the_header_links_to_the_token_page(member_client):
    assert 'href="/account/token/"' in member_client.get("/").content.decode()
