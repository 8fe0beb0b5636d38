"""A player's privacy page: hidden from the leaderboards, their data as JSON, anonymised.

For the group's owner and the player's own account (``sessions.privacy``); another member
gets a 403 that says who may, an outsider a 404. The switch answers htmx with its own panel
(``groups/_player_hide.html``) and anything else with the page again; the anonymise form
comes back as typed when refused.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from scoring.errors import RuleError
from sessions import names, privacy, selectors, services
from sessions.forms import IdempotentForm
from sessions.http import MemberRequest
from sessions.models import Player
from sessions.rule_messages import describe

REFUSED = gettext_lazy("Only the group's owner, or the player's own account, can change a player's privacy.")


class HideForm(forms.Form):
    """The switch's button sends the state it sets ("true" or "false")."""

    hidden = forms.BooleanField(required=False)


class AnonymiseForm(IdempotentForm):
    """The player's name typed again: the one step before an irreversible change."""

    confirm = forms.CharField(
        label=gettext_lazy("Type their name to confirm"),
        max_length=200,
        error_messages={"required": gettext_lazy("Type their name to confirm.")},
    )

    def __init__(self, *args: Any, player: Player, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.player = player
        self.fields["confirm"].widget.attrs.update({"autocomplete": "off", "spellcheck": "false"})

    def clean_confirm(self) -> str:
        typed: str = self.cleaned_data["confirm"]
        if not names.same_but_case(typed, self.player.name):
            raise forms.ValidationError(
                _("Type “%(name)s” as it is written here to confirm.") % {"name": self.player.name}, code="confirm"
            )
        return typed


def _refused() -> HttpResponse:
    return HttpResponse(REFUSED, status=403)


def _page(player: Player, *, anonymise_form: AnonymiseForm | None = None) -> dict[str, Any]:
    return {
        "player": player,
        "group": player.group,
        "anonymise_form": anonymise_form or AnonymiseForm(player=player),
        "history": selectors.player_history(player),
        "next_label": None if player.anonymised_at else privacy.next_label(player.group),
    }


@login_required
@require_GET
def player_privacy(request: MemberRequest, player_id: int) -> HttpResponse:
    access = privacy.player_for_privacy(request.user, player_id)
    if not access.allowed:
        return _refused()
    return render(request, "groups/player_privacy.html", _page(access.player))


@login_required
@require_POST
def player_hide(request: MemberRequest, player_id: int) -> HttpResponse:
    """Set the switch as sent (an unticked box sends nothing: shown again)."""
    access = privacy.player_for_privacy(request.user, player_id)
    if not access.allowed:
        return _refused()
    player = access.player
    form = HideForm(request.POST)
    form.is_valid()  # a lone optional box: always valid
    privacy.set_hidden_from_leaderboards(
        group=player.group, player=player, hidden=form.cleaned_data["hidden"], by=request.user
    )
    said = (
        _("%(name)s is hidden from the leaderboards.")
        if player.hidden_from_leaderboards
        else _("%(name)s shows on the leaderboards again.")
    ) % {"name": player.name}
    if request.htmx:
        return render(request, "groups/_player_hide.html", {"player": player, "said": said})
    messages.success(request, said)
    return redirect("player_privacy", player_id=player.pk)


@login_required
@require_GET
def player_export(request: MemberRequest, player_id: int) -> HttpResponse:
    access = privacy.player_for_privacy(request.user, player_id)
    if not access.allowed:
        return _refused()
    player = access.player
    body = json.dumps(privacy.player_document(player), cls=DjangoJSONEncoder, ensure_ascii=False, indent=2)
    name = f"{slugify(player.group.name) or 'group'}-{slugify(player.name) or 'player'}-{timezone.localdate()}.json"
    response = HttpResponse(body, content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    response["Cache-Control"] = "private, no-store"
    return response


@login_required
@require_POST
def player_anonymise(request: MemberRequest, player_id: int) -> HttpResponse:
    """Anonymise once the name is typed again; a repeated tap (the name has changed since)
    answers as the first did."""
    access = privacy.player_for_privacy(request.user, player_id)
    if not access.allowed:
        return _refused()
    player = access.player
    done = selectors.write_receipt(request.user, request.POST.get("idempotency_key"))
    if done is not None and "anonymised" in done:
        return _anonymised(request, done["anonymised"])
    form = AnonymiseForm(request.POST, player=player)
    if form.is_valid():
        try:
            done = services.run_once(
                user=request.user,
                key=form.cleaned_data["idempotency_key"],
                action=lambda: {
                    "anonymised": asdict(privacy.anonymise_player(group=player.group, player=player, by=request.user))
                },
            )
        except RuleError as refused:
            form.add_error("confirm", describe(refused))
        else:
            return _anonymised(request, done["anonymised"])
    context = _page(player, anonymise_form=form)
    return render(request, "groups/player_privacy.html", context, status=400)


def _anonymised(request: MemberRequest, done: dict[str, Any]) -> HttpResponse:
    """The privacy page again, which says so; the group's page for a player's own account,
    which anonymising unlinked from the player."""
    messages.success(request, _("Anonymised: this player is %(label)s now, everywhere.") % done)
    if privacy.player_for_privacy(request.user, done["player_id"]).allowed:
        return redirect("player_privacy", player_id=done["player_id"])
    return redirect("group", group_id=done["group_id"])
