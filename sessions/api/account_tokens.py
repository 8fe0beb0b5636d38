"""The account's API tokens over the API: list, create and revoke them (issue 42, point 6), for
an account that has logged in (a browser's session, or a token it holds), as the tokens page
does. A new token's key is in the answer that creates it and nowhere else, ever
(``sessions.api.tokens``)."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.decorators import api_view
from rest_framework.request import Request
from rest_framework.response import Response

from sessions.api import tokens
from sessions.api.errors import TOO_MANY_TOKENS, refusal
from sessions.api.fields import Text, Whole
from sessions.api.serializers import ErrorsOut
from sessions.models import ApiToken


@extend_schema_field({"type": "integer", "enum": list(tokens.LIFETIMES_IN_DAYS)})
class Lifetime(Whole):
    """Days until a token expires: one of the lifetimes the tokens page offers."""

    def to_internal_value(self, data: object) -> int:
        days = super().to_internal_value(data)
        if days not in tokens.LIFETIMES_IN_DAYS:
            raise serializers.ValidationError(
                _("Choose %(lifetimes)s days.") % {"lifetimes": ", ".join(map(str, tokens.LIFETIMES_IN_DAYS))},
                code="invalid_choice",
            )
        return days


class TokenIn(serializers.Serializer):
    name = Text(max_length=60, help_text="What the token is for, e.g. the script or the computer that uses it.")
    days = Lifetime(default=tokens.DEFAULT_LIFETIME_IN_DAYS, help_text="Days until it expires.")


class TokenOut(serializers.Serializer):
    id = serializers.CharField(source="digest", help_text="The token's id: revoke it by this.")
    name = serializers.CharField()
    created = serializers.DateTimeField()
    expiry = serializers.DateTimeField()
    expired = serializers.SerializerMethodField()

    def get_expired(self, token: ApiToken) -> bool:
        return token.expiry is not None and token.expiry <= timezone.now()


class NewTokenOut(TokenOut):
    key = serializers.CharField(help_text="The key, in this answer only: send it as 'Authorization: Bearer <key>'.")


@extend_schema(
    operation_id="tokens_list",
    summary="The account's API tokens (never their keys)",
    responses={200: TokenOut(many=True)},
    tags=["tokens"],
    methods=["GET"],
)
@extend_schema(
    operation_id="tokens_create",
    summary="A new API token for the account: its key is in this answer only",
    request=TokenIn,
    responses={201: NewTokenOut, 409: OpenApiResponse(ErrorsOut, description="The account holds too many tokens.")},
    tags=["tokens"],
    methods=["POST"],
)
@api_view(["GET", "POST"])
def account_tokens(request: Request) -> Response:
    user = request.user
    assert isinstance(user, User)  # IsAuthenticated
    if request.method == "GET":
        return Response(TokenOut(tokens.tokens_of(user=user), many=True).data)
    asked = TokenIn(data=request.data)
    asked.is_valid(raise_exception=True)
    try:
        token, key = tokens.create_api_token(user=user, **asked.validated_data)
    except tokens.TooManyTokens:
        message = _("You have too many tokens: revoke one you no longer use first.")
        return refusal("non_field_errors", message, code=TOO_MANY_TOKENS, status_code=status.HTTP_409_CONFLICT)
    return Response({**TokenOut(token).data, "key": key}, status=status.HTTP_201_CREATED)


@extend_schema(
    operation_id="tokens_destroy",
    summary="Revoke one of the account's API tokens: requests that send it are refused from now on",
    responses={204: None},
    tags=["tokens"],
)
@api_view(["DELETE"])
def account_token(request: Request, token_id: str) -> Response:
    user = request.user
    assert isinstance(user, User)  # IsAuthenticated
    if not tokens.revoke_api_token(user=user, digest=token_id):
        raise Http404
    return Response(status=status.HTTP_204_NO_CONTENT)
