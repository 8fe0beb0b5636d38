"""A placement's picture in babel's picker shows the cube as it will stand: a dome on each side
that bulges, a hollow on each that does not, the top's dome or hollow, an arrow for a bulging
bottom. The picture is a few <use> of pieces drawn once in the page's shell
(``pick_pieces``) on the level drawn once per picker (``pick_ground``); these tests resolve
the uses as a browser does and look at what they draw."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass

import pytest

from scoring.babel_cubes.geometry import BIT, CELLS, mask_of
from sessions import services
from sessions.boards.cube_pictures import PAINT, pick_ground, pick_pieces, placement
from tests.conftest import advance, seated_phones

SVG = "{http://www.w3.org/2000/svg}"
HREF = re.compile(r'<use href="#([^"]+)"/>')


@dataclass(frozen=True)
class Shape:
    """A drawn shape where it lies before the picture is turned: a circle's centre, a
    square's or an arrow's first corner."""

    element: ET.Element
    x: float
    y: float

    @property
    def kind(self) -> set[str]:
        return set(self.element.attrib.get("class", "").split())


def _by_id(*drawings: str) -> dict[str, ET.Element]:
    by_id = {}
    for drawing in drawings:
        if "xmlns=" not in drawing:  # inline SVG in HTML needs no namespace; the parser does
            drawing = drawing.replace("<svg ", '<svg xmlns="http://www.w3.org/2000/svg" ', 1)
        for element in ET.fromstring(drawing).iter():
            if "id" in element.attrib:
                by_id[element.attrib["id"]] = element
    return by_id


def _shapes(element: ET.Element, by_id: dict[str, ET.Element], dx: float = 0, dy: float = 0) -> list[Shape]:
    """What ``element`` draws, a <use> replaced by what it shows, moved by its x and y."""
    tag = element.tag.removeprefix(SVG)
    if tag == "use":
        x, y = dx + float(element.attrib.get("x", 0)), dy + float(element.attrib.get("y", 0))
        return _shapes(by_id[element.attrib["href"].removeprefix("#")], by_id, x, y)
    if tag == "circle":
        return [Shape(element, dx + float(element.attrib["cx"]), dy + float(element.attrib["cy"]))]
    if tag == "rect":
        return [Shape(element, dx + float(element.attrib.get("x", 0)), dy + float(element.attrib.get("y", 0)))]
    if tag == "path":
        start = re.match(r"M(\S+) ([^hvlz]+)", element.attrib["d"])
        assert start is not None
        return [Shape(element, dx + float(start[1]), dy + float(start[2]))]
    return [shape for child in element for shape in _shapes(child, by_id, dx, dy)]


def drawn(picture: str, neighbours: dict[str, str] | None = None) -> list[Shape]:
    """The shapes ``picture`` draws, in painting order."""
    by_id = _by_id(pick_pieces(), pick_ground(neighbours or {}, CELLS))
    return [shape for ref in HREF.findall(picture) for shape in _shapes(by_id[ref], by_id)]


def square_of(shapes: list[Shape]) -> tuple[float, float, float]:
    """(left, top, side) of the cube's square."""
    (square,) = [s for s in shapes if "cp-cube" in s.kind]
    return square.x, square.y, float(square.element.attrib["width"])


def domes(shapes: list[Shape]) -> list[Shape]:
    """The side domes (the top's dome is a dome too, but in the middle)."""
    return [s for s in shapes if "cp-bulge" in s.kind and "cp-top" not in s.kind]


def side_of(shape: Shape, square: tuple[float, float, float]) -> str:
    """Which edge of the square a side piece sits on: north is the top edge before turning."""
    left, top, side = square
    edges = {
        "north": abs(shape.y - top),
        "south": abs(shape.y - top - side),
        "west": abs(shape.x - left),
        "east": abs(shape.x - left - side),
    }
    return min(edges, key=edges.__getitem__)


def test_a_bulge_on_the_north_face_draws_the_north_dome_in_the_cubes_paint():
    picture = placement("nw", "white", BIT["north"])
    shapes = drawn(picture)
    square = square_of(shapes)
    assert [side_of(dome, square) for dome in domes(shapes)] == ["north"]
    left, top, side = square
    assert (domes(shapes)[0].x, domes(shapes)[0].y) == (left + side / 2, top)  # the middle of the north edge
    # The cube and its domes take the picture's paint: they carry no colour of their own.
    assert f'fill="{PAINT["white"]}"' in picture
    assert all("fill" not in s.element.attrib for s in [*domes(shapes), *(s for s in shapes if "cp-cube" in s.kind)])


def test_each_side_that_does_not_bulge_shows_a_hollow_under_no_dome():
    shapes = drawn(placement("se", "beige", mask_of(["up", "north", "west"])))
    square = square_of(shapes)
    hollows = [s for s in shapes if s.kind == {"cp-indent"}]
    assert sorted(side_of(h, square) for h in hollows) == ["east", "north", "south", "west"]
    assert sorted(side_of(d, square) for d in domes(shapes)) == ["north", "west"]
    for dome in domes(shapes):  # a dome is painted after the hollow it stands on, and hides it
        (hollow,) = [h for h in hollows if (h.x, h.y) == (dome.x, dome.y)]
        assert shapes.index(dome) > shapes.index(hollow)
        assert float(dome.element.attrib["r"]) > float(hollow.element.attrib["r"])


def test_the_top_shows_a_dome_when_it_bulges_and_a_hollow_when_it_does_not():
    flat = drawn(placement("ne", "grey", 0))
    assert [s.kind for s in flat if "cp-top" in s.kind] == [{"cp-top", "cp-indent"}]
    assert domes(flat) == []
    raised = drawn(placement("ne", "grey", BIT["up"]))
    tops = [s for s in raised if "cp-top" in s.kind]
    assert [s.kind for s in tops] == [{"cp-top", "cp-indent"}, {"cp-top", "cp-bulge"}]  # the dome over it
    left, top, side = square_of(raised)
    assert (tops[1].x, tops[1].y) == (left + side / 2, top + side / 2)


def test_a_bulging_bottom_draws_the_arrow_and_a_flat_one_none():
    assert [s for s in drawn(placement("sw", "black", BIT["north"])) if "cp-bottom" in s.kind] == []
    shapes = drawn(placement("sw", "black", mask_of(["down", "north"])))
    (arrow,) = [s for s in shapes if "cp-bottom" in s.kind]
    left, top, side = square_of(shapes)
    assert arrow.element.tag == f"{SVG}path"
    assert left < arrow.x < left + side / 2  # in the square's north-west corner
    assert top < arrow.y < top + side / 2
    assert shapes[-1] is arrow  # over the cube


@pytest.mark.parametrize("cell", CELLS)
def test_every_orientation_in_every_cell_draws_its_cube_in_that_cell_on_the_level(cell):
    column, row = ("w" in cell, "n" in cell)
    for mask in range(64):
        shapes = drawn(placement(cell, "blue", mask), {"ne": "grey"} if cell != "ne" else {})
        assert shapes[0].kind == {"cp-level"}  # every picture stands on the level's outline
        left, top, side = square_of(shapes)
        assert (left < side, top < side) == (column, row)
        bulges = {face for face in ("north", "south", "east", "west") if mask & BIT[face]}
        assert {side_of(d, (left, top, side)) for d in domes(shapes)} == bulges
        assert any("cp-bottom" in s.kind for s in shapes) == bool(mask & BIT["down"])
        assert any(s.kind == {"cp-top", "cp-bulge"} for s in shapes) == bool(mask & BIT["up"])


def test_the_level_under_the_pictures_shows_the_cubes_already_on_it_in_their_paint():
    shapes = drawn(placement("se", "white", 0), {"nw": "grey", "ne": "blue"})
    faded = [s for s in shapes if s.kind == {"cp-neighbour"}]
    assert [(s.x < 48, s.y < 48) for s in faded] == [(True, True), (False, True)]
    assert [s.element.attrib["fill"] for s in faded] == [PAINT["grey"], PAINT["blue"]]
    cube = next(s for s in shapes if "cp-cube" in s.kind)
    assert all(shapes.index(s) < shapes.index(cube) for s in faded)


def test_the_phone_draws_the_pieces_once_in_its_shell_and_the_level_once_in_its_picker(night, players):
    session = services.create_session(night=night, game="babel-cubes", players=players[:2], secret="3")
    advance(session, "session.start")
    code = services.create_join_code(session=session).code
    ada = seated_phones(session, code)[session.seats.first().key]
    page = ada.get(f"/j/{code}/").content.decode()
    region = ada.get(f"/j/{code}/live/", headers={"HX-Request": "true", "HX-Target": "guest"}).content.decode()
    assert page.count('id="cp-nw"') == 1  # in the shell, outside the region
    assert 'id="cp-nw"' not in region
    assert region.count('id="cp-ground"') == 1
    pictures = re.findall(r'data-testid="orientation"><svg .*?</svg>', region)
    assert len(pictures) == 32
    defined = set(re.findall(r'id="([^"]+)"', page))
    assert {ref for picture in pictures for ref in HREF.findall(picture)} <= defined


def test_the_hosts_page_draws_the_pieces_for_babel_alone(member_client, night, players):
    cubes = services.create_session(night=night, game="babel-cubes", players=players[:2], secret="3")
    advance(cubes, "session.start")
    tower = services.create_session(night=night, game="tower-of-babel", players=players[:3], secret="7")
    page = member_client.get(f"/s/{cubes.pk}/").content.decode()
    assert page.count('id="cp-nw"') == 1
    assert page.count('data-testid="orientation"><svg ') == 32
    defined = set(re.findall(r'id="([^"]+)"', page))
    assert {ref for ref in HREF.findall(page) if ref.startswith("cp-")} <= defined
    assert 'id="cp-nw"' not in member_client.get(f"/s/{tower.pk}/").content.decode()
