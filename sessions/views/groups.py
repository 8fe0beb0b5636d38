"""Home, groups, players and members."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import asdict
from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import SuspiciousOperation
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from scoring.errors import RuleError
from sessions import selectors, services
from sessions.editions import EDITIONS, HOUSE_RULE
from sessions.forms import (
    GroupForm,
    IdempotentForm,
    JoinForm,
    MemberForm,
    MergeForm,
    NightForm,
    PlayerForm,
    PlayersForm,
)
from sessions.games import get_game
from sessions.http import MemberRequest
from sessions.models import Group, Membership, Player
from sessions.rule_messages import describe


def home(request: HttpRequest) -> HttpResponse:
    groups = selectors.groups_of(request.user)
    return render(request, "home.html", {"groups": groups, "join_form": JoinForm()})


@login_required
def group_new(request: MemberRequest) -> HttpResponse:
    form = GroupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user, name = request.user, form.cleaned_data["name"]
        try:
            result = services.run_once(
                user=user,
                key=form.cleaned_data["idempotency_key"],
                action=lambda: {"redirect": reverse("group", args=[services.create_group(owner=user, name=name).pk])},
            )
        except RuleError as error:  # a name like one of the user's groups
            form.add_error("name", describe(error))
        else:
            return redirect(result["redirect"])
    return render(request, "groups/new.html", {"form": form}, status=400 if form.errors else 200)


@login_required
def group(request: MemberRequest, group_id: int) -> HttpResponse:
    membership = selectors.membership(request.user, group_id)
    return render(request, "groups/detail.html", _group_context(request, membership))


def _group_context(request: MemberRequest, membership: Membership, **shown: Any) -> dict[str, Any]:
    """The group page's context; ``shown`` replaces parts of it (a refused form)."""
    group = membership.group
    return {
        "group": group,
        "membership": membership,
        "nights": selectors.nights_of(group)[:20],
        "recent": selectors.play_log(group, limit=5),
        "night_form": NightForm(),
        **_players_context(request, membership.group),
        **shown,
    }


def _players_context(request: MemberRequest, group: Group, *, focused: bool = False) -> dict[str, Any]:
    """The group page's players panel (``groups/_players.html``, also sent alone to htmx, then
    ``focused`` on its field)."""
    search = request.GET.get("q", "").strip()[:100]
    return {
        "group": group,
        "players": selectors.players_page(group, search=search, page=request.GET.get("players")),
        "archived_players": list(selectors.archived_players(group)),
        "player_search": search,
        "player_form": PlayersForm(focused=focused),
    }


@login_required
@require_POST
def player_add(request: MemberRequest, group_id: int) -> HttpResponse:
    """One or more players (a name per line, or separated by commas). htmx gets the players
    panel again, its field focused for the next names; without it the page, or a refusal on
    it that keeps what was typed."""
    membership = selectors.membership(request.user, group_id)
    group = membership.group
    form = PlayersForm(request.POST, focused=True)  # shown again only when refused
    added = None
    if form.is_valid():
        names = form.cleaned_data["name"]
        try:
            services.run_once(
                user=request.user,
                key=form.cleaned_data["idempotency_key"],
                action=lambda: {"players": [p.pk for p in services.create_players(group=group, names=names)]},
            )
        except RuleError as error:
            form.add_error("name", describe(error))
        else:
            added = _("Added: %(names)s.") % {"names": ", ".join(names)}
    refused = {"player_form": form} if form.errors else {}
    status = 400 if form.errors else 200
    if request.htmx:
        shown = {**_players_context(request, group, focused=True), "membership": membership, "added": added, **refused}
        return render(request, "groups/_players.html", shown, status=status)
    if added is None:
        return render(request, "groups/detail.html", _group_context(request, membership, **refused), status=status)
    messages.success(request, added)
    return redirect(reverse("group", args=[group.pk]) + "#players")


@login_required
def player_rename(request: MemberRequest, player_id: int) -> HttpResponse:
    player = selectors.player_of_member(request.user, player_id)
    form = PlayerForm(request.POST or None, initial={"name": player.name})
    if request.method == "POST" and form.is_valid():
        name = form.cleaned_data["name"]
        try:
            services.run_once(
                user=request.user,
                key=form.cleaned_data["idempotency_key"],
                action=lambda: {"player": services.rename_player(player=player, name=name).pk},
            )
        except RuleError as error:
            form.add_error("name", describe(error))
        else:
            return redirect("group", group_id=player.group_id)
    context = {"player": player, "form": form, "merge_form": MergeForm(players=list(selectors.other_players(player)))}
    return render(request, "groups/rename_player.html", context)


@login_required
def player_remove(request: MemberRequest, player_id: int) -> HttpResponse:
    """Delete a player who never played here, else archive them: a confirmation page, then a POST."""
    if request.method == "POST":  # a repeated tap: the player may be gone, the answer is the same
        done = selectors.write_receipt(request.user, request.POST.get("idempotency_key"))
        if done is not None:
            return _removed(request, done)
    player = selectors.player_of_member(request.user, player_id)
    form = IdempotentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        done = services.run_once(
            user=request.user,
            key=form.cleaned_data["idempotency_key"],
            action=lambda: {"removed": asdict(services.remove_player(player=player))},
        )
        return _removed(request, done)
    context = {"player": player, "history": selectors.player_history(player), "form": form}
    return render(request, "groups/remove_player.html", context)


def _removed(request: MemberRequest, receipt: dict[str, Any]) -> HttpResponse:
    done = _receipt_of(receipt, "removed")
    if done["deleted"]:
        message = _("%(name)s was deleted.") % done
    elif done["results"]:
        message = (
            ngettext(
                "%(name)s was archived: their %(results)d result is kept.",
                "%(name)s was archived: their %(results)d results are kept.",
                done["results"],
            )
            % done
        )
    else:
        message = _("%(name)s was archived: the games they sat in are kept.") % done
    messages.success(request, message)
    return redirect("group", group_id=done["group_id"])


@login_required
@require_POST
def player_unarchive(request: MemberRequest, player_id: int) -> HttpResponse:
    player = services.unarchive_player(player=selectors.player_of_member(request.user, player_id))
    messages.success(request, _("%(name)s is back on the seat lists.") % {"name": player.name})
    return redirect("group", group_id=player.group_id)


@login_required
def player_merge(request: MemberRequest, player_id: int) -> HttpResponse:
    """Merge a player into another of the group: choose (GET), confirm (the page says what
    moves), then a POST; a refusal shows on the choice."""
    if request.method == "POST":  # a repeated tap: the merged player is gone, the answer is the same
        done = selectors.write_receipt(request.user, request.POST.get("idempotency_key"))
        if done is not None:
            return _merged(request, done)
    player = selectors.player_of_member(request.user, player_id)
    others = list(selectors.other_players(player))
    chosen = request.POST if request.method == "POST" else request.GET if "into" in request.GET else None
    form = MergeForm(chosen, players=others)
    keep = next((p for p in others if p.pk == form.cleaned_data["into"]), None) if form.is_valid() else None
    if request.method == "POST" and keep is not None:
        try:
            done = services.run_once(
                user=request.user,
                key=form.cleaned_data["idempotency_key"],
                action=_merge_action(keep=keep, drop=player),
            )
        except RuleError as error:
            form.add_error("into", describe(error))
            keep = None
        else:
            return _merged(request, done)
    context = {
        "player": player,
        "form": form,
        "keep": keep,
        "confirm": MergeForm(players=others, initial={"into": keep.pk}) if keep else None,
        "history": selectors.player_history(player) if keep else None,
    }
    return render(request, "groups/merge_player.html", context, status=400 if form.errors else 200)


def _merge_action(*, keep: Player, drop: Player) -> Callable[[], dict[str, Any]]:
    def merge() -> dict[str, Any]:
        services.merge_players(keep=keep, drop=drop)
        return {"merged": {"group_id": keep.group_id, "drop": drop.name, "keep": keep.name}}

    return merge


def _merged(request: MemberRequest, receipt: dict[str, Any]) -> HttpResponse:
    done = _receipt_of(receipt, "merged")
    messages.success(request, _("%(drop)s was merged into %(keep)s.") % done)
    return redirect("group", group_id=done["group_id"])


@login_required
def members(request: MemberRequest, group_id: int) -> HttpResponse:
    membership = selectors.membership(request.user, group_id)
    group = membership.group
    is_owner = membership.role == Membership.OWNER
    form = MemberForm(request.POST or None)
    if request.method == "POST":
        if not is_owner:
            return HttpResponse(_("Only the group's owner can add members."), status=403)
        if form.is_valid():
            user = get_user_model().objects.filter(username=form.cleaned_data["username"]).first()
            if user is None:
                form.add_error("username", _("No account has this username."))
            else:
                services.add_member(group=group, user=user)
                return redirect("members", group_id=group.pk)
    context = {"group": group, "members": selectors.members_of(group), "form": form, "is_owner": is_owner}
    return render(request, "groups/members.html", context)


@login_required
def edition_table(request: MemberRequest, group_id: int, game: str) -> HttpResponse:
    """The group's values for a game's components that are not verified (unverified, or from
    outside the seed); the owner may change them."""
    membership = selectors.membership(request.user, group_id)
    group = membership.group
    if game not in EDITIONS:
        raise Http404
    edition_rows, edition_overrides = EDITIONS[game]
    is_owner = membership.role == Membership.OWNER
    error = None
    sections = None
    if request.method == "POST":
        if not is_owner:
            return HttpResponse(_("Only the group's owner can change the edition table."), status=403)
        posted = edition_overrides(request.POST)
        try:
            services.set_edition_table(group=group, game=game, overrides=posted)
        except RuleError as refused:
            error = describe(refused)
            # The values as typed, when they can be shown (a deck of 16 Jokers and draws is
            # corrected by changing one of them, not by typing both again).
            with contextlib.suppress(RuleError):
                sections = edition_rows(posted)
        else:
            messages.success(request, _("Saved. New sessions use these values; past results keep theirs."))
            return redirect("edition_table", group_id=group.pk, game=game)
    sections = sections or edition_rows(group.edition_tables.get(game))
    context = {
        "group": group,
        "game": get_game(game),
        "sections": sections,
        "house_rules_only": all(f.get("marking") == HOUSE_RULE for section in sections for f in section["fields"]),
        "is_owner": is_owner,
        "error": error,
    }
    return render(request, "groups/edition_table.html", context, status=400 if error else 200)


@login_required
@require_POST
def member_remove(request: MemberRequest, group_id: int, membership_id: int) -> HttpResponse:
    membership = selectors.membership(request.user, group_id)
    if membership.role != Membership.OWNER:
        return HttpResponse(_("Only the group's owner can remove members."), status=403)
    # A second tap finds the membership gone already: nothing more to do.
    target = Membership.objects.filter(pk=membership_id, group_id=group_id).first()
    try:
        if target is not None:
            services.remove_member(membership=target)
    except RuleError as error:
        messages.error(request, describe(error))
    return redirect("members", group_id=group_id)


def _receipt_of(receipt: dict[str, Any], kind: str) -> dict[str, Any]:
    """The receipt's answer, if the key was one of a write of this kind (not another form's)."""
    if kind not in receipt:
        raise SuspiciousOperation("an idempotency key of another form")
    done: dict[str, Any] = receipt[kind]
    return done
