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

A fetch that sends back its ticket (``tickets``) is answered without the check of who asks
when it needs no render of its own.
"""

from __future__ import annotations

import re
import threading
import uuid
import zlib
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, TypeVar, cast

from django.http import HttpRequest, HttpResponse, HttpResponseNotModified, QueryDict
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from scoring import session as core
from sessions.boards import DRAFTS, HINTS, Board, board_for
from sessions.event_words import last_move
from sessions.games import get_game
from sessions.models import GameSession
from sessions.table import keys
from sessions.table.shown import Row, Shown
from sessions.table.tickets import TICKET_HEADER, Ticket, etag_of, shared, ticket_for
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
    etag = etag_of(shown.version, rest)
    if etag in request.headers.get("If-None-Match", ""):
        response: HttpResponse = _not_modified(etag)
    elif not shared(rest):
        response = _revalidated(render(), etag)
    else:
        response = _kept_render(request, etag) or _rendered(request, etag, render)
    ticket = ticket_for(request, shown, rest, device_id)
    if ticket:
        response[TICKET_HEADER] = ticket
    return response


def from_ticket(request: HttpRequest, ticket: Ticket | None) -> HttpResponse | None:
    """The answer to a fetch whose ticket still holds, when it needs no render: a 304, or the
    render another device of its view already had. None otherwise."""
    if ticket is None:
        return None
    etag = etag_of(ticket.shown.version, ticket.rest)
    if etag in request.headers.get("If-None-Match", ""):
        response: HttpResponse | None = _not_modified(etag)
    elif shared(ticket.rest):
        response = _kept_render(request, etag)
    else:  # a render of this device's alone: none is kept
        response = None
    if response is not None:
        response[TICKET_HEADER] = ticket.sent
    return response


# A view's kind is ``live_context``'s viewer: the members' region, or a board's devices.
MEMBER = "member"
GUEST = "guest"  # the phones
TABLE = "table"  # the table displays


def _rest(query: str, varies: dict[str, Any]) -> list[str]:
    """The parts of an ETag besides the versions: the language, the page's query and ``varies``."""
    return [get_language(), query, *(f"{k}={v}" for k, v in sorted(varies.items()))]


def _not_modified(etag: str) -> HttpResponse:
    return _revalidated(HttpResponseNotModified(), etag)


def _revalidated(response: HttpResponse, etag: str) -> HttpResponse:
    response["ETag"] = etag
    # Always revalidate: the browser may keep the body, never reuse it unasked.
    response["Cache-Control"] = "private, no-cache"
    return response


CSRF_TOKEN = re.compile(r'(name="csrfmiddlewaretoken" value=")[^"]*(")')
IDEMPOTENCY_KEY = re.compile(r'(name="idempotency_key" value=")[0-9a-f]{32}(")')


def _kept_render(request: HttpRequest, etag: str) -> HttpResponse | None:
    """The render a device already had under this ETag, made this device's own."""
    kept = keys.kept(keys.render(request.get_host(), request.path, etag))
    if kept is None:
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
        keys.keep(key, (zlib.compress(response.content, 1), response["Content-Type"]))
        return response.content.decode(), response["Content-Type"]

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
    kept = keys.kept(key)
    if kept is None:
        html = rendered_once(key, lambda: _rendered_board(request, context, key))
    else:
        html = zlib.decompress(kept).decode()
    # The template engine rendered it, escaping included; each device gets its own tokens.
    context["board_html"] = mark_safe(for_this_device(request, html))


def _board_key(context: dict[str, Any]) -> str | None:
    """The key of the board ``context`` shows, the same for every phone of its view; None when
    it shows none."""
    session = context.get("session")
    if session is None or not context.get("board_template"):
        return None
    return keys.board(
        session.pk,
        session.version,
        get_language(),
        viewer=context["viewer"],
        code=context.get("code", ""),
        hints=context.get("hints", False),
        variant=context.get("board_variant", ""),  # a board one seat's phone draws otherwise
    )


def _rendered_board(request: HttpRequest, context: dict[str, Any], key: str) -> str:
    html = render_to_string(context["board_template"], context, request=request)
    keys.keep(key, zlib.compress(html.encode(), 1))
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
