"""Reads. Every lookup of group data goes through the member's groups, so an outsider
gets a 404 and never learns whether a group exists."""

from __future__ import annotations

from typing import Any, TypeVar

from django.contrib.auth.models import AnonymousUser
from django.contrib.auth.models import User as Account
from django.db.models import Model, Prefetch, QuerySet
from django.http import Http404
from django.utils import timezone

from scoring import session as core
from sessions.games import get_game
from sessions.models import GameNight, GameSession, Group, JoinCode, Membership, PlainResult, Player, Result, Seat

User = Account | AnonymousUser
M = TypeVar("M", bound=Model)


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


def _of_member(user: User, rows: QuerySet[M], pk: int) -> M:
    """The row if it belongs to one of the user's groups, else 404 (exists or not)."""
    row = rows.filter(pk=pk).first()
    if row is None:
        raise Http404
    membership(user, row.group_id)  # type: ignore[attr-defined]
    return row


def night_of_member(user: User, night_id: int) -> GameNight:
    return _of_member(user, GameNight.objects.select_related("group"), night_id)


def player_of_member(user: User, player_id: int) -> Player:
    return _of_member(user, Player.objects.select_related("group"), player_id)


def session_of_member(user: User, session_id: int) -> GameSession:
    return _of_member(user, with_seats(GameSession.objects.select_related("night", "group")), session_id)


def replayed_state(session: GameSession) -> Any:
    """The state a full replay of the session's log gives (the cache must equal it)."""
    return core.replay(
        get_game(session.game).rules,
        seats=[seat.key for seat in session.seats.all()],
        options=session.options,
        seed=session.seed,
        events=[event.as_core_event() for event in session.events.all()],
    )


def with_seats(sessions: QuerySet[GameSession]) -> QuerySet[GameSession]:
    return sessions.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player")),
        Prefetch("results", queryset=Result.objects.select_related("player")),
    )


def working_join_code(code: str) -> JoinCode | None:
    found = JoinCode.objects.select_related("session").filter(code=normalise_code(code)).first()
    return found if found is not None and found.works else None


def followed_join_code(code: str) -> JoinCode | None:
    found = JoinCode.objects.select_related("session").filter(code=normalise_code(code)).first()
    return found if found is not None and found.lets_follow(timezone.now()) else None


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


def other_plays(group: Group, *, limit: int = 100) -> list[list[PlainResult]]:
    """Plays of other games (imported from BG Stats), newest first, each as its players' rows."""
    rows = group.plain_results.select_related("player").order_by("-played_at", "play", "rank", "player__name")
    plays: dict[tuple[str, str], list[PlainResult]] = {}
    for row in rows[: limit * 8]:
        plays.setdefault((row.source, row.play), []).append(row)
    return list(plays.values())[:limit]


def players_of(group: Group) -> QuerySet[Player]:
    return group.players.prefetch_related("tallies")


def members_of(group: Group) -> QuerySet[Membership]:
    return group.memberships.select_related("user").order_by("role", "user__username")
