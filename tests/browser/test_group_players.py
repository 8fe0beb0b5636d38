"""A group of many players in the browser: thirty names a page, the next page, and a search
that finds a player by part of the name (issue 16, item 5)."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from sessions import services
from sessions.models import Player
from tests.browser.conftest import OpenContext, log_in

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
