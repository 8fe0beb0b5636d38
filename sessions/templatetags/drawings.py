"""Small helpers for the drawn game pieces (``templates/boards/*/_*.html``)."""

from __future__ import annotations

from django import template
from django.utils.safestring import SafeString

from sessions.boards.cube_pictures import pick_pieces

register = template.Library()


@register.filter
def times(count: int | None) -> range:
    """``{% for _ in n|times %}``: one drawn piece per unit (a brick per part, a token per marker)."""
    return range(max(count or 0, 0))


@register.simple_tag
def cube_pick_pieces() -> SafeString:
    """babel's placement pictures' pieces, once in a page's shell (outside its live region)."""
    return pick_pieces()
