"""API token authentication: django-rest-knox's, one query per request instead of two."""

from __future__ import annotations

from django.utils import timezone
from drf_spectacular.contrib.knox_auth_token import KnoxTokenScheme
from knox import auth
from knox.signals import token_expired

from sessions.models import ApiToken


class TokenAuthentication(auth.TokenAuthentication):
    """knox reads all the account's other tokens on every request to delete the expired ones
    (a second query each time, for phones that poll). Here only the token sent is checked:
    expired, it is refused and deleted when tried, as knox does; the others stay listed as
    expired on the tokens page until revoked or tried."""

    def _cleanup_token(self, auth_token: ApiToken) -> bool:
        if auth_token.expiry is None or auth_token.expiry >= timezone.now():
            return False
        username = auth_token.user.get_username()
        auth_token.delete()
        token_expired.send(sender=self.__class__, username=username, source="auth_token")
        return True


class TokenScheme(KnoxTokenScheme):
    """The OpenAPI security scheme of knox's tokens, for this subclass (drf-spectacular's
    extension matches knox's own class only)."""

    target_class = "sessions.api.authentication.TokenAuthentication"
