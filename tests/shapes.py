"""Checks a session played whole against the shapes the published schema gives its JSON
(``sessions/api/shapes``): each event as a client sends it and as the event list shows it,
the state after each event, the results' breakdowns; and that the engine refuses a payload
the schema refuses (a required key missing, a value of another JSON type).

The schema is the one ``/api/schema/`` serves, read as JSON Schema: OpenAPI 3.0's
``nullable`` becomes a ``null`` alternative.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from typing import Any

import jsonschema
from drf_spectacular.generators import SchemaGenerator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT7

from scoring import session as core
from scoring.errors import RuleError
from sessions.api.shapes import component_name
from sessions.boards import BOARDS
from sessions.games import GAMES
from sessions.models import GameSession

ROOT = "urn:babel-companion-api"
# A value of each JSON type, for a property whose schema allows none of them but one.
OTHER_TYPES: Mapping[str, Any] = {
    "string": 7,
    "integer": "7",
    "number": "7",
    "boolean": "yes",
    "array": "x",
    "object": "x",
}


def _as_json_schema(node: Any) -> Any:
    if isinstance(node, list):
        return [_as_json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    converted = {key: _as_json_schema(value) for key, value in node.items() if key not in ("nullable", "discriminator")}
    if node.get("nullable"):
        if "type" in converted:
            converted["type"] = [converted["type"], "null"]
            if "enum" in converted:
                converted["enum"] = [*converted["enum"], None]
        else:
            converted = {"anyOf": [converted, {"type": "null"}]}
    return converted


@functools.cache
def published() -> dict[str, Any]:
    """The schema as /api/schema/ serves it."""
    schema: dict[str, Any] = SchemaGenerator().get_schema(request=None, public=True)
    return schema


@functools.cache
def _registry() -> Registry:
    resource = Resource.from_contents(_as_json_schema(published()), default_specification=DRAFT7)
    return Registry().with_resource(ROOT, resource)


def problems(instance: Any, component: str) -> list[str]:
    """What in ``instance`` the component ``component`` does not allow (none: it fits). An
    event is checked against its type's variant, for messages that say what is wrong in it."""
    mapping = published()["components"]["schemas"][component].get("discriminator", {}).get("mapping", {})
    if isinstance(instance, dict) and instance.get("type") in mapping:
        component = mapping[instance["type"]].rsplit("/", 1)[-1]
    schema = {"$ref": f"{ROOT}#/components/schemas/{component}"}
    validator = jsonschema.Draft7Validator(schema, registry=_registry())
    errors = validator.iter_errors(instance)
    return [f"{'/'.join(map(str, error.absolute_path)) or '(whole)'}: {error.message}" for error in errors]


def _refused(rules: core.Rules, state: Any, event: core.Event) -> RuleError | None:
    try:
        core.step(rules, state, event)
    except RuleError as refusal:
        return refusal
    return None


def refusals_missed(rules: core.Rules, state: Any, event: core.Event) -> list[str]:
    """An event the engine took in ``state``, changed as its payload's schema refuses: each
    required key left out, each property given a value of a JSON type its schema does not
    allow. What the engine took all the same, or refused naming another field."""
    schema = published()["components"]["schemas"][f"{component_name(event.type)}Payload"]
    missed: list[str] = []
    changes: list[tuple[str, str, dict[str, Any]]] = []
    for key in schema.get("required", []):
        changes.append((key, f"without {key}", {k: v for k, v in event.payload.items() if k != key}))
    for key, property_schema in schema.get("properties", {}).items():
        kind = property_schema.get("type")
        if key in event.payload and kind in OTHER_TYPES:
            wrong = OTHER_TYPES[kind]
            changes.append((key, f"{key} = {wrong!r}", {**event.payload, key: wrong}))
    for key, change, payload in changes:
        refusal = _refused(rules, state, core.Event(seq=event.seq, type=event.type, payload=payload))
        if refusal is None:
            missed.append(f"{event.type} {change}: taken")
        elif key not in re.split(r"[.\[\]]", refusal.field or ""):  # offers.<seat>.cards names cards
            missed.append(f"{event.type} {change}: refused naming {refusal.field!r}")
    return missed


def check_the_shapes_of(session: GameSession) -> list[str]:
    """Replays ``session``'s log event by event and checks every piece of JSON the API shows of
    it against the published schema; returns what did not fit (nothing: all of it fits), the
    refusals included (``refusals_missed``)."""
    game = GAMES[session.game]
    board = BOARDS[session.game]
    seats = [str(pk) for pk in session.seats.order_by("order").values_list("player_id", flat=True)]
    events = [event.as_core_event() for event in session.events.order_by("seq")]
    found: list[str] = []
    name = component_name(session.game)
    found += [f"options: {p}" for p in problems(session.options, f"{name}Options")]
    replay: dict[str, Any] = {"seats": seats, "options": session.options, "seed": session.seed}
    state = core.initial_state(game.rules, **replay)
    done: list[core.Event] = []
    for event in events:
        sent = {"type": event.type, "payload": event.payload, "expected_version": event.seq - 1}
        found += [f"seq {event.seq} sent: {p}" for p in problems(sent, "EventIn")]
        done.append(event)
        if event.type == core.UNDO:
            state = core.replay(game.rules, events=done, **replay)
        else:
            found += refusals_missed(game.rules, state, event)
            state = core.step(game.rules, state, event)
        [shown] = board.public_payloads(state, [(event.seq, event.type, dict(event.payload))])
        listed = {
            "seq": event.seq,
            "type": event.type,
            "payload": shown,
            "author": None,
            "author_label": "Ada's phone",
            "created_at": "2026-11-27T20:00:00Z",
        }
        found += [f"seq {event.seq} listed: {p}" for p in problems(listed, "EventOut")]
        public = board.public_state(state)
        found += [f"seq {event.seq} state: {p}" for p in problems(public, "SessionState")]
        # SessionState's game is any game's: this one's must fit its own.
        found += [f"seq {event.seq} state.game: {p}" for p in problems(public["game"], f"{name}State")]
    entered = game.rules.entry.standings(state["entry"]) is not None
    counted = "ScoreEntryBreakdown" if entered else f"{name}Breakdown"
    for standing in core.standings(game.rules, state) or []:
        result = {"player": int(standing.seat), "score": standing.score, "rank": standing.rank}
        found += [f"result of {standing.seat}: {p}" for p in problems({**result, "breakdown": {}}, "SessionResult")]
        found += [f"breakdown of {standing.seat}: {p}" for p in problems(dict(standing.breakdown), counted)]
    return found
