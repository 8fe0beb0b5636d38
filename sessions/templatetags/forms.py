"""Template tags for the forms of the live regions."""

from __future__ import annotations

import uuid

from django import template

register = template.Library()


@register.simple_tag
def fresh_idempotency_key() -> str:
    """A key of its own for each form of a rendering: a form kept while the person fills it
    in must not share its key with one sent meanwhile, or it would be taken for a repeat."""
    return uuid.uuid4().hex
