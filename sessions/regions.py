"""The members' region of a session (the host's screen): its context, its render, and the
renders a move keeps for the table's screens before they hear of it.

Below the pages (``sessions.views``) that show it and the phones' moves that keep it.
"""

from __future__ import annotations

import copy
from typing import Any

from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import render
from django.urls import reverse
from django.utils import translation

from scoring import session as core
from scoring.babel_on import engine as bo
from scoring.seven_wonders import engine as sw
from sessions import selectors
from sessions.event_words import described, told_with_latest
from sessions.forms import IdempotentForm, PlacesForm, ScoresForm, VersionedForm
from sessions.games import get_game
from sessions.hints import hints_on
from sessions.live import (
    GUEST,
    MEMBER,
    Shown,
    View,
    keep_board,
    keep_render,
    live_context,
    note_view,
    region_shown,
    shown_board,
    views_seen,
)
from sessions.models import GameSession

REGION_TEMPLATE = "sessions/_session.html"


def seat_names(session: GameSession) -> list[tuple[str, str]]:
    return [(seat.key, seat.player.name) for seat in session.seats.all()]


# Moves that end something (a player's game, an age): the host's page offers to undo them at
# once, in case of a slip of the finger.
ENDING_MOVES = frozenset({bo.KNOCK, sw.END_AGE})


def session_context(
    request: HttpRequest,
    session: GameSession,
    *,
    query: QueryDict | None = None,
    hints: bool | None = None,
    revision: int | None = None,
    **forms: Any,
) -> dict[str, Any]:
    """The session page's context; ``query`` says what the board's controls show (the page's
    query, or a refused form's post: Tower of Babel's build form needs its disc); ``hints`` as
    a live fetch's ticket says, else as this browser chose; ``revision``, the night's, when a
    live fetch read it already."""
    game = get_game(session.game)
    seats = seat_names(session)
    initial = {"expected_version": session.version}
    said, latest = told_with_latest(session)
    shown = region_shown(session, revision=revision)
    phones = selectors.host_phones(session, revision=shown.revision)
    hints = hints_on(request, session.pk) if hints is None else hints
    context = {
        **live_context(session, viewer=MEMBER, hints=hints, said=said, shown=shown),
        "night": session.night,
        "group": session.group,
        "scores_form": ScoresForm(initial=initial, seats=seats, tiebreak=game.tiebreak_label),
        "places_form": PlacesForm(initial=initial, seats=seats),
        "action_form": VersionedForm(initial=initial),
        "code_form": IdempotentForm(),
        "join_code": phones.join_code,
        "phone_seats": phones.seats,
        # The join code and the phones panel are kept rendered for as long as their data is.
        "night_revision": shown.revision,
        "night_kept_seconds": selectors.NIGHT_REVISION_SECONDS,
        "join_url": None,
        "events": described(latest, said),
        "ended_something": bool(latest) and latest[0].type in ENDING_MOVES,
        "can_undo": session.is_open or session.status == core.ABANDONED,
    }
    board = shown_board(session)
    if board is not None and session.status in (core.PLAYING, core.SCORING):
        context.update(board.controls_context(session, query if query is not None else request.GET))
        context["controls_template"] = board.CONTROLS_TEMPLATE
        context["play_form"] = VersionedForm(initial=initial)
    context.update(forms)
    if context["join_code"] is not None:
        context["join_url"] = request.build_absolute_uri(reverse("guest", args=[context["join_code"].code]))
    return context


def render_region(request: HttpRequest, session: GameSession, *, hints: bool, revision: int) -> HttpResponse:
    """The members' region of ``session`` as a live fetch (no query) gets it when no move kept
    it: the view is noted, and the next moves render it ahead (``keep_ahead``)."""
    note_view(session.pk, View.here(MEMBER, request.get_host(), hints=hints))
    return render(request, REGION_TEMPLATE, _region_context(request, session, hints=hints, revision=revision))


def _region_context(request: HttpRequest, session: GameSession, *, hints: bool, revision: int) -> dict[str, Any]:
    return session_context(request, session, query=QueryDict(), hints=hints, revision=revision)


def region_varies(shown: Shown, *, hints: bool) -> dict[str, Any]:
    """What the members' region depends on besides the versions (``live_response``'s
    ``varies``): a move keeps its render under the ETag a fetch will send."""
    return {"session": shown.session_id, "viewer": MEMBER, "hints": hints}


def keep_ahead(request: HttpRequest, written: GameSession, *, own: View | None) -> None:
    """Renders what the table's screens fetch after a move, once it is committed and before
    they hear of it (``services.append_event``'s ``before_announce``, which gives ``written``):
    the members' region and the boards of the phones and table displays, in each view their
    devices rendered lately (``live.views_seen``: a language, the hints on or off), and in the
    mover's ``own`` view (None: a move sent from no screen of the session). A view nobody has
    shown yet is the host's screen, and the phones' board, in the mover's language without
    hints. The session is read as the screens read it (``selectors.kept_session``): built
    from the version before, and kept for them."""
    session = selectors.kept_session(written.pk, written.version)
    if session is None or not session.is_open:  # a game that ends changes its page: no region fetches it
        return
    shown, host = region_shown(session), request.get_host()
    seen = views_seen(session.pk)
    # The region's links are absolute: a screen that asked another host renders its own.
    members = {view for view in seen if view.kind == MEMBER and view.place == host}
    boards = {view for view in seen if view.kind != MEMBER}
    if own is not None:
        (members if own.kind == MEMBER else boards).add(own)
    members = members or {View.here(MEMBER, host, hints=False)}
    join_code = None
    for view in sorted(members):
        with translation.override(view.language):
            join_code = _keep_region(request, session, shown=shown, hints=view.hints)
    if join_code is not None and not any(view.kind == GUEST for view in boards):
        boards.add(View.here(GUEST, join_code, hints=False))
    for view in sorted(boards):
        with translation.override(view.language):
            keep_board(request, session, view=view, shown=shown)


def keep_ahead_of_the_api(request: HttpRequest, written: GameSession) -> None:
    """``keep_ahead`` for a move sent through the API, from no screen of the session. It renders
    with a copy of the request: the renders' CSRF token (each device is given its own) must
    not give the API's answer a cookie."""
    apart = copy.copy(request)
    apart.META = dict(request.META)
    keep_ahead(apart, written, own=None)


def _keep_region(request: HttpRequest, session: GameSession, *, shown: Shown, hints: bool) -> str | None:
    """Keeps the members' region in the active language with ``hints``; the night's join code,
    if the phones have one."""
    context = _region_context(request, session, hints=hints, revision=shown.revision)
    keep_render(
        request,
        path=reverse("session_live", args=[session.pk]),
        shown=shown,
        render=lambda: render(request, REGION_TEMPLATE, context),
        **region_varies(shown, hints=hints),
    )
    return None if context["join_code"] is None else str(context["join_code"].code)
