"""Reads for the API lists: everything is limited to the caller's groups first, so a
filter naming another group's id finds nothing rather than telling it exists. The sessions
and results lists are put in order by their cursor pages (``sessions.api.pagination``)."""

from __future__ import annotations

from django.db import connection
from django.db.models import OuterRef, QuerySet, Subquery
from django.db.models.expressions import RawSQL

from sessions.models import GameNight, GameSession, Group, Membership, Player, Result
from sessions.selectors import User, with_seats


def groups_with_role(user: User) -> QuerySet[Group]:
    if not user.is_authenticated:
        return Group.objects.none()
    role = Membership.objects.filter(group=OuterRef("pk"), user=user).values("role")[:1]
    return Group.objects.filter(memberships__user=user).annotate(role=Subquery(role)).order_by("name", "id")


def group_with_role(user: User, group_id: int) -> Group | None:
    return groups_with_role(user).filter(pk=group_id).first()


def players_of_group(group: Group) -> QuerySet[Player]:
    return Player.objects.filter(group=group).order_by("name", "id")


def nights_of_group(group: Group) -> QuerySet[GameNight]:
    return GameNight.objects.filter(group=group).order_by("-date", "-id")


def sessions_of_user(user: User) -> QuerySet[GameSession]:
    if not user.is_authenticated:
        return GameSession.objects.none()
    mine = GameSession.objects.filter(group__memberships__user=user).select_related("night")
    return with_seats(mine)


def results_of_user(user: User) -> QuerySet[Result]:
    if not user.is_authenticated:
        return Result.objects.none()
    mine = Result.objects.filter(session__group__memberships__user=user).select_related("session__night", "player")
    # The list's order is its session's id read from the session's own table, not the equal
    # result.session_id: SQLite then walks the group's sessions newest first from their index
    # and sorts only each session's few results (by result.session_id it sorted every result
    # of the group: 217 ms at 100,000 sessions). The join (the session's table under its own
    # name) is the one the filter above makes. The session's state is not read for a row.
    quoted = connection.ops.quote_name
    session_id = RawSQL(f"{quoted(GameSession._meta.db_table)}.{quoted('id')}", ())
    return mine.defer("session__state", "session__secret", "session__options").annotate(session_order=session_id)
