"""Request types for views, so that mypy knows what the middleware adds."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxRequest(HttpRequest):
    htmx: HtmxDetails


class MemberRequest(HtmxRequest):
    """A request behind ``login_required``: the user is a real account."""

    user: User
