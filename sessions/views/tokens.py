"""The account's API token page: create (or replace) and revoke the one token.

The key is shown once, in the answer to the POST that made it; afterwards the page only
says that a token exists and since when.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from sessions.api import tokens
from sessions.http import MemberRequest


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def api_token(request: MemberRequest) -> HttpResponse:
    new_key = None
    if request.method == "POST":
        new_key = tokens.create_api_token(user=request.user).key
    context = {"token": tokens.token_of(user=request.user), "new_key": new_key}
    return render(request, "account/token.html", context)


@login_required
@require_POST
def api_token_revoke(request: MemberRequest) -> HttpResponse:
    if tokens.revoke_api_token(user=request.user):
        messages.success(request, _("Your API token is revoked: requests that send it are refused from now on."))
    return redirect("api_token")
