"""Signing up, logging in and out, and the limits on failed logins (docs/security.md).

Failed logins are limited twice, before the password is checked:

- per account *and* address, by django-axes (``AXES_LOCKOUT_PARAMETERS``, in the database):
  LOGIN_FAILURE_LIMIT wrong passwords for one account from one address refuse that account from
  that address only, so that nobody elsewhere can lock its owner out;
- per address, whatever the account, by the cache's counter that the join codes use too:
  LOGIN_FAILURES_PER_ADDRESS, higher, so that a venue's shared Wi-Fi does not reach it by
  mistyping, while one address cannot try a few passwords on every account. django-axes has one
  failure limit for all its lockout parameters, hence ``LoginLimits`` around its handler.

A login also empties the device's copies of the pages the account before it kept (the service
worker's caches, IndexedDB), as logging out does: that account's session may have ended without
"Log out" (it expired, or its cookie was cleared), on a device someone else now uses.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from contextlib import suppress
from typing import Any, cast

from axes.handlers.database import AxesDatabaseHandler
from django.conf import settings
from django.contrib.auth import login
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.signals import user_logged_in
from django.contrib.auth.views import LogoutView
from django.core.cache import cache
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from sessions import caching
from sessions.forms import SignupForm
from sessions.http import client_address

logger = logging.getLogger(__name__)

# What Clear-Site-Data empties on a change of account: the HTTP cache, and what the pages stored
# on the device (the service worker, its caches, IndexedDB's waiting moves, localStorage). Not
# its cookies: a login's answer sets the new session's.
FORGET_THE_DEVICES_COPIES = '"cache", "storage"'

# Why a login was refused before its password was checked (LoginRequest.login_refused).
ACCOUNT = "account"  # this account from this address (django-axes)
ADDRESS = "address"  # this address, whatever the account
UNCOUNTED = "uncounted"  # the cache that counts an address's failures does not answer


class LoginRequest(HttpRequest):
    """What a login's request carries from the authentication backends to its answer."""

    login_refused: str
    login_reserved: str
    account_changed: bool


def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect("home")
    return render(request, "registration/signup.html", {"form": form})


# --- the limits on failed logins --------------------------------------------------------------


def _address_key(request: HttpRequest) -> str:
    return f"login-failures:address:{client_address(request)}"


def _reserve(key: str, limit: int) -> bool:
    """Count one login before its password is checked (atomic add + incr, as the join codes do,
    so that concurrent tries cannot pass the limit), and say if it is within the limit. The
    window starts at the first login tried from the address and lasts LOGIN_COOLOFF_MINUTES.

    Raises one of ``caching.CACHE_ERRORS`` when the cache does not answer."""
    window = settings.LOGIN_COOLOFF_MINUTES * 60
    cache.add(key, 0, timeout=window)
    try:
        count = cache.incr(key)
    except ValueError:  # the window ended between add and incr
        cache.add(key, 1, timeout=window)
        count = 1
    return count <= limit


class LoginLimits(AxesDatabaseHandler):
    """django-axes' handler (``AXES_HANDLER``), with the per-address limit after its own."""

    def is_allowed(self, request: HttpRequest, credentials: dict[str, Any] | None = None) -> bool:
        marked = cast(LoginRequest, request)
        if not super().is_allowed(request, credentials):
            marked.login_refused = ACCOUNT
            return False
        key = _address_key(request)
        try:
            within = _reserve(key, settings.LOGIN_FAILURES_PER_ADDRESS)
        except caching.CACHE_ERRORS as error:
            # A limit that cannot count refuses (sessions/caching.py): otherwise a cache taken
            # down would let one address try a few passwords on every account.
            logger.warning("login refused: the rate-limit cache does not answer (%s)", error)
            marked.login_refused = UNCOUNTED
            return False
        if not within:
            marked.login_refused = ADDRESS
            return False
        marked.login_reserved = key
        return True

    def user_logged_in(self, sender: Any, request: HttpRequest, user: Any, **kwargs: Any) -> None:
        super().user_logged_in(sender, request, user, **kwargs)
        # The right password is no failure: its reserved count is given back. The window ended
        # meanwhile, or the cache does not answer: it stays counted, erring on the safe side.
        key = getattr(request, "login_reserved", None)
        if key:
            with suppress(ValueError, *caching.CACHE_ERRORS):
                cache.decr(key)


def locked_out(request: HttpRequest, *_args: Any, **_kwargs: Any) -> HttpResponse:
    """django-axes' answer (``AXES_LOCKOUT_CALLABLE``) to a login refused before its password was
    checked: the login page again, saying which limit and for how long, with a 429 (a 503 when
    the limit cannot be counted)."""
    refused = getattr(request, "login_refused", ACCOUNT)
    username = request.POST.get("username", "") if request.method == "POST" else ""
    form = AuthenticationForm(request, initial={"username": username})
    context = {
        "form": form,
        "next": request.POST.get("next", ""),
        "login_refused": refused,
        "locked_minutes": settings.LOGIN_COOLOFF_MINUTES,
    }
    response = render(request, "registration/login.html", context, status=503 if refused == UNCOUNTED else 429)
    if refused == UNCOUNTED:
        response["Retry-After"] = str(caching.RETRY_AFTER_SECONDS)
    return response


# --- a change of account on the device ----------------------------------------------------------


@receiver(user_logged_in, dispatch_uid="sessions.views.accounts.a_new_account_on_the_device")
def _a_new_account_on_the_device(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    # Every login: the login page, signing up, the admin's; the answer is marked by the middleware.
    if request is not None:
        cast(LoginRequest, request).account_changed = True


def forget_the_last_accounts_copies(get_response: Callable[[HttpRequest], HttpResponse]) -> Any:
    """The answer to a request that logged an account in empties the device's copies of pages
    (settings.MIDDLEWARE): whatever the device kept belongs to a session that has ended."""

    def middleware(request: HttpRequest) -> HttpResponse:
        response = get_response(request)
        if getattr(request, "account_changed", False):
            response["Clear-Site-Data"] = FORGET_THE_DEVICES_COPIES
        return response

    return middleware


class LogOut(LogoutView):
    """Logging out also empties this device's copies of the account's pages (the service
    worker's caches) and anything the pages stored on it: the next person to use the device
    finds none of them, even offline."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = super().post(request, *args, **kwargs)
        response["Clear-Site-Data"] = FORGET_THE_DEVICES_COPIES
        return response
