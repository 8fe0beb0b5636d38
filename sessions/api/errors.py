"""API errors as JSON that names the field (with list indexes) and the rule.

Every 400 has the same shape: ``{"errors": [{"field": "discs[1]", "rule": "TB-2",
"message": "..."}]}``; ``rule`` is ``null`` for input that is malformed rather than
against a rule of the game. Every other refusal (400 for a body that is not JSON, 401, 403,
404, 405, 406, 415, 429) has that shape too, its ``field`` naming what it is about (``body``,
``Authorization``, ``Content-Type``, ... or ``non_field_errors``).
"""

from __future__ import annotations

from typing import Any

from rest_framework import exceptions, status
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from scoring.errors import RuleError
from sessions.rule_messages import as_dict


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, RuleError):
        return Response({"errors": [as_dict(exc)]}, status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, ValidationError):
        errors = [{"field": field, "rule": None, "message": str(message)} for field, message in flatten(exc.detail)]
        return Response({"errors": errors}, status=status.HTTP_400_BAD_REQUEST)
    response = drf_exception_handler(exc, context)
    if response is not None and isinstance(response.data, dict) and "detail" in response.data:
        # Every other refusal (malformed JSON, no login, not found, throttled ...) in the same
        # shape, naming what it is about.
        field = next((name for kind, name in ABOUT if isinstance(exc, kind)), "non_field_errors")
        response.data = {"errors": [{"field": field, "rule": None, "message": str(response.data["detail"])}]}
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
    if isinstance(detail, dict):
        # ListField reports its items' errors keyed by index.
        return [pair for key, value in detail.items() for pair in flatten(value, _join(path, key))]
    if isinstance(detail, list):
        if all(not isinstance(item, dict | list) for item in detail):
            return [(path or "non_field_errors", str(item)) for item in detail]
        pairs = []
        for index, item in enumerate(detail):
            if item:
                pairs.extend(flatten(item, f"{path}[{index}]"))
        return pairs
    return [(path or "non_field_errors", str(detail))]


def _join(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    if key == "non_field_errors":
        return path
    return f"{path}.{key}" if path else key
