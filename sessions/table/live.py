"""The live regions that devices fetch again and again: cheap when nothing changed.

The ETag is the session's version (plus what changes the rendering: language, viewer,
the page's own query), so a fetch that finds nothing new answers 304 with no body; only a
changed session is loaded in full and rendered, and that render is kept in the cache under
the ETag for the next device that shows the same thing (a second member's screen, a phone
that watches without a seat, a device fetching again): every device of a view, after a
change, costs one render, not one each. The devices of a view fetch a new version within a
few milliseconds of each other; those that ask while its first render is under way in their
process wait for it (``rendered_once``). What each device must have of its own, its CSRF
token and its forms' idempotency keys, is put in as the body is served. A phone that holds a
seat (whose region shows that seat's secrets) has its device in the ETag, so its render is
never another device's.

A fetch checked in full reads the Django session, the member or the phone's device and its
night (a dozen milliseconds of ORM on every fetch of every device). Its answer carries a
**ticket**: what that check found, signed, bound to the browser's session cookie, for one
path and for TICKET_SECONDS. A fetch that sends it back while the night's revision is the
one it names (no seat, code or session of the night changed meanwhile) reads the versions
from the cache (one small query when the cache lost them): the ticket gives the ETag's other
parts, so a 304 or a kept render is answered without the session, the user or the device.
A phone's ticket also names its device, so that a new version is rendered for it without
the Django session and the search of the night's devices that found it. Anything else (no
ticket, another cookie or path, an old ticket, a changed night) goes the full way and gets a
new one.
"""

from __future__ import annotations

import hashlib
import re
import threading
import uuid
import zlib
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any, TypeVar, cast

from django.conf import settings
from django.core import signing
from django.db import connection
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified, QueryDict
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from scoring import session as core
from sessions import caching
from sessions.boards import DRAFTS, HINTS, Board, board_for
from sessions.event_words import last_move
from sessions.games import get_game
from sessions.models import GameNight, GameSession
from sessions.table import keys
from sessions.table.shown import Row, Shown
from sessions.winners import winners


def live_response(
    request: HttpRequest,
    *,
    shown: Shown,
    render: Callable[[], HttpResponse],
    device_id: int | None = None,
    **varies: Any,
) -> HttpResponse:
    """``render()``'s answer, or 304 when the device already has this version of it; either
    with a ticket for the next fetch (naming the phone's ``device_id``, when it is one).

    ``varies`` names what else the rendering depends on (the viewer, its seat, ...); a
    render that varies with the ``device`` (a seat's secrets) is its device's alone, and is
    neither looked for nor kept in the cache.
    """
    rest = _rest(request.GET.urlencode(), varies)
    etag = _etag(shown.version, rest)
    if etag in request.headers.get("If-None-Match", ""):
        response: HttpResponse = _not_modified(etag)
    elif not _shared(rest):
        response = _revalidated(render(), etag)
    else:
        response = _kept_render(request, etag) or _rendered(request, etag, render)
    ticket = _ticket(request, shown, rest, device_id)
    if ticket:
        response[TICKET_HEADER] = ticket
    return response


@dataclass(frozen=True)
class Ticket:
    """A ticket a fetch sent back that still holds: what the full check found then, and the
    versions now."""

    sent: str
    shown: Shown
    rest: list[str]
    device_id: int | None  # a phone's device, else None

    @property
    def hints(self) -> bool:
        """Whether the view had the hints on when the ticket was given (a part of its ETag;
        switching them answers the region without a ticket, so the next fetch gets a new one)."""
        return "hints=True" in self.rest


def held_ticket(request: HttpRequest) -> Ticket | None:
    """The fetch's ticket, if it still holds (this browser, this path, within TICKET_SECONDS,
    the night's revision unchanged), else None: the fetch is then checked in full."""
    sent = request.headers.get(TICKET_HEADER, "")
    cookie = _cookie_of(request)
    if not sent or cookie is None:
        return None
    try:
        ticket = _signer().unsign_object(sent, max_age=TICKET_SECONDS)
    except signing.BadSignature:  # tampered with, or older than TICKET_SECONDS
        return None
    rest = ticket["rest"]
    asked = (request.path, cookie, [get_language(), request.GET.urlencode()])
    if (ticket["path"], ticket["cookie"], rest[:2]) != asked:
        return None
    shown = _shown_now(ticket["session"], ticket["night"])
    if shown is None or shown.revision != ticket["revision"]:  # a seat, a code or a session changed
        return None
    return Ticket(sent=sent, shown=shown, rest=rest, device_id=ticket.get("device"))


def from_ticket(request: HttpRequest, ticket: Ticket | None) -> HttpResponse | None:
    """The answer to a fetch whose ticket still holds, when it needs no render: a 304, or the
    render another device of its view already had. None otherwise."""
    if ticket is None:
        return None
    etag = _etag(ticket.shown.version, ticket.rest)
    if etag in request.headers.get("If-None-Match", ""):
        response: HttpResponse | None = _not_modified(etag)
    elif _shared(ticket.rest):
        response = _kept_render(request, etag)
    else:  # a render of this device's alone: none is kept
        response = None
    if response is not None:
        response[TICKET_HEADER] = ticket.sent
    return response


# A ticket is only a shortcut past checks that a change of the night's seats, codes or sessions
# makes again at once; what the revision does not follow (a member leaving the group, a code
# expiring hours after the night's last game) takes effect within this many seconds.
TICKET_SECONDS = 60
TICKET_HEADER = "Babel-Live-Ticket"


def _signer() -> signing.TimestampSigner:
    return signing.TimestampSigner(salt="sessions.table.live.ticket")


def _cookie_of(request: HttpRequest) -> str | None:
    """The browser's session cookie, hashed (a ticket never carries the cookie itself)."""
    cookie = request.COOKIES.get(settings.SESSION_COOKIE_NAME)
    return hashlib.sha256(cookie.encode()).hexdigest()[:32] if cookie else None


def _ticket(request: HttpRequest, shown: Shown, rest: list[str], device_id: int | None) -> str | None:
    cookie = _cookie_of(request)
    if cookie is None:  # a session begun by this very request: the next fetch gets one
        return None
    ticket = {
        "path": request.path,
        "cookie": cookie,
        "session": shown.session_id,
        "night": shown.night_id,
        "revision": shown.revision,
        "rest": rest,
        "device": device_id,
    }
    return _signer().sign_object(ticket, compress=True)


def _shown_now(session_id: int | None, night_id: int) -> Shown | None:
    """The versions as they are now: from the cache, which ``services`` writes them to, else
    in one small query."""
    if session_id is None:  # a phone waiting for a game: only the night's revision
        return shown_in_database(None, night_id)
    cached = keys.versions_now(session_id)
    if cached is not None:
        return Shown(session_id, night_id, *cached)
    shown = shown_in_database(session_id, night_id)
    if shown is not None:
        keys.keep_versions(session_id, shown.session_version, shown.revision)
    return shown


def shown_in_database(session_id: int | None, night_id: int) -> Shown | None:
    """What a region of the session (none: a phone waiting for a game) of the night shows now,
    or None when it is gone. One small query, written out: building it with the ORM took
    longer than running it."""
    night, session = GameNight._meta.db_table, GameSession._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT n.live_revision, s.version FROM {night} n "  # the models' own table names
            f"LEFT JOIN {session} s ON s.id = %s AND s.night_id = n.id WHERE n.id = %s",
            [session_id, night_id],
        )
        found = cursor.fetchone()
    if found is None or (session_id is not None and found[1] is None):  # gone since
        return None
    revision, version = found
    return Shown(session_id, night_id, version or 0, revision)


# A view's kind is ``live_context``'s viewer: the members' region, or a board's devices.
MEMBER = "member"
GUEST = "guest"  # the phones
TABLE = "table"  # the table displays


def _rest(query: str, varies: dict[str, Any]) -> list[str]:
    """The parts of an ETag besides the versions: the language, the page's query and ``varies``."""
    return [get_language(), query, *(f"{k}={v}" for k, v in sorted(varies.items()))]


def _shared(rest: list[str]) -> bool:
    """Whether other devices may get a render with these ETag parts: not when it names a
    device (a seated phone's region shows its seat's secrets)."""
    return not any(part.startswith("device=") and part != "device=" for part in rest)


def _etag(version: str, rest: list[str]) -> str:
    return '"' + "-".join([version, *rest]).replace('"', "") + '"'


def _not_modified(etag: str) -> HttpResponse:
    return _revalidated(HttpResponseNotModified(), etag)


def _revalidated(response: HttpResponse, etag: str) -> HttpResponse:
    response["ETag"] = etag
    # Always revalidate: the browser may keep the body, never reuse it unasked.
    response["Cache-Control"] = "private, no-cache"
    return response


CSRF_TOKEN = re.compile(r'(name="csrfmiddlewaretoken" value=")[^"]*(")')
IDEMPOTENCY_KEY = re.compile(r'(name="idempotency_key" value=")[0-9a-f]{32}(")')


# The request's attribute naming the kept render it found missing: a fetch with a ticket asks
# for it (``from_ticket``), then renders through ``live_response``, which would ask again.
NO_KEPT_RENDER = "_babel_no_kept_render"


def _kept_render(request: HttpRequest, etag: str) -> HttpResponse | None:
    """The render a device already had under this ETag, made this device's own."""
    key = keys.render(request.get_host(), request.path, etag)
    if getattr(request, NO_KEPT_RENDER, None) == key:  # asked already (``from_ticket``)
        return None
    kept = caching.get(key)
    if kept is None:
        setattr(request, NO_KEPT_RENDER, key)
        return None
    body, content_type = kept
    served = HttpResponse(for_this_device(request, zlib.decompress(body).decode()), content_type=content_type)
    return _revalidated(served, etag)


def _rendered(request: HttpRequest, etag: str, render: Callable[[], HttpResponse]) -> HttpResponse:
    """``render()``'s answer, kept for the next device of this ETag when it is a page; or,
    when another device of this process is rendering the same ETag now, its render made
    this device's own."""
    key = keys.render(request.get_host(), request.path, etag)
    mine: list[HttpResponse] = []

    def render_and_keep() -> tuple[str, str] | None:
        response = render()
        mine.append(response)
        if response.status_code != 200:  # not a page: each device gets its own answer
            return None
        body = response.content.decode()
        caching.add(key, (zlib.compress(response.content, 1), response["Content-Type"]), timeout=keys.RENDER_SECONDS)
        return body, response["Content-Type"]

    shared = rendered_once(key, render_and_keep)
    if mine:
        return _revalidated(mine[0], etag)
    if shared is None:
        return _revalidated(render(), etag)
    body, content_type = shared
    return _revalidated(HttpResponse(for_this_device(request, body), content_type=content_type), etag)


T = TypeVar("T")

# The renders this process is making now, by key: a device asking for one waits for it rather
# than making it again. After a move the devices of a view fetch the same version within a few
# milliseconds of each other; each process then renders each view once.
_rendering: dict[str, Future[Any]] = {}
_rendering_lock = threading.Lock()
# How long a device waits for another's render before it makes its own.
RENDER_WAIT_SECONDS = 10


def rendered_once(key: str, render: Callable[[], T]) -> T:
    """``render()``, or what the same render under ``key``, under way in another thread of
    this process, gives (its result or its exception)."""
    with _rendering_lock:
        under_way = _rendering.get(key)
        if under_way is None:
            ours: Future[Any] = Future()
            _rendering[key] = ours
    if under_way is not None:
        try:
            return cast(T, under_way.result(timeout=RENDER_WAIT_SECONDS))
        except TimeoutError:
            return render()
    try:
        result = render()
    except BaseException as error:
        ours.set_exception(error)
        raise
    else:
        ours.set_result(result)
        return result
    finally:
        with _rendering_lock:
            del _rendering[key]


def for_this_device(request: HttpRequest, body: str) -> str:
    """A kept render with this device's CSRF token, and a new idempotency key in each form
    (two devices, or two sends of one, must never share a key)."""
    return with_own_tokens(body, get_token(request))


def with_own_tokens(body: str, csrf_token: str) -> str:
    """``body`` with ``csrf_token`` in each form, and a new idempotency key in each."""
    body = CSRF_TOKEN.sub(lambda found: found[1] + csrf_token + found[2], body)
    return IDEMPOTENCY_KEY.sub(lambda found: found[1] + uuid.uuid4().hex + found[2], body)


def with_shared_board(request: HttpRequest, context: dict[str, Any]) -> None:
    """Puts a phone's board into ``context`` as ``board_html``, rendered once per version for
    every phone of the same view: a seat's own part (its hand, its offer) is small, the board
    (the towers, the wonders, the rows) is most of a phone's render, and each of a table's
    seated phones renders its region anew after every move."""
    key = _board_key(context)
    if key is None:
        return
    kept = caching.get(key)
    if kept is None:
        html = rendered_once(key, lambda: _rendered_board(request, context, key))
    else:
        html = zlib.decompress(kept).decode()
    # The template engine rendered it, escaping included; each device gets its own tokens.
    context["board_html"] = mark_safe(for_this_device(request, html))


def _board_key(context: dict[str, Any]) -> str | None:
    """The key of the board ``context`` shows, the same for every phone of its view; None when
    it shows none."""
    session, template = context.get("session"), context.get("board_template")
    if session is None or not template:
        return None
    view = [session.pk, session.version, get_language(), context["viewer"], context.get("code", ""), template]
    view.append(context.get("hints", False))
    view.append(context.get("board_variant", ""))  # a board one seat's phone draws otherwise
    return keys.board(view)


def _rendered_board(request: HttpRequest, context: dict[str, Any], key: str) -> str:
    html = render_to_string(context["board_template"], context, request=request)
    caching.add(key, zlib.compress(html.encode(), 1), timeout=keys.RENDER_SECONDS)
    return html


def region_shown(session: GameSession, *, revision: int | None = None) -> Shown:
    """What a region of ``session`` shows (the host's, a phone's, the table display's): the
    session at its version, in its night at the night's revision (``revision`` when the caller
    read it already: a phone's device is read with its night)."""
    from sessions.selectors import night_revision

    if revision is None:
        revision = night_revision(session)
    return Shown(session.pk, session.night_id, session.version, revision)


def shown_board(session: GameSession) -> Board | None:
    """The game's board as the pages show it: none when the table typed in the final scores or
    places while the board decided nothing (the ranks are then all there is to show, not a
    board nobody played on)."""
    rules, state = get_game(session.game).rules, session.state
    scored_by_hand = (
        rules.engine is not None
        and rules.entry.standings(state["entry"]) is not None
        and rules.engine.standings(state["game"]) is None
    )
    return None if scored_by_hand else board_for(session)


def live_context(
    session: GameSession,
    *,
    viewer: str,
    seat: str | None = None,
    hints: bool = False,
    said: dict[int, str] | None = None,
    shown: Shown | None = None,
    sent: QueryDict | None = None,
) -> dict[str, Any]:
    """What every viewer of a session sees: seats, status, the last move and the standings
    so far (and, for a viewer who switched them on, the hints of a game that has them).
    ``said`` is the log in words, and ``shown`` the host's versions, when the caller has them
    (``event_words.sentences``, ``region_shown``); ``sent``, a phone's form that comes back
    (a move sent a part at a time shows that part, ``DRAFTS``)."""
    standings = core.standings(get_game(session.game).rules, session.state) or []
    by_seat = {s.seat: s for s in standings}
    rows = [Row(seat=seat, standing=by_seat.get(seat.key)) for seat in session.seats.all()]
    rows.sort(key=lambda row: row.standing.rank if row.standing else 0)
    context = {
        "session": session,
        "game": get_game(session.game),
        "rows": rows,
        "viewer": viewer,
        "live_version": (shown or region_shown(session)).version,
        "last_move": last_move(session, said),
    }
    if session.status == core.FINISHED:
        context["winners"] = winners(session, rows)
    board = shown_board(session)
    if board is not None:
        context.update(board.board_context(session))
        context["board_template"] = board.BOARD_TEMPLATE
        context["controls"] = viewer == MEMBER and session.is_open
        if viewer == GUEST and session.is_open:  # a phone at the table acts for its own seat
            context.update(board.phone_context(session, seat))
            if sent is not None and session.game in DRAFTS:
                context.update(DRAFTS[session.game].phone_draft(session, seat, sent))
            context["phone_template"] = board.PHONE_TEMPLATE
            context["my_seat"] = seat
        if session.game in HINTS:
            context["hints"] = hints
            if hints and session.is_open:
                context.update(HINTS[session.game].hint_context(session))
    return context
