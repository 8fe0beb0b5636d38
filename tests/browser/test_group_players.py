"""A group of many players in the browser: thirty names a page, the next page, and a search
that finds a player by part of the name (issue 16, item 5); removing a player who has played
archives them, off a new game's seats until brought back (issue 17)."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from sessions import services
from sessions.models import Player
from tests.browser.conftest import OpenContext, log_in
from tests.conftest import finish_with_scores

pytestmark = pytest.mark.browser


def test_a_member_pages_through_a_large_group_and_finds_a_player(new_context: OpenContext, screenshots: Path):
    owner = User.objects.create_user("ada", password="browser-pass-123")
    group = services.create_group(owner=owner, name="Big club")
    Player.objects.bulk_create(Player(group=group, name=f"Player {n:03d}") for n in range(75))
    services.create_player(group=group, name="Zoë Ferraro")
    page = new_context().new_page()
    log_in(page, "ada", "browser-pass-123")
    page.goto(f"/g/{group.pk}/")
    players = page.get_by_test_id("players").locator("a.player-name")
    expect(players).to_have_count(30)
    expect(players.first).to_have_text("Player 000")
    expect(page.get_by_test_id("player-pages")).to_contain_text("Page 1 of 3")
    page.screenshot(path=screenshots / "group-players-page-1.png", full_page=True)
    page.get_by_role("link", name="Next players").click()
    expect(players.first).to_have_text("Player 030")
    expect(page.get_by_test_id("player-pages")).to_contain_text("Page 2 of 3")
    page.get_by_role("searchbox", name="Find a player").fill("zoë")
    page.get_by_role("button", name="Find", exact=True).click()
    expect(players).to_have_text(["Zoë Ferraro"])
    expect(page.get_by_test_id("player-pages")).to_have_count(0)
    page.screenshot(path=screenshots / "group-players-search.png", full_page=True)
    page.get_by_role("searchbox", name="Find a player").fill("nobody")
    page.get_by_role("button", name="Find", exact=True).click()
    expect(page.get_by_test_id("players")).to_contain_text("No player's name holds “nobody”.")


def test_an_archived_player_is_gone_from_a_new_games_seats_until_brought_back(
    new_context: OpenContext, screenshots: Path
):
    owner = User.objects.create_user("ada", password="browser-pass-123")
    group = services.create_group(owner=owner, name="Thursday table")
    ada, bruno, chiara = (services.create_player(group=group, name=name) for name in ["Ada", "Bruno", "Chiara"])
    night = services.create_night(group=group, date=datetime.date(2026, 11, 19))
    finish_with_scores(
        services.create_session(night=night, game="tower-of-babel", players=[ada, bruno, chiara]), [30, 25, 20]
    )
    page = new_context().new_page()
    log_in(page, "ada", "browser-pass-123")
    page.goto(f"/g/{group.pk}/")
    page.get_by_test_id("players").locator("li", has_text="Bruno").get_by_role("link", name="Remove").click()
    expect(page.get_by_test_id("consequence")).to_contain_text("Bruno has 1 result. Removing archives them")
    page.screenshot(path=screenshots / "group-players-remove.png", full_page=True)
    page.get_by_role("button", name="Archive Bruno").click()
    expect(page.locator(".messages")).to_contain_text("Bruno was archived: their 1 result is kept.")
    expect(page.get_by_test_id("players").locator("a.player-name")).to_have_text(["Ada", "Chiara"])
    archived = page.get_by_test_id("archived-players")
    expect(archived.get_by_role("button", name="Bring back Bruno")).to_be_hidden()  # collapsed
    page.goto(f"/n/{night.pk}/sessions/new/?game=tower-of-babel")
    seat = page.locator('select[name="seat_0"]')
    expect(seat.locator("option")).to_have_text(["—", "Ada", "Chiara"])
    page.goto(f"/g/{group.pk}/")
    archived.locator("summary").click()
    page.screenshot(path=screenshots / "group-players-archived.png", full_page=True)
    archived.get_by_role("button", name="Bring back Bruno").click()
    expect(page.get_by_test_id("players").locator("a.player-name")).to_have_text(["Ada", "Bruno", "Chiara"])
    page.goto(f"/n/{night.pk}/sessions/new/?game=tower-of-babel")
    expect(seat.locator("option")).to_have_text(["—", "Ada", "Bruno", "Chiara"])
