"""API errors as JSON that names the field (with list indexes), the rule and a stable code.

Every 400 has the same shape: ``{"errors": [{"field": "discs[1]", "rule": "TB-2", "code":
"rule", "message": "..."}]}``; ``rule`` is ``null`` for input that is malformed rather than
against a rule of the game. Every other refusal (400 for a body that is not JSON, 401, 403,
404, 405, 406, 409, 415, 422, 429, 503) has that shape too, its ``field`` naming what it is
about (``body``, ``Authorization``, ``Content-Type``, ... or ``non_field_errors``).

``code`` is for programs: never translated, one of a documented few (``ErrorOut.code`` in
``sessions/api/serializers.py``): DRF's own codes (``required``, ``invalid``, ``max_length``,
``not_found``, ``throttled`` ...), ``rule`` for a refusal by a rule of the game, and this
API's own ``stale`` and ``too_many_tokens`` (409) and ``idempotency_key_reused`` (422).
"""

from __future__ import annotations

from typing import Any

from rest_framework import exceptions, status
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from scoring.errors import RuleError
from sessions.rule_messages import as_dict

# This API's own codes, beside DRF's.
RULE, INVALID, STALE, IDEMPOTENCY_KEY_REUSED = "rule", "invalid", "stale", "idempotency_key_reused"
TOO_MANY_TOKENS = "too_many_tokens"


def error(field: str, message: str, *, code: str, rule: str | None = None) -> dict[str, Any]:
    """One item of ``errors``."""
    return {"field": field, "rule": rule, "code": code, "message": str(message)}


def refusal(field: str, message: str, *, code: str, status_code: int, **extra: Any) -> Response:
    """A refusal no exception carries (409, 422), in the same shape."""
    return Response({"errors": [error(field, message, code=code)], **extra}, status=status_code)


def rule_error(refused: RuleError) -> dict[str, Any]:
    said = as_dict(refused)
    return error(str(said["field"]), str(said["message"]), code=RULE if refused.rule else INVALID, rule=refused.rule)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, RuleError):
        return Response({"errors": [rule_error(exc)]}, status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, ValidationError):
        errors = [error(field, message, code=code) for field, message, code in flatten_with_codes(exc.detail)]
        return Response({"errors": errors}, status=status.HTTP_400_BAD_REQUEST)
    response = drf_exception_handler(exc, context)
    if response is not None and isinstance(response.data, dict) and "detail" in response.data:
        # Every other refusal (malformed JSON, no login, not found, throttled ...) in the same
        # shape, naming what it is about.
        field = getattr(exc, "field", None) or next(
            (name for kind, name in ABOUT if isinstance(exc, kind)), "non_field_errors"
        )
        detail = response.data["detail"]
        code = getattr(detail, "code", None) or getattr(exc, "default_code", None) or INVALID
        response.data = {"errors": [error(field, detail, code=str(code))]}
    return response


# What a refusal that is not about a field of the body names instead.
ABOUT: list[tuple[type[Exception], str]] = [
    (exceptions.ParseError, "body"),
    (exceptions.UnsupportedMediaType, "Content-Type"),
    (exceptions.NotAcceptable, "Accept"),
    (exceptions.NotAuthenticated, "Authorization"),
    (exceptions.AuthenticationFailed, "Authorization"),
    (exceptions.MethodNotAllowed, "method"),
]


def flatten(detail: Any, path: str = "") -> list[tuple[str, str]]:
    """DRF's nested error detail as (``a.b[2]``, message) pairs."""
    return [(field, message) for field, message, _code in flatten_with_codes(detail, path)]


def flatten_with_codes(detail: Any, path: str = "") -> list[tuple[str, str, str]]:
    """DRF's nested error detail as (``a.b[2]``, message, code) triples."""
    if isinstance(detail, dict):
        # ListField reports its items' errors keyed by index.
        return [item for key, value in detail.items() for item in flatten_with_codes(value, _join(path, key))]
    if isinstance(detail, list):
        if all(not isinstance(item, dict | list) for item in detail):
            return [_triple(path, item) for item in detail]
        triples = []
        for index, item in enumerate(detail):
            if item:
                triples.extend(flatten_with_codes(item, f"{path}[{index}]"))
        return triples
    return [_triple(path, detail)]


def _triple(path: str, item: Any) -> tuple[str, str, str]:
    return (path or "non_field_errors", str(item), str(getattr(item, "code", None) or INVALID))


def _join(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    if key == "non_field_errors":
        return path
    return f"{path}.{key}" if path else key
