"""API token authentication: django-rest-knox's, one query per request instead of two, and
``Authorization: Bearer <key>`` taken as well as ``Token <key>``."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from knox import auth
from knox.signals import token_expired
from rest_framework import exceptions
from rest_framework.authentication import get_authorization_header
from rest_framework.request import Request

from sessions.models import ApiToken

# The schema's scheme is HTTP bearer, which is what client generators send; the prefix this
# API has always documented (and knox's AUTH_HEADER_PREFIX, in the 401's WWW-Authenticate)
# is Token. Both carry the same key, the prefix in any case.
PREFIXES = (b"token", b"bearer")


class TokenAuthentication(auth.TokenAuthentication):
    """knox reads all the account's other tokens on every request to delete the expired ones
    (a second query each time, for phones that poll). Here only the token sent is checked:
    expired, it is refused and deleted when tried, as knox does; the others stay listed as
    expired on the tokens page until revoked or tried."""

    def authenticate(self, request: Request) -> tuple[Any, ApiToken] | None:
        words = get_authorization_header(request).split()
        if not words or words[0].lower() not in PREFIXES:
            return None  # no token, or credentials for another scheme
        # DRF's own messages (translated in its catalogues), as knox says them.
        if len(words) == 1:
            raise exceptions.AuthenticationFailed(_("Invalid token header. No credentials provided."))
        if len(words) > 2:
            raise exceptions.AuthenticationFailed(_("Invalid token header. Token string should not contain spaces."))
        try:
            words[1].decode("ascii")  # knox decodes it as UTF-8, which a stray byte would make a 500
        except UnicodeDecodeError:
            raise exceptions.AuthenticationFailed(_("Invalid token.")) from None
        user, token = self.authenticate_credentials(words[1])
        return user, token

    def _cleanup_token(self, auth_token: ApiToken) -> bool:
        if auth_token.expiry is None or auth_token.expiry >= timezone.now():
            return False
        username = auth_token.user.get_username()
        auth_token.delete()
        token_expired.send(sender=self.__class__, username=username, source="auth_token")
        return True


class TokenScheme(OpenApiAuthenticationExtension):
    """The OpenAPI security scheme of these tokens: HTTP bearer, so that generated clients
    send ``Authorization: Bearer <key>`` (drf-spectacular's knox extension describes an API
    key with the prefix Token, which generators do not add)."""

    target_class = "sessions.api.authentication.TokenAuthentication"
    name = "knoxApiToken"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {
            "type": "http",
            "scheme": "bearer",
            "description": "An API token (made on the API tokens page): `Authorization: Bearer <key>`; "
            "`Authorization: Token <key>` works too.",
        }
