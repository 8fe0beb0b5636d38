"""The release the pages name in their footer (settings.VERSION, from pyproject.toml)."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest


def release(request: HttpRequest) -> dict[str, str]:
    """Context processor: ``release``, the version this server runs."""
    return {"release": settings.VERSION}
