"""The shortest path, counted as a person's taps: from the night page to a new game's board in
at most 5, from a finished game to its rematch's board in 1, and a turn of each game on the
device that makes it: on the host's page a Tower of Babel pass in 1, a babel cube placed in 3,
a Babel On! draw of 2 blocks in 5 (the same on the player's phone), and a 7 Wonders: Babel
turn with a tile built and a Great Project marker taken in 5; on the phones, that tile in 3
and that marker, with the turn's end, in 2. Babel On!'s draws of 6 blocks and its moves, tapped
on the towers of a phone, are counted in test_babel_on_tap_board.py.

The page counts what the browser itself received (sessionStorage keeps it across the
navigations): each click, each choice in a list (2 taps: open it, pick), and each sequence of
keys typed into one field.
"""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from scoring.babel_on import engine as bo
from scoring.seven_wonders import engine as sw
from scoring.tower_of_babel import engine as tob
from sessions import services
from sessions.games import GAMES
from sessions.models import GameNight, GameSession, Player
from tests.browser.conftest import OpenContext, log_in, phone_of
from tests.conftest import advance, finish_with_scores

pytestmark = pytest.mark.browser

MOST_TAPS_TO_A_NEW_GAME = 5
MOST_TAPS_TO_A_REMATCH = 1
PASSWORD = "tap-tap-123"

COUNT_TAPS = """
(function () {
  function add(taps) {
    sessionStorage.setItem("taps", String(Number(sessionStorage.getItem("taps") || 0) + taps));
  }
  var typingInto = null;
  document.addEventListener("click", function (event) { if (event.isTrusted) add(1); }, true);
  document.addEventListener("change", function (event) { if (event.target.tagName === "SELECT") add(2); }, true);
  document.addEventListener("keydown", function (event) {
    if (event.isTrusted && event.target !== typingInto) { typingInto = event.target; add(1); }
  }, true);
})();
"""


def a_night_after_a_game(*, game: str = "babel-on") -> tuple[GameNight, list[Player]]:
    """A night of "ada"'s group where Ada, Bruno and Chiara have just finished a game."""
    owner = User.objects.create_user("ada", password=PASSWORD)
    group = services.create_group(owner=owner, name="Thursday table")
    players = [services.create_player(group=group, name=name) for name in ("Ada", "Bruno", "Chiara")]
    night = services.create_night(group=group, date=datetime.date(2026, 11, 26))
    previous = services.create_session(
        night=night, game=game, players=players, colours=["purple", "red", "blue"] if game == "babel-on" else []
    )
    advance(previous, "session.start")
    if game == "tower-of-babel":
        advance(previous, tob.FIRST_PLAYER, seat=str(players[1].pk))
    finish_with_scores(previous, [30, 20, 10])
    return night, players


def counting_page(new_context: OpenContext, start: str) -> Page:
    """The host's page, logged in, at ``start`` with the count at nought."""
    context = new_context()
    context.add_init_script(COUNT_TAPS)
    page = context.new_page()
    log_in(page, "ada", PASSWORD)
    page.goto(start)
    page.evaluate("sessionStorage.setItem('taps', '0')")
    return page


def counting_phone(new_context: OpenContext, code: str, name: str) -> Page:
    """``name``'s phone (390x844, touch), joined by ``code``, with the count at nought."""
    context = new_context(phone=True)
    context.add_init_script(COUNT_TAPS)
    phone = phone_of(context, code, name)
    phone.evaluate("sessionStorage.setItem('taps', '0')")
    return phone


def taps_on(page: Page) -> int:
    return int(page.evaluate("Number(sessionStorage.getItem('taps') || 0)"))


@pytest.mark.parametrize("game", list(GAMES))
def test_a_new_game_starts_from_the_night_in_at_most_five_taps(new_context: OpenContext, game: str) -> None:
    night, players = a_night_after_a_game()
    page = counting_page(new_context, f"/n/{night.pk}/")
    page.get_by_role("region", name="Start a game").get_by_role("link", name=str(GAMES[game].name), exact=True).click()
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_test_id("status")).to_have_text("playing")
    taps = taps_on(page)
    print(f"\n{GAMES[game].name}: {taps} taps from the night page to the board")
    assert taps <= MOST_TAPS_TO_A_NEW_GAME
    session = GameSession.objects.get(game=game, status="playing")
    seated = [seat.player.name for seat in session.seats.select_related("player")]
    assert seated == [p.name for p in players][: GAMES[game].max_players]  # the night's last table


def test_a_tower_of_babel_game_opens_on_who_starts(new_context: OpenContext) -> None:
    night, _players = a_night_after_a_game()
    page = counting_page(new_context, f"/n/{night.pk}/")
    page.get_by_role("region", name="Start a game").get_by_role("link", name="Tower of Babel").click()
    page.get_by_role("button", name="Start the game").click()
    # The first player the app drew plays at once (TB-9); another is one tap away.
    expect(page.get_by_role("form", name="Who starts? Tap another name to change it.")).to_be_visible()
    expect(page.get_by_role("button", name="Pass", exact=True)).to_be_enabled()
    assert taps_on(page) == 2


def test_a_rematch_takes_one_tap_and_the_next_player_starts(new_context: OpenContext) -> None:
    night, players = a_night_after_a_game(game="tower-of-babel")
    previous = GameSession.objects.get(night=night)
    page = counting_page(new_context, f"/s/{previous.pk}/")
    page.get_by_role("button", name="Rematch").click()
    expect(page.get_by_role("heading", name="This turn")).to_be_visible()
    expect(page.get_by_role("button", name="Pass")).to_be_visible()
    taps = taps_on(page)
    print(f"\nRematch: {taps} tap from the finished game to the next one's board")
    assert taps <= MOST_TAPS_TO_A_REMATCH
    rematch = GameSession.objects.exclude(pk=previous.pk).get()
    assert page.url.endswith(f"/s/{rematch.pk}/")
    assert rematch.state["game"]["active"] == str(players[2].pk)  # Bruno started the last game


# A turn on the host's page, as the table plays it: the taps it takes, at most.
MOST_TAPS_TO_PASS = 1  # Tower of Babel: a turn without a build
MOST_TAPS_TO_PLACE_A_CUBE = 3  # babel: the cell, the cube, the way it faces


def test_a_tower_of_babel_pass_takes_one_tap(new_context: OpenContext) -> None:
    night, players = a_night_after_a_game(game="tower-of-babel")
    session = services.create_session(night=night, game="tower-of-babel", players=players)
    advance(session, "session.start")
    advance(session, tob.FIRST_PLAYER, seat=str(players[0].pk))
    page = counting_page(new_context, f"/s/{session.pk}/")
    page.get_by_role("button", name="Pass", exact=True).click()
    expect(page.get_by_test_id("tob-board")).to_contain_text("Bruno to play")
    taps = taps_on(page)
    print(f"\nTower of Babel, a pass: {taps} tap")
    assert taps <= MOST_TAPS_TO_PASS


def test_placing_a_cube_takes_three_taps(new_context: OpenContext) -> None:
    night, players = a_night_after_a_game(game="tower-of-babel")
    session = services.create_session(night=night, game="babel-cubes", players=players[:2])
    advance(session, "session.start")
    page = counting_page(new_context, f"/s/{session.pk}/")
    picker = page.get_by_test_id("bc-picker")
    picker.locator("details.bc-cell > summary").first.click()
    picker.locator("details.bc-cell[open] details.bc-type > summary").first.click()
    picker.locator("details.bc-cell[open] details.bc-type[open] button").first.click()
    expect(page.get_by_test_id("standings")).to_be_visible()
    expect(page.locator("#session")).to_contain_text("Ada placed a cube")
    taps = taps_on(page)
    print(f"\nbabel, a cube placed: {taps} taps")
    assert taps <= MOST_TAPS_TO_PLACE_A_CUBE


# Babel On!: a right call of even, rolled with the app's die, and its 2 blocks placed where the
# app suggests: the call, the roll, each block's colour, the placing. The same forms on the
# host's page and on the active player's phone.
MOST_TAPS_FOR_A_BABEL_ON_TURN = 5


@pytest.mark.parametrize("device", ["host", "phone"])
def test_a_babel_on_turn_of_two_blocks_drawn_takes_five_taps(new_context: OpenContext, device: str) -> None:
    night, players = a_night_after_a_game()
    ada, bruno = players[:2]
    # The app's die is drawn from the session's secret: with this one, its first roll is a 2.
    session = services.create_session(
        night=night, game="babel-on", players=[ada, bruno], colours=["blue", "red"], secret="1"
    )
    advance(session, "session.start")
    advance(session, bo.SETUP, colours={str(ada.pk): "blue", str(bruno.pk): "red"}, extra="green")
    advance(session, bo.ROLLOFF, rolls={str(ada.pk): 5, str(bruno.pk): 2})
    if device == "host":
        page = counting_page(new_context, f"/s/{session.pk}/")
    else:
        page = counting_phone(new_context, services.create_join_code(session=session).code, "Ada")
    page.locator("#bo-roll").get_by_label("even", exact=True).check()
    page.get_by_role("button", name="Roll the app's die").click()
    expect(page.get_by_test_id("bo-roll")).to_contain_text("Ada called even and rolled 2")
    for row in range(2):
        block = page.locator("#bo-draw").get_by_role("group", name=f"Block {row + 1}", exact=True)
        block.get_by_label("blue", exact=True).check()
    page.get_by_role("button", name="Place the blocks").click()
    expect(page.get_by_test_id("bo-status")).to_contain_text("Bruno to play")
    expect(page.get_by_test_id(f"bo-tower-{ada.pk}").locator(".bo-cell.colour-blue")).to_have_count(2)
    taps = taps_on(page)
    print(f"\nBabel On!, a turn on the {device}: {taps} taps")
    assert taps <= MOST_TAPS_FOR_A_BABEL_ON_TURN


def a_seven_wonders_table_in_age_one() -> tuple[GameSession, list[Player]]:
    """7 Wonders with both Babel modules, the tiles drafted by hand: Ada holds 5, 9 and 13."""
    night, players = a_night_after_a_game()
    session = services.create_session(
        night=night, game="seven-wonders", players=players, options={"tower_tiles": True, "great_projects": True}
    )
    advance(session, "session.start")
    held = {players[0]: [5, 9, 13], players[1]: [2, 7, 21], players[2]: [3, 4, 22]}
    advance(session, sw.DRAFT_RECORD, tiles={str(player.pk): tiles for player, tiles in held.items()})
    return session, players


# 7 Wonders: Babel, a turn on the host's page in which Ada builds a tile and Bruno joins the
# Great Project: Ada's tile (a list: 2 taps), placing the turn's tiles, Bruno's marker, the
# end of the turn.
MOST_TAPS_FOR_A_SEVEN_WONDERS_TURN_ON_THE_HOST = 5


def test_a_seven_wonders_babel_turn_on_the_host_takes_five_taps(new_context: OpenContext) -> None:
    session, players = a_seven_wonders_table_in_age_one()
    page = counting_page(new_context, f"/s/{session.pk}/")
    page.locator(f'#sw-build select[name="built_{players[0].pk}"]').select_option("9")
    page.get_by_role("button", name="Place the tiles").click()
    expect(page.get_by_test_id("sw-tiles")).to_contain_text("1. tile 9")
    page.get_by_role("button", name="Bruno takes a marker").click()
    expect(page.get_by_test_id("sw-project")).to_contain_text("Bruno 1")
    page.get_by_role("button", name="Turn 1 is over: next turn").click()
    expect(page.get_by_test_id("sw-turn")).to_have_text("Turn 2")
    taps = taps_on(page)
    print(f"\n7 Wonders: Babel, a turn on the host: {taps} taps")
    assert taps <= MOST_TAPS_FOR_A_SEVEN_WONDERS_TURN_ON_THE_HOST


# The same turn on the phones, each on its own: Ada picks her tile, builds it in secret and
# reveals the turn's tiles (SW-5); Bruno takes his marker and ends the turn.
MOST_TAPS_TO_BUILD_A_TILE_ON_A_PHONE = 3
MOST_TAPS_TO_JOIN_THE_PROJECT_ON_A_PHONE = 2


def test_on_the_phones_a_seven_wonders_tile_takes_three_taps_and_a_marker_two(
    new_context: OpenContext,
) -> None:
    session, _players = a_seven_wonders_table_in_age_one()
    code = services.create_join_code(session=session).code
    ada, bruno = counting_phone(new_context, code, "Ada"), counting_phone(new_context, code, "Bruno")
    ada.get_by_test_id("my-build").get_by_label("9", exact=True).check()
    ada.get_by_role("button", name="I build this tile this turn").click()
    expect(ada.get_by_test_id("my-build")).to_contain_text("You build tile 9 this turn.")
    ada.get_by_role("button", name="Place this turn's tiles").click()
    expect(ada.get_by_test_id("sw-tiles")).to_contain_text("1. tile 9")
    bruno.get_by_role("button", name="I take a marker").click()
    expect(bruno.get_by_test_id("my-markers")).to_contain_text("You have 1 participation marker.")
    bruno.get_by_role("button", name="Turn 1 is over: next turn").click()
    expect(bruno.get_by_test_id("sw-turn")).to_have_text("Turn 2")
    expect(bruno.get_by_test_id("sw-tiles")).to_contain_text("1. tile 9")
    built, joined = taps_on(ada), taps_on(bruno)
    print(f"\n7 Wonders: Babel on the phones: {built} taps to build a tile, {joined} to join the project")
    assert built <= MOST_TAPS_TO_BUILD_A_TILE_ON_A_PHONE
    assert joined <= MOST_TAPS_TO_JOIN_THE_PROJECT_ON_A_PHONE
