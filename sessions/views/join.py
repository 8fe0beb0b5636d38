"""Joining a session by code, without an account: the live view, and a phone's own moves.

Wrong codes are counted per address; past the limit every attempt is refused for the
rest of the window, so codes cannot be guessed by brute force.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring.errors import RuleError
from sessions import selectors, services
from sessions.boards import PREVIEWS, board_for
from sessions.forms import JoinForm
from sessions.formstate import form_key, input_for, keep_typed
from sessions.hints import hints_on, toggle_hints
from sessions.http import HtmxRequest
from sessions.live import live_context, live_response, live_version
from sessions.models import GameSession, JoinCode, Seat
from sessions.rule_messages import describe


def _attempts_key(request: HttpRequest) -> str:
    return f"join-failures:{request.META.get('REMOTE_ADDR', '')}"


def _blocked(request: HttpRequest) -> bool:
    return int(cache.get(_attempts_key(request), 0)) >= settings.JOIN_ATTEMPTS_PER_WINDOW


def _count_failure(request: HttpRequest) -> None:
    key = _attempts_key(request)
    cache.add(key, 0, timeout=settings.JOIN_ATTEMPT_WINDOW_SECONDS)
    cache.incr(key)


def _resolve(request: HttpRequest, code: str) -> tuple[JoinCode | None, HttpResponse | None]:
    """The working join code, or the page that says why there is none."""
    if _blocked(request):
        message = _("Too many wrong codes from this device. Wait a few minutes and try again.")
        return None, render(request, "join.html", {"form": JoinForm(), "error": message}, status=429)
    join_code = selectors.working_join_code(code)
    if join_code is None:
        _count_failure(request)
        message = _("This code does not work: it is mistyped, revoked, or its session has ended.")
        return None, render(
            request, "join.html", {"form": JoinForm(initial={"code": code}), "error": message}, status=404
        )
    return join_code, None


def join(request: HttpRequest) -> HttpResponse:
    form = JoinForm(request.POST or request.GET or None)
    if form.is_bound and form.is_valid():
        join_code, refusal = _resolve(request, form.cleaned_data["code"])
        if refusal is not None:
            return refusal
        assert join_code is not None
        return redirect("guest", code=join_code.code)
    return render(request, "join.html", {"form": form})


def _seat_key(session_id: int) -> str:
    return f"seat:{session_id}"


def with_join_code(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """The view gets the working join code, or the visitor the page that says why not."""

    @wraps(view)
    def resolved(request: HttpRequest, code: str, **kwargs: Any) -> HttpResponse:
        join_code, refusal = _resolve(request, code)
        if refusal is not None:
            return refusal
        assert join_code is not None
        return view(request, join_code, **kwargs)

    return resolved


@with_join_code
def guest(request: HtmxRequest, join_code: JoinCode, *, error: str | None = None, status: int = 200) -> HttpResponse:
    return render_guest(request, join_code, error=error, status=status)


def render_guest(
    request: HtmxRequest, join_code: JoinCode, *, error: str | None = None, status: int = 200, region: bool = False
) -> HttpResponse:
    """The phone's page (its region alone for htmx)."""
    session = selectors.with_seats(GameSession.objects.select_related("night")).get(pk=join_code.session_id)
    seat = request.session.get(_seat_key(session.pk))
    context = {
        **live_context(session, viewer="guest", seat=seat, hints=hints_on(request, session.pk)),
        "code": join_code.code,
        "seats": [(s.key, s.player.name) for s in session.seats.all()],
        "error": error,
    }
    template = "sessions/_guest.html" if region or request.htmx else "guest.html"
    return render(request, template, context, status=400 if error and status == 200 else status)


@require_POST
@with_join_code
def guest_seat(request: HtmxRequest, join_code: JoinCode) -> HttpResponse:
    """A phone says whose it is, so that it can act for that player (e.g. a secret offer)."""
    seat = request.POST.get("seat", "")
    if seat not in {s.key for s in join_code.session.seats.all()}:
        return guest(request, join_code.code, error=_("Choose a player of this session."))
    request.session[_seat_key(join_code.session_id)] = seat
    return redirect("guest", code=join_code.code)


@require_POST
@with_join_code
def guest_hints(request: HtmxRequest, join_code: JoinCode) -> HttpResponse:
    """This phone's hint switch: the other phones stay unspoiled."""
    toggle_hints(request, join_code.session)
    return redirect("guest", code=join_code.code)


@require_POST
@with_join_code
def guest_preview(request: HtmxRequest, join_code: JoinCode) -> HttpResponse:
    """Totals for a sheet being typed on a phone (nothing is saved)."""
    previews = PREVIEWS.get(join_code.session.game)
    if previews is None:
        raise Http404
    return render(request, "boards/seven_wonders/_preview.html", previews.preview(request.POST, join_code.session))


@require_POST
@with_join_code
def guest_act(request: HtmxRequest, join_code: JoinCode) -> HttpResponse:
    """The phone's own move (its secret offer): applied to whatever version is current,
    since it concerns this seat alone; the board module checks it still fits the table."""
    session_id = join_code.session_id
    seat = request.session.get(_seat_key(session_id))
    board = board_for(join_code.session)
    if board is None or request.POST.get("move") not in board.PHONE_EVENTS:
        raise Http404
    event_type = board.PHONE_EVENTS[request.POST["move"]]
    if seat is None:
        return guest(request, join_code.code, error=_("Say which player you are first."))
    name = Seat.objects.select_related("player").get(session_id=session_id, player_id=int(seat)).player.name
    for _attempt in range(3):
        session = GameSession.objects.get(pk=session_id)
        try:
            services.append_event(
                session_id=session_id,
                expected_version=session.version,
                type=event_type,
                payload=board.phone_payload(event_type, request.POST, seat=seat, session=session),
                author_label=name,
                idempotency_key=request.POST.get("idempotency_key") or None,
            )
        except services.StaleWrite:
            continue
        except RuleError as error:
            stale = error.field == "expected_version"
            field = "" if stale else input_for(board.ERROR_INPUTS, error.field)
            return _refused(request, join_code, message=describe(error), field=field, status=409 if stale else 400)
        if request.htmx:
            return render_guest(request, join_code)
        return redirect("guest", code=join_code.code)
    return _refused(request, join_code, message=_("The table is busy; send it again."), field="", status=409)


def _refused(request: HtmxRequest, join_code: JoinCode, *, message: str, field: str, status: int) -> HttpResponse:
    """The phone's page with the sent form as typed and the message on its field."""
    response = render_guest(request, join_code, status=status)
    kept = keep_typed(
        response.content.decode(),
        form=form_key(request.POST),
        data=request.POST,
        errors={field: message} if field else {},
        form_errors=[] if field else [message],
    )
    if kept is None:  # the form is gone from the phone (the table moved on): say it at the top
        return render_guest(request, join_code, error=message, status=status)
    response.content = kept.encode()
    return response


def guest_live(request: HtmxRequest, code: str) -> HttpResponse:
    join_code = selectors.followed_join_code(code)
    if join_code is None:
        refused, refusal = _resolve(request, code)
        if refusal is not None:
            return refusal
        assert refused is not None
        join_code = refused
    session = join_code.session
    seat = request.session.get(_seat_key(session.pk))
    return live_response(
        request,
        version=live_version(session),
        render=lambda: render_guest(request, join_code, region=True),
        viewer="guest",
        code=join_code.code,
        seat=seat or "",
        hints=hints_on(request, session.pk),
    )
