"""Scoring one wonder (TB-17, TB-18)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence


def score_wonder(parts: Mapping[str, int], values: Sequence[int], present_points: int) -> dict[str, int]:
    """Points per player for the parts (by value) they hold on one wonder.

    Most parts: the first value; second most: the second value; any other player present:
    ``present_points``; absent: 0. A tie for most gives every tied player the second value
    and everyone else present ``present_points``; a tie for second gives the clear leader
    the first value and every other player present ``present_points`` (TB-18).
    """
    first, second = values
    present = {player: count for player, count in parts.items() if count > 0}
    points = dict.fromkeys(parts, 0)
    if not present:
        return points
    ranked = sorted(set(present.values()), reverse=True)
    top = [p for p, count in present.items() if count == ranked[0]]
    runners = [p for p, count in present.items() if len(ranked) > 1 and count == ranked[1]]
    for player in present:
        points[player] = present_points
    if len(top) > 1:
        for player in top:
            points[player] = second
        return points
    points[top[0]] = first
    if len(runners) == 1:
        points[runners[0]] = second
    return points
