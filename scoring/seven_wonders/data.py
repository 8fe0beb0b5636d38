"""The expansion's card data (single fan source for the cards, kept as data)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from scoring.errors import RuleError, gettext_noop

DATA_FILE = Path(__file__).resolve().parent.parent / "data" / "seven_wonders_babel.json"


@cache
def data() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(DATA_FILE.read_text())
    return loaded


def project(slug: str) -> dict[str, Any]:
    for card in data()["projects"]["value"]:
        if card["slug"] == slug:
            return dict(card)
    raise RuleError(
        gettext_noop("There is no Great Project called {slug}."), field="project", rule="SW-11", params={"slug": slug}
    )


def markers_for(players: int) -> int:
    """Participation markers put on a project at the start of an age (SW-3)."""
    table = data()["markers"]["value"]
    return int(table.get(str(players), players - 1))
