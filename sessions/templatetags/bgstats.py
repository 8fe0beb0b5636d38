"""``{% bgstats_push_url session as url %}``: the BG Stats "push play" link of a finished session."""

from __future__ import annotations

from django import template

from sessions.importexport.bgstats import push_play_url
from sessions.models import GameSession

register = template.Library()


@register.simple_tag
def bgstats_push_url(session: GameSession) -> str | None:
    return push_play_url(session)
