"""babel on two phones: each places cubes with the orientation picker until one cannot move,
while the host's page follows the tower with no reload."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import BrowserContext, Page, expect

from sessions import services
from sessions.models import GameSession
from tests.browser.conftest import log_in, phone_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The shortest game to a win (found by a search): after the sixth cube Ada has no legal
# placement. Each move as the picker shows it: the cell, the cube, and the orientation's label.
GAME = [
    ("Ada", "back", "type 0 (grey)", "back: type 0 (grey), bulges: none"),
    ("Bruno", "right", "type 1 (white)", "right: type 1 (white), bulges: towards back"),
    ("Ada", "left", "type 1 (white)", "left: type 1 (white), bulges: towards back"),
    ("Bruno", "front", "type 3 (beige)", "front: type 3 (beige), bulges: top, towards right, towards left"),
    ("Ada", "back", "type 2 (black)", "back: type 2 (black), bulges: bottom, towards left"),
    ("Bruno", "front", "type 1 (white)", "front: type 1 (white), bulges: towards right"),
]


def pick(phone: Page, cell: str, cube: str, orientation: str, screenshot: Path | None = None) -> None:
    picker = phone.get_by_test_id("bc-my-turn")
    picker.locator("details.bc-cell > summary", has_text=cell).click()
    picker.locator("details.bc-cell[open] details.bc-type > summary", has_text=cube).click()
    if screenshot:
        phone.screenshot(path=screenshot, full_page=True)
    picker.get_by_role("button", name=orientation, exact=True).click()


def test_two_phones_play_a_short_game_to_a_win(new_context: Callable[[], BrowserContext], screenshots: Path) -> None:
    owner = User.objects.create_user("ada", password="cube-pass-123")
    group = services.create_group(owner=owner, name="Thursday table")
    players = [services.create_player(group=group, name=name) for name in ("Ada", "Bruno")]
    night = services.create_night(group=group, date=datetime.date(2026, 11, 22))
    session = services.create_session(night=night, game="babel-cubes", players=players)
    services.append_event(session_id=session.pk, expected_version=0, type="session.start")
    code = services.create_join_code(session=session).code
    host = new_context().new_page()
    log_in(host, "ada", "cube-pass-123")
    host.goto(f"/s/{session.pk}/")
    host.evaluate("window.stillTheSamePage = true")  # gone if anything reloads the page

    phones = {}
    for player in players:
        phone = phone_of(new_context(), code, player.name)
        phones[player.name] = phone
    expect(phones["Ada"].get_by_test_id("bc-my-turn")).to_be_visible()
    expect(phones["Bruno"].get_by_test_id("bc-waiting")).to_contain_text("Waiting for Ada")
    # The opening picker shows only the 32 legal placements: no type 4 (BC-4), no bulge outwards (BC-5).
    expect(phones["Ada"].get_by_test_id("orientation")).to_have_count(32)

    # Bruno switches hints on for his phone alone.
    phones["Bruno"].get_by_test_id("bc-hint-switch").click()
    expect(phones["Bruno"].get_by_test_id("bc-hint")).to_contain_text("With perfect play Ada wins.")
    expect(phones["Ada"].get_by_test_id("bc-hint")).to_have_count(0)

    for number, (name, cell, cube, orientation) in enumerate(GAME, start=1):
        phone = phones[name]
        expect(phone.get_by_test_id("bc-my-turn")).to_be_visible(timeout=5_000)
        shot = screenshots / "babel-cubes-01-picker.png" if number == 4 else None
        pick(phone, cell, cube, orientation, shot)
        cubes = "1 cube" if number == 1 else f"{number} cubes"
        for other in (*phones.values(), host):  # the phones and the host follow the tower
            expect(other.locator(".cube-tower").first).to_have_attribute(
                "aria-label",
                f"The tower: {cubes} placed; level {number // 4 + 1} is being built.",
                timeout=3_000,
            )
        if number == 2:  # each phone keeps its own hints on the versions its tickets fetched
            expect(phones["Bruno"].get_by_test_id("bc-hint-switch")).to_have_attribute("aria-checked", "true")
            expect(phones["Ada"].get_by_test_id("bc-hint-switch")).to_have_attribute("aria-checked", "false")

    for phone in phones.values():
        expect(phone.get_by_test_id("bc-status")).to_contain_text("Bruno wins: the other player cannot place a cube.")
    review = phones["Ada"].get_by_test_id("bc-review")
    expect(review.locator("li")).to_have_count(6)
    expect(review.get_by_test_id("threw-win").first).to_be_visible()
    phones["Ada"].screenshot(path=screenshots / "babel-cubes-02-won.png", full_page=True)

    assert host.evaluate("window.stillTheSamePage") is True, "the host's page was reloaded"
    host.get_by_role("button", name="Finish and record results").click()
    expect(host.get_by_test_id("status")).to_have_text("finished")
    ranks = {r.player.name: r.rank for r in GameSession.objects.get(pk=session.pk).results.select_related("player")}
    assert ranks == {"Bruno": 1, "Ada": 2}
