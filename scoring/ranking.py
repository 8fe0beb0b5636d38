"""Standings with shared places ("competition ranking": 1, 1, 3)."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import TypeVar

K = TypeVar("K", bound=Hashable)


def competition_ranks(keys: Mapping[K, tuple[int, ...]]) -> dict[K, int]:
    """Rank by key, higher is better; equal keys share a place and the next place is skipped.

    >>> competition_ranks({"a": (10,), "b": (10,), "c": (7,)})
    {'a': 1, 'b': 1, 'c': 3}
    """
    return {seat: 1 + sum(1 for other in keys.values() if other > key) for seat, key in keys.items()}


def ranks_from_places(places: Mapping[K, int]) -> dict[K, int]:
    """Turn places a table typed in (1, 1, 2) into competition ranks (1, 1, 3)."""
    return competition_ranks({seat: (-place,) for seat, place in places.items()})
