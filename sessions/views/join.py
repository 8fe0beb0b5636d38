"""Joining a game night by code, without an account: the phone's live view and its own moves.

A phone (a visitor's Django session) joins a night once through its code and follows each
session of the night. Guessing codes is kept infeasible on every route: before a code is
looked up, an attempt is reserved atomically for the device and for its address (given
back when the code exists), so past ``JOIN_ATTEMPTS_PER_DEVICE`` wrong codes a device, and
past ``JOIN_ATTEMPTS_PER_ADDRESS`` an address, must wait for the window to pass. While the
cache that counts them does not answer, no code is looked up (a 503 that says why). A device
that already joined through the code is recognised from its own session and never counted,
so it keeps working then too.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from functools import wraps
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring.errors import RuleError, gettext_noop
from sessions import caching, selectors, services
from sessions.boards import PREVIEWS, board_for
from sessions.forms import JoinForm
from sessions.formstate import input_for, refill_sent_form
from sessions.hints import hints_on, toggle_hints
from sessions.http import HtmxRequest, client_address
from sessions.models import GameSession, GuestDevice
from sessions.night_summary import NightSummary, summary_of_a_night_over
from sessions.rule_messages import describe
from sessions.table import keys
from sessions.table.live import (
    TABLE,
    from_ticket,
    live_context,
    live_response,
    region_shown,
    with_shared_board,
)
from sessions.table.shown import Shown, region_version
from sessions.table.tickets import held_ticket

logger = logging.getLogger(__name__)

# --- rate limits ---------------------------------------------------------------------------


def _attempts_key(request: HttpRequest) -> str:
    """The wrong-code counter of the visitor's address."""
    return f"join-failures:address:{client_address(request)}"


def _device_attempts_key(request: HttpRequest) -> str:
    return f"join-failures:device:{request.session.session_key}"


def _reserve(key: str, limit: int) -> bool:
    """Count one attempt before the lookup (atomic add + incr), and say if it is within the limit.

    Raises one of ``caching.CACHE_ERRORS`` when the cache does not answer."""
    cache.add(key, 0, timeout=settings.JOIN_ATTEMPT_WINDOW_SECONDS)
    try:
        count = cache.incr(key)
    except ValueError:  # the window ended between add and incr
        cache.add(key, 1, timeout=settings.JOIN_ATTEMPT_WINDOW_SECONDS)
        count = 1
    return count <= limit


def _give_back(key: str) -> None:
    # The window ended meanwhile, or the cache does not answer: nothing to give back (an
    # attempt that stays counted only errs on the safe side).
    with suppress(ValueError, *caching.CACHE_ERRORS):
        cache.decr(key)


def _reserve_attempt(request: HttpRequest, code: str) -> tuple[list[str], HttpResponse | None]:
    """The reserved counters, or the page that refuses the attempt: 429 when the address or
    the device is over its limit, 503 when the cache that counts them does not answer (a
    code that cannot be counted is not looked up)."""
    address = _attempts_key(request)
    try:
        if not _reserve(address, settings.JOIN_ATTEMPTS_PER_ADDRESS):
            return [], _too_many(request)
    except caching.CACHE_ERRORS as error:
        return [], _cannot_count(request, code, error)
    if request.session.session_key is None:
        request.session.save()  # the device is its session: it needs a key (and the cookie)
    device = _device_attempts_key(request)
    try:
        within = _reserve(device, settings.JOIN_ATTEMPTS_PER_DEVICE)
    except caching.CACHE_ERRORS as error:
        _give_back(address)
        return [], _cannot_count(request, code, error)
    if not within:
        _give_back(address)
        return [], _too_many(request)
    return [address, device], None


def _too_many(request: HttpRequest) -> HttpResponse:
    message = _("Too many wrong codes from this device. Wait a few minutes and try again.")
    return _join_page(request, "", message, status=429)


def _cannot_count(request: HttpRequest, code: str, error: Exception) -> HttpResponse:
    """503: the limit on wrong codes cannot be checked, so no code is looked up for now."""
    logger.warning("join code refused: the rate-limit cache does not answer (%s)", error)
    message = _(
        "Joining by code is unavailable for a moment: the server cannot check the limit on wrong "
        "codes (its cache does not answer). A phone that already joined keeps working. Try again "
        "in a minute."
    )
    response = _join_page(request, code, message, status=503)
    response["Retry-After"] = str(caching.RETRY_AFTER_SECONDS)
    return response


# --- who is asking ---------------------------------------------------------------------------


def _join_page(request: HttpRequest, code: str, message: str, *, status: int) -> HttpResponse:
    response = render(request, "join.html", {"form": JoinForm(initial={"code": code}), "error": message}, status=status)
    if getattr(request, "htmx", None) and request.htmx.target == "guest":  # type: ignore[attr-defined]
        response["HX-Refresh"] = "true"  # a phone's poll: reload the page, which says it whole
    return response


def _code_refused(request: HttpRequest, code: str, state: str) -> HttpResponse:
    if state == selectors.REPLACED:
        message = _("The host replaced this code: ask for the new one.")
    elif state == selectors.REVOKED:
        message = _("The host revoked this code: ask for a new one.")
    else:
        message = _("This code has expired: the night's last game ended some hours ago.")
    return _join_page(request, code, message, status=410)


def _phone(request: HttpRequest, code: str) -> GuestDevice | HttpResponse:
    """The visitor's device in the code's night (joining it if the code works), or the page
    that says why not. One query for a device that already joined."""
    device = selectors.joined_device(selectors.device_ids(request.session), code)
    if device is not None:  # it joined through this code: never counted, never locked out
        state = selectors.device_code_state(device)
        if state != selectors.WORKING:
            return _code_refused(request, code, state)
        services.touch_device(device=device)  # (a fetch on a ticket is not counted: once a minute is enough)
        return device
    reserved, refusal = _reserve_attempt(request, code)
    if refusal is not None:
        return refusal
    join_code = selectors.join_code_named(code)
    if join_code is None:  # a wrong code: the reserved attempts stay counted
        message = _("This code does not work: check it, or ask the host for the code on their screen.")
        return _join_page(request, code, message, status=404)
    for key in reserved:
        _give_back(key)
    state = selectors.join_code_state(join_code)
    if state != selectors.WORKING:
        return _code_refused(request, code, state)
    devices = dict(request.session.get(selectors.DEVICES, {}))
    night = str(join_code.night_id)
    joined = services.join_night(join_code=join_code, device_id=devices.get(night))
    request.session[selectors.DEVICES] = {**devices, night: joined.pk}
    found = selectors.joined_device([joined.pk], join_code.code)
    assert found is not None
    return found


def with_phone(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """The view gets the visitor's device, or the visitor the page that says why not."""

    @wraps(view)
    def resolved(request: HttpRequest, code: str, **kwargs: Any) -> HttpResponse:
        phone = _phone(request, code)
        if isinstance(phone, HttpResponse):
            return phone
        return view(request, phone, **kwargs)

    return resolved


def join(request: HttpRequest) -> HttpResponse:
    form = JoinForm(request.POST or request.GET or None)
    if form.is_bound and form.is_valid():
        phone = _phone(request, form.cleaned_data["code"])
        if isinstance(phone, HttpResponse):
            return phone
        return redirect("guest", code=phone.join_code.code)
    return render(request, "join.html", {"form": form})


# --- the phone's page ------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatChoice:
    """A seat as the phone's chooser shows it: one button each, held ones to ask for."""

    key: str
    name: str
    colour: str
    held: bool  # by another phone of the night


def _my_seat(phone: GuestDevice, session: GameSession) -> str | None:
    """The seat this phone acts for in the session: its player's, if it holds one there."""
    if phone.player_id is None:
        return None
    return next((s.key for s in session.seats.all() if s.player_id == phone.player_id), None)


@with_phone
def guest(request: HtmxRequest, phone: GuestDevice) -> HttpResponse:
    return render_guest(request, phone)


def render_guest(
    request: HtmxRequest,
    phone: GuestDevice,
    *,
    error: str | None = None,
    status: int = 200,
    region: bool = False,
    hints: bool | None = None,
    sent: QueryDict | None = None,
) -> HttpResponse:
    """The phone's page (its region alone for htmx): the session it follows, or the wait;
    ``hints`` as the fetch's ticket says, else as this browser chose; ``sent``, the form that
    comes back (``live_context``)."""
    session = selectors.shown_session(phone)
    context: dict[str, Any] = {"code": phone.join_code.code, "device": phone, "me": phone.player, "error": error}
    if session is not None:
        seat = _my_seat(phone, session)
        shown_hints = hints_on(request, session.pk) if hints is None else hints
        shown = region_shown(session, revision=phone.night.live_revision)
        context.update(live_context(session, viewer="guest", seat=seat, hints=shown_hints, shown=shown, sent=sent))
        context["my_key"] = seat
        held, context["requests"] = selectors.phones_of_seats(phone)
        context["seats"] = [
            SeatChoice(s.key, s.player.name, s.colour, s.player_id in held and held[s.player_id] != phone.pk)
            for s in session.seats.all()
        ]
        with_shared_board(request, context)
        context["night_summary"] = _summary_once_over(phone, session)
    context["live_version"] = region_version(session.version if session else 0, phone.night.live_revision)
    template = "sessions/_guest.html" if region or request.htmx else "guest.html"
    return render(request, template, context, status=400 if error and status == 200 else status)


def _summary_once_over(phone: GuestDevice, session: GameSession) -> NightSummary | None:
    """The night's summary once its last game is over, for the phones and the table display.
    While the game they show is open the night is not over: nothing is read. A game that
    finishes or is abandoned changes the night's revision, so every region's ETag, and the
    summary appears without a reload."""
    return None if session.is_open else summary_of_a_night_over(phone.night_id)


def guest_live(request: HtmxRequest, code: str) -> HttpResponse:
    """The phone's region again, or 304: at once when the fetch's ticket holds (rendered for
    the device it names when the version is new to its view), else checked in full (two
    queries, its session and its device, when unchanged)."""
    ticket = held_ticket(request)
    answer = from_ticket(request, ticket)
    if answer is not None:
        return answer
    phone: GuestDevice | None = None
    hints: bool | None = None
    if ticket is not None and ticket.device_id is not None:
        phone = selectors.ticket_device(ticket.device_id, ticket.shown)
        hints = ticket.hints if phone is not None else None
    if phone is None:
        checked = _live_phone(request, code)
        if isinstance(checked, HttpResponse):
            return checked
        phone = checked
    shown = _shown_to(phone)
    if hints is None:
        hints = hints_on(request, shown.session_id) if shown.session_id else False
    return live_response(
        request,
        shown=shown,
        render=lambda: render_guest(request, phone, region=True, hints=hints),
        viewer="guest",
        code=phone.join_code.code,
        session=shown.session_id or "",
        player=phone.player_id or "",
        device=phone.pk if phone.player_id else "",  # a seat's secrets: this device's render only
        requested=phone.requested_id or "",
        hints=hints,
        device_id=phone.pk,
    )


def _live_phone(request: HttpRequest, code: str) -> GuestDevice | HttpResponse:
    """``_phone``, for a live fetch checked in full: the revision of the night it read is kept
    for the next fetches' tickets (``sessions.table.live``), which would read it again."""
    phone = _phone(request, code)
    if isinstance(phone, HttpResponse):
        return phone
    shown_id = getattr(phone, "shown_id", None)
    if shown_id is not None:
        keys.keep_night_revision(shown_id, phone.night.live_revision)
    return phone


def _shown_to(phone: GuestDevice) -> Shown:
    """What a device of the night shows: the session ``joined_device`` found for it, at the
    version it found, in the night at its revision."""
    return Shown(
        getattr(phone, "shown_id", None),
        phone.night_id,
        getattr(phone, "shown_version", 0) or 0,
        phone.night.live_revision,
    )


# --- the table display ------------------------------------------------------------------------


@with_phone
def table_display(request: HtmxRequest, phone: GuestDevice) -> HttpResponse:
    return render_table(request, phone)


def render_table(request: HtmxRequest, phone: GuestDevice, *, region: bool = False) -> HttpResponse:
    """The table display: the game the night's phones follow, in big type for a tablet or a TV
    in the middle of the table. It shows what every player may see, whatever seat its device
    holds (a phone that also holds a seat shows no secret of it here)."""
    session = selectors.shown_session(phone)
    context: dict[str, Any] = {"code": phone.join_code.code, "device": phone}
    if session is not None:
        shown = region_shown(session, revision=phone.night.live_revision)
        context.update(live_context(session, viewer=TABLE, shown=shown))
        with_shared_board(request, context)  # once a version for every display of the night
        context["night_summary"] = _summary_once_over(phone, session)
    context["live_version"] = region_version(session.version if session else 0, phone.night.live_revision)
    template = "sessions/_table.html" if region or request.htmx else "table.html"
    return render(request, template, context)


def table_display_live(request: HtmxRequest, code: str) -> HttpResponse:
    """The table display's region again, or 304 (checked in full or by its ticket, as a phone's)."""
    ticket = held_ticket(request)
    answer = from_ticket(request, ticket)
    if answer is not None:
        return answer
    phone = _live_phone(request, code)
    if isinstance(phone, HttpResponse):
        return phone
    shown = _shown_to(phone)
    return live_response(
        request,
        shown=shown,
        render=lambda: render_table(request, phone, region=True),
        viewer=TABLE,
        code=phone.join_code.code,
        session=shown.session_id or "",
    )


def _back(request: HtmxRequest, phone: GuestDevice) -> HttpResponse:
    if request.htmx:
        return render_guest(request, phone)
    return redirect("guest", code=phone.join_code.code)


def _int(value: str | None) -> int | None:
    try:
        number = int(value or "")
    except ValueError:
        return None
    return number if 0 < number < 2**63 else None


@require_POST
@with_phone
def guest_seat(request: HtmxRequest, phone: GuestDevice) -> HttpResponse:
    """Which player this phone plays: take a free seat, ask for a held one, give it up, or
    answer another phone that asks for this phone's seat."""
    action = request.POST.get("action", "claim")
    try:
        if action == "claim":
            player_id = _int(request.POST.get("seat"))
            if player_id is None:
                raise RuleError(gettext_noop("Choose a player of this game night."), field="seat")
            services.claim_seat(device=phone, player_id=player_id)
        elif action == "cancel":
            services.cancel_seat_request(device=phone)
        elif action == "leave":
            services.leave_seat(device=phone)
        elif action in ("allow", "refuse"):
            requester = _int(request.POST.get("device"))
            if requester is None:
                raise RuleError(gettext_noop("That request is no longer pending."), field="request")
            services.answer_seat_request(
                night=phone.night, requester_id=requester, allow=action == "allow", holder=phone
            )
        else:
            raise RuleError(gettext_noop("Unknown seat action."), field="action")
    except RuleError as error:
        return render_guest(request, _fresh(request, phone), error=describe(error))
    return _back(request, _fresh(request, phone))


def _fresh(request: HttpRequest, phone: GuestDevice) -> GuestDevice:
    """The device again after a change (its seat, what it shows)."""
    return selectors.joined_device([phone.pk], phone.join_code.code) or phone


@require_POST
@with_phone
def guest_hints(request: HtmxRequest, phone: GuestDevice) -> HttpResponse:
    """This phone's hint switch: the other phones stay unspoiled."""
    session = selectors.shown_session(phone)
    if session is None:
        raise Http404
    toggle_hints(request, session)
    return redirect("guest", code=phone.join_code.code)


@require_POST
@with_phone
def guest_preview(request: HtmxRequest, phone: GuestDevice) -> HttpResponse:
    """Totals for a sheet being typed on a phone, for its own seat (nothing is saved)."""
    session = selectors.shown_session(phone)
    previews = PREVIEWS.get(session.game) if session is not None else None
    if session is None or previews is None:
        raise Http404
    if _my_seat(phone, session) is None:
        return HttpResponse(_("Say which player you are first."), status=409)
    return render(request, "boards/seven_wonders/_preview.html", previews.preview(request.POST, session))


@require_POST
@with_phone
def guest_act(request: HtmxRequest, phone: GuestDevice) -> HttpResponse:
    """The phone's own move (its secret offer, its pick, ...), for the seat its device holds
    in the session it shows: applied to whatever version is current, since it concerns this
    seat alone; the board module checks it still fits the table."""
    session = selectors.shown_session(phone)
    if session is None:
        return render_guest(request, phone, error=_("No game is being played at the table now."), status=409)
    board = board_for(session)
    if board is None or request.POST.get("move") not in board.PHONE_EVENTS:
        raise Http404
    sent_for = request.POST.get("session")
    if sent_for is not None and sent_for != str(session.pk):
        message = _("This move was for a game that is no longer the table's: here is the current one.")
        return _refused(request, phone, message=message, field="", status=409)
    event_type = board.PHONE_EVENTS[request.POST["move"]]
    seat = _my_seat(phone, session)
    if seat is None:
        return render_guest(request, phone, error=_("Say which player you are first."))
    assert phone.player is not None
    for _attempt in range(3):
        current = GameSession.objects.get(pk=session.pk)
        try:
            services.append_event(
                session_id=session.pk,
                expected_version=current.version,
                type=event_type,
                payload=board.phone_payload(event_type, request.POST, seat=seat, session=current),
                author_label=phone.player.name,
                idempotency_key=request.POST.get("idempotency_key") or None,
            )
        except services.StaleWrite:
            continue
        except RuleError as error:
            stale = error.field == "expected_version"
            field = "" if stale else input_for(board.ERROR_INPUTS, error.field)
            return _refused(request, phone, message=describe(error), field=field, status=409 if stale else 400)
        return _back(request, _fresh(request, phone))
    return _refused(request, phone, message=_("The table is busy; send it again."), field="", status=409)


def _refused(request: HtmxRequest, phone: GuestDevice, *, message: str, field: str, status: int) -> HttpResponse:
    """The phone's page with the sent form as typed and the message on its field."""
    phone = _fresh(request, phone)
    response = render_guest(request, phone, status=status, sent=request.POST)
    if refill_sent_form(response, request.POST, messages=[message], field=field):
        return response
    return render_guest(
        request, phone, error=message, status=status, sent=request.POST
    )  # the form is gone from the phone
