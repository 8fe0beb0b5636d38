"""Science points with wild symbols placed for the best score (SW-13)."""

from __future__ import annotations

from dataclasses import dataclass

SYMBOLS = ("tablet", "compass", "gear")
SET_POINTS = 7
ARCHIVES_BONUS = 3


@dataclass(frozen=True)
class Science:
    points: int
    counts: dict[str, int]
    """The symbol counts after the wilds were placed."""


def points_for(tablet: int, compass: int, gear: int, *, archives: int = 0) -> int:
    """Squares of each symbol's count plus 7 (+3 per Archives token) per complete set."""
    sets = min(tablet, compass, gear)
    return tablet**2 + compass**2 + gear**2 + sets * (SET_POINTS + ARCHIVES_BONUS * archives)


def best_science(tablet: int, compass: int, gear: int, *, wild: int = 0, archives: int = 0) -> Science:
    """Every split of the wilds among the three symbols is tried: exact, O(wild²).

    Ties between equally good splits go to the first found (the most wilds on gears, then on
    compasses), so the shown assignment is stable.
    """
    best: Science | None = None
    for to_tablet in range(wild + 1):
        for to_compass in range(wild - to_tablet + 1):
            counts = {
                "tablet": tablet + to_tablet,
                "compass": compass + to_compass,
                "gear": gear + wild - to_tablet - to_compass,
            }
            points = points_for(counts["tablet"], counts["compass"], counts["gear"], archives=archives)
            if best is None or points > best.points:
                best = Science(points=points, counts=counts)
    assert best is not None
    return best
