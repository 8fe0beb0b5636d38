"""The shortest path, counted as a person's taps: from the night page to a new game's board in
at most 5, from a finished game to its rematch's board in 1, and a turn on the host's page
(a Tower of Babel pass in 1, a babel cube placed in 3).

The page counts what the browser itself received (sessionStorage keeps it across the
navigations): each click, each choice in a list (2 taps: open it, pick), and each sequence of
keys typed into one field.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import BrowserContext, Page, expect

from scoring.tower_of_babel import engine as tob
from sessions import services
from sessions.games import GAMES
from sessions.models import GameNight, GameSession, Player
from tests.browser.conftest import log_in
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


def counting_page(new_context: Callable[[], BrowserContext], start: str) -> Page:
    """The host's page, logged in, at ``start`` with the count at nought."""
    context = new_context()
    context.add_init_script(COUNT_TAPS)
    page = context.new_page()
    log_in(page, "ada", PASSWORD)
    page.goto(start)
    page.evaluate("sessionStorage.setItem('taps', '0')")
    return page


def taps_on(page: Page) -> int:
    return int(page.evaluate("Number(sessionStorage.getItem('taps') || 0)"))


@pytest.mark.parametrize("game", list(GAMES))
def test_a_new_game_starts_from_the_night_in_at_most_five_taps(
    new_context: Callable[[], BrowserContext], game: str
) -> None:
    night, players = a_night_after_a_game()
    page = counting_page(new_context, f"/n/{night.pk}/")
    page.get_by_role("region", name="Start a game").get_by_role("link", name=GAMES[game].name, exact=True).click()
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_test_id("status")).to_have_text("playing")
    taps = taps_on(page)
    print(f"\n{GAMES[game].name}: {taps} taps from the night page to the board")
    assert taps <= MOST_TAPS_TO_A_NEW_GAME
    session = GameSession.objects.get(game=game, status="playing")
    seated = [seat.player.name for seat in session.seats.select_related("player")]
    assert seated == [p.name for p in players][: GAMES[game].max_players]  # the night's last table


def test_a_tower_of_babel_game_opens_on_who_starts(new_context: Callable[[], BrowserContext]) -> None:
    night, _players = a_night_after_a_game()
    page = counting_page(new_context, f"/n/{night.pk}/")
    page.get_by_role("region", name="Start a game").get_by_role("link", name="Tower of Babel").click()
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_role("heading", name="Who starts?")).to_be_visible()
    assert taps_on(page) == 2


def test_a_rematch_takes_one_tap_and_the_next_player_starts(new_context: Callable[[], BrowserContext]) -> None:
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


# A turn on the host's page, as the table plays it (the phones' own moves are counted by the
# games' phone tests): the taps it takes, at most.
MOST_TAPS_TO_PASS = 1  # Tower of Babel: a turn without a build
MOST_TAPS_TO_PLACE_A_CUBE = 3  # babel: the cell, the cube, the way it faces


def test_a_tower_of_babel_pass_takes_one_tap(new_context: Callable[[], BrowserContext]) -> None:
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


def test_placing_a_cube_takes_three_taps(new_context: Callable[[], BrowserContext]) -> None:
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
