"""The play log's filters on a phone (issue 44, point 1): choosing a player and a game changes
the list and its count without loading the page again, the address carries the filters (a
reload keeps them), and the CSV link carries them too."""

from __future__ import annotations

import datetime
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from sessions import services
from tests.browser.conftest import OpenContext, log_in
from tests.conftest import finish_with_scores

pytestmark = pytest.mark.browser


def test_a_phone_filters_the_log_by_a_player_and_a_game_without_a_page_load(
    new_context: OpenContext, screenshots: Path
):
    owner = User.objects.create_user("ada", password="browser-pass-123")
    group = services.create_group(owner=owner, name="Thursday table")
    ada, bruno, chiara = (services.create_player(group=group, name=name) for name in ["Ada", "Bruno", "Chiara"])
    night = services.create_night(group=group, date=datetime.date(2026, 11, 19), place="Ada's")
    for game, table in [
        ("tower-of-babel", [ada, bruno, chiara]),
        ("babel-on", [ada, bruno]),
        ("tower-of-babel", [bruno, chiara, ada]),
        ("babel-on", [bruno, chiara]),
    ]:
        finish_with_scores(services.create_session(night=night, game=game, players=table), [30, 20, 10][: len(table)])
    page = new_context(phone=True).new_page()
    log_in(page, "ada", "browser-pass-123")
    page.goto(f"/g/{group.pk}/log/")
    count = page.get_by_test_id("log-count")
    plays = page.get_by_test_id("play")
    expect(count).to_have_text("4 plays")
    expect(page.get_by_role("button", name="Show these plays")).to_be_hidden()  # htmx applies each change
    page.evaluate("window.stillTheSamePage = true")

    page.get_by_label("Player", exact=True).select_option(label="Chiara")
    expect(count).to_have_text("3 plays")
    page.get_by_label("Game", exact=True).select_option(label="Babel On!")
    expect(count).to_have_text("1 play")
    expect(plays).to_have_count(1)
    expect(plays.first).to_contain_text("Babel On!")
    expect(plays.first).to_contain_text("Chiara")
    assert page.evaluate("window.stillTheSamePage === true")  # swapped in, not loaded
    expected = {"player": [str(chiara.pk)], "game": ["babel-on"]}
    expect(page).to_have_url(f"/g/{group.pk}/log/?game=babel-on&player={chiara.pk}")
    csv_link = page.get_by_test_id("log-csv").get_attribute("href") or ""
    assert urlsplit(csv_link).path == f"/g/{group.pk}/log.csv"
    assert parse_qs(urlsplit(csv_link).query) == expected
    page.screenshot(path=screenshots / "play-log-filtered-phone.png", full_page=True)

    page.reload()
    expect(count).to_have_text("1 play")
    expect(page.get_by_label("Player", exact=True)).to_have_value(str(chiara.pk))
    expect(page.get_by_label("Game", exact=True)).to_have_value("babel-on")
    assert page.evaluate("window.stillTheSamePage === undefined")  # a real reload this time
    assert parse_qs(urlsplit(page.get_by_test_id("log-csv").get_attribute("href") or "").query) == expected
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0
