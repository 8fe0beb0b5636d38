"""The members' region of a session (the host's screen): its context and its render.

Below the pages (``sessions.views``) that show it.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import render
from django.urls import reverse

from scoring import session as core
from scoring.babel_on import engine as bo
from scoring.seven_wonders import engine as sw
from sessions import selectors
from sessions.event_words import described, told_with_latest
from sessions.forms import IdempotentForm, PlacesForm, ScoresForm, VersionedForm
from sessions.games import get_game
from sessions.hints import hints_on
from sessions.models import GameSession
from sessions.table import keys
from sessions.table.live import MEMBER, live_context, region_shown, shown_board
from sessions.table.shown import Shown

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
        "night_kept_seconds": keys.NIGHT_REVISION_SECONDS,
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
    """The members' region of ``session`` as a live fetch (no query) gets it."""
    context = session_context(request, session, query=QueryDict(), hints=hints, revision=revision)
    return render(request, REGION_TEMPLATE, context)


def region_varies(shown: Shown, *, hints: bool) -> dict[str, Any]:
    """What the members' region depends on besides the versions (``live_response``'s
    ``varies``), a part of the ETag its fetches send."""
    return {"session": shown.session_id, "viewer": MEMBER, "hints": hints}
