"""The light or dark theme a browser chose with the theme switch, else the device's own.

The choice is a cookie, read as the page is rendered (``<html data-theme>``), so a page never
flashes in the other theme first and the switch works without JavaScript."""

from __future__ import annotations

from django.http import HttpRequest

THEMES = ("light", "dark")
COOKIE = "theme"


def chosen_theme(request: HttpRequest) -> str:
    """The theme this browser chose ("light" or "dark"), or "" to follow the device."""
    chosen = request.COOKIES.get(COOKIE, "")
    return chosen if chosen in THEMES else ""


def theme(request: HttpRequest) -> dict[str, str]:
    """Context processor: the theme the page is drawn in (``theme``)."""
    return {"theme": chosen_theme(request)}
