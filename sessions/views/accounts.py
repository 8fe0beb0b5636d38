from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import login
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.views import LogoutView
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from sessions.forms import SignupForm


def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect("home")
    return render(request, "registration/signup.html", {"form": form})


def locked_out(request: HttpRequest, *_args: Any, **_kwargs: Any) -> HttpResponse:
    """django-axes' answer (``AXES_LOCKOUT_CALLABLE``) to a login while the account or the
    address is locked out: the login page again, saying so and for how long, with a 429."""
    username = request.POST.get("username", "") if request.method == "POST" else ""
    form = AuthenticationForm(request, initial={"username": username})
    context = {"form": form, "next": request.POST.get("next", ""), "locked_minutes": settings.LOGIN_COOLOFF_MINUTES}
    return render(request, "registration/login.html", context, status=429)


class LogOut(LogoutView):
    """Logging out also empties this device's copies of the account's pages (the service
    worker's caches) and anything the pages stored on it: the next person to use the device
    finds none of them, even offline."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = super().post(request, *args, **kwargs)
        response["Clear-Site-Data"] = '"cache", "storage"'
        return response
