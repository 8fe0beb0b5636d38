"""A player's privacy on the owner's phone (issue 44, point 8): Bruno hidden from the
leaderboard with one tap, Chiara anonymised after typing her name again; her name is then
gone from the play log and the game's page, her results kept under the label."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from sessions import services, tasks
from tests.browser.conftest import OpenContext, log_in
from tests.conftest import finish_with_scores

pytestmark = pytest.mark.browser


def test_the_owner_hides_one_player_and_anonymises_another_on_a_phone(new_context: OpenContext, screenshots: Path):
    owner = User.objects.create_user("olga", password="browser-pass-123")
    group = services.create_group(owner=owner, name="Thursday table")
    ada, bruno, chiara = (services.create_player(group=group, name=name) for name in ["Ada", "Bruno", "Chiara"])
    night = services.create_night(group=group, date=datetime.date(2026, 11, 19))
    game = services.create_session(night=night, game="tower-of-babel", players=[ada, bruno, chiara])
    finish_with_scores(game, [30, 25, 20])
    tasks.update_statistics(game.pk)
    # A move Chiara's phone sent: the log names its author.
    other = services.create_session(night=night, game="tower-of-babel", players=[ada, bruno, chiara])
    services.append_event(session_id=other.pk, expected_version=0, type="session.abandon", author_label="Chiara")

    page = new_context(phone=True).new_page()
    log_in(page, "olga", "browser-pass-123")
    page.goto(f"/g/{group.pk}/")
    page.get_by_test_id("players").locator("li", has_text="Bruno").get_by_role("link", name="Privacy").tap()
    expect(page.get_by_role("heading", level=1)).to_have_text("Privacy of Bruno")
    switch = page.get_by_test_id("hide-switch")
    expect(switch).to_have_attribute("aria-checked", "false")
    switch.tap()
    expect(page.get_by_test_id("hide-switch")).to_have_attribute("aria-checked", "true")
    expect(page.get_by_test_id("hide-said")).to_have_text("Bruno is hidden from the leaderboards.")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=screenshots / "player-privacy-hidden.png", full_page=True)

    page.goto(f"/g/{group.pk}/leaderboard/")
    board = page.locator("main table")
    expect(board).to_contain_text("Ada")
    expect(board).to_contain_text("Chiara")
    expect(board).not_to_contain_text("Bruno")

    page.goto(f"/g/{group.pk}/")
    page.get_by_test_id("players").locator("li", has_text="Chiara").get_by_role("link", name="Privacy").tap()
    expect(page.get_by_test_id("consequence")).to_contain_text("Chiara becomes “Player 1”")
    expect(page.locator("#anonymise")).to_contain_text("This cannot be undone.")
    confirm = page.get_by_label("Type their name to confirm")
    confirm.fill("Chiarra")
    page.get_by_role("button", name="Anonymise Chiara for good").tap()
    expect(page.locator("#anonymise .error")).to_have_text("Type “Chiara” as it is written here to confirm.")
    expect(confirm).to_have_value("Chiarra")  # kept as typed
    page.screenshot(path=screenshots / "player-privacy-refused.png", full_page=True)
    confirm.fill("Chiara")
    page.get_by_role("button", name="Anonymise Chiara for good").tap()
    expect(page.locator(".messages")).to_contain_text("Anonymised: this player is Player 1 now, everywhere.")
    expect(page.get_by_test_id("anonymised")).to_be_visible()
    page.screenshot(path=screenshots / "player-privacy-anonymised.png", full_page=True)

    for url in (f"/g/{group.pk}/log/", f"/s/{game.pk}/", f"/s/{other.pk}/", f"/g/{group.pk}/"):
        page.goto(url)
        expect(page.locator("main")).to_contain_text("Player 1")
        expect(page.locator("main")).not_to_contain_text("Chiara")
