"""The session API: read a session (with ETag), read and append its events."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.utils.translation import gettext as _
from rest_framework import status
from rest_framework.decorators import api_view
from rest_framework.request import Request
from rest_framework.response import Response

from sessions import selectors, services
from sessions.api.serializers import EventIn, EventOut, SessionOut
from sessions.boards import public_payloads


@api_view(["GET"])
def session_detail(request: Request, session_id: int) -> Response:
    session = selectors.session_of_member(request.user, session_id)
    etag = f'"api-s{session.pk}-v{session.version}"'
    if etag in request.headers.get("If-None-Match", ""):
        return Response(status=status.HTTP_304_NOT_MODIFIED, headers={"ETag": etag})
    return Response(SessionOut(session).data, headers={"ETag": etag, "Cache-Control": "private, no-cache"})


@api_view(["GET", "POST"])
def session_events(request: Request, session_id: int) -> Response:
    session = selectors.session_of_member(request.user, session_id)
    if request.method == "GET":
        events = list(session.events.select_related("author").order_by("seq"))
        payloads = public_payloads(session, [(e.seq, e.type, e.payload) for e in events])
        rows = [
            {**row, "payload": payload} for row, payload in zip(EventOut(events, many=True).data, payloads, strict=True)
        ]
        return Response({"version": session.version, "events": rows})
    incoming = EventIn(data=request.data)
    incoming.is_valid(raise_exception=True)
    data = incoming.validated_data
    key = request.headers.get("Idempotency-Key") or data.get("idempotency_key") or None
    try:
        outcome = services.append_event(
            session_id=session.pk,
            expected_version=data["expected_version"],
            type=data["type"],
            payload=data["payload"],
            author=request.user if isinstance(request.user, User) else None,
            idempotency_key=key,
        )
    except services.StaleWrite as stale:
        fresh = selectors.session_of_member(request.user, stale.session.pk)
        body: dict[str, Any] = {
            "errors": [
                {
                    "field": "expected_version",
                    "rule": None,
                    "message": _("The session is at version %(version)d now; reload and send again.")
                    % {"version": fresh.version},
                }
            ],
            "session": SessionOut(fresh).data,
        }
        return Response(body, status=status.HTTP_409_CONFLICT)
    fresh = selectors.session_of_member(request.user, session.pk)
    body = {"event": EventOut(outcome.event).data, "session": SessionOut(fresh).data, "created": outcome.created}
    return Response(body, status=status.HTTP_201_CREATED if outcome.created else status.HTTP_200_OK)
