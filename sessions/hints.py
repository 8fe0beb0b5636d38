"""The hint switch: off by default, remembered per browser and per session.

It lives in the visitor's own Django session, so switching hints on for one phone spoils
nobody else at the table.
"""

from __future__ import annotations

from django.http import HttpRequest

KEY = "hints"


def hints_on(request: HttpRequest, session_id: int) -> bool:
    return session_id in request.session.get(KEY, [])


def toggle_hints(request: HttpRequest, session_id: int) -> None:
    chosen = set(request.session.get(KEY, []))
    chosen ^= {session_id}
    request.session[KEY] = sorted(chosen)
