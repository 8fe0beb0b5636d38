"""JSON uploads nested deeper than any export: refused with the path of the first such value.

Python's parser gives up with ``RecursionError`` somewhere below 1,000 levels, and a value
nested a few hundred levels deep still breaks later on (copying, saving); no export nests
more than a dozen levels, so an upload deeper than :data:`MAX_DEPTH` is refused whole.
"""

from __future__ import annotations

import json
import re
from typing import Any

from scoring.errors import RuleError, gettext_noop

MAX_DEPTH = 64
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{},:]')
_SHOWN = 8  # path components named before the rest is cut to "…"


def _refuse(steps: list[str | int]) -> RuleError:
    shown = steps[:_SHOWN]
    path = "".join(f"[{step}]" if isinstance(step, int) else f".{step}" for step in shown).lstrip(".")
    if len(steps) > _SHOWN:
        path += "…"
    return RuleError(
        gettext_noop("{path}: the data is nested more than {limit} levels deep."),
        field=path or "file",
        params={"path": path or "file", "limit": MAX_DEPTH},
    )


def check_depth(value: Any, limit: int = MAX_DEPTH) -> None:
    """RuleError naming the first container nested more than ``limit`` levels deep."""
    stack: list[tuple[Any, int, tuple[Any, ...]]] = [(value, 1, ())]
    while stack:
        item, depth, path = stack.pop()
        if depth > limit:
            steps: list[str | int] = []
            while path:
                path, step = path
                steps.append(step)
            raise _refuse(steps[::-1])
        if isinstance(item, dict):
            children: Any = item.items()
        elif isinstance(item, list):
            children = enumerate(item)
        else:  # a scalar document (null, a number, a string) nests nothing
            continue
        stack.extend((child, depth + 1, (path, key)) for key, child in children if isinstance(child, dict | list))


def _deep_path_in_text(text: str, limit: int) -> list[str | int]:
    """Where the text opens its (limit + 1)-th nested container, read without parsing it."""
    frames: list[list[Any]] = []  # [is_list, key or index]
    last = ""
    for match in _TOKEN.finditer(text):
        token = match.group()
        if token[0] == '"':
            last = token
        elif token in "[{":
            if len(frames) >= limit:
                return [frame[1] for frame in frames]
            frames.append([token == "[", 0 if token == "[" else ""])
        elif token in "]}":
            if frames:
                frames.pop()
        elif token == ":" and frames:
            try:
                frames[-1][1] = json.loads(last)
            except ValueError:
                frames[-1][1] = last.strip('"')
        elif token == "," and frames and frames[-1][0]:
            frames[-1][1] += 1
    return []


def loads(text: str) -> Any:
    """The parsed JSON; RuleError (a ValueError) if it is nested too deeply, ValueError if it is not JSON."""
    try:
        value = json.loads(text)
    except RecursionError:
        raise _refuse(_deep_path_in_text(text, MAX_DEPTH)) from None
    check_depth(value)
    return value
