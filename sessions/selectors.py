"""Reads. Every lookup of group data goes through the member's groups, so an outsider
gets a 404 and never learns whether a group exists."""

from __future__ import annotations

import copy
import pickle
import threading
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

from django.contrib.auth.models import AnonymousUser
from django.contrib.auth.models import User as Account
from django.core.paginator import Page, Paginator
from django.db.models import Count, DateTimeField, Exists, F, Max, Model, OuterRef, Prefetch, Q, QuerySet, Subquery
from django.db.models.expressions import RawSQL
from django.db.models.functions import Coalesce
from django.http import Http404
from django.utils import timezone

from scoring import session as core
from scoring.tower_of_babel import engine as tob
from sessions.games import Game, game_name, get_game
from sessions.models import (
    GameNight,
    GameSession,
    Group,
    GuestDevice,
    JoinCode,
    Membership,
    PlainResult,
    Player,
    Result,
    Seat,
    SessionEvent,
    WriteReceipt,
)
from sessions.table import keys
from sessions.table.shown import Shown

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


def _of_members(user: User, rows: QuerySet[M], pk: int) -> QuerySet[M]:
    """``rows`` narrowed to the one with ``pk`` if it belongs to one of the user's groups."""
    return rows.filter(pk=pk, group__memberships__user=user) if user.is_authenticated else rows.none()


def _of_member(user: User, rows: QuerySet[M], pk: int) -> M:
    """The row if it belongs to one of the user's groups, else 404 (exists or not): one query."""
    row = _of_members(user, rows, pk).first()
    if row is None:
        raise Http404
    return row


def night_of_member(user: User, night_id: int) -> GameNight:
    return _of_member(user, GameNight.objects.select_related("group"), night_id)


def player_of_member(user: User, player_id: int) -> Player:
    return _of_member(user, Player.objects.select_related("group"), player_id)


def _session_pages() -> QuerySet[GameSession]:
    """Sessions as their pages show them: with night, group and seats (no results)."""
    return with_seats(GameSession.objects.select_related("night", "group"), results=False)


def session_of_member(user: User, session_id: int) -> GameSession:
    """The session with its seats (its results, which no session page shows, read if asked)."""
    return _of_member(user, _session_pages(), session_id)


def live_session(session_id: int, version: int) -> GameSession:
    """The session a member's held live ticket names (``sessions.table.live``) at ``version``, with
    its seats (``kept_session``): the member was checked in full when the ticket was given,
    within its lifetime. 404 if gone."""
    found = kept_session(session_id, version)
    if found is None:
        raise Http404
    return found


# What a move changes of a session (``services`` saves these fields alone, and keeps their new
# values under ``keys.moved_session`` for the screens).
MOVED_FIELDS = ("state", "version", "status", "updated_at", "finished_at")


@dataclass(frozen=True)
class KeptSession:
    session: GameSession
    read_at: float  # when its night, group and seats were read from the database (time.time())


def moved_fields(session: GameSession) -> dict[str, Any]:
    return {field: getattr(session, field) for field in MOVED_FIELDS}


def kept_session(session_id: int, version: int | None) -> GameSession | None:
    """The session with its night, group and seats as it is at ``version``: read once a version
    for every screen of the table, through the cache (the database's, when it is another
    version by now, is read and not kept).

    A version a move made is built without a query from the version before's copy and the
    fields the move changed, while that copy's night, group and seats were read less than
    keys.SHOWN_SESSION_SECONDS ago: a renamed player shows within that time, as when each version
    was read anew. Each process also keeps the newest version it showed of each session
    (``_shown_here``): its other screens of that version copy it rather than read it from the
    cache and unpickle it again."""
    here = _shown_here.newest(session_id)
    if here is not None and version is not None and here.kept.session.version == version:
        return here.session()
    key = keys.shown_session(session_id, version)
    before_key, moved = keys.shown_session(session_id, (version or 0) - 1), keys.moved_session(session_id, version or 0)
    before_here = here.kept if here is not None and version and here.kept.session.version == version - 1 else None
    if not version:
        asked = [key]
    elif before_here is not None:  # the version before is here: only what the move changed
        asked = [key, moved]
    else:
        asked = [key, before_key, moved]
    kept = keys.kept_many(asked)
    if key in kept:
        found: KeptSession = kept[key]
        return _shown_here.keep(session_id, found).session()
    before: KeptSession | None = before_here or kept.get(before_key)
    if before is not None and moved in kept and time.time() - before.read_at < keys.SHOWN_SESSION_SECONDS:
        session = copy.copy(before.session)
        for field, value in kept[moved].items():
            setattr(session, field, value)
        built = KeptSession(session, before.read_at)
        keys.keep(key, built)
        return _shown_here.keep(session_id, built).session()
    read_at = time.time()
    found_now = _session_pages().filter(pk=session_id).first()
    if found_now is not None and found_now.version == version:
        kept_now = KeptSession(found_now, read_at)
        keys.keep(key, kept_now)
        return _shown_here.keep(session_id, kept_now).session()
    return found_now


@dataclass(frozen=True)
class _Shown:
    kept: KeptSession
    state: bytes  # the session's state, pickled: each screen works on a state of its own

    def session(self) -> GameSession:
        """A copy for one screen: the instance and its state its own; the night, group and
        seats shared, as no page changes them."""
        session = copy.copy(self.kept.session)
        session.state = pickle.loads(self.state)
        return session


class _ShownHere:
    """The newest version of each session this process showed (at most SESSIONS of them), for
    its other screens of that version: a session with its seats is 7-8 kB pickled, and
    unpickling it from the cache took 0.2 ms of each screen's fetch."""

    SESSIONS = 512

    def __init__(self) -> None:
        self._shown: dict[int, _Shown] = {}
        self._lock = threading.Lock()

    def newest(self, session_id: int) -> _Shown | None:
        """The newest version kept of the session, while its seats are recent enough to show."""
        shown = self._shown.get(session_id)
        if shown is None or time.time() - shown.kept.read_at >= keys.SHOWN_SESSION_SECONDS:
            return None
        return shown

    def keep(self, session_id: int, kept: KeptSession) -> _Shown:
        """``kept``, kept unless a newer version of the session is."""
        shown = _Shown(kept, pickle.dumps(kept.session.state, pickle.HIGHEST_PROTOCOL))
        with self._lock:
            now = self._shown.get(session_id)
            if now is None or now.kept.session.version <= kept.session.version:
                self._shown.pop(session_id, None)  # to the end: the oldest kept is dropped first
                self._shown[session_id] = shown
                if len(self._shown) > self.SESSIONS:
                    del self._shown[next(iter(self._shown))]
        return shown

    def clear(self) -> None:
        with self._lock:
            self._shown.clear()


_shown_here = _ShownHere()


def forget_shown_sessions() -> None:
    """Drop what this process keeps of the sessions it showed (the tests' databases reuse ids)."""
    _shown_here.clear()


def session_to_move(user: User, session_id: int) -> GameSession:
    """The session a move is sent to, without its seats (a move needs its state and version;
    a refused one reads the seats to show the page again): one query."""
    return _of_member(user, GameSession.objects.select_related("night", "group"), session_id)


def version_of_member(user: User, session_id: int) -> int:
    """404 unless the session belongs to one of the user's groups, else its version now, read
    without a lock: one query, for a 304 or a stale write (a write reads it again under its lock)."""
    found = _of_members(user, GameSession.objects.all(), session_id).values_list("version", flat=True).first()
    if found is None:
        raise Http404
    return found


def events_since(session_id: int, since: int) -> tuple[GameSession, list[SessionEvent]]:
    """The session and its events after ``since``, oldest first: two queries, whatever the
    log's length (no access check: the caller has made it, ``version_of_member``)."""
    session = GameSession.objects.get(pk=session_id)
    events = list(session.events.filter(seq__gt=since).select_related("author").order_by("seq"))
    return session, events


def key_used(session_id: int, idempotency_key: str) -> bool:
    """Whether the session recorded an event sent with this Idempotency-Key."""
    return SessionEvent.objects.filter(session_id=session_id, idempotency_key=idempotency_key[:64]).exists()


def after_write(session: GameSession, written: GameSession, *, user: User) -> GameSession:
    """``session`` (read with its seats and results for a page) as ``written`` left it: a
    move changes only these fields, so the page renders without reading it all again; a
    change of status (a finish writes the results) reads it again."""
    if written.status != session.status:
        return session_of_member(user, session.pk)
    for name in ("state", "version", "updated_at", "finished_at"):
        setattr(session, name, getattr(written, name))
    return session


def replayed_state(session: GameSession) -> Any:
    """The state a full replay of the session's log gives (the cache must equal it)."""
    return core.replay(
        get_game(session.game).rules,
        seats=[seat.key for seat in session.seats.all()],
        options=session.options,
        seed=session.seed,
        events=[event.as_core_event() for event in session.events.all()],
    )


def with_seats(sessions: QuerySet[GameSession], *, results: bool = True) -> QuerySet[GameSession]:
    """``sessions`` with their seats' players and, for the lists that show them, results."""
    seats = sessions.prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("player")))
    return (
        seats.prefetch_related(Prefetch("results", queryset=Result.objects.select_related("player")))
        if results
        else seats
    )


# --- join codes and the phones of a night ----------------------------------------------------

WORKING, REVOKED, REPLACED, EXPIRED = "working", "revoked", "replaced", "expired"
DEVICES = "guest_devices"  # in the visitor's session: night id -> the id of its GuestDevice


def device_ids(session: Mapping[str, Any]) -> list[int]:
    """The ids of the devices a visitor's session (its cookie) joined nights with."""
    return [int(pk) for pk in session.get(DEVICES, {}).values()]


def normalise_code(code: str) -> str:
    return "".join(ch for ch in code.upper() if ch.isalnum())[:12]


def join_code_named(code: str) -> JoinCode | None:
    """The code as typed (any state), or None: the lookup a guess costs."""
    return JoinCode.objects.select_related("night").filter(code=normalise_code(code)).first()


def code_state(join_code: JoinCode, *, last_ended: datetime | None, any_open: bool) -> str:
    """Whether the code works, and if not why: revoked (replaced when the night has a newer
    working code), or expired some hours after the night's last game."""
    if join_code.revoked_at is not None:
        newer = JoinCode.objects.filter(night_id=join_code.night_id, revoked_at__isnull=True, pk__gt=join_code.pk)
        return REPLACED if newer.exists() else REVOKED
    expires = join_code.expires_at(last_ended, any_open)
    return EXPIRED if expires is not None and expires <= timezone.now() else WORKING


def night_sessions_summary(night_id: int) -> tuple[datetime | None, bool]:
    """When the night's last closed session ended, and whether one is open."""
    found = GameSession.objects.filter(night_id=night_id).aggregate(
        open=Count("pk", filter=Q(status__in=core.OPEN_STATUSES)),
        last=Max("updated_at", filter=~Q(status__in=core.OPEN_STATUSES)),
    )
    return found["last"], bool(found["open"])


def join_code_state(join_code: JoinCode) -> str:
    """``code_state`` of a code looked up alone (its night's sessions read for it)."""
    last_ended, any_open = night_sessions_summary(join_code.night_id)
    return code_state(join_code, last_ended=last_ended, any_open=any_open)


def current_join_code(session: GameSession) -> JoinCode | None:
    """The night's code the host shows (the session's night)."""
    return JoinCode.objects.filter(night_id=session.night_id, revoked_at__isnull=True).order_by("-created_at").first()


# What a rematch records as it opens (``services.rematch_session`` starts it and names its
# first player at once): a rematch nobody has moved in yet has not really started.
REMATCH_OPENING = (core.START, tob.FIRST_PLAYER)


@dataclass(frozen=True)
class NextGame:
    """The night's game that waits to start while another is shown: its name, and whether it
    is the shown game's rematch."""

    name: str
    rematch: bool


def _began() -> RawSQL:
    """When each session of ``joined_device``'s rows really started: its start, or for a
    rematch (opened started) its first move after the opening; None while it has not.
    Written out: built with the ORM, this subquery doubled the time to build the query every
    phone's fetch asks. It reads the row's session by its table's name, the alias of the
    query's one join to it."""
    events, sessions = SessionEvent._meta.db_table, GameSession._meta.db_table
    sql = (
        f"SELECT e.created_at FROM {events} e WHERE e.session_id = {sessions}.id AND ("
        f"({sessions}.rematch_of_id IS NULL AND e.type = %s) OR "
        f"({sessions}.rematch_of_id IS NOT NULL AND e.type NOT IN (%s, %s))) ORDER BY e.seq LIMIT 1"
    )
    return RawSQL(sql, [core.START, *REMATCH_OPENING], output_field=DateTimeField())


def _played_at(row: Any) -> tuple[datetime, int]:
    """When a session of ``joined_device``'s rows last changed what the night plays: its
    finish, else its start (ties: the newer session)."""
    if row.session_status == core.FINISHED:
        return row.session_finished or row.session_updated, row.session_id
    return row.began, row.session_id


def joined_device(device_ids: list[int], code: str) -> GuestDevice | None:
    """The visitor's own device that joined through this code, whatever its state, with what
    its phone shows: ``shown_id``, ``shown_version``, ``shown_rank`` (2: its player's open
    game, 1: another game while one is open, 0: none open), ``shown_next`` (a ``NextGame``
    waiting to start, or None) and ``last_ended``.

    The night's current game is the one most recently started or finished (a seated phone's
    own game under way first): a finished game's podium stays until the next game really
    starts, even once its rematch is open; before any game started, the newest open one.

    One plain query, a row per session of the night (joined to the device), and the choice
    made here: every phone asks this on every fetch, and the query of nested subqueries that
    chose in SQL cost 15 ms to build."""
    if not device_ids:
        return None
    seated = Seat.objects.filter(session=OuterRef("night__sessions"), player=OuterRef("player"))
    rows = list(
        GuestDevice.objects.select_related("join_code", "night", "player", "requested")
        .filter(pk__in=device_ids, join_code__code=normalise_code(code))
        .annotate(
            session_id=F("night__sessions"),
            session_version=F("night__sessions__version"),
            session_status=F("night__sessions__status"),
            session_updated=F("night__sessions__updated_at"),
            session_finished=F("night__sessions__finished_at"),
            session_game=F("night__sessions__game"),
            session_rematch_of=F("night__sessions__rematch_of"),
            began=_began(),
            mine=Exists(seated),
        )
        .order_by("-night__sessions__created_at", "-night__sessions__id")
    )
    if not rows:
        return None
    sessions = [row for row in rows if row.session_id is not None]
    opened = [row for row in sessions if row.session_status in core.OPEN_STATUSES]
    under_way = [row for row in opened if row.began is not None and row.session_status != core.SETUP]
    mine = [row for row in under_way if row.mine]
    played = mine or under_way + [row for row in sessions if row.session_status == core.FINISHED]
    waiting = [row for row in opened if row.began is None or row.session_status == core.SETUP]
    seated_waiting = [row for row in waiting if row.mine]
    shown = max(played, key=_played_at) if played else next(iter(seated_waiting or opened or sessions), None)
    device = rows[0]
    device.shown_id = shown.session_id if shown else None  # type: ignore[attr-defined]
    device.shown_version = shown.session_version if shown else None  # type: ignore[attr-defined]
    device.shown_rank = 2 if mine else 1 if opened else 0  # type: ignore[attr-defined]
    device.shown_next = (  # type: ignore[attr-defined]
        NextGame(game_name(waiting[0].session_game), waiting[0].session_rematch_of == shown.session_id)
        if played and waiting and shown is not None
        else None
    )
    ended = [row.session_updated for row in sessions if row.session_status not in core.OPEN_STATUSES]
    device.last_ended = max(ended, default=None)  # type: ignore[attr-defined]
    return device


def ticket_device(device_id: int, shown: Shown) -> GuestDevice | None:
    """The device a live ticket names (``sessions.table.live``), showing what the ticket says: the
    ticket holds only while nothing of the night that ``joined_device`` chose by has changed,
    and neither does the device (its seat, its request), so it is read once per night revision."""
    key = keys.ticket_device(device_id, shown.night_id, shown.revision)
    device: GuestDevice | None = keys.kept(key)
    if device is None:
        found = GuestDevice.objects.select_related("join_code", "night", "player", "requested").filter(pk=device_id)
        device = found.first()
        if device is None or device.night_id != shown.night_id or device.night.live_revision != shown.revision:
            return None  # gone, or changed since: checked in full
        keys.keep(key, device)
    device.shown_id = shown.session_id  # type: ignore[attr-defined]
    device.shown_version = shown.session_version  # type: ignore[attr-defined]
    return device


def device_code_state(device: GuestDevice) -> str:
    """``code_state`` of the device's code, from ``joined_device``'s annotations."""
    any_open = bool(device.shown_rank)  # type: ignore[attr-defined]
    return code_state(device.join_code, last_ended=device.last_ended, any_open=any_open)  # type: ignore[attr-defined]


def shown_session(device: GuestDevice) -> GameSession | None:
    """The session the device's phone shows, with its seats (``joined_device``'s choice), at
    the version ``joined_device`` (or the phone's ticket) found (``kept_session``)."""
    shown_id = getattr(device, "shown_id", None)
    if shown_id is None:
        return None
    return kept_session(shown_id, getattr(device, "shown_version", None))


def phones_of_seats(device: GuestDevice) -> tuple[dict[int, int], list[int]]:
    """The night's phones as ``device``'s page shows them: player id -> the id of the device
    holding it, and the ids of the devices asking for ``device``'s player (oldest first). One
    query per night revision (a seat taken, left or asked for changes it), shared by the
    night's phones through the cache."""
    key = keys.night_phones(device.night_id, device.night.live_revision)
    rows: list[tuple[int, int | None, int | None]] | None = keys.kept(key)
    if rows is None:
        rows = list(
            GuestDevice.objects.filter(Q(player__isnull=False) | Q(requested__isnull=False), night_id=device.night_id)
            .order_by("created_at", "pk")
            .values_list("pk", "player_id", "requested_id")
        )
        keys.keep(key, rows)
    held = {player_id: pk for pk, player_id, _requested in rows if player_id is not None}
    asking = [pk for pk, _player, requested_id in rows if device.player_id and requested_id == device.player_id]
    return held, asking


@dataclass(frozen=True)
class SeatOnPhones:
    """A seat of the session as the host's page shows it: the phone holding it and who asks."""

    player: Player
    holder: GuestDevice | None
    requests: list[GuestDevice]


def phones_of_session(session: GameSession) -> list[SeatOnPhones]:
    devices = list(GuestDevice.objects.select_related("join_code").filter(night_id=session.night_id))
    seats = []
    for seat in session.seats.all():
        holder = next((d for d in devices if d.player_id == seat.player_id), None)
        asking = [d for d in devices if d.requested_id == seat.player_id]
        seats.append(SeatOnPhones(player=seat.player, holder=holder, requests=asking))
    return seats


@dataclass(frozen=True)
class HostPhones:
    """The phones panel of the host's page: the night's code and each seat's phones."""

    join_code: JoinCode | None
    seats: list[SeatOnPhones]


def host_phones(session: GameSession, *, revision: int) -> HostPhones:
    """The night's code and the phones of the session's seats, as the host's page shows them
    at the night's ``revision``: two queries per night revision (a code made or revoked, a
    seat taken, left or asked for changes it), not on every render of the host's region
    after every move."""
    key = keys.host_phones(session.pk, revision)
    kept: HostPhones | None = keys.kept(key)
    if kept is None:
        kept = HostPhones(join_code=current_join_code(session), seats=phones_of_session(session))
        keys.keep(key, kept)
    return kept


def night_revision(session: GameSession) -> int:
    """The ``live_revision`` of the session's night, from the cache when it can (the host's
    unchanged poll must stay at four queries); ``services._bump_night`` drops it on change."""
    found = keys.night_revision_now(session.pk)
    if found is None:
        found = GameNight.objects.filter(sessions__pk=session.pk).values_list("live_revision", flat=True).first() or 0
        keys.keep_night_revision(session.pk, found)
    return int(found)


def nights_of(group: Group) -> QuerySet[GameNight]:
    return group.nights.all()


def sessions_of_night(night: GameNight) -> QuerySet[GameSession]:
    return with_seats(night.sessions.all())


def play_log(group: Group, *, limit: int = 100) -> QuerySet[GameSession]:
    """The group's newest finished sessions (the group page's recent results; the play log's
    own reads are in ``sessions/play_log/``)."""
    finished = group.sessions.filter(status="finished").select_related("night").order_by("-finished_at", "-id")
    return with_seats(finished)[:limit]


def players_of(group: Group) -> QuerySet[Player]:
    """The group's players who can take a seat (not archived), with their tallies."""
    return group.players.filter(archived_at__isnull=True).prefetch_related("tallies")


def archived_players(group: Group) -> QuerySet[Player]:
    return group.players.filter(archived_at__isnull=False)


def other_players(player: Player) -> QuerySet[Player]:
    """The players of ``player``'s group that it could be merged into."""
    return Player.objects.filter(group_id=player.group_id).exclude(pk=player.pk)


def write_receipt(user: User, key: str | None) -> dict[str, Any] | None:
    """What a write sent with this idempotency key gave (``services.run_once``), if it ran:
    a repeated removal or merge answers so, its player being gone."""
    if not key or not user.is_authenticated:
        return None
    return WriteReceipt.objects.filter(user=user, key=key[:64]).values_list("result", flat=True).first()


@dataclass(frozen=True)
class PlayerHistory:
    seats: int
    results: int
    other_plays: int  # results of games this app does not track (imported)

    @property
    def any(self) -> bool:
        return bool(self.seats or self.results or self.other_plays)


def player_history(player: Player) -> PlayerHistory:
    """How much of the group's history names the player: one query."""
    counts = {  # "n_": the names of the relations are taken
        f"n_{name}": Coalesce(
            Subquery(
                model.objects.filter(player=OuterRef("pk"))
                .order_by()
                .values("player")
                .annotate(n=Count("pk"))
                .values("n")
            ),
            0,
        )
        for name, model in (("seats", Seat), ("results", Result), ("other_plays", PlainResult))
    }
    found = Player.objects.filter(pk=player.pk).annotate(**counts).values(*counts).get()
    return PlayerHistory(**{name.removeprefix("n_"): count for name, count in found.items()})


PLAYERS_PER_PAGE = 30


def players_page(group: Group, *, search: str, page: str | None) -> Page[Player]:
    """A page of the group's players by name, those whose name holds ``search`` if given: a
    group of a thousand players shows thirty at a time (a page number out of range gives the
    nearest page)."""
    players = players_of(group)
    if search:
        players = players.filter(name__icontains=search)
    return Paginator(players, PLAYERS_PER_PAGE).get_page(page)


def members_of(group: Group) -> QuerySet[Membership]:
    return group.memberships.select_related("user").order_by("role", "user__username")


# --- the defaults of a new session and of a rematch ---------------------------------------


def last_table(night: GameNight) -> list[int]:
    """The players of the night's latest session, in seat order; of the group's latest when
    the night has none yet (the same people usually play on)."""
    for sessions in (night.sessions.all(), GameSession.objects.filter(group_id=night.group_id)):
        latest = sessions.order_by("-id").values_list("pk", flat=True).first()
        if latest is not None:
            return list(Seat.objects.filter(session_id=latest).order_by("order").values_list("player_id", flat=True))
    return []


def remembered_colours(group_id: int, game: str, player_ids: Iterable[int]) -> dict[int, str]:
    """Each player's colour in their latest session of ``game`` in the group that gave them
    one (one query, however long the history)."""
    latest = (
        Seat.objects.filter(player=OuterRef("pk"), session__group_id=group_id, session__game=game)
        .exclude(colour="")
        .order_by("-session_id")
        .values("colour")[:1]
    )
    rows = Player.objects.filter(pk__in=list(player_ids)).annotate(colour=Subquery(latest))
    return {pk: colour for pk, colour in rows.values_list("pk", "colour") if colour}


def seat_defaults(night: GameNight, game: Game) -> list[tuple[int, str]]:
    """(player id, colour) per seat for a new session of ``game``: the night's last table, as
    many as the rules let play with the game's default options, and their remembered colours."""
    players = last_table(night)
    count, options = len(players), game.clean_options({})
    while count > game.min_players and not game.allows(count, options):
        count -= 1
    players = players[:count]
    return list(zip(players, seat_colours(night.group_id, game, players), strict=True))


def seat_colours(group_id: int, game: Game, player_ids: Sequence[int], given: Sequence[str] = ()) -> list[str]:
    """A colour per seat of a new session of ``game``, for the form's defaults and the API alike:
    the one given for it (``given`` may stop short of the seats; an empty one is no colour), else
    the colour its player last had in that game in the group unless another seat has it, else
    the first free one (``Game.default_colours``)."""
    missing = player_ids[len(given) :]
    remembered = remembered_colours(group_id, game.slug, missing) if game.colours and missing else {}
    return game.default_colours([remembered.get(p) for p in player_ids], given=given)


def chosen_first_player(session: GameSession) -> str | None:
    """The seat a Tower of Babel table chose to play first (TB-9), if it chose one."""
    chosen = (
        session.events.filter(type=tob.FIRST_PLAYER, seq__in=session.state["in_effect"])
        .values_list("payload", flat=True)
        .first()
    )
    return str(chosen["seat"]) if chosen else None
