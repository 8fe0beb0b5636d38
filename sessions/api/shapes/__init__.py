"""The JSON inside the API's JSON, typed in the published schema: every event type with its
payload, each game's options, state and result breakdown, and the group export.

DRF sees these as plain objects (``EventIn.payload`` is a ``DictField``; the engines check
what is in it, and name the field and rule when they refuse). ``add_shapes``, a drf-spectacular
postprocessing hook, puts their shapes into the schema as components:

- ``EventIn`` becomes one variant per event type (``TobPassEvent``, ...), told apart by
  ``type`` (an OpenAPI discriminator), each with its typed payload (``TobPassPayload``);
  ``EventOut`` likewise (``TobPassEventOut``), with the payload as the event list shows it
  (a few leave secrets out: ``PUBLIC_EVENTS``).
- ``SessionOut.state`` is a ``SessionState`` whose ``game`` is one of the games' states,
  ``options`` one of the games' options, a result's ``breakdown`` one of the breakdowns.
- The group export's body is a ``GroupExport``.

Each game's module (``tower_of_babel``, ...) holds ``EVENTS`` (payload per event type of its
engine), ``PUBLIC_EVENTS``, ``STATE`` (``state["game"]`` as ``boards.public_state`` shows it)
and ``BREAKDOWN`` (a result's breakdown when the engine counted the score); ``common`` the
events and shapes every game shares. The tests check every shape against games played whole.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import ModuleType
from typing import Any

from sessions.api.shapes import babel_cubes, babel_on, common, export, seven_wonders, tower_of_babel
from sessions.api.shapes.kinds import Schema, boolean, closed, component_name, nullable, one_of, ref, string
from sessions.games import BABEL_CUBES, BABEL_ON, GAMES, SEVEN_WONDERS, TOWER_OF_BABEL, Game

GAME_SHAPES: Mapping[str, ModuleType] = {
    TOWER_OF_BABEL: tower_of_babel,
    BABEL_ON: babel_on,
    SEVEN_WONDERS: seven_wonders,
    BABEL_CUBES: babel_cubes,
}


def event_payloads(game: str) -> dict[str, Schema]:
    """Every event type a session of ``game`` takes, with its payload's shape."""
    return {**common.EVENTS, **GAME_SHAPES[game].EVENTS}


def all_event_payloads() -> dict[str, Schema]:
    payloads = dict(common.EVENTS)
    for game in GAME_SHAPES.values():
        payloads.update(game.EVENTS)
    return payloads


def public_payload(kind: str) -> Schema:
    """An event's payload as the event list shows it."""
    for game in GAME_SHAPES.values():
        if kind in game.PUBLIC_EVENTS:
            shown: Schema = game.PUBLIC_EVENTS[kind]
            return shown
    return all_event_payloads()[kind]


def options_shape(game: Game, *, given: bool) -> Schema:
    """The options a session of ``game`` is created with (``given``), or keeps: those, the rule
    decisions every new session carries and the group's edition table it was played with."""
    properties: dict[str, Schema] = {}
    for option in game.options:
        values = [value for value, _label in option.choices]
        kind = one_of(values) if values else boolean()
        said = f"{option.label} (default: {option.default!r})."
        if given:  # null, as left out, is the default
            properties[option.name] = nullable({**kind, "description": f"{said} Null or left out: the default."})
        else:
            properties[option.name] = {**kind, "description": said}
    if not given:
        for name, value in game.decisions.items():
            decided = boolean() if isinstance(value, bool) else string()
            properties[name] = {**decided, "description": f"A rule decision every new session carries ({value!r})."}
        properties["table"] = nullable(
            {
                "type": "object",
                "description": "The group's corrections of the game's unverified values, as the session was "
                "created with them; null with the box's values.",
            }
        )
    return closed(properties, required=[], description=f"{game.english_name}: options.")


def opened(schema: Any) -> Any:
    """``schema`` with every object open: the engines ignore the keys of a payload they do
    not read, at any depth, so a payload's shape names what they read and refuses nothing else."""
    if isinstance(schema, list):
        return [opened(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    return {
        key: opened(value) for key, value in schema.items() if not (key == "additionalProperties" and value is False)
    }


def components() -> dict[str, Schema]:
    """The components ``add_shapes`` adds."""
    added: dict[str, Schema] = {}
    for kind, payload in all_event_payloads().items():
        added[f"{component_name(kind)}Payload"] = opened(payload)
        shown = public_payload(kind)
        if shown is not payload:
            added[f"{component_name(kind)}PublicPayload"] = shown
    for slug, game in GAMES.items():
        name = component_name(slug)
        added[f"{name}State"] = GAME_SHAPES[slug].STATE
        added[f"{name}Breakdown"] = GAME_SHAPES[slug].BREAKDOWN
        added[f"{name}Options"] = options_shape(game, given=False)
        added[f"{name}OptionsIn"] = options_shape(game, given=True)
    added["ScoreEntryState"] = common.ENTRY_STATE
    added["ScoreEntryBreakdown"] = common.entry_breakdown()
    added["SessionState"] = common.session_state([ref(f"{component_name(slug)}State") for slug in GAMES])
    added.update(export.components(sorted(all_event_payloads())))
    return added


def _variants(base: Schema, *, suffix: str, shown: bool) -> tuple[dict[str, Schema], Schema]:
    """One component per event type from ``base`` (EventIn's or EventOut's), its ``type`` the
    one value and its ``payload`` typed; and the schema that is one of them."""
    variants: dict[str, Schema] = {}
    for kind, payload in all_event_payloads().items():
        name = component_name(kind)
        typed = f"{name}PublicPayload" if shown and public_payload(kind) is not payload else f"{name}Payload"
        properties = {
            **base["properties"],
            "type": one_of([kind], description=payload.get("description")),
            "payload": ref(typed),
        }
        required = [field for field in base.get("required", []) if field != "payload"]
        if shown or payload.get("required"):
            required.append("payload")
        variants[f"{name}{suffix}"] = {**base, "properties": properties, "required": sorted(set(required))}
    one = {
        "oneOf": [ref(name) for name in variants],
        "discriminator": {
            "propertyName": "type",
            "mapping": {kind: f"#/components/schemas/{component_name(kind)}{suffix}" for kind in all_event_payloads()},
        },
    }
    return variants, one


def _typed(schema: Schema, component: str, description: str) -> Schema:
    kept = {key: value for key, value in schema.items() if key in ("readOnly", "nullable")}
    return {"allOf": [ref(component)], **kept, "description": description}


def _any_of(names: list[str], schema: Schema, description: str) -> Schema:
    kept = {key: value for key, value in schema.items() if key in ("readOnly", "nullable")}
    return {"anyOf": [ref(name) for name in names], **kept, "description": description}


def add_shapes(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    """drf-spectacular postprocessing hook (``POSTPROCESSING_HOOKS``)."""
    schemas: dict[str, Schema] = result["components"]["schemas"]
    schemas.update(components())
    variants, schemas["EventIn"] = _variants(schemas["EventIn"], suffix="Event", shown=False)
    schemas.update(variants)
    variants, schemas["EventOut"] = _variants(schemas["EventOut"], suffix="EventOut", shown=True)
    schemas.update(variants)

    games = [component_name(slug) for slug in GAMES]
    state = schemas["SessionOut"]["properties"]
    state["state"] = _typed(state["state"], "SessionState", "The session's state, without what is secret for now.")
    options = "The session's options: those of its game (see `game`)."
    for holder in ("SessionOut", "SessionSummaryOut"):
        properties = schemas[holder]["properties"]
        properties["options"] = _any_of([f"{g}Options" for g in games], properties["options"], options)
    properties = schemas["SessionIn"]["properties"]
    properties["options"] = _any_of([f"{g}OptionsIn" for g in games], properties["options"], options)
    breakdowns = ["ScoreEntryBreakdown", *(f"{g}Breakdown" for g in games)]
    said = "Where the points came from: the engine's count, or the scores the table entered (ScoreEntryBreakdown)."
    for holder in ("SessionResult", "ResultRowOut"):
        properties = schemas[holder]["properties"]
        properties["breakdown"] = _any_of(breakdowns, properties["breakdown"], said)
    export.type_the_operations(result)
    return result
