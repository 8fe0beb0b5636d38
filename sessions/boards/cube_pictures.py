"""SVG pictures of the babel cube tower: the tower in isometric view, and one placement seen from above.

Drawn on the server so that every phone shows the same picture without JavaScript. The
tower is seen from the south-east and above: the top, south and east faces of each cube
show, painted back to front. A bulge is a light dome, an indent a dark hollow.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from scoring.babel_cubes.geometry import BIT

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


# A placement seen from above (the phone's picker): the level drawn turned like the tower
# picture, north-west at the back. Its pieces are drawn once, in the page's shell outside the
# live region (pick_pieces), and the picture of each of up to 32 orientations is a few <use>.
HALF = 48  # a cell's side in the picture (the level is 2 x 2 cells)
PICK_TURN = 'transform="rotate(45 48 48)"'
SIDES = {"north": (0, -1), "south": (0, 1), "east": (1, 0), "west": (-1, 0)}
PIECE = {"north": "n", "south": "s", "east": "e", "west": "w", "up": "u", "down": "d"}


def _corner(cell: str) -> tuple[int, int]:
    """The top-left corner of ``cell`` in the picture, before it is turned."""
    return (0 if "w" in cell else HALF), (0 if "n" in cell else HALF)


def _square(cell: str, kind: str, fill: str = "") -> str:
    x, y = _corner(cell)
    paint = f' fill="{fill}"' if fill else ""
    return f'<rect x="{x + 3}" y="{y + 3}" width="42" height="42"{paint} class="{kind}"/>'


def _side(cell: str, face: str) -> tuple[int, int]:
    """The middle of ``face``'s edge, a little inside the cube's square."""
    x, y = _corner(cell)
    fx, fy = SIDES[face]
    return x + HALF // 2 + fx * 21, y + HALF // 2 + fy * 21


@cache
def pick_pieces() -> SafeString:
    """The pieces of every placement picture, once for the whole page. A cube (``#cp-nw``):
    its square in the paint of the picture that draws it, a hollow on each side and on the
    top; over it, a dome where a side bulges (``#cp-nw-n``, -s, -e, -w), a light dome where the
    top bulges (``#cp-nw-u``) and an arrow where the bottom does (``#cp-nw-d``). Each is drawn
    for the north-west cell (``#cp-c``, ``#cp-n``...), then moved to each cell and turned by a
    <use>. With them, the four cells' icons (``#cp-icon-nw``...)."""
    centre = HALF // 2
    sides = [_side("nw", face) for face in SIDES]
    pieces = [
        f'<g id="cp-c">{_square("nw", "cp-cube")}'
        + "".join(f'<circle cx="{x}" cy="{y}" r="6" class="cp-indent"/>' for x, y in sides)
        + f'<circle cx="{centre}" cy="{centre}" r="9" class="cp-top cp-indent"/></g>',
        *(
            f'<circle id="cp-{PIECE[face]}" cx="{x}" cy="{y}" r="7" class="cp-bulge"/>'
            for face, (x, y) in zip(SIDES, sides, strict=True)
        ),
        f'<circle id="cp-u" cx="{centre}" cy="{centre}" r="9" class="cp-top cp-bulge"/>',
        '<path id="cp-d" d="M8 8h10l-10 10z" class="cp-bottom"/>',
    ]
    for cell in CELL_AT:
        x, y = _corner(cell)
        at = (f' x="{x}"' if x else "") + (f' y="{y}"' if y else "")
        pieces.append(f'<use id="cp-{cell}" href="#cp-c"{at} {PICK_TURN}/>')
        pieces += [f'<use id="cp-{cell}-{piece}" href="#cp-{piece}"{at} {PICK_TURN}/>' for piece in PIECE.values()]
    icons = "".join(
        f'<g id="cp-icon-{cell}" transform="rotate(45 9.5 9.5)">'
        + "".join(
            f'<rect x="{0 if "w" in c else 10}" y="{0 if "n" in c else 10}" width="9" height="9" '
            f'class="{"cell-here" if c == cell else "cell-other"}"/>'
            for c in CELL_AT
        )
        + "</g>"
        for cell in CELL_AT
    )
    return mark_safe(
        '<svg class="visually-hidden" aria-hidden="true" focusable="false" xmlns="http://www.w3.org/2000/svg">'
        f"<defs>{''.join(pieces)}{icons}</defs></svg>"
    )


def pick_ground(neighbours: dict[str, str], cells: Iterable[str]) -> SafeString:
    """The level under every picture of a picker (``#cp-ground``): its outline, and the cubes
    already on it (cell: colour), faded; and for each of ``cells`` (the free cells the picker
    offers) the cube standing in it on the level (``#cp-on-nw``...), which each of its pictures
    draws. Once per picker: the level is the same for each."""
    squares = "".join(_square(cell, "cp-neighbour", PAINT[colour]) for cell, colour in neighbours.items())
    cubes = "".join(f'<g id="cp-on-{cell}"><use href="#cp-ground"/><use href="#cp-{cell}"/></g>' for cell in cells)
    return mark_safe(
        '<svg class="visually-hidden" aria-hidden="true" focusable="false"><defs>'
        f'<g id="cp-ground" {PICK_TURN}><rect width="96" height="96" class="cp-level"/>{squares}</g>'
        f"{cubes}</defs></svg>"
    )


def placement(cell: str, colour: str, mask: int) -> SafeString:
    """One placement seen from above, on the picker's level (``pick_ground``): the cube in its
    cell, a dome where a side bulges, a hollow where it does not, the top marked (light dome
    or dark hollow) and a bulging bottom as a small arrow. A drawing only (the button that
    shows it says it in words), of the pieces drawn once per page (``pick_pieces``): a phone's
    picker shows dozens of them at each of its turns."""
    uses = [f"cp-on-{cell}"] + [f"cp-{cell}-{PIECE[face]}" for face in (*SIDES, "up", "down") if mask & BIT[face]]
    return mark_safe(
        f'<svg viewBox="-22 -22 140 140" fill="{PAINT[colour]}" aria-hidden="true">'
        + "".join(f'<use href="#{use}"/>' for use in uses)
        + "</svg>"
    )


def cell_icon(cell: str) -> SafeString:
    """The level as a small diamond, like the tower picture, with ``cell`` filled in (its
    pieces are drawn once per page, ``pick_pieces``)."""
    return mark_safe(
        f'<svg class="cell-icon" viewBox="-5 -5 29 29" aria-hidden="true"><use href="#cp-icon-{cell}"/></svg>'
    )
