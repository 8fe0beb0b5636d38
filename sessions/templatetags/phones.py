"""The phones of a session's night, for the host's page (``templates/sessions/_phones.html``)."""

from __future__ import annotations

from django import template

from sessions import selectors
from sessions.models import GameSession

register = template.Library()


@register.simple_tag
def phones_of(session: GameSession) -> list[selectors.SeatOnPhones]:
    """Each seat of the session: the phone holding it (if any) and the phones asking for it."""
    return selectors.phones_of_session(session)
