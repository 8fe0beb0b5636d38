"""Babel On! on a phone (390x844) by tapping the towers, counted as a person's taps (issue 39):
a draw of 6 blocks left on the suggested places in at most 9 taps, one more for each place
changed (a tap on a cell of the player's own tower); a block moved in at most 3 taps after the
roll (the block on any tower, its new cell, the move). The keyboard plays the same radio
buttons, and without JavaScript the same forms are posted as they are."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from scoring.babel_on import engine as bo
from sessions import services
from sessions.models import GameSession, Player
from tests.browser.conftest import OpenContext, phone_of
from tests.browser.test_every_page import THEMES, violations
from tests.browser.test_tap_counts import a_night_after_a_game, counting_phone, taps_on
from tests.conftest import advance

pytestmark = pytest.mark.browser

PHONE: ViewportSize = {"width": 390, "height": 844}
MOST_TAPS_FOR_SIX_BLOCKS_DRAWN = 9  # the call, the app's die, 6 colours, the placing
MOST_TAPS_TO_MOVE_A_BLOCK = 3  # after the roll: the block, its new cell, the move


def a_babel_on_table(secret: str) -> tuple[GameSession, Player, Player]:
    """Ada (blue) and Bruno (red), Ada to play; the app's die is drawn from ``secret``."""
    night, players = a_night_after_a_game()
    ada, bruno = players[:2]
    session = services.create_session(
        night=night, game="babel-on", players=[ada, bruno], colours=["blue", "red"], secret=secret
    )
    advance(session, "session.start")
    advance(session, bo.SETUP, colours={str(ada.pk): "blue", str(bruno.pk): "red"}, extra="green")
    advance(session, bo.ROLLOFF, rolls={str(ada.pk): 5, str(bruno.pk): 2})
    return session, ada, bruno


def towers(session: GameSession) -> dict[str, list[list[str | None]]]:
    return GameSession.objects.get(pk=session.pk).state["game"]["towers"]


def call_and_roll(page: Page, call: str) -> None:
    turn = page.get_by_test_id("bo-my-turn")
    turn.get_by_label(call, exact=True).check()
    turn.get_by_role("button", name="Roll the app's die").click()


@pytest.mark.parametrize("changed", [0, 2])
def test_six_blocks_drawn_take_nine_taps_and_one_more_per_place_changed(
    new_context: OpenContext, screenshots: Path, changed: int
) -> None:
    session, ada, _bruno = a_babel_on_table(secret="7")  # the app's first roll: a 6
    phone = counting_phone(new_context, services.create_join_code(session=session).code, "Ada")
    call_and_roll(phone, "even")
    draw = phone.locator("#bo-draw")
    expect(phone.get_by_role("heading", name="Draw 6 blocks and place them")).to_be_visible()
    assert draw.locator("select").count() == 0
    for row in range(6):
        draw.get_by_role("group", name=f"Block {row + 1}", exact=True).get_by_label("blue", exact=True).click()
    # Each block's suggested place is chosen already, among the cells 6 blocks can reach.
    fifth = draw.get_by_role("group", name="Block 5 goes on")
    expect(fifth.get_by_role("radio", name="floor 2, north-west (suggested)")).to_be_checked()
    expect(fifth.get_by_role("radio")).to_have_count(12)  # floors 1 to 3
    if changed:  # blocks 5 and 6 go to the south of floor 2: one tap each on Ada's tower
        fifth.get_by_role("radio", name="floor 2, south-east").click()
        draw.get_by_role("group", name="Block 6 goes on").get_by_role("radio", name="floor 2, south-west").click()
        expect(fifth.get_by_role("radio", name="floor 2, south-east")).to_be_checked()
        phone.screenshot(path=screenshots / "babel-on-tap-01-draw-places-changed.png")
    phone.get_by_role("button", name="Place the blocks").click()
    expect(phone.get_by_test_id("bo-status")).to_contain_text("Bruno to play")
    taps = taps_on(phone)
    print(f"\nBabel On!, 6 blocks drawn on a phone, {changed} places changed: {taps} taps")
    assert taps <= MOST_TAPS_FOR_SIX_BLOCKS_DRAWN + changed
    second = ["blue", "blue", None, None] if not changed else [None, None, "blue", "blue"]
    assert towers(session)[str(ada.pk)][:2] == [["blue"] * 4, second]


def a_move_of_one_block(secret: str = "14") -> tuple[GameSession, Player, Player, str]:
    """Ada's tower holds a green; Bruno's a red and a green on floor 1. Ada is to play, and the
    app's first roll for ``secret`` is a 1. Also the join code."""
    session, ada, bruno = a_babel_on_table(secret=secret)
    blocks = [(ada, "green", "nw"), (bruno, "red", "nw"), (bruno, "green", "ne")]
    add = [{"tower": str(seat.pk), "colour": colour, "floor": 1, "cell": cell} for seat, colour, cell in blocks]
    advance(session, bo.ADJUST, note="the blocks of earlier turns", add=add)
    return session, ada, bruno, services.create_join_code(session=session).code


def test_a_block_moved_takes_three_taps_after_the_roll(new_context: OpenContext, screenshots: Path) -> None:
    session, ada, bruno, code = a_move_of_one_block()
    phone = counting_phone(new_context, code, "Ada")
    call_and_roll(phone, "odd")
    move = phone.locator("#bo-move")
    expect(phone.get_by_role("heading", name="Move 1 block")).to_be_visible()
    assert move.locator("select").count() == 0
    phone.evaluate("sessionStorage.setItem('taps', '0')")
    # Only the blocks to take off can be tapped first; then the cells a block can go to.
    expect(move.get_by_role("radio", name="Block 1: put on Ada · floor 1, north-east")).to_have_count(0)
    move.get_by_role("radio", name="Block 1: take off Bruno · floor 1, north-east · green").click()
    target = move.get_by_role("radio", name="Block 1: put on Ada · floor 1, north-east")
    expect(target).to_be_visible()
    target.click()
    phone.screenshot(path=screenshots / "babel-on-tap-02-move-chosen.png")
    phone.get_by_role("button", name="Move the blocks").click()
    expect(phone.get_by_test_id("bo-status")).to_contain_text("Bruno to play")
    taps = taps_on(phone)
    print(f"\nBabel On!, a block moved on a phone: {taps} taps after the roll")
    assert taps <= MOST_TAPS_TO_MOVE_A_BLOCK
    placed = towers(session)
    assert (placed[str(ada.pk)][0], placed[str(bruno.pk)][0]) == (
        ["green", "green", None, None],
        ["red", None, None, None],
    )


def a_move_late_in_the_game(blocks: int) -> tuple[GameSession, Player, Player, str]:
    """Each tower four floors high and three blocks on its fifth, the colours mixed
    (tests.test_page_weights), and Ada, to play, rolled ``blocks`` on a right call of odd. Also
    the join code."""
    session, ada, bruno = a_babel_on_table(secret="7")
    colours = ["blue", "red", "green"]
    add = [
        {"tower": str(seat.pk), "colour": colours[(number + floor) % 3], "floor": floor, "cell": cell}
        for seat in (ada, bruno)
        for floor in range(1, 6)
        for number, cell in enumerate(["nw", "ne", "sw", "se"])
        if floor < 5 or number < 3
    ]
    advance(session, bo.ADJUST, note="the blocks of earlier turns", add=add)
    advance(session, bo.ROLL, call="odd", roll=blocks)
    return session, ada, bruno, services.create_join_code(session=session).code


# Ada's blocks onto Bruno's tower, which they complete: (the block, its new cell), in words.
FIVE_BLOCKS = [
    ("Ada · floor 5, north-west · green", "Bruno · floor 5, south-east"),
    ("Ada · floor 5, north-east · blue", "Bruno · floor 6, north-west"),
    ("Ada · floor 5, south-west · red", "Bruno · floor 6, north-east"),
    ("Ada · floor 4, north-east · green", "Bruno · floor 6, south-west"),
    ("Ada · floor 4, south-west · blue", "Bruno · floor 6, south-east"),
]


def test_five_blocks_moved_take_two_taps_each_and_the_move(new_context: OpenContext, screenshots: Path) -> None:
    """One set of radio buttons on the towers: once a block and its cell are tapped, the page
    (static/js/babel_on_move.js) keeps them, marked with the block's number, and names the
    buttons for the next block; the move is sent once."""
    session, ada, bruno, code = a_move_late_in_the_game(5)
    phone = counting_phone(new_context, code, "Ada")
    move = phone.locator("#bo-move")
    expect(phone.get_by_role("heading", name="Move 5 blocks")).to_be_visible()
    for number, (block, cell) in enumerate(FIVE_BLOCKS, start=1):
        move.get_by_role("radio", name=f"Block {number}: take off {block}", exact=True).click()
        move.get_by_role("radio", name=f"Block {number}: put on {cell}", exact=True).click()
        if number == 2:
            move.locator(".bo-move-towers").scroll_into_view_if_needed()
            phone.screenshot(path=screenshots / "babel-on-tap-04-five-blocks-two-chosen.png")
    expect(move.locator('[data-off="4"]')).to_have_count(1)  # the blocks chosen before keep their number
    phone.get_by_role("button", name="Move the blocks").click()
    expect(phone.get_by_test_id("bo-status")).to_contain_text("Bruno to play")
    taps = taps_on(phone)
    print(f"\nBabel On!, five blocks moved on a phone: {taps} taps after the roll")
    assert taps <= 2 * len(FIVE_BLOCKS) + 1
    placed = towers(session)
    assert placed[str(bruno.pk)][4:] == [["green", "blue", "red", "green"], ["blue", "red", "green", "blue"]]
    assert placed[str(ada.pk)][4] == [None] * 4


def test_start_the_move_again_takes_back_the_blocks_chosen(new_context: OpenContext) -> None:
    _session, _ada, _bruno, code = a_move_late_in_the_game(3)
    phone = phone_of(new_context(), code, "Ada")
    move = phone.locator("#bo-move")
    for number, (block, cell) in enumerate(FIVE_BLOCKS[:2], start=1):
        move.get_by_role("radio", name=f"Block {number}: take off {block}", exact=True).click()
        move.get_by_role("radio", name=f"Block {number}: put on {cell}", exact=True).click()
    expect(move.get_by_role("radio", name=f"Block 3: take off {FIVE_BLOCKS[2][0]}", exact=True)).to_be_visible()
    move.get_by_role("button", name="Start the move again").click()
    expect(move.locator("[data-off], [data-on], input[data-added]")).to_have_count(0)
    expect(move.get_by_role("radio", name=f"Block 1: take off {FIVE_BLOCKS[0][0]}", exact=True)).to_be_visible()


def test_the_keyboard_moves_a_block_with_the_same_radio_buttons(new_context: OpenContext) -> None:
    session, ada, _bruno, code = a_move_of_one_block()
    phone = phone_of(new_context(), code, "Ada")
    call_and_roll(phone, "odd")
    move = phone.locator("#bo-move")
    move.get_by_role("radio", name="Block 1: take off Bruno · floor 1, north-east · green").focus()
    phone.keyboard.press("Space")
    move.get_by_role("radio", name="Block 1: put on Ada · floor 2, north-west").focus()
    phone.keyboard.press("Space")
    move.get_by_role("button", name="Move the blocks").focus()
    phone.keyboard.press("Enter")
    expect(phone.get_by_test_id("bo-status")).to_contain_text("Bruno to play")
    assert towers(session)[str(ada.pk)][1][0] == "green"


def test_without_javascript_the_towers_are_tapped_and_the_forms_posted(
    browser: Browser, asgi_server: str, transactional_db: None
) -> None:
    session, ada, bruno, code = a_move_of_one_block()
    context = browser.new_context(base_url=asgi_server, java_script_enabled=False, viewport=PHONE, locale="en-GB")
    try:
        phone = phone_of(context, code, "Ada")
        turn = phone.get_by_test_id("bo-my-turn")
        turn.get_by_label("odd", exact=True).check()
        turn.get_by_role("button", name="Roll the app's die").click()
        move = phone.locator("#bo-move")
        move.get_by_role("radio", name="Block 1: take off Bruno · floor 1, north-east · green").click()
        move.get_by_role("radio", name="Block 1: put on Ada · floor 1, south-west").click()
        move.get_by_role("button", name="Move the blocks").click()
        expect(phone.get_by_test_id("bo-status")).to_contain_text("Bruno to play")
    finally:
        context.close()
    placed = towers(session)
    assert (placed[str(ada.pk)][0][2], placed[str(bruno.pk)][0][1]) == ("green", None)


def test_without_javascript_a_move_of_several_blocks_is_sent_a_block_at_a_time(
    browser: Browser, asgi_server: str, transactional_db: None
) -> None:
    session, _ada, bruno, code = a_move_late_in_the_game(3)
    context = browser.new_context(base_url=asgi_server, java_script_enabled=False, viewport=PHONE, locale="en-GB")
    try:
        phone = phone_of(context, code, "Ada")
        for number, (block, cell) in enumerate(FIVE_BLOCKS[:3], start=1):
            move = phone.locator("#bo-move")
            move.get_by_role("radio", name=f"Block {number}: take off {block}", exact=True).click()
            move.get_by_role("radio", name=f"Block {number}: put on {cell}", exact=True).click()
            move.get_by_role("button", name="Move the blocks").click()
            if number < 3:
                expect(phone.locator("#bo-move")).to_contain_text(f"Block {number} of 3 is chosen")
        expect(phone.get_by_test_id("bo-status")).to_contain_text("Bruno to play")
    finally:
        context.close()
    assert towers(session)[str(bruno.pk)][4:] == [["green", "blue", "red", "green"], ["blue", "red", None, None]]


def test_the_tapped_towers_pass_axe_and_fit_the_phone_in_both_themes(
    new_context: OpenContext, screenshots: Path
) -> None:
    session, _ada, _bruno, code = a_move_of_one_block()
    phone = phone_of(new_context(), code, "Ada")
    phone.set_viewport_size(PHONE)
    turn = phone.get_by_test_id("bo-my-turn")
    found: list[str] = []

    def look(state: str) -> None:
        for theme in THEMES:
            phone.emulate_media(color_scheme=theme)
            found.extend(f"{state} {theme}: {v}" for v in violations(phone))
            phone.screenshot(path=screenshots / f"babel-on-tap-03-{state}-{theme}.png", full_page=True)
        assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], state

    # A draw of 6 (the real die), every colour chosen.
    turn.get_by_label("even", exact=True).check()
    turn.locator('input[name="roll"]').fill("6")
    turn.get_by_role("button", name="Record this roll").click()
    for row in range(6):
        turn.get_by_role("group", name=f"Block {row + 1}", exact=True).get_by_label("red", exact=True).click()
    look("draw")
    phone.get_by_role("button", name="Place the blocks").click()
    expect(phone.get_by_test_id("bo-waiting")).to_be_visible()
    advance(GameSession.objects.get(pk=session.pk), bo.ROLL, call="odd", roll=2)  # Bruno misses
    # A move of 1 (the app's die), its block tapped.
    call_and_roll(phone, "odd")
    turn.get_by_role("radio", name="Block 1: take off Bruno · floor 1, north-east · green").click()
    look("move")
    assert found == []
