"""Per-user API tokens (django-rest-knox): several per account, each named, expiring and
revocable on the account page; the key is shown once and the database keeps only a digest."""

import datetime
import re

import pytest
from django.contrib.admin.sites import site
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from sessions.api import tokens
from sessions.api.calculators import CalculatorThrottle
from sessions.models import ApiToken

KEY = re.compile(r'id="api-key"[^>]*value="([0-9a-f]{64})"')


def key_on(page):
    found = KEY.search(page.content.decode())
    return found.group(1) if found else None


def create(client, name="Laptop script", days=90):
    return client.post("/account/token/", {"name": name, "days": days})


def api_with(key):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def every_stored_value():
    """Every column of every row of the token table, as text."""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT * FROM {ApiToken._meta.db_table}")
        return [str(value) for row in cursor.fetchall() for value in row]


def test_the_token_page_needs_an_account(db, client):
    response = client.get("/account/token/")
    assert response.status_code == 302
    assert response["Location"].startswith("/login/")
    assert create(client).status_code == 302
    assert not ApiToken.objects.exists()


def test_creating_a_token_shows_its_key_once_and_never_again(member_client, member, group):
    assert key_on(member_client.get("/account/token/")) is None
    created = create(member_client)
    assert created.status_code == 200
    key = key_on(created)
    assert key is not None
    assert "no-store" in created["Cache-Control"]
    later = member_client.get("/account/token/")
    assert key_on(later) is None
    assert key not in later.content.decode()
    assert "Laptop script" in later.content.decode()
    assert api_with(key).get(f"/api/v1/groups/{group.pk}/").status_code == 200


def test_the_database_holds_no_usable_key(member_client, member, group):
    key = key_on(create(member_client))
    stored = every_stored_value()
    assert not any(key in value for value in stored)
    token = ApiToken.objects.get(user=member)
    # What is stored, sent as a key, is refused: the digest, and the key's first characters.
    for stored_value in (token.digest, token.token_key):
        assert api_with(stored_value).get(f"/api/v1/groups/{group.pk}/").status_code == 401
    assert api_with(key).get(f"/api/v1/groups/{group.pk}/").status_code == 200


def test_the_admin_lists_tokens_by_name_without_their_key(db, member, group):
    staff = Client()
    staff.force_login(User.objects.create_superuser("root", password="root-pass-123"))
    _token, key = tokens.create_api_token(user=member, name="Phone app")
    token = ApiToken.objects.get()
    page = staff.get("/admin/babel/apitoken/").content.decode()
    assert "Phone app" in page
    assert key not in page
    assert token.token_key not in page
    assert staff.get("/admin/babel/apitoken/add/").status_code == 403
    assert site.is_registered(ApiToken)


def test_an_expired_token_is_refused(member_client, member, group):
    key = key_on(create(member_client, days=30))
    ApiToken.objects.filter(user=member).update(expiry=timezone.now() - datetime.timedelta(seconds=1))
    assert api_with(key).get(f"/api/v1/groups/{group.pk}/").status_code == 401


def test_a_token_lasts_the_days_chosen(member_client, member):
    create(member_client, name="A year", days=365)
    token = ApiToken.objects.get(user=member)
    assert token.expiry - token.created == pytest.approx(
        datetime.timedelta(days=365), abs=datetime.timedelta(seconds=5)
    )


def test_an_account_holds_several_named_tokens_each_working(member_client, member, group):
    first = key_on(create(member_client, name="Laptop script"))
    second = key_on(create(member_client, name="Phone app"))
    assert first != second
    assert sorted(ApiToken.objects.filter(user=member).values_list("name", flat=True)) == ["Laptop script", "Phone app"]
    page = member_client.get("/account/token/").content.decode()
    assert "Laptop script" in page
    assert "Phone app" in page
    for key in (first, second):
        assert api_with(key).get(f"/api/v1/groups/{group.pk}/").status_code == 200


def test_each_token_is_revoked_alone(member_client, member, group):
    first = key_on(create(member_client, name="Laptop script"))
    second = key_on(create(member_client, name="Phone app"))
    laptop = ApiToken.objects.get(user=member, name="Laptop script")
    response = member_client.post("/account/token/revoke/", {"token": laptop.digest}, follow=True)
    assert response.status_code == 200
    assert "The token is revoked" in response.content.decode()
    assert list(ApiToken.objects.filter(user=member).values_list("name", flat=True)) == ["Phone app"]
    assert api_with(first).get(f"/api/v1/groups/{group.pk}/").status_code == 401
    assert api_with(second).get(f"/api/v1/groups/{group.pk}/").status_code == 200


def test_nobody_revokes_another_accounts_token(member_client, outsider_client, member):
    create(member_client)
    token = ApiToken.objects.get(user=member)
    assert outsider_client.post("/account/token/revoke/", {"token": token.digest}).status_code == 404
    assert ApiToken.objects.filter(user=member).exists()


def test_revoking_an_unknown_token_is_a_404(member_client):
    assert member_client.post("/account/token/revoke/").status_code == 404
    assert member_client.post("/account/token/revoke/", {"token": "nope"}).status_code == 404


def test_revoking_is_post_only(member_client, member):
    create(member_client)
    assert member_client.get("/account/token/revoke/").status_code == 405
    assert ApiToken.objects.filter(user=member).exists()


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"name": "", "days": 90}, "name"),
        ({"name": "x" * 61, "days": 90}, "name"),
        ({"name": "Script", "days": 7}, "days"),
        ({"name": "Script", "days": "forever"}, "days"),
        ({"name": "Script"}, "days"),
    ],
)
def test_a_bad_token_form_is_a_400_naming_the_field(member_client, member, data, field):
    response = member_client.post("/account/token/", data)
    assert response.status_code == 400
    assert response.context["form"].errors[field]
    assert key_on(response) is None
    assert not ApiToken.objects.exists()


def test_an_account_holds_at_most_the_configured_number_of_live_tokens(member_client, member, settings):
    settings.API_TOKENS_PER_ACCOUNT = 2
    create(member_client, name="one")
    create(member_client, name="two")
    refused = create(member_client, name="three")
    assert refused.status_code == 400
    assert "too many tokens" in refused.content.decode()
    assert key_on(refused) is None
    assert ApiToken.objects.filter(user=member).count() == 2


@pytest.mark.parametrize("path", ["/account/token/", "/account/token/revoke/"])
def test_the_token_forms_need_the_csrf_token(member, path):
    _token, _key = tokens.create_api_token(user=member, name="Script")
    client = Client(enforce_csrf_checks=True)
    client.force_login(member)
    token = ApiToken.objects.get()
    assert client.post(path, {"name": "Other", "days": 90, "token": token.digest}).status_code == 403
    assert list(ApiToken.objects.values_list("digest", flat=True)) == [token.digest]


def test_a_token_reaches_only_its_owners_groups(outsider_client, outsider, group):
    key = key_on(create(outsider_client))
    assert api_with(key).get(f"/api/v1/groups/{group.pk}/").status_code == 404
    assert api_with(key).get("/api/v1/groups/").json()["count"] == 0


def test_an_owners_and_a_members_token_reach_the_group(owner, member, group):
    for user in (owner, member):
        _token, key = tokens.create_api_token(user=user, name="Script")
        assert api_with(key).get(f"/api/v1/groups/{group.pk}/").status_code == 200


def test_a_made_up_key_is_refused(db, group):
    assert api_with("0" * 64).get(f"/api/v1/groups/{group.pk}/").status_code == 401
    assert api_with("not-hex!").get(f"/api/v1/groups/{group.pk}/").status_code == 401


def test_the_header_links_to_the_token_page(member_client):
    assert 'href="/account/token/"' in member_client.get("/").content.decode()


def test_a_token_lifts_the_calculators_anonymous_throttle_and_a_bad_one_is_a_401(member, monkeypatch):
    monkeypatch.setattr(CalculatorThrottle, "THROTTLE_RATES", {"calculator": "1/minute"})
    wonder = "/api/v1/calculators/tower-of-babel/wonder"
    body = {"parts": {"a": 1}, "row": 1}
    _token, key = tokens.create_api_token(user=member, name="Script")
    statuses = [api_with(key).post(wonder, body, format="json").status_code for _ in range(3)]
    assert statuses == [200, 200, 200]
    assert api_with("0" * 64).post(wonder, body, format="json").status_code == 401
