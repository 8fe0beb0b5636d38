"""The rules pages: each game's rules in the reader's language, one anchor per rule id."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from sessions.games import get_game
from sessions.rules_reference import RULES


def rules(request: HttpRequest, game: str) -> HttpResponse:
    """Public, like the rule books: a phone or a visitor follows a rule's link without logging in."""
    if game not in RULES:
        raise Http404
    return render(request, "rules/rules.html", {"game": get_game(game), "rules": RULES[game]})
