"""A player's privacy (issue 44, point 8): hidden from the leaderboards, their data as a
download, and anonymised for good.

Who may: the group's owner, and the player's own account (``Player.user``) while it is a
member of the group; any other member is refused (``NotAllowed``: 403), and an outsider never
gets this far (the readers answer 404, as for every group object).

Anonymising replaces the name with a label (``Player 3``) wherever the app keeps it, and
removes what else ties the player to a person, but changes no result, rank, score or rating:
the others played those games, and their statistics stay as they were. The label is numbered
within the group, not by the player's id: ids count every player of the site, so they would
tell how many players the site has and roughly when this one was added, where the group's
own count tells nothing the group does not know. docs/privacy.md describes it for the owner.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, Protocol, TypeVar

from django.contrib.admin.models import LogEntry
from django.contrib.auth.models import AnonymousUser, User
from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import OuterRef, Q, Subquery
from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext

from scoring import session as core
from scoring.errors import RuleError, gettext_noop
from sessions import names as naming
from sessions.models import (
    GameNight,
    Group,
    GuestDevice,
    Membership,
    PlainResult,
    Player,
    PlayerMonth,
    PlayerRating,
    PlayerTally,
    RatingHistory,
    Result,
    Seat,
    SessionEvent,
    WriteReceipt,
)
from sessions.statistics.ratings import conservative

FORMAT = "babel-companion/player"
VERSION = 1

ONLY_OWNER = gettext_noop("Only the group's owner, or the player's own account, can change a player's privacy.")
NOT_IN_GROUP = gettext_noop("{name} is not a player of {group}.")
ANONYMISED_ALREADY = gettext_noop("{name} is anonymised already.")
OPEN_GAME = gettext_noop("Finish or abandon the game {name} is playing first: its table shows their name.")


class NotAllowed(PermissionDenied):
    """A member who may not change this player's privacy: a 403 on the pages and in the API."""


# --- who may ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class PrivacyAccess:
    player: Player
    allowed: bool  # the owner, or the player's own account


def player_for_privacy(user: User | AnonymousUser, player_id: int) -> PrivacyAccess:
    """The player (with their group) and whether ``user`` may change their privacy; 404 unless
    ``user`` is a member of the player's group. One query."""
    if not user.is_authenticated:
        raise Http404
    role = Membership.objects.filter(group=OuterRef("group_id"), user=user).values("role")[:1]
    player = (
        Player.objects.select_related("group")
        .annotate(viewer_role=Subquery(role))
        .filter(pk=player_id, viewer_role__isnull=False)
        .first()
    )
    if player is None:
        raise Http404
    allowed = player.viewer_role == Membership.OWNER or player.user_id == user.pk
    return PrivacyAccess(player=player, allowed=allowed)


def _check(*, group: Group, player: Player, by: User) -> None:
    """RuleError for a player of another group, NotAllowed for anyone but the group's owner or
    the player's own account (a member of the group)."""
    if player.group_id != group.pk:
        raise RuleError(NOT_IN_GROUP, field="player", params={"name": player.name, "group": group.name})
    role = Membership.objects.filter(group=group, user=by).values_list("role", flat=True).first()
    if role != Membership.OWNER and not (role is not None and player.user_id == by.pk):
        raise NotAllowed(gettext(ONLY_OWNER))


# --- hidden from the leaderboards ------------------------------------------------------------


def set_hidden_from_leaderboards(*, group: Group, player: Player, hidden: bool, by: User) -> Player:
    """Hide the player from the leaderboards (or show them again). Their results stay: the
    statistics are not recomputed, and the others' ranks and ratings do not move."""
    _check(group=group, player=player, by=by)
    Player.objects.filter(pk=player.pk).update(hidden_from_leaderboards=hidden)
    player.hidden_from_leaderboards = hidden
    return player


class _OfAPlayer(Protocol):
    player_id: int


Row = TypeVar("Row", bound=_OfAPlayer)


def not_hidden(rows: list[Row]) -> list[Row]:
    """``rows`` (of other players: a player's opponents) without those hidden from the
    leaderboards: one query, none without rows."""
    if not rows:
        return rows
    asked = [row.player_id for row in rows]
    hidden = set(Player.objects.filter(pk__in=asked, hidden_from_leaderboards=True).values_list("pk", flat=True))
    return [row for row in rows if row.player_id not in hidden]


# --- anonymised ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Anonymised:
    player_id: int
    group_id: int
    label: str  # the name the player has now


def anonymise_player(*, group: Group, player: Player, by: User) -> Anonymised:
    """Replace the player's name with a label, everywhere the app keeps it, and unlink what else
    names the person; irreversible. Refused (nothing written) for a player of another group, a
    caller who may not, a player anonymised already, or one seated in a game still open: its
    table, and the phones following it, show the name as they play.

    Kept as they are: every seat (colours too: a piece's colour in a past game is the game's,
    not the person's), result, rating and statistic, and the moves made from an account (they
    name the account, not the player)."""
    with transaction.atomic():
        _check(group=group, player=player, by=by)
        # The group's row first: two anonymisations in the group at once must not pick the same number.
        Group.objects.select_for_update().filter(pk=group.pk).values_list("pk").get()
        player = Player.objects.select_for_update().get(pk=player.pk)
        said = {"name": player.name}
        if player.anonymised_at is not None:
            raise RuleError(ANONYMISED_ALREADY, field="confirm", params=said)
        seated = Seat.objects.filter(player=player)
        if seated.filter(session__status__in=core.OPEN_STATUSES).exists():
            raise RuleError(OPEN_GAME, field="confirm", params=said)
        old, label = player.name, next_label(group)
        player.name, player.user, player.anonymised_at = label, None, timezone.now()
        player.save(update_fields=["name", "user", "anonymised_at"])
        # The moves their phone sent are labelled with the name the player had then.
        SessionEvent.objects.filter(
            session_id__in=seated.values("session_id"), author__isnull=True, author_label=old
        ).update(author_label=label)
        GuestDevice.objects.filter(player=player).update(player=None)
        GuestDevice.objects.filter(requested=player).update(requested=None)
        _relabel_notes(group, old, label)
        _relabel_receipts(group, old, label)
        LogEntry.objects.filter(
            content_type=ContentType.objects.get_for_model(Player), object_id=str(player.pk)
        ).update(object_repr=label)
    return Anonymised(player_id=player.pk, group_id=group.pk, label=label)


def next_label(group: Group) -> str:
    """``Player n`` in the language of the one anonymising (a name is stored once, as the
    group's other names are): n counts the group's anonymised players, skipping any label
    that cannot be told apart from a name the group has."""
    taken = naming.NameIndex((name, name) for name in group.players.values_list("name", flat=True))
    number = Player.objects.filter(group=group, anonymised_at__isnull=False).count() + 1
    while (label := gettext("Player %(number)d") % {"number": number}) in taken:
        number += 1
    return label


def _relabel_notes(group: Group, old: str, label: str) -> None:
    """The name as a word of the group's night notes (free text: "Ada brought the cubes")."""
    word = re.compile(rf"(?<!\w){re.escape(old)}(?!\w)")
    nights = list(GameNight.objects.filter(group=group, notes__icontains=old))
    for night in nights:
        night.notes = word.sub(label, night.notes)
    GameNight.objects.bulk_update(nights, ["notes"])


def _relabel_receipts(group: Group, old: str, label: str) -> None:
    """What the removal and merge pages remember for a repeated tap names the player."""
    receipts = list(
        WriteReceipt.objects.filter(Q(result__removed__group_id=group.pk) | Q(result__merged__group_id=group.pk))
    )
    for receipt in receipts:
        done = receipt.result.get("removed") or receipt.result.get("merged") or {}
        for field in ("name", "drop", "keep"):
            if done.get(field) == old:
                done[field] = label
    WriteReceipt.objects.bulk_update(receipts, ["result"])


# --- the export ------------------------------------------------------------------------------


def _when(value: datetime | date | None) -> str | None:
    return value.isoformat() if value is not None else None


def player_document(player: Player) -> dict[str, Any]:
    """Everything the app keeps about the player in their group, as one JSON-ready document:
    a fixed number of queries (eleven), however long the player's history. Other players
    appear only as counts: their names are theirs."""
    group = player.group
    sessions = Seat.objects.filter(player=player)
    account = player.user.get_username() if player.user_id and player.user else None
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": _when(timezone.now()),
        "group": {"id": group.pk, "name": group.name},
        "player": {
            "id": player.pk,
            "name": player.name,
            "account": account,
            "created_at": _when(player.created_at),
            "archived_at": _when(player.archived_at),
            "hidden_from_leaderboards": player.hidden_from_leaderboards,
            "anonymised_at": _when(player.anonymised_at),
        },
        "seats": [
            {
                "session": seat.session_id,
                "game": seat.session.game,
                "status": seat.session.status,
                "night": seat.session.night_id,
                "date": _when(seat.session.night.date),
                "order": seat.order,
                "colour": seat.colour,
            }
            for seat in sessions.select_related("session__night").order_by("session_id")
        ],
        "results": [
            {
                "session": result.session_id,
                "game": result.session.game,
                "night": result.session.night_id,
                "date": _when(result.session.night.date),
                "finished_at": _when(result.session.finished_at),
                "rank": result.rank,
                "score": result.score,
                "breakdown": result.breakdown,
            }
            for result in Result.objects.filter(player=player).select_related("session__night").order_by("session_id")
        ],
        "ratings": [
            {
                "game": row.game,
                "mu": row.mu,
                "sigma": row.sigma,
                "rating": round(conservative(row.mu, row.sigma), 4),
                "plays": row.plays,
                "wins": row.wins,
                "last_played": _when(row.last_played),
                "best": row.best,
                "worst": row.worst,
                "score_sum": row.score_sum,
                "scored": row.scored,
                "streak": row.streak,
                "longest_streak": row.longest_streak,
            }
            for row in PlayerRating.objects.filter(player=player).order_by("game")
        ],
        "rating_history": [
            dict(zip(HISTORY_FIELDS, point, strict=True))
            for points in RatingHistory.objects.filter(player=player).order_by("year").values_list("points", flat=True)
            for point in points
        ],
        "months": [
            {"game": game, "month": _when(month), "plays": plays, "wins": wins}
            for game, month, plays, wins in PlayerMonth.objects.filter(player=player)
            .order_by("month", "game")
            .values_list("game", "month", "plays", "wins")
        ],
        "tallies": [
            {"game": game, "plays": plays, "wins": wins}
            for game, plays, wins in PlayerTally.objects.filter(player=player)
            .order_by("game")
            .values_list("game", "plays", "wins")
        ],
        "plain_results": [
            {
                "source": row.source,
                "play": row.play,
                "game": row.game,
                "played_at": _when(row.played_at),
                "place": row.place,
                "rank": row.rank,
                "score": row.score,
                "winner": row.winner,
            }
            for row in PlainResult.objects.filter(player=player).order_by("played_at", "play")
        ],
        "phone_moves": [
            {"session": session_id, "seq": seq, "type": kind, "at": _when(at)}
            for session_id, seq, kind, at in SessionEvent.objects.filter(
                session_id__in=sessions.values("session_id"), author__isnull=True, author_label=player.name
            )
            .order_by("session_id", "seq")
            .values_list("session_id", "seq", "type", "created_at")
        ],
        "phones": [
            {"night": night, "joined_at": _when(joined), "last_seen": _when(seen)}
            for night, joined, seen in GuestDevice.objects.filter(Q(player=player) | Q(requested=player))
            .order_by("night_id", "pk")
            .values_list("night_id", "created_at", "last_seen")
        ],
    }


# A point of RatingHistory.points, by name.
HISTORY_FIELDS = ("played_at", "session", "game", "mu", "sigma", "overall_mu", "overall_sigma")
