"""API errors as JSON that names the field and the rule; engine refusals are 400s."""

from __future__ import annotations

from typing import Any

from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from scoring.errors import RuleError
from sessions.rule_messages import as_dict


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, RuleError):
        return Response({"errors": [as_dict(exc)]}, status=status.HTTP_400_BAD_REQUEST)
    return drf_exception_handler(exc, context)
