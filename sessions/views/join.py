"""Joining a session by code, without an account: a read-only live view.

Wrong codes are counted per address; past the limit every attempt is refused for the
rest of the window, so codes cannot be guessed by brute force.
"""

from __future__ import annotations

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from sessions import selectors
from sessions.forms import JoinForm
from sessions.live import live_context, live_response
from sessions.models import GameSession, JoinCode


def _attempts_key(request: HttpRequest) -> str:
    return f"join-failures:{request.META.get('REMOTE_ADDR', '')}"


def _blocked(request: HttpRequest) -> bool:
    return int(cache.get(_attempts_key(request), 0)) >= settings.JOIN_ATTEMPTS_PER_WINDOW


def _count_failure(request: HttpRequest) -> None:
    key = _attempts_key(request)
    cache.add(key, 0, timeout=settings.JOIN_ATTEMPT_WINDOW_SECONDS)
    cache.incr(key)


def _resolve(request: HttpRequest, code: str) -> tuple[JoinCode | None, HttpResponse | None]:
    """The working join code, or the page that says why there is none."""
    if _blocked(request):
        message = _("Too many wrong codes from this device. Wait a few minutes and try again.")
        return None, render(request, "join.html", {"form": JoinForm(), "error": message}, status=429)
    join_code = selectors.working_join_code(code)
    if join_code is None:
        _count_failure(request)
        message = _("This code does not work: it is mistyped, revoked, or its session has ended.")
        return None, render(
            request, "join.html", {"form": JoinForm(initial={"code": code}), "error": message}, status=404
        )
    return join_code, None


def join(request: HttpRequest) -> HttpResponse:
    form = JoinForm(request.POST or request.GET or None)
    if form.is_bound and form.is_valid():
        join_code, refusal = _resolve(request, form.cleaned_data["code"])
        if refusal is not None:
            return refusal
        assert join_code is not None
        return redirect("guest", code=join_code.code)
    return render(request, "join.html", {"form": form})


def guest(request: HttpRequest, code: str) -> HttpResponse:
    join_code, refusal = _resolve(request, code)
    if refusal is not None:
        return refusal
    assert join_code is not None
    session = selectors.with_seats(GameSession.objects.select_related("night")).get(pk=join_code.session_id)
    context = {**live_context(session, viewer="guest"), "code": join_code.code}
    return render(request, "guest.html", context)


def guest_live(request: HttpRequest, code: str) -> HttpResponse:
    join_code = selectors.followed_join_code(code)
    if join_code is None:
        refused, refusal = _resolve(request, code)
        if refusal is not None:
            return refusal
        assert refused is not None
        join_code = refused
    session = join_code.session
    return live_response(
        request,
        session_id=session.pk,
        version=session.version,
        load=lambda: selectors.with_seats(GameSession.objects.all()).get(pk=session.pk),
        viewer="guest",
        extra={"code": join_code.code},
    )
