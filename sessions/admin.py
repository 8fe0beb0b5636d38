from functools import partial
from typing import Any

from django.contrib import admin
from django.db import transaction
from django.http import HttpRequest

from scoring import session as core
from sessions.models import (
    ApiToken,
    GameNight,
    GameSession,
    GameStatistics,
    Group,
    GuestDevice,
    JoinCode,
    Membership,
    PlainResult,
    Player,
    PlayerRating,
    Result,
    Seat,
    SessionEvent,
)
from sessions.services import enqueue_statistics_rebuild


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0


@admin.register(Group)
class GroupAdmin(admin.ModelAdmin):
    list_display = ["name", "created_at"]
    inlines = [MembershipInline]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "group", "user", "archived_at"]
    list_filter = ["group"]


@admin.register(GameNight)
class GameNightAdmin(admin.ModelAdmin):
    list_display = ["date", "place", "group"]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0


class ResultInline(admin.TabularInline):
    model = Result
    extra = 0


@admin.register(GameSession)
class GameSessionAdmin(admin.ModelAdmin):
    """Staff may correct a finished session's results: the group's statistics are then rebuilt
    (queued once the change is committed), as they count only what the tasks saw. A session is
    not deleted here: its log is append-only (``SessionEventAdmin``)."""

    list_display = ["id", "game", "status", "version", "group", "created_at"]
    list_filter = ["game", "status"]
    inlines = [SeatInline, ResultInline]

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        super().save_related(request, form, formsets, change)
        if core.FINISHED in (form.instance.status, form.initial.get("status")):
            transaction.on_commit(partial(enqueue_statistics_rebuild, form.instance.group_id))


@admin.register(SessionEvent)
class SessionEventAdmin(admin.ModelAdmin):
    """Read-only: the log is append-only, even for staff."""

    list_display = ["session", "seq", "type", "author", "created_at"]

    def has_change_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False

    def has_delete_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False


@admin.register(JoinCode)
class JoinCodeAdmin(admin.ModelAdmin):
    list_display = ["code", "night", "created_at", "revoked_at"]


@admin.register(GuestDevice)
class GuestDeviceAdmin(admin.ModelAdmin):
    list_display = ["id", "night", "join_code", "player", "requested", "last_seen"]


@admin.register(PlayerRating)
class PlayerRatingAdmin(admin.ModelAdmin):
    """Computed from the Results (``manage.py rebuild_statistics`` recomputes them)."""

    list_display = ["player", "game", "mu", "sigma", "plays", "wins"]
    list_filter = ["game"]


@admin.register(GameStatistics)
class GameStatisticsAdmin(admin.ModelAdmin):
    list_display = ["group", "game", "plays"]


@admin.register(PlainResult)
class PlainResultAdmin(admin.ModelAdmin):
    list_display = ["game", "played_at", "player", "score", "rank", "winner", "source"]
    list_filter = ["source"]


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    """Names and dates only: the database holds a digest of each key, which cannot be used, and
    neither it nor the key's first characters are shown. Staff may revoke (delete) a token;
    a token is created by its owner on the API tokens page, where its key is shown once."""

    list_display = ["name", "user", "created", "expiry"]
    list_filter = ["expiry"]
    search_fields = ["name", "user__username"]
    fields = ["name", "user", "created", "expiry"]
    readonly_fields = ["name", "user", "created", "expiry"]

    def has_add_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False

    def has_change_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False
