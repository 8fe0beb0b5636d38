"""Small helpers for the drawn game pieces (``templates/boards/*/_*.html``)."""

from __future__ import annotations

from django import template

register = template.Library()


@register.filter
def times(count: int | None) -> range:
    """``{% for _ in n|times %}``: one drawn piece per unit (a brick per part, a token per marker)."""
    return range(max(count or 0, 0))
