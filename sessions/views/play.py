"""A session's page: its live state, the score entry and the lifecycle buttons.

Writes name the version they were made against; a stale one answers 409 with the fresh
state and keeps what the person typed. htmx requests get the ``session`` region alone.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import qrcode
import qrcode.image.svg
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from scoring import session as core
from scoring.errors import RuleError
from scoring.tower_of_babel import engine as tob
from sessions import selectors, services
from sessions.boards import PREVIEWS, board_for
from sessions.event_words import undo_question
from sessions.forms import IdempotentForm, PlacesForm, ScoresForm, VersionedForm
from sessions.formstate import input_for, refill_sent_form
from sessions.games import get_game
from sessions.hints import hints_on, toggle_hints
from sessions.http import MemberRequest
from sessions.models import GameSession, JoinCode
from sessions.rule_messages import describe
from sessions.table.live import from_ticket, live_response, region_shown
from sessions.table.regions import REGION_TEMPLATE, region_varies, render_region, seat_names, session_context
from sessions.table.shown import Shown
from sessions.table.tickets import held_ticket

ACTIONS = {"start": core.START, "finish": core.FINISH, "abandon": core.ABANDON, "undo": core.UNDO}


def unnamed_seats(session: GameSession) -> list[tuple[str, str]]:
    """The seats as a sent form checks them: by key, from the session's own state (a form
    shown again after a refusal gets the players' names)."""
    return [(key, key) for key in session.state["entry"]["seats"]]


def render_session(
    request: MemberRequest, session: GameSession, *, status: int = 200, query: QueryDict | None = None, **forms: Any
) -> HttpResponse:
    template = REGION_TEMPLATE if request.htmx else "sessions/detail.html"
    return render(request, template, session_context(request, session, query=query, **forms), status=status)


# The host's "Undo last step" asks first, in words: the page with ``?undo`` asks "Undo “Ada
# passed”?" next to the button (without JavaScript, the page itself is the question). The
# answer names the version the question was asked at: a move made meanwhile on another
# device makes it stale (409) rather than the undo of another step.
UNDO_ASKED = "undo"
# The question's other answer: nothing is undone.
UNDO_KEPT = "keep"
UNDO_STALE = gettext_lazy("Nothing was undone: the table moved on since you were asked.")


@login_required
def session_page(request: MemberRequest, session_id: int) -> HttpResponse:
    session = selectors.session_of_member(request.user, session_id)
    if UNDO_ASKED in request.GET and session.version:
        return render_session(request, session, undo_question=undo_question(session))
    return render_session(request, session)


def session_live(request: MemberRequest, session_id: int) -> HttpResponse:
    """The session's region again, or 304 when this device already shows its version: at
    once when the fetch's ticket holds (a new version rendered without checking the member
    again: the ticket was given to this browser's member within TICKET_SECONDS, and a change
    of the night ends it), else checked in full."""
    ticket = held_ticket(request)
    answer = from_ticket(request, ticket)
    if answer is not None:
        return answer
    if ticket is not None:
        version = ticket.shown.session_version
        return _region(request, ticket.shown, lambda: selectors.live_session(session_id, version), hints=ticket.hints)
    return _session_live(request, session_id)


@login_required
def _session_live(request: MemberRequest, session_id: int) -> HttpResponse:
    row = GameSession.objects.only("id", "version", "group_id", "night_id").filter(pk=session_id).first()
    if row is None:
        raise Http404
    selectors.membership(request.user, row.group_id)

    def member_session() -> GameSession:
        return selectors.session_of_member(request.user, session_id)

    return _region(request, region_shown(row), member_session, hints=hints_on(request, row.pk))


def _region(request: MemberRequest, shown: Shown, session: Callable[[], GameSession], *, hints: bool) -> HttpResponse:
    """The member's region of the session ``shown`` names, read by ``session()`` if it must be
    rendered."""
    return live_response(
        request,
        shown=shown,
        render=lambda: render_region(request, session(), hints=hints, revision=shown.revision),
        **region_varies(shown, hints=hints),
    )


@login_required
@require_POST
def session_action(request: MemberRequest, session_id: int, action: str) -> HttpResponse:
    session = selectors.session_to_move(request.user, session_id)
    if action not in ACTIONS:
        return HttpResponse(status=404)
    if action == "undo" and UNDO_KEPT in request.POST:
        return render_session(request, session) if request.htmx else redirect("session", session_id=session.pk)
    form = VersionedForm(request.POST)
    form_name = "undo_form" if action == "undo" else "action_form"
    return _write(request, session, form, event_type=ACTIONS[action], payload=lambda: {}, form_name=form_name)


@login_required
@require_POST
def session_play(request: MemberRequest, session_id: int, event: str) -> HttpResponse:
    """A move from the game's own controls (a build, a pass, ...)."""
    session = selectors.session_to_move(request.user, session_id)
    board = board_for(session)
    if board is None or event not in board.EVENTS:
        raise Http404
    event_type = board.EVENTS[event]
    form = VersionedForm(request.POST)

    def payload() -> dict[str, Any]:
        return board.payload(event_type, request.POST, session)

    return _write(request, session, form, event_type=event_type, payload=payload, form_name="play_form")


@login_required
@require_POST
def session_preview(request: MemberRequest, session_id: int) -> HttpResponse:
    """Totals for a form being typed (nothing is saved)."""
    session = selectors.session_of_member(request.user, session_id)
    previews = PREVIEWS.get(session.game)
    if previews is None:
        raise Http404
    return render(request, "boards/seven_wonders/_preview.html", previews.preview(request.POST, session))


@login_required
@require_POST
def session_hints(request: MemberRequest, session_id: int) -> HttpResponse:
    """The hint switch of this browser, for this session."""
    session = selectors.session_of_member(request.user, session_id)
    toggle_hints(request, session)
    return redirect("session", session_id=session.pk)


@login_required
@require_POST
def session_scores(request: MemberRequest, session_id: int) -> HttpResponse:
    session = selectors.session_to_move(request.user, session_id)
    tiebreak = get_game(session.game).tiebreak_label
    form = ScoresForm(request.POST, seats=unnamed_seats(session), tiebreak=tiebreak)
    return _write(
        request, session, form, event_type="scores.record", payload=lambda: form.payload(), form_name="scores_form"
    )


@login_required
@require_POST
def session_places(request: MemberRequest, session_id: int) -> HttpResponse:
    session = selectors.session_to_move(request.user, session_id)
    form = PlacesForm(request.POST, seats=unnamed_seats(session))
    return _write(
        request, session, form, event_type="places.record", payload=lambda: form.payload(), form_name="places_form"
    )


# The version a move from htmx made: the page's other forms, made on the version before it,
# now stand on this one (this device's own move is no news to it; static/js/app.js).
MOVED_TO = "Babel-Version"

STALE = gettext_lazy(
    "Someone else changed this session a moment ago. Here is the latest state: check it and send again."
)


def _write(
    request: MemberRequest, session: GameSession, form: VersionedForm, *, event_type: str, payload: Any, form_name: str
) -> HttpResponse:
    if not form.is_valid():
        return _refused(request, session, form, form_name=form_name, status=400)
    try:
        outcome = _writer(event_type, payload())(
            session_id=session.pk,
            expected_version=form.cleaned_data["expected_version"],
            author=request.user,
            idempotency_key=form.cleaned_data["idempotency_key"],
        )
    except services.StaleWrite as stale:
        fresh = selectors.session_of_member(request.user, stale.session.pk)
        return _refused(request, fresh, form, form_name=form_name, status=409)
    except RuleError as error:
        if form.cleaned_data["expected_version"] != session.version:  # judged against a table that moved on
            return _refused(request, session, form, form_name=form_name, status=409)
        return _refused(request, session, form, form_name=form_name, status=400, error=error)
    if request.htmx and session.is_open and outcome.session.is_open:
        # A move within a game: the region then fetches itself like every member's screen
        # (static/js/app.js), and shares their render of the version (``live``), not one more
        # in the mover's answer. A game that opens or closes changes its page.
        answer = HttpResponse(status=204)
        answer[MOVED_TO] = str(outcome.session.version)
        return answer
    if request.htmx:
        return render_session(request, selectors.after_write(session, outcome.session, user=request.user))
    return redirect("session", session_id=session.pk)


def _writer(event_type: str, payload: dict[str, Any]) -> Callable[..., services.EventOutcome]:
    """The write of a move sent from the pages: a start opens the game (in Tower of Babel with
    the first player the app drew); Tower of Babel's first player can be named again until
    someone moves; any other move is one event."""
    if event_type == core.START:
        return services.start_session
    if event_type == tob.FIRST_PLAYER:
        return partial(services.name_first_player, seat=str(payload.get("seat") or ""))
    return partial(services.append_event, type=event_type, payload=payload)


def _refused(
    request: MemberRequest,
    session: GameSession,
    form: VersionedForm,
    *,
    form_name: str,
    status: int,
    error: RuleError | None = None,
) -> HttpResponse:
    """The page again, with the sent form as it was typed and the reason on its field.

    A stale send (409) keeps the values but is checked against the fresh state when sent
    again; a refusal (400) names the field and the rule.
    """
    if form_name == "play_form":  # a board's own form: plain HTML, refilled from the post
        board = board_for(session)
        messages = [str(STALE)] if status == 409 else [describe(error)] if error else _form_messages(form)
        field = input_for(board.ERROR_INPUTS, error.field) if board and error else ""
        response = render_session(request, session, status=status, query=request.POST)
        if refill_sent_form(response, request.POST, messages=messages, field=field):
            return response
        return render_session(request, session, status=status, notice=" ".join(messages))  # the form is gone
    if form_name == "undo_form" and status == 409 and session.version:  # asked again: the step last now
        return render_session(
            request, session, status=status, undo_question=undo_question(session), undo_notice=UNDO_STALE
        )
    if form_name in ("action_form", "undo_form"):
        if error is not None:
            form.add_error(None, describe(error))
        notice = STALE if status == 409 else None
        forms: dict[str, Any] = {"action_form": form}
        return render_session(request, session, status=status, notice=notice, **forms)
    data = request.POST.copy()
    if status == 409:
        data["expected_version"] = str(session.version)
    retry = type(form)(data, **_form_kwargs(session, form))  # with the players' names
    retry.is_valid()
    if status != 409 and error is not None:
        retry.add_error(_score_field(retry, error.field), describe(error))
    forms = {form_name: retry}
    return render_session(request, session, status=status, notice=STALE if status == 409 else None, **forms)


def _form_messages(form: VersionedForm) -> list[str]:
    return [str(message) for messages in form.errors.values() for message in messages]


def _score_field(form: VersionedForm, field: str) -> str | None:
    """The score form's input for an engine field (``scores.12`` is ``score_12``)."""
    name = field.replace("scores.", "score_").replace("tiebreaks.", "tiebreak_").replace("places.", "place_")
    return name if name in form.fields else None


def _form_kwargs(session: GameSession, form: VersionedForm) -> dict[str, Any]:
    kwargs: dict[str, Any] = {"seats": seat_names(session)}
    if isinstance(form, ScoresForm):
        kwargs["tiebreak"] = form.tiebreak
    return kwargs


@login_required
@require_POST
def join_code_new(request: MemberRequest, session_id: int) -> HttpResponse:
    session = selectors.session_of_member(request.user, session_id)
    form = IdempotentForm(request.POST)
    form.is_valid()

    def replace_code() -> dict[str, int]:
        current = selectors.current_join_code(session)
        if current is not None:
            services.revoke_join_code(join_code=current)
        return {"code": services.create_join_code(session=session).pk}

    try:
        services.run_once(user=request.user, key=form.cleaned_data.get("idempotency_key"), action=replace_code)
    except RuleError as error:
        messages.error(request, describe(error))
    return redirect("session", session_id=session.pk)


@login_required
@require_POST
def join_code_revoke(request: MemberRequest, session_id: int, code_id: int) -> HttpResponse:
    session = selectors.session_of_member(request.user, session_id)
    services.revoke_join_code(join_code=get_object_or_404(JoinCode, pk=code_id, night_id=session.night_id))
    return redirect("session", session_id=session.pk)


@login_required
def join_code_qr(request: MemberRequest, session_id: int) -> HttpResponse:
    session = selectors.session_of_member(request.user, session_id)
    code = selectors.current_join_code(session)
    if code is None:
        return HttpResponse(status=404)
    url = request.build_absolute_uri(reverse("guest", args=[code.code]))
    image = qrcode.make(url, image_factory=qrcode.image.svg.SvgPathImage, box_size=12)
    return HttpResponse(image.to_string(), content_type="image/svg+xml")
