"""SVG pictures of the babel cube tower: the tower in isometric view, and one placement seen from above.

Drawn on the server so that every phone shows the same picture without JavaScript. The
tower is seen from the south-east and above: the top, south and east faces of each cube
show, painted back to front. A bulge is a light dome, an indent a dark hollow.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from scoring.babel_cubes.geometry import BIT, DOWN, UP

# The cube colours of BC-1 (the names come from the data file), as drawn on screen.
PAINT = {"grey": "#8f9399", "white": "#f3efe6", "black": "#2b2b2e", "beige": "#d8bf90", "blue": "#3a6fc6"}
CELL_AT = {"nw": (0, 1), "ne": (1, 1), "sw": (0, 0), "se": (1, 0)}
COS30 = math.cos(math.pi / 6)
UNIT = 34  # pixels per cube edge in the tower picture
Point3 = tuple[float, float, float]


@dataclass(frozen=True)
class Placed:
    cell: str
    level: int
    colour: str
    mask: int


def _shade(colour: str, amount: float) -> str:
    """``colour`` darkened (amount > 0) or lightened (amount < 0)."""
    red, green, blue = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    target = 0 if amount > 0 else 255
    mix = abs(amount)
    return "#" + "".join(f"{round(c + (target - c) * mix):02x}" for c in (red, green, blue))


def _project(point: Point3) -> tuple[float, float]:
    x, y, z = point
    return (x + y) * COS30 * UNIT, ((x - y) * 0.5 - z) * UNIT


def _points(corners: Iterable[Point3], dx: float, dy: float) -> str:
    return " ".join(f"{sx + dx:.1f},{sy + dy:.1f}" for sx, sy in map(_project, corners))


def _faces(x: float, y: float, z: float) -> list[tuple[str, list[Point3], Point3, Point3, Point3]]:
    """(face, corners, centre, two in-plane unit vectors) for the top, south and east faces."""
    return [
        ("up", [(x, y, z + 1), (x + 1, y, z + 1), (x + 1, y + 1, z + 1), (x, y + 1, z + 1)],
         (x + 0.5, y + 0.5, z + 1), (1, 0, 0), (0, 1, 0)),
        ("south", [(x, y, z), (x + 1, y, z), (x + 1, y, z + 1), (x, y, z + 1)],
         (x + 0.5, y, z + 0.5), (1, 0, 0), (0, 0, 1)),
        ("east", [(x + 1, y, z), (x + 1, y + 1, z), (x + 1, y + 1, z + 1), (x + 1, y, z + 1)],
         (x + 1, y + 0.5, z + 0.5), (0, 1, 0), (0, 0, 1)),
    ]  # fmt: skip


def _circle(centre: Point3, u: Point3, v: Point3, radius: float = 0.22) -> list[Point3]:
    steps = [2 * math.pi * i / 16 for i in range(16)]
    return [
        tuple(c + radius * (math.cos(t) * a + math.sin(t) * b) for c, a, b in zip(centre, u, v, strict=True))  # type: ignore[misc]
        for t in steps
    ]


def tower(placed: Sequence[Placed], *, levels: int, title: str, description: str) -> SafeString:
    """The tower in isometric view; ``title`` and ``description`` are its text alternative."""
    width = 4 * COS30 * UNIT
    dx, dy = 6.0, (levels + 1) * UNIT + 6
    height = dy + UNIT + 6
    parts = [
        f'<svg class="cube-tower" viewBox="0 0 {width + 12:.0f} {height:.0f}" role="img" '
        f'xmlns="http://www.w3.org/2000/svg" aria-label="{escape(title)}: {escape(description)}">'
        f"<title>{escape(title)}</title><desc>{escape(description)}</desc>",
        f'<polygon class="ground" points="{_points([(0, 0, 0), (2, 0, 0), (2, 2, 0), (0, 2, 0)], dx, dy)}" />',
    ]
    for cube in sorted(placed, key=lambda c: (_depth(c), c.level)):
        x, y = CELL_AT[cube.cell]
        paint = PAINT[cube.colour]
        for face, corners, centre, u, v in _faces(x, y, cube.level - 1):
            tone = {"up": 0.0, "south": 0.18, "east": 0.34}[face]
            parts.append(f'<polygon points="{_points(corners, dx, dy)}" fill="{_shade(paint, tone)}" class="face" />')
            bulge = bool(cube.mask & BIT[face])
            marker = _shade(paint, tone - 0.45) if bulge else _shade(paint, min(tone + 0.45, 0.9))
            kind = "bulge" if bulge else "indent"
            parts.append(
                f'<polygon points="{_points(_circle(centre, u, v), dx, dy)}" fill="{marker}" class="{kind}" />'
            )
    parts.append("</svg>")
    return mark_safe("".join(parts))


def _depth(cube: Placed) -> float:
    """Distance towards the viewer (south-east, above): nearer cubes are painted later."""
    x, y = CELL_AT[cube.cell]
    return x - y + cube.level


def placement(cell: str, colour: str, mask: int, neighbours: dict[str, str]) -> SafeString:
    """One placement seen from above, turned like the tower picture (north-west at the back):
    the cube in its cell, a dome where a side bulges, a notch where it has an indent
    towards a neighbour, the top marked (light dome or dark hollow) and a bulging bottom
    as a small arrow. A drawing only (the button that shows it says it in words): a phone's
    picker shows dozens of them at each of its turns."""
    half = 48
    x0, y0 = (0 if "w" in cell else half), (0 if "n" in cell else half)
    paint = PAINT[colour]
    parts = [
        '<svg class="cube-pick" viewBox="-22 -22 140 140" aria-hidden="true"><g transform="rotate(45 48 48)">',
        '<rect x="0" y="0" width="96" height="96" class="level" />',
    ]
    for other, other_colour in neighbours.items():
        ox, oy = (0 if "w" in other else half), (0 if "n" in other else half)
        parts.append(_square(ox, oy, PAINT[other_colour], "neighbour"))
    parts.append(_square(x0, y0, paint, "cube"))
    centre_x, centre_y = x0 + half / 2, y0 + half / 2
    for face, (fx, fy) in {"north": (0, -1), "south": (0, 1), "east": (1, 0), "west": (-1, 0)}.items():
        edge_x, edge_y = centre_x + fx * (half / 2 - 3), centre_y + fy * (half / 2 - 3)
        if mask & BIT[face]:
            parts.append(f'<circle cx="{edge_x}" cy="{edge_y}" r="7" fill="{paint}" class="bulge" />')
        elif 0 < edge_x < 2 * half and 0 < edge_y < 2 * half:  # an inner face: show its indent
            parts.append(f'<circle cx="{edge_x}" cy="{edge_y}" r="6" class="indent" />')
    top = "bulge" if mask & UP else "indent"
    parts.append(f'<circle cx="{centre_x}" cy="{centre_y}" r="9" class="top {top}" />')
    if mask & DOWN:
        parts.append(f'<path d="M{x0 + 8} {y0 + 8} h10 l-10 10 z" class="bottom bulge" />')
    parts.append("</g></svg>")
    return mark_safe("".join(parts))


def _square(x: float, y: float, fill: str, kind: str) -> str:
    return f'<rect x="{x + 3}" y="{y + 3}" width="42" height="42" fill="{fill}" class="{kind}" />'


def cell_icon(cell: str) -> SafeString:
    """The level as a small diamond, like the tower picture, with ``cell`` filled in."""
    squares = "".join(
        f'<rect x="{0 if "w" in c else 10}" y="{0 if "n" in c else 10}" width="9" height="9" '
        f'class="{"here" if c == cell else "other"}" />'
        for c in CELL_AT
    )
    return mark_safe(
        f'<svg class="cell-icon" viewBox="-5 -5 29 29" aria-hidden="true" xmlns="http://www.w3.org/2000/svg">'
        f'<g transform="rotate(45 9.5 9.5)">{squares}</g></svg>'
    )
