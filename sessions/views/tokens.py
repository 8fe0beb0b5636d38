"""The account's API tokens page: several named tokens, each with an expiry, each revocable.

A new token's key is shown once, in the answer to the POST that made it; the database keeps
only its digest, so no later page (nor the admin) can show it again.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from sessions.api import tokens
from sessions.http import MemberRequest


class TokenForm(forms.Form):
    name = forms.CharField(
        label=gettext_lazy("Name"),
        max_length=60,
        help_text=gettext_lazy("What the token is for, e.g. the script or the computer that uses it."),
    )
    days = forms.TypedChoiceField(
        label=gettext_lazy("Expires after"), coerce=int, initial=tokens.DEFAULT_LIFETIME_IN_DAYS
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Built here, in the request's language.
        days_field = self.fields["days"]
        assert isinstance(days_field, forms.TypedChoiceField)
        days_field.choices = [
            (days, ngettext("%(days)d day", "%(days)d days", days) % {"days": days})
            for days in tokens.LIFETIMES_IN_DAYS
        ]


def token_page(
    request: MemberRequest, form: TokenForm, *, new_key: str | None = None, status: int = 200
) -> HttpResponse:
    context = {
        "tokens": tokens.tokens_of(user=request.user),
        "form": form,
        "new_key": new_key,
        "now": timezone.now(),
    }
    return render(request, "account/token.html", context, status=status)


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def api_token(request: MemberRequest) -> HttpResponse:
    if request.method != "POST":
        return token_page(request, TokenForm())
    form = TokenForm(request.POST)
    if not form.is_valid():
        return token_page(request, form, status=400)
    try:
        _token, key = tokens.create_api_token(
            user=request.user, name=form.cleaned_data["name"], days=form.cleaned_data["days"]
        )
    except tokens.TooManyTokens:
        form.add_error(None, _("You have too many tokens: revoke one you no longer use first."))
        return token_page(request, form, status=400)
    return token_page(request, TokenForm(), new_key=key)


@login_required
@require_POST
def api_token_revoke(request: MemberRequest) -> HttpResponse:
    digest = request.POST.get("token", "")
    if not tokens.revoke_api_token(user=request.user, digest=digest):
        raise Http404
    messages.success(request, _("The token is revoked: requests that send it are refused from now on."))
    return redirect("api_token")
