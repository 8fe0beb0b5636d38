"""The clear tokens of DRF's authtoken app become hashed knox tokens (migration 0007)."""

import datetime

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone
from rest_framework.test import APIClient

from sessions import services
from tests.conftest import migrate_to

BEFORE = [("babel", "0006_join_codes_per_night")]
AFTER = [("babel", "0007_api_tokens")]
OLD_KEY = "9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b"  # 40 hex digits, as DRF made them


def drf_token_table(rows):
    """The table rest_framework.authtoken left behind, with its rows."""
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute(
            f"CREATE TABLE {quote('authtoken_token')} ({quote('key')} varchar(40) PRIMARY KEY, "
            f"{quote('created')} timestamp NOT NULL, {quote('user_id')} integer NOT NULL UNIQUE)"
        )
        for key, created, user_id in rows:
            cursor.execute(f"INSERT INTO {quote('authtoken_token')} VALUES (%s, %s, %s)", [key, created, user_id])


def stored_clear_keys():
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT COUNT(*) FROM {connection.ops.quote_name('authtoken_token')}")
        return cursor.fetchone()[0]


@pytest.mark.django_db(transaction=True)
def test_an_existing_clear_token_keeps_working_hashed_named_and_expiring():
    try:
        migrate_to(BEFORE)
        user = User.objects.create_user("milo", password="member-pass-123")
        made = datetime.datetime(2026, 1, 2, 3, 4, 5, tzinfo=datetime.UTC)
        drf_token_table([(OLD_KEY, made, user.pk)])

        apps = migrate_to(AFTER)

        token = apps.get_model("babel", "ApiToken").objects.get()
        assert token.user_id == user.pk
        assert token.name == "API token (from before named tokens)"
        assert token.created == made
        assert token.expiry - timezone.now() == pytest.approx(
            datetime.timedelta(days=90), abs=datetime.timedelta(minutes=1)
        )
        assert OLD_KEY not in (token.digest, token.token_key)
        assert stored_clear_keys() == 0
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
        with connection.cursor() as cursor:
            cursor.execute(f"DROP TABLE IF EXISTS {connection.ops.quote_name('authtoken_token')}")

    group = services.create_group(owner=user, name="Thursday table")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {OLD_KEY}")
    assert client.get(f"/api/v1/groups/{group.pk}/").status_code == 200


@pytest.mark.django_db(transaction=True)
def test_a_database_that_never_had_drf_tokens_migrates_without_them():
    try:
        migrate_to(BEFORE)
        apps = migrate_to(AFTER)
        assert not apps.get_model("babel", "ApiToken").objects.exists()
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
