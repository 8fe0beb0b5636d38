"""The play log as a file, exactly as filtered: CSV (a row per player and play) or JSON (a
play per item), written a chunk of plays at a time, so that a group of 100,000 sessions is
never in memory whole and its first bytes leave at once."""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from typing import Any

from sessions.importexport.export import _cell
from sessions.models import Group
from sessions.play_log.filters import Filters
from sessions.play_log.selectors import Play, every_play

CSV_COLUMNS = [
    "date",
    "game",
    "other_game",
    "session",
    "night",
    "place",
    "finished_at",
    "player",
    "rank",
    "score",
    "winner",
]


class _Line:
    """What ``csv.writer`` writes to: it hands each row back as text."""

    def write(self, text: str) -> str:
        return text


def csv_lines(group: Group, filters: Filters) -> Iterator[str]:
    writer = csv.writer(_Line(), lineterminator="\r\n")
    yield writer.writerow(CSV_COLUMNS)
    for play in every_play(group, filters):
        for standing in play.standings:
            yield writer.writerow(
                [
                    play.day.isoformat(),
                    _cell(play.game),
                    "1" if play.other_game else "",
                    "" if play.session_id is None else str(play.session_id),
                    "" if play.night_id is None else str(play.night_id),
                    _cell(play.place),
                    play.when.isoformat(),
                    _cell(standing.name),
                    "" if standing.rank is None else str(standing.rank),
                    "" if standing.score is None else str(standing.score),
                    "1" if standing.winner else "",
                ]
            )


def json_chunks(group: Group, filters: Filters, *, found: int) -> Iterator[str]:
    head = {"group": group.name, "filters": filters.address(), "count": found}
    yield json.dumps(head, ensure_ascii=False)[:-1] + ', "plays": ['
    for index, play in enumerate(every_play(group, filters)):
        yield ("," if index else "") + "\n" + json.dumps(_play(play), ensure_ascii=False)
    yield "\n]}\n"


def _play(play: Play) -> dict[str, Any]:
    return {
        "date": play.day.isoformat(),
        "game": play.game,
        "game_name": play.game_name,
        "other_game": play.other_game,
        "session": play.session_id,
        "night": play.night_id,
        "place": play.place,
        "finished_at": play.when.isoformat(),
        "players": [{"player": s.name, "rank": s.rank, "score": s.score, "winner": s.winner} for s in play.standings],
    }
