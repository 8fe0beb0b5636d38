"""The group export's document (``sessions.importexport.export``), and the same document as
the import takes it back (``sessions.importexport.importer``).

Two components, as the two sides differ: ``GroupExport``, what the export gives, has every
key always (closed objects); ``GroupImport``, what the import takes, requires only what the
importer cannot do without and ignores keys it does not know (a file of version 1, before
secrets, carries a ``seed``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from sessions.api.shapes.kinds import (
    Schema,
    array,
    boolean,
    closed,
    component_name,
    integer,
    nullable,
    one_of,
    ref,
    string,
)
from sessions.games import GAMES
from sessions.importexport.export import FORMAT, VERSION
from sessions.models import GameSession

WHEN = {"type": "string", "format": "date-time"}
DAY = {"type": "string", "format": "date"}
ID = integer(1, description="An id inside this file, linking its parts (an import gives new ids).")
STATUSES = [value for value, _label in GameSession.STATUSES]


class _Side:
    """Builds an object of the document as one side sees it: the export's closed, with every
    key; the import's open, with the keys it requires."""

    def __init__(self, *, exported: bool) -> None:
        self.exported = exported
        self.suffix = "" if exported else "Import"

    def object(
        self, properties: Mapping[str, Schema], *, needed: Iterable[str], description: str | None = None
    ) -> Schema:
        if self.exported:
            return closed(properties, description=description)
        schema: Schema = {"type": "object", "properties": dict(properties), "required": list(needed)}
        return {**schema, "description": description} if description else schema

    def ref(self, name: str) -> Schema:
        return ref(f"{name}{self.suffix}")


def _components(side: _Side, event_types: list[str]) -> dict[str, Schema]:
    games = one_of(sorted(GAMES))
    event = side.object(
        {
            "seq": integer(1),
            "type": one_of(event_types),
            "payload": {
                "anyOf": [ref(f"{component_name(kind)}Payload") for kind in event_types],
                "description": "The payload, whole: the one of its type (TobPassPayload for tob.pass, ...).",
            },
            "by": string(description="Who wrote it: an account's name, or the phone's seat label."),
            "created_at": WHEN,
        },
        needed=["seq", "type"],
    )
    breakdowns = [ref("ScoreEntryBreakdown"), *(ref(f"{component_name(slug)}Breakdown") for slug in GAMES)]
    result = side.object(
        {"player": ID, "score": nullable(integer()), "rank": integer(1), "breakdown": {"anyOf": breakdowns}},
        needed=["player", "score", "rank"],
    )
    seat = side.object({"player": ID, "order": integer(0), "colour": string()}, needed=["player", "order"])
    properties = {
        "id": ID,
        "night": ID,
        "game": games,
        "options": {"anyOf": [ref(f"{component_name(slug)}Options") for slug in GAMES]},
        "secret": string(description="What the deal and the dice were drawn from (hex)."),
        "status": one_of(STATUSES),
        "version": integer(0),
        "created_at": WHEN,
        "updated_at": WHEN,
        "finished_at": nullable(WHEN),
        "seats": array(seat),
        "events": array(side.ref("ExportedEvent")),
        "results": array(result),
    }
    if not side.exported:
        properties["seed"] = integer(0, description="Version 1 files: the seed the deal was drawn from.")
    session = side.object(
        properties,
        needed=["id", "night", "game", "status", "version", "seats", "events", "results"],
        description="A finished session, whole: its log replays to its results on import.",
    )
    sealed = side.object(
        {
            "id": ID,
            "night": ID,
            "game": games,
            "status": one_of(STATUSES),
            "created_at": WHEN,
            "sealed": string(description="The rest, signed and encrypted by this server: its hands are still in play."),
        },
        needed=["sealed"],
        description="A session not finished: an import on this server (same SECRET_KEY) opens it.",
    )
    player = {"id": ID, "name": string(), "created_at": WHEN, "archived_at": nullable(WHEN)}
    night = {"id": ID, "date": DAY, "place": string(), "notes": string(), "created_at": WHEN}
    plain_result = {
        "source": string(description="Where the play came from (bgstats)."),
        "play": string(description="The source's id of the play."),
        "game": string(description="The game's name (a game this app does not track)."),
        "played_at": WHEN,
        "place": string(),
        "player": ID,
        "score": nullable(integer()),
        "rank": nullable(integer(1)),
        "winner": boolean(),
    }
    edition_tables = {"type": "object", "description": "The group's corrections of unverified values, per game."}
    document = side.object(
        {
            "format": one_of([FORMAT]),
            "version": one_of([VERSION] if side.exported else [1, VERSION]),
            "group": side.object(
                {"name": string(), "created_at": WHEN, "edition_tables": edition_tables}, needed=["name"]
            ),
            "players": array(side.object(player, needed=["id", "name"])),
            "nights": array(side.object(night, needed=["id", "date"])),
            "plain_results": array(
                side.object(plain_result, needed=["source", "play", "game", "played_at", "player"]),
                description="Plays of other games, kept as imported.",
            ),
            "sessions": array({"oneOf": [side.ref("ExportedSession"), side.ref("SealedSession")]}),
        },
        needed=["format", "version", "group", "players", "nights", "sessions"],
        description="A whole group, as GET /api/v1/groups/{id}/export/ gives it and POST /api/v1/groups/import/ "
        "takes it.",
    )
    named = {"ExportedEvent": event, "ExportedSession": session, "SealedSession": sealed, "GroupExport": document}
    return {f"{name}{side.suffix}": schema for name, schema in named.items()}


def components(event_types: list[str]) -> dict[str, Schema]:
    """The document's components, as the export gives it and as the import takes it;
    ``event_types``: every event type, whose payloads are components."""
    return {**_components(_Side(exported=True), event_types), **_components(_Side(exported=False), event_types)}


def type_the_operations(result: dict[str, Any]) -> None:
    """The export's answer is a GroupExport, the import's JSON body a GroupExportImport."""
    for operations in result["paths"].values():
        for operation in operations.values():
            if not isinstance(operation, dict):
                continue
            if operation.get("operationId") == "groups_export":
                operation["responses"]["200"]["content"]["application/json"]["schema"] = ref("GroupExport")
            if operation.get("operationId") == "groups_import":
                operation["requestBody"]["content"]["application/json"]["schema"] = ref("GroupExportImport")
