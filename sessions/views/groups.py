"""Home, groups, players and members."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring.errors import RuleError
from sessions import selectors, services
from sessions.boards import EDITIONS
from sessions.forms import GroupForm, JoinForm, MemberForm, NightForm, PlayerForm
from sessions.games import get_game
from sessions.http import MemberRequest
from sessions.models import Membership
from sessions.rule_messages import describe


def home(request: HttpRequest) -> HttpResponse:
    groups = selectors.groups_of(request.user)
    return render(request, "home.html", {"groups": groups, "join_form": JoinForm()})


@login_required
def group_new(request: MemberRequest) -> HttpResponse:
    form = GroupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user, name = request.user, form.cleaned_data["name"]
        result = services.run_once(
            user=user,
            key=form.cleaned_data["idempotency_key"],
            action=lambda: {"redirect": reverse("group", args=[services.create_group(owner=user, name=name).pk])},
        )
        return redirect(result["redirect"])
    return render(request, "groups/new.html", {"form": form})


@login_required
def group(request: MemberRequest, group_id: int) -> HttpResponse:
    membership = selectors.membership(request.user, group_id)
    group = membership.group
    search = request.GET.get("q", "").strip()[:100]
    context = {
        "group": group,
        "membership": membership,
        "players": selectors.players_page(group, search=search, page=request.GET.get("players")),
        "player_search": search,
        "nights": selectors.nights_of(group)[:20],
        "recent": selectors.play_log(group, limit=5),
        "player_form": PlayerForm(),
        "night_form": NightForm(),
    }
    return render(request, "groups/detail.html", context)


@login_required
def play_log(request: MemberRequest, group_id: int) -> HttpResponse:
    group = selectors.membership(request.user, group_id).group
    context = {"group": group, "sessions": selectors.play_log(group), "other_plays": selectors.other_plays(group)}
    return render(request, "groups/log.html", context)


@login_required
@require_POST
def player_add(request: MemberRequest, group_id: int) -> HttpResponse:
    group = selectors.membership(request.user, group_id).group
    form = PlayerForm(request.POST)
    if form.is_valid():
        name = form.cleaned_data["name"]
        try:
            services.run_once(
                user=request.user,
                key=form.cleaned_data["idempotency_key"],
                action=lambda: {"player": services.create_player(group=group, name=name).pk},
            )
        except RuleError as error:
            messages.error(request, describe(error))
    else:
        messages.error(request, _("Enter a name of at most 40 characters."))
    return redirect("group", group_id=group.pk)


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
    return render(request, "groups/rename_player.html", {"player": player, "form": form})


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
    """The group's values for a game's unverified components; the owner may change them."""
    membership = selectors.membership(request.user, group_id)
    group = membership.group
    edition = EDITIONS.get(game)
    if edition is None:
        raise Http404
    is_owner = membership.role == Membership.OWNER
    error = None
    if request.method == "POST":
        if not is_owner:
            return HttpResponse(_("Only the group's owner can change the edition table."), status=403)
        try:
            services.set_edition_table(group=group, game=game, overrides=edition.edition_overrides(request.POST))
        except RuleError as refused:
            error = describe(refused)
        else:
            messages.success(request, _("Saved. New sessions use these values; past results keep theirs."))
            return redirect("edition_table", group_id=group.pk, game=game)
    context = {
        "group": group,
        "game": get_game(game),
        "sections": edition.edition_rows(group.edition_tables.get(game)),
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
