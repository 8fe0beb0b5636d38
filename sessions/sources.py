"""What each game's points come from, named for people (a result's breakdown keys)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from sessions.boards.seven_wonders import COLUMN_NAMES
from sessions.boards.tower_of_babel import SOURCE_NAMES
from sessions.games import SEVEN_WONDERS, TOWER_OF_BABEL


def source_label(game: str, key: str) -> str:
    if game == TOWER_OF_BABEL and key in SOURCE_NAMES:
        return str(SOURCE_NAMES[key])
    if game == SEVEN_WONDERS and key in COLUMN_NAMES:
        return str(COLUMN_NAMES[key])
    if key == "coins":
        return _("coins")
    return key
