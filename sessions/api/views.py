"""The session API: read a session (with ETag), read and append its events."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.decorators import api_view, authentication_classes, permission_classes
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from sessions import selectors, services
from sessions.api import idempotency
from sessions.api.errors import STALE, refusal
from sessions.api.filters import query
from sessions.api.serializers import (
    ConflictOut,
    ErrorsOut,
    EventCreatedOut,
    EventIn,
    EventOut,
    EventsOut,
    EventsSince,
    RematchIn,
    SessionOut,
)
from sessions.boards import public_payloads
from sessions.models import SessionEvent


@extend_schema(
    operation_id="sessions_retrieve",
    summary="A session: its seats, state and results (with an ETag)",
    responses={200: SessionOut, 304: OpenApiResponse(description="Unchanged since the ETag sent in If-None-Match.")},
    parameters=[OpenApiParameter("If-None-Match", OpenApiTypes.STR, OpenApiParameter.HEADER, required=False)],
    description="The session, its seats, state (without what is still secret) and results; "
    "sends an ETag and answers 304 to a matching If-None-Match (for polling phones).",
    tags=["sessions"],
)
@api_view(["GET"])
def session_detail(request: Request, session_id: int) -> Response:
    version = selectors.version_of_member(request.user, session_id)
    etag = f'"api-s{session_id}-v{version}"'
    if etag in request.headers.get("If-None-Match", ""):
        return Response(status=status.HTTP_304_NOT_MODIFIED, headers={"ETag": etag})
    session = selectors.session_of_member(request.user, session_id)
    etag = f'"api-s{session.pk}-v{session.version}"'  # it may have moved on since
    return Response(SessionOut(session).data, headers={"ETag": etag, "Cache-Control": "private, no-cache"})


@extend_schema(
    methods=["GET"],
    operation_id="sessions_events_list",
    summary="A session's event log, or the events since one",
    parameters=[EventsSince, OpenApiParameter("If-None-Match", OpenApiTypes.STR, OpenApiParameter.HEADER)],
    responses={200: EventsOut, 304: OpenApiResponse(description="No new event since the ETag.")},
    description="The event log (what is still secret left out), oldest first; ?since=<seq> gives only the "
    "later events. Sends an ETag and answers 304 to a matching If-None-Match.",
    tags=["sessions"],
)
@extend_schema(
    methods=["POST"],
    operation_id="sessions_events_create",
    summary="Make a move: append one event to a session",
    request=EventIn,
    responses={
        201: EventCreatedOut,
        200: EventCreatedOut,
        400: ErrorsOut,
        409: ConflictOut,
        **idempotency.KEY_REUSED,
    },
    parameters=[idempotency.PARAMETER, idempotency.REPLAYED_HEADER],
    description="Append one event naming the version you saw: 201 with the event and the new state, "
    "200 (and Idempotent-Replayed: true) for a repeated Idempotency-Key with the same event, 422 for that "
    "key with another event, 409 with the version now and links to the session and to the events you "
    "missed when the version is stale.",
    tags=["sessions"],
)
@api_view(["GET", "POST"])
def session_events(request: Request, session_id: int) -> Response:
    version = selectors.version_of_member(request.user, session_id)
    if request.method == "GET":
        since = EventsSince(data=query(request))
        since.is_valid(raise_exception=True)
        after = since.validated_data["since"]
        etag = f'"api-e{session_id}-v{version}-{after}"'
        if etag in request.headers.get("If-None-Match", ""):
            return Response(status=status.HTTP_304_NOT_MODIFIED, headers={"ETag": etag})
        session, events = selectors.events_since(session_id, after)
        etag = f'"api-e{session_id}-v{session.version}-{after}"'
        # What is still secret is decided looking forward only (an offer stays hidden until its
        # build resolves, later in the log), so hiding within the events asked for is enough.
        payloads = public_payloads(session, [(e.seq, e.type, e.payload) for e in events])
        rows = [
            {**row, "payload": payload} for row, payload in zip(EventOut(events, many=True).data, payloads, strict=True)
        ]
        headers = {"ETag": etag, "Cache-Control": "private, no-cache"}
        return Response({"version": session.version, "events": rows}, headers=headers)
    incoming = EventIn(data=request.data)
    incoming.is_valid(raise_exception=True)
    data = incoming.validated_data
    key, key_field = idempotency.sent_key(request, data)
    if version != data["expected_version"] and not (key and selectors.key_used(session_id, key)):
        # Stale for sure (versions only grow, and no client knows one not yet committed):
        # refused before any lock, so a crowd of stale writers does not queue behind the writer.
        return _conflict(request, session_id=session_id, now=version, seen=data["expected_version"])
    try:
        outcome = services.append_event(
            session_id=session_id,
            expected_version=data["expected_version"],
            type=data["type"],
            payload=data["payload"],
            author=request.user if isinstance(request.user, User) else None,
            idempotency_key=key,
        )
    except services.StaleWrite as stale:
        return _conflict(request, session_id=session_id, now=stale.session.version, seen=data["expected_version"])
    if not outcome.created and not _same_event(outcome.event, data):
        raise idempotency.KeyReused(key_field)
    fresh = selectors.session_of_member(request.user, session_id)
    body = {"event": EventOut(outcome.event).data, "session": SessionOut(fresh).data, "created": outcome.created}
    if outcome.created:
        return Response(body, status=status.HTTP_201_CREATED)
    return Response(body, status=status.HTTP_200_OK, headers=idempotency.replay_headers(True))


def _same_event(event: SessionEvent, data: dict[str, Any]) -> bool:
    """Whether the event a key recorded is the one asked for again (a retry sends the same body)."""
    asked = (data["type"], data["payload"], data["expected_version"])
    return idempotency.same_json((event.type, event.payload, event.seq - 1), asked)


@extend_schema(
    operation_id="sessions_rematch",
    summary="Play a finished session's game again, in its night",
    request=RematchIn,
    responses={201: SessionOut, 200: SessionOut, 400: ErrorsOut, **idempotency.KEY_REUSED},
    parameters=[idempotency.PARAMETER, idempotency.REPLAYED_HEADER],
    description="Play a finished session's game again in its night, started: the same options, players, "
    "seats and colours, with the next player first (Tower of Babel: the one after last game's first; "
    "babel: the seats turn; Babel On! rolls off). 201 with the new session; a session has one rematch, so "
    "a repeated Idempotency-Key, or a second device asking with its own key, answers 200 with the first one.",
    tags=["sessions"],
)
@api_view(["POST"])
def session_rematch(request: Request, session_id: int) -> Response:
    session = selectors.session_of_member(request.user, session_id)
    incoming = RematchIn(data=request.data)
    incoming.is_valid(raise_exception=True)
    data = dict(incoming.validated_data)
    user = request.user
    assert isinstance(user, User)  # IsAuthenticated
    created = False  # stays so for a repeated key: run_once answers it without calling create

    def create() -> dict[str, Any]:
        nonlocal created
        outcome = services.rematch_session(session=session, author=user)
        created = outcome.created
        return {"id": outcome.session.pk}

    result, replayed = idempotency.run_once(request, user=user, scope="rematch", data=data, action=create, body=data)
    rematch = selectors.session_of_member(request.user, int(result["id"]))
    return Response(
        SessionOut(rematch).data,
        status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
        headers=idempotency.replay_headers(replayed),
    )


def _conflict(request: Request, *, session_id: int, now: int, seen: int) -> Response:
    """The version and where to catch up; no session body, so a busy table's 409s stay cheap."""
    message = _("The session is at version %(version)d now; reload and send again.") % {"version": now}
    events = reverse("api-session-events", args=[session_id])
    return refusal(
        "expected_version",
        message,
        code=STALE,
        status_code=status.HTTP_409_CONFLICT,
        version=now,
        session=request.build_absolute_uri(reverse("api-session", args=[session_id])),
        events=request.build_absolute_uri(f"{events}?since={min(seen, now)}"),
    )


@extend_schema(exclude=True)
@api_view(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"])
@authentication_classes([])
@permission_classes([])
def not_found(request: Request, path: str = "") -> Response:
    """Any other path under /api/v1/ (``groups/x/``, a negative id ...): a 404 in the API's
    error shape, not the pages' HTML one."""
    raise NotFound
