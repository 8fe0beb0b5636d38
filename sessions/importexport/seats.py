"""Where a seat key (a player's id, as text) sits in each event's payload, and nowhere else.

An imported group gets new ids, so every seat key in its logs is rewritten. Guessing by
value (any "3" that looks like a player id) renames cube types, discs and tiles numbered
like a player; this module rewrites exactly the payload fields each engine reads as a seat,
per event type. The game state is never rewritten: it is the replay of the rewritten log.

:func:`corresponds` then compares the replay of the original log with the replay of the
rewritten one, position by position: each value must be the same, or be the seat key the
old one became. A field this table misses makes the import refuse the session instead of
writing a different game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

Keys = Mapping[str, str]


def _one(value: Any, keys: Keys) -> Any:
    """A seat: the engines read ``str(value)``, so a number names a seat too."""
    if isinstance(value, bool) or not isinstance(value, str | int):
        return value
    return keys.get(str(value), value)


def _many(value: Any, keys: Keys) -> Any:
    return [_one(item, keys) for item in value] if isinstance(value, list) else value


def _keyed(value: Any, keys: Keys) -> Any:
    return {keys.get(key, key): item for key, item in value.items()} if isinstance(value, dict) else value


def _towers(value: Any, keys: Keys) -> Any:
    """A list of block addresses, each naming its tower by seat."""
    if not isinstance(value, list):
        return value
    return [
        {**item, "tower": _one(item["tower"], keys)} if isinstance(item, dict) and "tower" in item else item
        for item in value
    ]


Rewrite = Callable[[Any, Keys], Any]

# Event type → {payload field: how that field holds seats}. Every event type of every game is
# either here or in WITHOUT_SEATS (tests/test_import_ids.py checks it against the engines).
SEAT_FIELDS: dict[str, dict[str, Rewrite]] = {
    "scores.record": {"scores": _keyed, "tiebreaks": _keyed},
    "places.record": {"places": _keyed},
    "tob.first_player": {"seat": _one},
    "tob.offer": {"seat": _one},
    "tob.resolve": {"accepted": _many},
    "tob.build": {"offers": _keyed, "accepted": _many},
    "tob.assign": {"seat": _one},
    "tob.declare_cards": {"seat": _one},
    "sw.draft_pick": {"seat": _one},
    "sw.draft_record": {"tiles": _keyed},
    "sw.declare_tile": {"seat": _one},
    "sw.build_tiles": {"tiles": _keyed},
    "sw.participate": {"seat": _one},
    "sw.end_age": {"cannot_suffer": _many, "tomyris": _one},
    "sw.sheet": {"seat": _one},
    "bo.setup": {"colours": _keyed},
    "bo.rolloff": {"rolls": _keyed},
    "bo.move": {"removals": _towers, "additions": _towers},
    "bo.knock": {"seat": _one, "tower": _one},
    "bo.adjust": {"remove": _towers, "add": _towers},
}
WITHOUT_SEATS = frozenset(
    {
        "session.start",
        "session.finish",
        "session.abandon",
        "undo",
        "tob.pass",
        "tob.choose",
        "sw.next_turn",
        "bo.roll",
        "bo.draw",
        "bo.bonus",
        "bo.miss",
        "bc.place",
    }
)


def payload_with_new_seats(type: str, payload: Mapping[str, Any], keys: Keys) -> dict[str, Any]:
    """``payload`` of an event of ``type`` with each seat key ``old`` replaced by ``keys[old]``."""
    fields = SEAT_FIELDS.get(type, {})
    return {name: fields[name](value, keys) if name in fields else value for name, value in payload.items()}


def corresponds(old: Any, new: Any, keys: Keys) -> bool:
    """Whether ``new`` is ``old`` with some seat keys renamed by ``keys`` (and nothing else changed)."""
    if isinstance(old, dict):
        if not isinstance(new, dict) or len(old) != len(new):
            return False
        for key, value in old.items():
            renamed = keys.get(key)
            if key in new and corresponds(value, new[key], keys):
                continue
            if renamed is not None and renamed in new and corresponds(value, new[renamed], keys):
                continue
            return False
        return True
    if isinstance(old, list):
        return (
            isinstance(new, list)
            and len(old) == len(new)
            and all(corresponds(a, b, keys) for a, b in zip(old, new, strict=True))
        )
    if isinstance(old, str):
        return isinstance(new, str) and (new == old or new == keys.get(old))
    return type(old) is type(new) and old == new
