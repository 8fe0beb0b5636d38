"""What a game engine offers the session core.

A session's state is the fold of its events through ``Engine.apply``; the stored state is
only a cache of that fold. Engines keep their state JSON-compatible (dicts, lists, str,
int, bool, None) and never mutate it in place, so a cached state can be stored and
compared as it is.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

JSON = Any
"""A JSON-compatible value."""


@dataclass(frozen=True)
class Standing:
    """One seat's final place. ``score`` is ``None`` when only the order was recorded."""

    seat: str
    score: int | None
    rank: int
    breakdown: Mapping[str, JSON]


class Engine(Protocol):
    """The rules of one game, as pure functions over JSON-compatible state."""

    def initial_state(self, *, seats: Sequence[str], options: Mapping[str, JSON], seed: int) -> JSON: ...

    def event_types(self) -> frozenset[str]:
        """The event types this engine applies (the core handles the lifecycle ones)."""
        ...

    def apply(self, state: JSON, *, type: str, payload: Mapping[str, JSON]) -> JSON:
        """The state after one event, or ``RuleError`` naming the field and rule."""
        ...

    def standings(self, state: JSON) -> list[Standing] | None:
        """Final places once the game has an outcome, else ``None``."""
        ...
