"""API errors as JSON that names the field (with list indexes) and the rule.

Every 400 has the same shape: ``{"errors": [{"field": "discs[1]", "rule": "TB-2",
"message": "..."}]}``; ``rule`` is ``null`` for input that is malformed rather than
against a rule of the game.
"""

from __future__ import annotations

from typing import Any

from rest_framework import status
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
    return drf_exception_handler(exc, context)


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
