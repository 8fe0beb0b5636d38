"""A two-player Babel On! game through the real pages, on one phone: the set-up with the
extra colour (BO-2), a typed roll-off (BO-3), even/odd turns (BO-5), a refused placement
(BO-7), wrong calls that are misses (BO-5) and a perfect tower (BO-13) that wins at the end of the round
(BO-14)."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import BrowserContext, Page, expect

from sessions import services
from sessions.models import GameSession, Result
from tests.browser.conftest import log_in, send

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def shot(page: Page, folder: Path, name: str) -> None:
    page.screenshot(path=folder / f"babel-on-{name}.png", full_page=True)


def state(session_id: int) -> dict:
    return GameSession.objects.get(pk=session_id).state["game"]


def roll(page: Page, call: str, rolled: int) -> None:
    page.get_by_label(call, exact=True).check()
    page.locator('input[name="roll"]').fill(str(rolled))
    send(page, page.get_by_role("button", name="Record this roll"))


def test_a_two_player_game_from_set_up_to_a_perfect_tower(
    new_context: Callable[[], BrowserContext], screenshots: Path
) -> None:
    owner = User.objects.create_user("ada", password="babel-on-pass-123")
    group = services.create_group(owner=owner, name="Thursday table")
    for name in ("Ada", "Bruno"):
        services.create_player(group=group, name=name)
    night = services.create_night(group=group, date=datetime.date(2026, 11, 22))

    page = new_context().new_page()
    log_in(page, "ada", "babel-on-pass-123")
    page.goto(f"/n/{night.pk}/sessions/new/")
    page.get_by_role("link", name="Babel On!").click()
    for index, (name, colour) in enumerate([("Ada", "blue"), ("Bruno", "red")]):
        page.locator(f'select[name="seat_{index}"]').select_option(label=name)
        page.locator(f'select[name="colour_{index}"]').select_option(colour)
    page.get_by_role("button", name="Create the session").click()
    session_id = int(page.url.rstrip("/").split("/")[-1])
    ada, bruno = state(session_id)["seats"]
    page.get_by_role("button", name="Start playing").click()

    # BO-2: 22 of each player's colour and 24 of the extra colour the app picked.
    bag = page.get_by_test_id("bo-setup-bag")
    expect(bag).to_contain_text("Into the construction bag (68 blocks)")
    expect(bag).to_contain_text("green 24")
    shot(page, screenshots, "01-set-up")
    page.get_by_role("button", name="The blocks are in the bag").click()
    expect(page.get_by_test_id("bo-bag")).to_contain_text("Bag: 68 blocks")

    # BO-3: typed rolls, a tie first, then Ada wins the re-roll.
    for rolls in ((4, 4), (6, 3)):
        typed = page.locator("details", has_text="Rolled real dice? Type the rolls")
        if not typed.evaluate("el => el.open"):  # it stays as the person left it
            typed.locator("summary").click()
        page.locator(f'input[name="roll_{ada}"]').fill(str(rolls[0]))
        page.locator(f'input[name="roll_{bruno}"]').fill(str(rolls[1]))
        send(page, page.get_by_role("button", name="Record these rolls"))
    expect(page.get_by_test_id("bo-status")).to_contain_text("Ada to play · round 1")

    # A placement the rules forbid is refused with the rule, and nothing changes (BO-7).
    roll(page, "even", 2)
    expect(page.get_by_test_id("bo-roll")).to_contain_text("draw 2 blocks from the bag")
    draw = page.locator("#bo-draw")
    for legend in ("Block 1", "Block 2"):
        draw.get_by_role("group", name=legend, exact=True).get_by_label("blue", exact=True).check()
    # Block 2's place is one tap on a cell of Ada's tower: floor 2, with nothing under it.
    draw.get_by_role("group", name="Block 2 goes on").get_by_role("radio", name="floor 2, south-east").check()
    page.get_by_role("button", name="Place the blocks").click()
    # The refusal stands over the towers of the form, and the form keeps what was chosen.
    expect(page.locator('#bo-draw [role="alert"]')).to_contain_text("(rule BO-7)")
    expect(page.locator('#bo-draw input[name="spot_1"][value="2-se"]')).to_be_checked()
    expect(page.locator('#bo-draw input[name="colour_0"][value="blue"]')).to_be_checked()
    assert state(session_id)["towers"][ada][0] == [None] * 4
    page.goto(f"/s/{session_id}/")

    # Each floor gets Ada's blue in the two north cells and green in the south ones: the
    # app suggests the places in order, the player picks the colours drawn.
    placed = 0
    turns = [2, 6, 6, 6, 4]
    for drawn in turns:
        if placed:
            roll(page, "even", drawn)
        for row in range(drawn):
            colour = "blue" if (placed + row) % 4 < 2 else "green"
            block = page.locator("#bo-draw").get_by_role("group", name=f"Block {row + 1}", exact=True)
            block.get_by_label(colour, exact=True).check()
        send(page, page.get_by_role("button", name="Place the blocks"))
        expect(page.locator('#session [role="alert"]')).to_have_count(0)
        placed += drawn
        expect(page.get_by_test_id("bo-status")).to_contain_text("Bruno to play")
        if placed < 24:
            roll(page, "odd", 2)  # Bruno calls odd and rolls even: a miss, the die goes on (BO-5)
            expect(page.get_by_test_id("bo-check")).to_contain_text("no perfect tower yet")
    tower = page.get_by_test_id(f"bo-tower-{ada}")
    expect(tower.get_by_test_id("bo-perfect")).to_be_visible()
    expect(tower.locator(".bo-cell.colour-blue")).to_have_count(12)
    shot(page, screenshots, "02-perfect-before-round-end")

    # Bruno's miss ends the round: the perfect tower wins (BO-14).
    roll(page, "even", 5)
    expect(page.get_by_role("button", name="Pass: the die goes to the left")).to_have_count(0)
    expect(page.get_by_test_id("bo-status")).to_contain_text("Ada wins: a perfect tower!")
    # The game is over: no word of a tower that is not perfect yet, nor of the round's check.
    expect(page.get_by_test_id("bo-board")).not_to_contain_text("Not perfect yet")
    expect(page.get_by_test_id("bo-check")).to_have_count(0)
    assert state(session_id)["bag"] == {"blue": 10, "red": 22, "green": 12}
    shot(page, screenshots, "03-winner")
    page.get_by_role("button", name="Finish and record results").click()
    expect(page.get_by_test_id("status")).to_have_text("finished")
    ranks = {r.player.name: r.rank for r in Result.objects.filter(session_id=session_id).select_related("player")}
    assert ranks == {"Ada": 1, "Bruno": 2}
