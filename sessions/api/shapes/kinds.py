"""Small builders of OpenAPI 3.0 schema objects, for the shapes of the games' JSON.

Plain dicts, as they appear in the published schema. Objects whose keys are fixed are closed
(``additionalProperties: false``): a key the docs do not name is a test failure, not a
surprise for a client. An event's payload stays open, as the engines ignore keys they do not
read (``payload``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

Schema = dict[str, Any]

SEAT_KEY = "A seat's key: its player's id, as a string."


def described(schema: Schema, description: str | None) -> Schema:
    return {**schema, "description": description} if description else schema


def integer(low: int | None = None, high: int | None = None, *, description: str | None = None) -> Schema:
    schema: Schema = {"type": "integer"}
    if low is not None:
        schema["minimum"] = low
    if high is not None:
        schema["maximum"] = high
    return described(schema, description)


def number(*, description: str | None = None) -> Schema:
    return described({"type": "number"}, description)


def boolean(*, description: str | None = None) -> Schema:
    return described({"type": "boolean"}, description)


def string(*, description: str | None = None, max_length: int | None = None) -> Schema:
    schema: Schema = {"type": "string"}
    if max_length is not None:
        schema["maxLength"] = max_length
    return described(schema, description)


def one_of(values: Iterable[str | int], *, description: str | None = None) -> Schema:
    """One of these values (strings, or whole numbers)."""
    listed = list(values)
    kind = "integer" if all(isinstance(v, int) and not isinstance(v, bool) for v in listed) else "string"
    return described({"type": kind, "enum": listed}, description)


def seat(*, description: str | None = None) -> Schema:
    return described({"type": "string"}, description or SEAT_KEY)


def array(
    items: Schema,
    *,
    low: int | None = None,
    high: int | None = None,
    unique: bool = False,
    description: str | None = None,
) -> Schema:
    schema: Schema = {"type": "array", "items": items}
    if unique:
        schema["uniqueItems"] = True
    if low is not None:
        schema["minItems"] = low
    if high is not None:
        schema["maxItems"] = high
    return described(schema, description)


def nullable(schema: Schema) -> Schema:
    """The value, or null (OpenAPI 3.0's ``nullable``; a reference is wrapped, as 3.0 asks)."""
    if "$ref" in schema:
        return {"allOf": [schema], "nullable": True}
    return {**schema, "nullable": True}


def closed(
    properties: Mapping[str, Schema], *, required: Iterable[str] | None = None, description: str | None = None
) -> Schema:
    """An object with exactly these keys; all of them always there unless ``required`` says
    which are."""
    names = list(properties) if required is None else list(required)
    schema: Schema = {"type": "object", "properties": dict(properties), "additionalProperties": False}
    if names:
        schema["required"] = names
    return described(schema, description)


def payload(
    properties: Mapping[str, Schema], *, required: Iterable[str] = (), description: str | None = None
) -> Schema:
    """An event's payload: the keys its engine reads (the required ones refused when missing);
    other keys are ignored."""
    schema: Schema = {"type": "object", "properties": dict(properties)}
    names = list(required)
    if names:
        schema["required"] = names
    return described(schema, description)


def keyed(values: Schema, *, keys: str = SEAT_KEY, description: str | None = None) -> Schema:
    """An object whose keys are data (seats, kinds, ...), each with a value of one shape."""
    said = f"{description} Keys: {keys[0].lower()}{keys[1:]}" if description else f"Keys: {keys[0].lower()}{keys[1:]}"
    return {"type": "object", "additionalProperties": values, "description": said}


def ref(component: str) -> Schema:
    return {"$ref": f"#/components/schemas/{component}"}


def component_name(kind: str) -> str:
    """``tob.pass`` -> ``TobPass``, ``tower-of-babel`` -> ``TowerOfBabel``."""
    return "".join(word.capitalize() for word in kind.replace("-", ".").replace("_", ".").split("."))
