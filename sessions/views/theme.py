"""The theme switch: light, dark, or as the device is."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from sessions.themes import COOKIE, THEMES

A_YEAR = 365 * 24 * 3600


@require_POST
def theme_switch(request: HttpRequest) -> HttpResponse:
    """Remembers the chosen theme ("light", "dark"; anything else: the device's) and goes back
    to the page the switch was on."""
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        back = "/"
    response = redirect(back)
    chosen = request.POST.get("theme", "")
    if chosen in THEMES:
        response.set_cookie(
            COOKIE, chosen, max_age=A_YEAR, samesite="Lax", secure=settings.SESSION_COOKIE_SECURE, httponly=True
        )
    else:
        response.delete_cookie(COOKIE, samesite="Lax")
    return response
