"""A game's "About these rules" notes for the pages that show them (``{% about_these_rules slug as about %}``):
the rules page and the group's edition page, never a screen used in play."""

from __future__ import annotations

from django import template

from sessions.rules_reference import Note, about_these_rules

register = template.Library()


@register.simple_tag(name="about_these_rules")
def about_these_rules_tag(game: str) -> list[Note]:
    return about_these_rules(game)
