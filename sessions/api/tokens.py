"""API tokens: one per account (DRF's ``Token``), created, replaced and revoked by its owner."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from rest_framework.authtoken.models import Token


def token_of(*, user: User) -> Token | None:
    return Token.objects.filter(user=user).first()


def create_api_token(*, user: User) -> Token:
    """A new token for the account; any previous one stops working at once."""
    with transaction.atomic():
        Token.objects.filter(user=user).delete()
        return Token.objects.create(user=user)


def revoke_api_token(*, user: User) -> bool:
    """Whether there was a token to revoke."""
    deleted, _by_model = Token.objects.filter(user=user).delete()
    return deleted > 0
