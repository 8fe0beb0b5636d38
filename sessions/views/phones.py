"""The host's side of the phones at the table: free a seat, answer a phone that asks for one."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from scoring.errors import RuleError
from sessions import selectors, services
from sessions.http import MemberRequest
from sessions.rule_messages import describe


@login_required
@require_POST
def seat_free(request: MemberRequest, session_id: int, player_id: int) -> HttpResponse:
    """The phone playing this player no longer does (its next request shows no seat)."""
    session = selectors.session_of_member(request.user, session_id)
    services.free_seat(night=session.night, player_id=player_id)
    return redirect("session", session_id=session.pk)


@login_required
@require_POST
def seat_request_answer(request: MemberRequest, session_id: int, device_id: int, answer: str) -> HttpResponse:
    """Let the phone that asked take the seat (from the phone holding it), or refuse."""
    session = selectors.session_of_member(request.user, session_id)
    if answer not in ("allow", "refuse"):
        return HttpResponse(status=404)
    try:
        services.answer_seat_request(night=session.night, requester_id=device_id, allow=answer == "allow")
    except RuleError as error:
        messages.error(request, describe(error))
    return redirect("session", session_id=session.pk)
