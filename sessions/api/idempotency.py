"""The API's ``Idempotency-Key``: a retry gets the first answer, another request with the same
key is refused (issue 42, D).

A key stands for one request: its method, its path and what its body asks (the validated
body, without the key). A repeat of that request answers what the first one did, with the
header ``Idempotent-Replayed: true``; the same key with anything else is a 422 naming the key,
since answering the first object would drop the new request without a word. The writes keep
the request's fingerprint beside the first answer (``WriteReceipt.result["request"]``); an
event is compared with the event the key recorded. A receipt from before fingerprints (none
kept) is taken as the same request, as before.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Model
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import status
from rest_framework.exceptions import APIException
from rest_framework.request import Request

from sessions import services
from sessions.api.errors import IDEMPOTENCY_KEY_REUSED
from sessions.api.serializers import ErrorsOut

HEADER = "Idempotency-Key"
BODY_FIELD = "idempotency_key"
REPLAYED = "Idempotent-Replayed"

PARAMETER = OpenApiParameter(
    HEADER,
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=False,
    description="Send the same key again with the same request (a retry) to get the first answer instead of "
    "a second object; the same key with another request is a 422. Up to 64 characters count.",
)
REPLAYED_HEADER = OpenApiParameter(
    REPLAYED,
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    response=[200, 201],  # the answers a replay repeats
    enum=["true"],
    description="Sent as `true` when this is the first answer again, for a repeated Idempotency-Key.",
)
KEY_REUSED = {
    422: OpenApiResponse(
        response=ErrorsOut,
        description="The Idempotency-Key was sent before with another request (code `idempotency_key_reused`).",
    )
}


class KeyReused(APIException):
    """422: the key came before with another method, path or body."""

    status_code = status.HTTP_422_UNPROCESSABLE_ENTITY
    default_detail = _("This idempotency key came with another request: send a new key for a new request.")
    default_code = IDEMPOTENCY_KEY_REUSED

    def __init__(self, field: str = HEADER) -> None:
        super().__init__()
        self.field = field  # what sessions.api.errors names


def sent_key(request: Request, body: dict[str, Any] | None = None) -> tuple[str | None, str]:
    """The key (the header first, then the body's ``idempotency_key``) and the field it came in."""
    header = request.headers.get(HEADER)
    if header:
        return header, HEADER
    given = (body or {}).get(BODY_FIELD)
    return (given or None), BODY_FIELD


def fingerprint(request: Request, data: Any) -> str:
    """What a key stands for: the method, the path and the validated body without the key."""
    if isinstance(data, dict):
        data = {name: value for name, value in data.items() if name != BODY_FIELD}
    canonical = json.dumps([request.method, request.path, data], sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()


def same_json(a: Any, b: Any) -> bool:
    """Equal as JSON documents (``True`` is not ``1`` here)."""
    return json.dumps(a, sort_keys=True, default=str) == json.dumps(b, sort_keys=True, default=str)


def run_once(
    request: Request,
    *,
    user: User,
    scope: str,
    data: Any,
    action: Callable[[], dict[str, Any]],
    body: dict[str, Any] | None = None,
) -> tuple[dict[str, Any], bool]:
    """``services.run_once`` for the API: (the first answer's result, whether this is a replay).
    KeyReused when the key came before with another request."""
    key, field = sent_key(request, body)
    if not key:
        return action(), False
    request_print = fingerprint(request, data)
    ran = False

    def first() -> dict[str, Any]:
        nonlocal ran
        ran = True
        return {**action(), "request": request_print}

    result = services.run_once(user=user, key=f"api-{scope}:{key}", action=first)
    if not ran and result.get("request", request_print) != request_print:
        raise KeyReused(field)
    return result, not ran


def created_once(
    request: Request, *, user: User, scope: str, data: Any, create: Callable[[], Model]
) -> tuple[int, bool]:
    """The new object's id and whether it is a replay: a repeated Idempotency-Key gives the first one's."""
    result, replayed = run_once(request, user=user, scope=scope, data=data, action=lambda: {"id": create().pk})
    return int(result["id"]), replayed


def replay_headers(replayed: bool) -> dict[str, str]:
    return {REPLAYED: "true"} if replayed else {}
