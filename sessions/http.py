"""Request types for views, so that mypy knows what the middleware adds; the client's address."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import User
from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxRequest(HttpRequest):
    htmx: HtmxDetails


class MemberRequest(HtmxRequest):
    """A request behind ``login_required``: the user is a real account."""

    user: User


def client_address(request: HttpRequest) -> str:
    """The visitor's address as the trusted proxies saw it.

    With ``PROXY_COUNT`` = n > 0, each of the n proxies in front of the app appends the
    address it got the request from to X-Forwarded-For, so the n-th entry from the right is
    the one the outermost trusted proxy saw (what a client writes itself stays to its left);
    with 0, or without the header, it is REMOTE_ADDR. The same rule as DRF's ``NUM_PROXIES``,
    which settings.py sets from the same value.
    """
    remote = str(request.META.get("REMOTE_ADDR", ""))
    proxies = settings.PROXY_COUNT
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR")
    if proxies <= 0 or not forwarded:
        return remote
    addresses = [part.strip() for part in str(forwarded).split(",")]
    return addresses[-min(proxies, len(addresses))] or remote
