"""The session's Tower of Babel table in a template: how many of an action card its deck
holds (TB-22), read from the table the session started with (a group's correction, else the
data file's), for the forms' ``max``."""

from __future__ import annotations

from typing import Any

from django import template

from scoring.tower_of_babel.engine import table_of

register = template.Library()


@register.filter
def in_deck(state: dict[str, Any], card: str) -> int:
    """``{{ tob|in_deck:"joker" }}``: the copies of ``card`` in the session's action deck."""
    return dict(table_of(state).action_cards)[card]
