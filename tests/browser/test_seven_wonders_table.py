"""7 Wonders: a three-player tile draft on three phones while the host's page follows it with
no reload, then the score sheet to the result."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import BrowserContext, expect

from sessions import services
from sessions.models import GameSession
from tests.browser.conftest import log_in, phone_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Ada", "Bruno", "Chiara"]


def test_three_phones_draft_their_tiles_and_the_sheets_give_the_ranks(
    new_context: Callable[[], BrowserContext], screenshots: Path
) -> None:
    owner = User.objects.create_user("ada", password="wonder-pass-123")
    group = services.create_group(owner=owner, name="Thursday table")
    players = [services.create_player(group=group, name=name) for name in NAMES]
    night = services.create_night(group=group, date=datetime.date(2026, 11, 20))
    session = services.create_session(
        night=night, game="seven-wonders", players=players, options={"tower_tiles": True, "great_projects": True}
    )
    services.append_event(session_id=session.pk, expected_version=0, type="session.start")
    code = services.create_join_code(session=session).code
    hands = GameSession.objects.get(pk=session.pk).state["game"]["hands"]
    host = new_context().new_page()
    log_in(host, "ada", "wonder-pass-123")
    host.goto(f"/s/{session.pk}/")
    host.evaluate("window.stillTheSamePage = true")  # gone if anything reloads the page

    phones = {}
    for player in players:
        phone = phone_of(new_context(), code, player.name)
        draft = phone.get_by_test_id("my-draft")
        expect(draft).to_contain_text("draft step 1 of 2")
        shown = {int(v) for v in draft.locator('input[name="tile"]').evaluate_all("els => els.map(e => e.value)")}
        assert shown == set(hands[str(player.pk)])  # only this player's own hand
        phones[player.name] = phone
    phones["Ada"].screenshot(path=screenshots / "seven-wonders-01-draft.png", full_page=True)

    for step in (1, 2):
        for number, phone in enumerate(phones.values(), start=1):
            expect(phone.get_by_test_id("my-draft")).to_contain_text(f"draft step {step} of 2", timeout=3_000)
            phone.get_by_test_id("my-draft").locator('input[name="tile"]').first.check()
            phone.get_by_role("button", name="Keep this tile").click()
            if number < len(phones):  # the host sees who has picked, never what
                expect(host.get_by_test_id("sw-draft").get_by_text("has picked")).to_have_count(number)
    for phone in phones.values():  # each phone follows by itself
        expect(phone.get_by_test_id("my-tiles").locator("p")).to_have_count(3, timeout=3_000)
    phones["Bruno"].screenshot(path=screenshots / "seven-wonders-02-my-tiles.png", full_page=True)
    # Chiara takes a participation marker in the first age's Great Project on her phone (SW-9).
    markers = phones["Chiara"].get_by_test_id("my-markers")
    markers.get_by_role("button", name="I take a marker").click()
    expect(phones["Chiara"].get_by_test_id("my-markers")).to_contain_text("You have 1 participation marker.")
    # Ada and Bruno each build a tile this turn, in secret; Chiara places them (SW-5, SW-6).
    held = GameSession.objects.get(pk=session.pk).state["game"]["tiles"]
    for name in ("Ada", "Bruno"):
        build = phones[name].get_by_test_id("my-build")
        build.locator('input[name="tile"]').first.check()
        build.get_by_role("button", name="I build this tile this turn").click()
        expect(phones[name].get_by_test_id("my-build")).to_contain_text("Nobody sees which")
    declared = phones["Chiara"].get_by_test_id("sw-declared")
    expect(declared).to_have_text("Building a tile this turn: Ada, Bruno", timeout=3_000)
    phones["Chiara"].get_by_role("button", name="Place this turn's tiles").click()
    placed = sorted(min(held[str(player.pk)]) for player in players[:2])
    board = phones["Chiara"].get_by_test_id("sw-tiles")
    expect(board).to_contain_text(f"1. tile {placed[0]}")
    expect(board).to_contain_text(f"2. tile {placed[1]}")
    phones["Chiara"].screenshot(path=screenshots / "seven-wonders-03-tiles-placed.png", full_page=True)

    expect(host.get_by_test_id("sw-tiles")).to_contain_text(f"2. tile {placed[1]}")  # followed by itself
    assert host.evaluate("window.stillTheSamePage") is True, "the host's page was reloaded"
    expect(host.get_by_text("1 marker left · Chiara 1")).to_be_visible()
    counts = {"Ada": ("10", "5+7"), "Bruno": ("13", "9"), "Chiara": ("4", "12+2")}
    for name, (coins, civilian) in counts.items():
        form = host.locator("details.final-player", has_text=name)
        if not form.evaluate("el => el.open"):
            form.locator("summary").click()
        form.locator('input[name="coins"]').fill(coins)
        form.locator('input[name="civilian"]').fill(civilian)
        expect(form.get_by_test_id("sheet-preview")).to_be_visible(timeout=3_000)
        form.get_by_role("button", name="Save this sheet").click()
        expect(form.locator("form")).not_to_have_attribute("data-dirty", "true")  # saved: the answer took it
    expect(host.get_by_test_id("status")).to_have_text("scoring")
    host.get_by_role("button", name="Finish and record results").click()
    expect(host.get_by_test_id("status")).to_have_text("finished")
    host.screenshot(path=screenshots / "seven-wonders-04-finished.png", full_page=True)
    # With a tile each (2 points): Ada 3 + 12 + 2 = 17, Bruno 4 + 9 + 2 = 15, Chiara 1 + 14 = 15:
    # Bruno has more coins (SW-14).
    rows = host.get_by_test_id("standings").locator("li")
    expect(rows).to_have_count(3)
    texts = [" ".join(rows.nth(i).inner_text().split()) for i in range(3)]
    assert texts == ["1 Ada 17", "2 Bruno 15", "3 Chiara 15"]
