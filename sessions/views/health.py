"""The probes' endpoints (``sessions.health``): JSON, no login, no secrets."""

from __future__ import annotations

from dataclasses import asdict

from django.conf import settings
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from sessions import health


@never_cache
@require_GET
def live(request: HttpRequest) -> JsonResponse:
    """The process answers: nothing else is asked."""
    return JsonResponse({"status": "live", "version": settings.VERSION})


@never_cache
@require_GET
def ready(request: HttpRequest) -> JsonResponse:
    """200 when every check passes, else 503 (a load balancer then sends no traffic here)."""
    checks = health.readiness()
    ready = all(check.ok for check in checks)
    body = {
        "status": "ready" if ready else "not ready",
        "version": settings.VERSION,
        "checks": {check.name: {k: v for k, v in asdict(check).items() if k != "name"} for check in checks},
    }
    return JsonResponse(body, status=200 if ready else 503)
