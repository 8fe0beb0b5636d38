"""The game pieces drawn on the boards (issue 17): a drawing never speaks by colour alone.
Tower of Babel discs show each kind's pictogram, name and number, built parts are bricks with
their builder's initial; 7 Wonders tiles are tiles with their number and effect, the Great
Project a card with its markers; Babel On! blocks have a pattern and a key naming them."""

import re

import pytest
from django.test import Client

from scoring.babel_on import engine as bo
from scoring.seven_wonders import engine as sw
from scoring.seven_wonders.data import project
from scoring.tower_of_babel import engine as tob
from sessions import services
from sessions.templatetags.drawings import times
from tests.conftest import advance, seated_phones, started_tower

DISC_LINK = re.compile(r'<a class="disc" href="\?disc=([\w-]+)#build" data-disc="\1">(.*?)</a>', re.S)
DISC_SPAN = re.compile(r'<span class="disc">(.*?)</span>\s*(?=<span class="disc">|</div>)', re.S)


def page_of(client, session):
    return client.get(f"/s/{session.pk}/").content.decode()


def a_tower(night, players, *, colours=(), two_kind=False):
    session = services.create_session(
        night=night,
        game="tower-of-babel",
        players=players[:3],
        colours=colours,
        options={"two_kind_discs": two_kind},
        secret="7",
    )
    return started_tower(session)


def words_of(disc_html):
    """(name, number) of each kind written beside a disc's drawing."""
    words = disc_html.split('<span class="disc-words">')[1]
    return re.findall(r"<span>(\w+) <strong>(\d+)</strong></span>", words)


def test_each_disc_on_the_host_board_is_a_link_showing_each_kind_by_name_and_number(member_client, night, players):
    session, _seats, _code = a_tower(night, players, two_kind=True)
    discs = session.state["game"]["discs"]
    links = DISC_LINK.findall(page_of(member_client, session))
    assert len(links) == 24
    for disc_id, html in links:
        demand = discs[disc_id]["demand"]
        assert words_of(html) == [(kind, str(number)) for kind, number in sorted(demand.items())]
        drawing = html.split("</svg>")[0]
        assert 'aria-hidden="true"' in drawing  # the words beside it say it all
        assert re.findall(r'<text class="disc-number[^"]*"[^>]*>(\d+)</text>', drawing) == [
            str(number) for _kind, number in sorted(demand.items())
        ]


def test_a_two_kind_disc_is_drawn_half_and_half_with_a_pictogram_for_each_kind(member_client, night, players):
    session, _seats, _code = a_tower(night, players, two_kind=True)
    discs = session.state["game"]["discs"]
    links = dict(DISC_LINK.findall(page_of(member_client, session)))
    two_kind = next(disc for disc, spec in discs.items() if len(spec["demand"]) == 2 and disc in links)
    drawing = links[two_kind].split("</svg>")[0]
    assert drawing.count('class="disc-face"') == 2
    assert drawing.count('class="kind-icon"') == 2
    assert re.findall(r'<g class="kind-(\w+)">', drawing) == sorted(discs[two_kind]["demand"])


def test_each_kind_has_a_pictogram_of_its_own_drawn_once_per_page(member_client, night, players):
    session, _seats, _code = a_tower(night, players)
    page = page_of(member_client, session)
    pictograms = dict(
        re.findall(r'<symbol id="tob-kind-(\w+)" class="kind-icon" viewBox="0 0 24 24">(.*?)</symbol>', page)
    )
    assert sorted(pictograms) == ["camel", "crane", "ship", "stonemason"]
    assert len(set(pictograms.values())) == 4  # no two alike
    discs = session.state["game"]["discs"]
    for disc, html in DISC_LINK.findall(page):
        (kind,) = discs[disc]["demand"]
        assert f'<use href="#tob-disc-{kind}"/>' in html  # each disc draws its kind's, by reference
        assert f'<symbol id="tob-disc-{kind}"' in page


def test_a_phone_sees_the_same_discs_without_links(night, players):
    _session, _seats, code = a_tower(night, players)
    page = Client().get(f"/j/{code}/").content.decode()
    assert 'class="disc" href' not in page
    spans = DISC_SPAN.findall(page)
    assert len(spans) == 24
    assert all(words_of(html) for html in spans)


def test_the_player_to_move_taps_a_disc_by_its_drawing_on_their_phone(night, players):
    session, seats, code = a_tower(night, players)
    page = seated_phones(session, code)[seats[0]].get(f"/j/{code}/").content.decode()
    discs = session.state["game"]["discs"]
    buttons = re.findall(r'<button name="disc" value="[\w-]+" data-disc="([\w-]+)">(.*?)</button>', page, re.S)
    assert len(buttons) == 24
    for disc_id, html in buttons:
        assert words_of(html) == [(kind, str(n)) for kind, n in sorted(discs[disc_id]["demand"].items())]


def test_a_built_part_is_a_brick_per_card_in_its_builders_colour_with_their_initial(member_client, night, players):
    session, seats, _code = a_tower(night, players, colours=["red", "", "green"])
    disc = session.state["game"]["wonders"]["pyramids"]["discs"][0]
    kind, number = next(iter(session.state["game"]["discs"][disc]["demand"].items()))
    offers = {
        seat: {"cards": {kind: 1} if seat == seats[1] else {}, "trading": False, "triple": False} for seat in seats[1:]
    }
    advance(
        session,
        tob.BUILD,
        wonder="pyramids",
        disc=disc,
        offers=offers,
        accepted=[seats[1]],
        own={kind: number - 1},
        jokers=0,
        fulfilled=True,
        double_turn=False,
    )
    page = page_of(member_client, session)
    board = page.split('data-testid="tob-board"')[1]  # the last move above it names the wonder too
    pyramids = board.split("Pyramids of Giza")[1].split('class="wonder')[0]
    wall = pyramids.split('<div class="wall" aria-hidden="true">')[1].split("</div>")[0]
    bricks = re.findall(r'<span class="brick colour-(\w+)">(\w)</span>', wall)
    assert bricks == [("red", "A")] * (number - 1) + [("none", "B")]  # Bruno chose no colour: dashed, with his B
    assert f"Ada <strong>{number - 1}</strong>" in pyramids
    assert "Bruno <strong>1</strong>" in pyramids


def test_one_piece_is_drawn_per_unit_and_none_for_nothing():
    assert list(times(3)) == [0, 1, 2]
    assert list(times(0)) == list(times(None)) == list(times(-1)) == []


@pytest.fixture
def seven_wonders(night, players):
    session = services.create_session(
        night=night,
        game="seven-wonders",
        players=players[:3],
        options={"tower_tiles": True, "great_projects": True},
        secret="5",
    )
    advance(session, "session.start")
    seats = [seat.key for seat in session.seats.all()]
    advance(session, sw.DRAFT_RECORD, tiles={seats[0]: [1, 5, 9], seats[1]: [2, 7, 21], seats[2]: [3, 4, 22]})
    return session, seats


def test_the_placed_tiles_are_drawn_as_tiles_with_their_number_and_effect(member_client, seven_wonders):
    session, seats = seven_wonders
    advance(session, sw.BUILD_TILES, tiles={seats[0]: 5, seats[1]: 21})
    row = page_of(member_client, session).split('<div class="sw-tile-row">')[1].split("</div>")[0]
    tiles = re.findall(r'<p class="sw-tile">(.*?)</p>', row, re.S)
    assert len(tiles) == 2
    for space, (tile, html) in enumerate(zip((5, 21), tiles, strict=True), start=1):
        drawing, words = html.split("</svg>")
        assert 'aria-hidden="true"' in drawing
        assert f'<text class="tile-number" x="28" y="40">{tile}</text>' in drawing
        assert f"<strong>{space}. tile {tile}</strong>: " in words
    assert "bonus for blue cards (1 now)" in tiles[0]


def test_the_great_project_card_shows_its_markers_with_the_players_initials(member_client, seven_wonders):
    session, seats = seven_wonders
    advance(session, sw.PARTICIPATE, seat=seats[1], same_turn_reserve=False)
    colour = project(session.state["game"]["projects"][0])["colour"]
    page = page_of(member_client, session)
    assert f'<div class="panel-inner sw-card sw-card-{colour}" data-testid="sw-project">' in page
    card = page.split('data-testid="sw-project">')[1].split("</div>")[0]
    assert f'<span class="badge">{colour}</span>' in card  # the frame's colour in words
    tokens = card.split('<p class="tokens" aria-hidden="true">')[1].split("</p>")[0]
    assert re.findall(r'<span class="token( left)?">(\w?)</span>', tokens) == [("", "B"), (" left", "")]
    assert "1 marker left · Bruno 1" in card


def test_each_babel_on_block_names_its_colour_and_the_key_counts_them(member_client, night, players):
    session = services.create_session(night=night, game="babel-on", players=players[:2], secret="b")
    advance(session, "session.start")
    seats = [seat.key for seat in session.seats.all()]
    advance(session, bo.SETUP, colours={seats[0]: "blue", seats[1]: "red"}, extra="green")
    advance(session, bo.ROLLOFF, rolls={seats[0]: 5, seats[1]: 2})
    blocks = [
        {"tower": seats[0], "colour": "blue", "floor": 1, "cell": "nw"},
        {"tower": seats[0], "colour": "green", "floor": 1, "cell": "ne"},
        {"tower": seats[0], "colour": "blue", "floor": 1, "cell": "sw"},
    ]
    advance(session, bo.ADJUST, note="three blocks", end_turn=False, remove=[], add=blocks)
    page = page_of(member_client, session)
    tower = page.split(f'data-testid="bo-tower-{seats[0]}"')[1].split("</li>")[0]
    assert ('<span class="bo-cell bo-block colour-blue" title="floor 1, north-west · blue"></span>') in tower
    assert 'colour-green" title="floor 1, north-east · green"' in tower
    assert '<span class="bo-cell empty" title="floor 1, south-east"></span>' in tower
    key = tower.split('<p class="bo-key">')[1].split("</p>")[0]
    assert re.findall(r'<span class="swatch bo-block colour-(\w+)"></span>(\w+) (\d+)', key) == [
        ("blue", "blue", "2"),
        ("green", "green", "1"),
    ]


def test_a_babel_on_tower_says_each_missing_condition_once_with_its_floors(member_client, night, players):  # BO-13
    session = services.create_session(night=night, game="babel-on", players=players[:2], secret="b")
    advance(session, "session.start")
    seats = [seat.key for seat in session.seats.all()]
    advance(session, bo.SETUP, colours={seats[0]: "blue", seats[1]: "red"}, extra="green")
    advance(session, bo.ROLLOFF, rolls={seats[0]: 5, seats[1]: 2})
    blocks = [{"tower": seats[0], "colour": "blue", "floor": 1, "cell": cell} for cell in ("nw", "sw")]
    advance(session, bo.ADJUST, note="two blocks", end_turn=False, remove=[], add=blocks)
    page = page_of(member_client, session)
    tower = page.split(f'data-testid="bo-tower-{seats[0]}"')[1].split("</details>")[0]
    problems = re.findall(r"<li>([^<]+)</li>", tower.split('data-testid="bo-problems"')[1])
    assert problems == [
        "Floor 1 has 2 of 4 blocks.",
        *(f"Floor {floor} has 0 of 4 blocks." for floor in range(2, 7)),
        "No two blocks of your colour side by side (not diagonally) on floors 2, 3, 4, 5 and 6.",
        "None of your blocks above one of yours on the floor below, on floors 2, 3, 4, 5 and 6.",
    ]
    bruno = page.split(f'data-testid="bo-tower-{seats[1]}"')[1].split("</details>")[0]
    assert "Floor 2: none of your blocks is above one of yours on floor 1." not in bruno  # said for floors 2-6
