"""Babel On! played by tapping the towers (issue 39): a drawn block's place is a cell of the
player's own tower, the suggested one chosen already and only the cells a block can reach
offered (BO-7, BO-8); a move is a block tapped on any tower, then its new cell, in any order
(BO-9); no list of more than 8 choices on a phone or the host's page; and a finished game no
longer speaks of towers that are not perfect yet."""

import re
from html.parser import HTMLParser

from scoring.babel_on import engine as bo
from tests import test_babel_on_phones
from tests.conftest import advance, play, ruled
from tests.test_babel_on_pages import game
from tests.test_babel_on_phones import my_turn, phone, send

table = test_babel_on_phones.table  # Ada (blue) won the roll-off against Bruno (red)

MOST_OPTIONS = 8


class Lists(HTMLParser):
    """How many options each <select> of a page has, by its name."""

    def __init__(self) -> None:
        super().__init__()
        self.options: dict[str, int] = {}
        self.open: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "select":
            self.open = dict(attrs).get("name") or ""
            self.options[self.open] = 0
        elif tag == "option" and self.open is not None:
            self.options[self.open] += 1

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self.open = None


def longest_list(html: str) -> int:
    lists = Lists()
    lists.feed(html)
    return max(lists.options.values(), default=0)


def offered(section: str, name: str) -> list[str]:
    """The values of the radio buttons ``name`` of a section, in the page's order."""
    return re.findall(rf'name="{name}" value="([^"]*)"', section)


def test_a_drawn_blocks_place_is_a_cell_it_can_reach_with_the_suggestion_chosen(table):  # BO-7, BO-8
    _session, code, ada, _bruno = table
    ada_phone = phone(code, ada)
    send(ada_phone, code, call="even", die="typed", roll="2")
    section = my_turn(ada_phone, code)
    # Two blocks reach every cell of floor 1 and, on one of them, floor 2; never floor 3.
    places = ["1-nw", "1-ne", "1-sw", "1-se", "2-nw", "2-ne", "2-sw", "2-se"]
    assert offered(section, "spot_0") == places
    assert offered(section, "spot_1") == places
    assert 'name="spot_0" value="1-nw" checked' in section
    assert 'name="spot_1" value="1-ne" checked' in section
    assert "floor 1, north-west (suggested)" in section
    assert "<select" not in section


def test_places_tapped_in_any_order_go_on_the_lowest_first(table):  # BO-7
    session, code, ada, _bruno = table
    ada_phone = phone(code, ada)
    send(ada_phone, code, call="even", die="typed", roll="2")
    # Block 1 goes on top of block 2: a tap on floor 2 before the one on floor 1.
    response = send(ada_phone, code, colour_0="blue", spot_0="2-sw", colour_1="green", spot_1="1-sw")
    assert response.status_code == 302
    tower = game(session)["towers"][ada]
    assert (tower[0][2], tower[1][2]) == ("green", "blue")


def test_a_block_that_cannot_stand_there_is_refused_over_the_towers_with_the_form_kept(table):  # BO-7
    session, code, ada, _bruno = table
    ada_phone = phone(code, ada)
    send(ada_phone, code, call="even", die="typed", roll="2")
    chosen = {"colour_0": "blue", "spot_0": "1-nw", "colour_1": "green", "spot_1": "2-se"}
    response = send(ada_phone, code, form="bo-draw", **chosen)  # the form as the phone sends it
    assert response.status_code == 400
    html = response.content.decode()
    form = html[html.index('id="bo-draw"') :]
    assert form.index('role="alert"') < form.index('name="spot_0"')  # at the top of the form
    assert ruled("(rule BO-7)") in form[: form.index('name="spot_0"')]
    assert 'name="spot_1" value="2-se" checked' in form
    assert game(session)["towers"][ada][0] == [None] * 4


def test_a_move_offers_the_blocks_that_can_come_off_and_the_cells_they_can_go_to(table):  # BO-7, BO-11
    session, code, ada, bruno = table
    # Ada's floor 1 is all blue, protected (BO-11); her green on floor 2 stands under a red.
    advance(
        session,
        bo.ADJUST,
        note="set",
        add=[
            *({"tower": ada, "colour": "blue", "floor": 1, "cell": c} for c in ("nw", "ne", "sw", "se")),
            {"tower": ada, "colour": "green", "floor": 2, "cell": "nw"},
            {"tower": ada, "colour": "red", "floor": 3, "cell": "nw"},
            {"tower": ada, "colour": "green", "floor": 2, "cell": "ne"},
        ],
    )
    advance(session, bo.ROLL, call="odd", roll=1)
    ada_phone = phone(code, ada)
    section = my_turn(ada_phone, code)
    assert offered(section, "from_0") == [f"{ada}:3:nw", f"{ada}:2:ne"]  # the red on top, the green alone
    assert f"{ada}:1:nw" not in offered(section, "to_0")
    assert f"{bruno}:1:nw" in offered(section, "to_0")
    assert f"{bruno}:2:nw" not in offered(section, "to_0")  # nothing under it (BO-7)
    # Each radio button is named by the step, the tower, the place and the colour, each said once
    # on the page: "Block 1: take off Ada · floor 3, north-west · red".
    assert '<span hidden id="bo-off-0">Block 1: take off</span>' in section
    assert '<span id="bt1">Ada</span>'  # the first tower in section
    assert '<span hidden id="bp3nw">· floor 3, north-west</span>' in section
    assert '<span hidden id="bcred">· red</span>' in section
    assert f'value="{ada}:3:nw" aria-labelledby="bo-off-0 bt1 bp3nw bcred"' in section
    assert "<select" not in section
    response = send(ada_phone, code, from_0=f"{ada}:3:nw", to_0=f"{bruno}:1:se")
    assert response.status_code == 302
    state = game(session)
    assert (state["towers"][ada][2][0], state["towers"][bruno][0][3]) == (None, "red")


def test_a_stack_moved_with_its_blocks_tapped_bottom_first_keeps_its_order(table):  # BO-7, BO-9
    session, code, ada, bruno = table
    advance(session, bo.ROLL, call="even", roll=4)
    advance(
        session,
        bo.DRAW,
        blocks=[
            {"colour": "green", "floor": 1, "cell": "nw"},
            {"colour": "green", "floor": 1, "cell": "ne"},
            {"colour": "green", "floor": 1, "cell": "sw"},
            {"colour": "red", "floor": 2, "cell": "nw"},
        ],
    )
    advance(session, bo.ROLL, call="odd", roll=3)
    bruno_phone = phone(code, bruno)
    response = send(
        bruno_phone,
        code,
        from_0=f"{ada}:1:nw",
        to_0=f"{bruno}:1:nw",
        from_1=f"{ada}:2:nw",
        to_1=f"{bruno}:2:nw",
        from_2=f"{ada}:1:ne",
        to_2=f"{bruno}:1:ne",
    )
    assert response.status_code == 302
    state = game(session)
    assert state["towers"][bruno][:2] == [["green", "green", None, None], ["red", None, None, None]]


def test_a_move_sent_a_block_at_a_time_comes_back_with_the_blocks_chosen_until_the_last(table):  # BO-9
    """Without JavaScript, the towers' one set of radio buttons is sent for each block: the phone
    gets its turn back with the blocks chosen so far (hidden fields, their cells marked with their
    number) and the set named for the next block; the move is recorded with the last."""
    session, code, ada, bruno = table
    advance(session, bo.ROLL, call="even", roll=4)
    drawn = [("green", 1, "nw"), ("green", 1, "ne"), ("green", 1, "sw"), ("red", 2, "nw")]
    advance(session, bo.DRAW, blocks=[{"colour": c, "floor": f, "cell": cell} for c, f, cell in drawn])
    advance(session, bo.ROLL, call="odd", roll=3)
    bruno_phone = phone(code, bruno)
    assert offered(my_turn(bruno_phone, code), "from_1") == []  # one set, for block 1
    chosen = {"form": "bo-move", "from_0": f"{ada}:2:nw", "to_0": f"{bruno}:1:nw"}
    response = send(bruno_phone, code, **chosen)
    html = response.content.decode()
    assert response.status_code == 400
    assert "Block 1 of 3 is chosen: now tap the next block to move, then its new cell." in html
    form = html[html.index('id="bo-move"') :]
    assert f'<input type="hidden" name="from_0" value="{ada}:2:nw">' in form
    assert f'<input type="hidden" name="to_0" value="{bruno}:1:nw">' in form
    assert '<span hidden id="bo-off-1">Block 2: take off</span>' in form
    assert f"{ada}:2:nw" not in offered(form, "from_1")  # a block comes off once
    assert f"{bruno}:1:nw" not in offered(form, "to_1")  # a cell takes one block
    assert f"{ada}:2:nw" in offered(form, "to_1")  # its own cell can take another
    assert 'data-off="1"' in form  # block 1 comes off there
    assert 'data-on="1"' in form  # and goes on there
    assert game(session)["towers"][bruno][0] == [None] * 4  # nothing recorded yet
    chosen |= {"from_1": f"{ada}:1:nw", "to_1": f"{bruno}:2:nw"}
    assert f'name="from_2" value="{ada}:1:ne"' in send(bruno_phone, code, **chosen).content.decode()
    response = send(bruno_phone, code, **chosen, from_2=f"{ada}:1:ne", to_2=f"{bruno}:1:ne")
    assert response.status_code == 302
    assert game(session)["towers"][bruno][:2] == [["red", "green", None, None], ["green", None, None, None]]


def test_no_list_on_the_phone_or_the_hosts_page_has_more_than_eight_choices(member_client, table):
    session, code, ada, bruno = table
    ada_phone, bruno_phone = phone(code, ada), phone(code, bruno)

    def longest() -> int:
        pages = [ada_phone.get(f"/j/{code}/"), bruno_phone.get(f"/j/{code}/"), member_client.get(f"/s/{session.pk}/")]
        return max(longest_list(page.content.decode()) for page in pages)

    assert longest() <= MOST_OPTIONS  # the roll, and the bonus blocks
    send(ada_phone, code, call="even", die="typed", roll="6")
    assert longest() <= MOST_OPTIONS  # the draw
    advance(
        session,
        bo.DRAW,
        blocks=[{"colour": "blue", "floor": 1 + i // 4, "cell": ["nw", "ne", "sw", "se"][i % 4]} for i in range(6)],
    )
    send(bruno_phone, code, call="odd", die="typed", roll="3")
    assert longest() <= MOST_OPTIONS  # the move
    send(
        bruno_phone,
        code,
        from_0=f"{ada}:2:nw",
        to_0=f"{bruno}:1:nw",
        from_1=f"{ada}:2:ne",
        to_1=f"{bruno}:1:ne",
        from_2=f"{ada}:1:sw",
        to_2=f"{bruno}:1:sw",
    )
    send(ada_phone, code, call="odd", die="typed", roll="2")
    assert longest() <= MOST_OPTIONS  # the next turn, after a miss


def test_the_hosts_adjustment_takes_a_place_as_a_floor_and_a_cell(member_client, table):
    session, _code, _ada, bruno = table
    adjusted = {"note": "a block slid", "add_colour": "green", "add_tower": bruno, "add_floor": "1", "add_cell": "se"}
    assert play(member_client, session, "adjust", **adjusted).status_code == 302
    assert game(session)["towers"][bruno][0] == [None, None, None, "green"]
    removed = {"note": "it fell", "remove_tower": bruno, "remove_floor": "1", "remove_cell": "se"}
    assert play(member_client, session, "adjust", **removed).status_code == 302
    assert game(session)["towers"][bruno][0] == [None] * 4


def test_a_finished_game_speaks_no_more_of_towers_not_perfect_yet(member_client, table):  # BO-14
    session, _code, ada, bruno = table
    for _turn in range(2):  # two wrong calls: the round ends with no perfect tower
        play(member_client, session, "roll", call="odd", roll="2", die="typed")
    page = member_client.get(f"/s/{session.pk}/").content.decode()
    assert "no perfect tower yet" in page
    assert "Not perfect yet" in page
    play(member_client, session, "knock", seat=bruno, tower=ada)  # Bruno is out: Ada is the last standing
    page = member_client.get(f"/s/{session.pk}/").content.decode()
    assert "wins: last player standing!" in page
    assert "no perfect tower yet" not in page
    assert "Not perfect yet" not in page
    tower = page[page.index(f'data-testid="bo-tower-{ada}"') :]
    assert '<svg class="trophy"' in tower[: tower.index("</h3>")]  # drawn, not an emoji
    assert "🏆" not in page
