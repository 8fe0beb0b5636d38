"""Reads. Every lookup of group data goes through the member's groups, so an outsider
gets a 404 and never learns whether a group exists."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser
from django.contrib.auth.models import User as Account
from django.db.models import Prefetch, QuerySet
from django.http import Http404

from sessions.models import GameNight, GameSession, Group, JoinCode, Membership, Player, Result, Seat

User = Account | AnonymousUser


def groups_of(user: User) -> QuerySet[Group]:
    if not user.is_authenticated:
        return Group.objects.none()
    return Group.objects.filter(memberships__user=user).order_by("name")


def membership(user: User, group_id: int) -> Membership:
    """The user's membership of the group, or 404."""
    if not user.is_authenticated:
        raise Http404
    found = Membership.objects.select_related("group").filter(user=user, group_id=group_id).first()
    if found is None:
        raise Http404
    return found


def night_of_member(user: User, night_id: int) -> GameNight:
    night = GameNight.objects.select_related("group").filter(pk=night_id).first()
    if night is None:
        raise Http404
    membership(user, night.group_id)
    return night


def player_of_member(user: User, player_id: int) -> Player:
    player = Player.objects.select_related("group").filter(pk=player_id).first()
    if player is None:
        raise Http404
    membership(user, player.group_id)
    return player


def session_of_member(user: User, session_id: int) -> GameSession:
    session = with_seats(GameSession.objects.select_related("night", "group")).filter(pk=session_id).first()
    if session is None:
        raise Http404
    membership(user, session.group_id)
    return session


def with_seats(sessions: QuerySet[GameSession]) -> QuerySet[GameSession]:
    return sessions.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player")),
        Prefetch("results", queryset=Result.objects.select_related("player")),
    )


def working_join_code(code: str) -> JoinCode | None:
    found = JoinCode.objects.select_related("session").filter(code=normalise_code(code)).first()
    return found if found is not None and found.works else None


def normalise_code(code: str) -> str:
    return "".join(ch for ch in code.upper() if ch.isalnum())


def current_join_code(session: GameSession) -> JoinCode | None:
    return session.join_codes.filter(revoked_at__isnull=True).order_by("-created_at").first()


def nights_of(group: Group) -> QuerySet[GameNight]:
    return group.nights.all()


def sessions_of_night(night: GameNight) -> QuerySet[GameSession]:
    return with_seats(night.sessions.all())


def play_log(group: Group, *, limit: int = 100) -> QuerySet[GameSession]:
    finished = group.sessions.filter(status="finished").select_related("night").order_by("-finished_at", "-id")
    return with_seats(finished)[:limit]


def players_of(group: Group) -> QuerySet[Player]:
    return group.players.prefetch_related("tallies")


def members_of(group: Group) -> QuerySet[Membership]:
    return group.memberships.select_related("user").order_by("role", "user__username")
