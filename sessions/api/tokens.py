"""API tokens (django-rest-knox): several per account, each named, expiring and revocable.

The key exists in clear only in the answer that creates it: the database keeps its SHA-512
digest (and its first characters, to find the row), so whoever reads the database or the
admin cannot use a token.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from sessions.models import ApiToken

# How long a new token lasts, in days: the choices the token page offers.
LIFETIMES_IN_DAYS = (30, 90, 365)
DEFAULT_LIFETIME_IN_DAYS = 90


class TooManyTokens(Exception):
    """The account already holds ``API_TOKENS_PER_ACCOUNT`` tokens that have not expired."""


def tokens_of(*, user: User) -> QuerySet[ApiToken]:
    """The account's tokens, newest first, expired ones included (until revoked or tried)."""
    return ApiToken.objects.filter(user=user).order_by("-created")


def create_api_token(*, user: User, name: str, days: int = DEFAULT_LIFETIME_IN_DAYS) -> tuple[ApiToken, str]:
    """A new token and its key, which nothing can show again."""
    with transaction.atomic():
        # The account row is the lock: two creations at once cannot both pass the limit.
        User.objects.select_for_update().filter(pk=user.pk).first()
        live = ApiToken.objects.filter(user=user, expiry__gt=timezone.now()).count()
        if live >= settings.API_TOKENS_PER_ACCOUNT:
            raise TooManyTokens
        token: ApiToken
        key: str
        token, key = ApiToken.objects.create(user=user, expiry=timedelta(days=days), name=name.strip())
        return token, key


def revoke_api_token(*, user: User, digest: str) -> bool:
    """Whether the account had that token (requests that send it are refused from now on)."""
    deleted, _by_model = ApiToken.objects.filter(user=user, digest=digest).delete()
    return deleted > 0
