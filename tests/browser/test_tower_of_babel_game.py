"""A short scripted Tower of Babel game through the real pages, on one phone.

Three players; the first build has a trading card accepted (the offerer takes the disc);
the first wonder ends in a tie; then the table builds until a kind runs out (TB-19) and
finishes. The test checks what the page shows against what the rules give.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import BrowserContext, Page, expect

from sessions import services
from sessions.models import GameSession, Result
from tests.browser.conftest import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Ada", "Bruno", "Chiara"]


def shot(page: Page, folder: Path, name: str) -> None:
    page.screenshot(path=folder / f"tower-of-babel-{name}.png", full_page=True)


def state(session_id: int) -> dict:
    return GameSession.objects.get(pk=session_id).state["game"]


def build(page: Page, session_id: int, disc: str, *, own: dict, offers: dict | None = None, accept=(), trading=()):
    """Tap the disc on the board, fill in the build form as a person would, record it."""
    page.locator(f'a.disc[data-disc="{disc}"]').click()
    expect(page.get_by_role("heading", name="Build on", exact=False)).to_be_visible()
    for seat, cards in (offers or {}).items():
        for kind, count in cards.items():
            page.locator(f'input[name="offer_{seat}_{kind}"]').fill(str(count))
    for seat in accept:
        page.locator(f'input[name="accept_{seat}"]').check()
    for seat in trading:
        page.locator(f'input[name="trading_{seat}"]').check()
    for kind, count in own.items():
        page.locator(f'input[name="own_{kind}"]').fill(str(count))
    page.get_by_role("button", name="Record the build").click()
    expect(page.locator("#tob-build")).to_have_count(0)  # recorded: the form goes with the answer
    expect(page.locator("#session .msg.error")).to_have_count(0)


def test_a_three_player_game_with_a_trading_card_and_a_tie_ends_with_ranks_on_screen(
    new_context: Callable[[], BrowserContext], screenshots: Path
) -> None:
    owner = User.objects.create_user("ada", password="tower-pass-123")
    group = services.create_group(owner=owner, name="Thursday table")
    players = [services.create_player(group=group, name=name) for name in NAMES]
    night = services.create_night(group=group, date=datetime.date(2026, 11, 20))
    a, b, c = (str(p.pk) for p in players)

    page = new_context().new_page()
    log_in(page, "ada", "tower-pass-123")
    page.goto(f"/n/{night.pk}/sessions/new/")
    page.get_by_role("link", name="Tower of Babel").click()
    for index, (name, colour) in enumerate(zip(NAMES, ["red", "yellow", "green"], strict=True)):
        page.locator(f'select[name="seat_{index}"]').select_option(label=name)
        page.locator(f'select[name="colour_{index}"]').select_option(colour)
    page.get_by_role("button", name="Create the session").click()
    session_id = int(page.url.rstrip("/").split("/")[-1])
    page.get_by_role("button", name="Start playing").click()
    # The game opens with the first player the app drew (TB-9); one tap starts with Ada.
    page.get_by_role("form", name="Who starts? Tap another name to change it.").get_by_role(
        "button", name="Ada"
    ).click()
    expect(page.get_by_text("Ada to play")).to_be_visible()
    shot(page, screenshots, "01-board")

    # Turn 1, Ada builds the pyramids' first disc; Chiara's offer with her trading card is
    # accepted, so Chiara takes the disc and Ada places parts for Chiara's card (TB-13).
    game = state(session_id)
    first, second, third = game["wonders"]["pyramids"]["discs"]
    kind, number = next(iter(game["discs"][first]["demand"].items()))
    build(page, session_id, first, own={kind: number - 1}, offers={c: {kind: 1}}, accept=[c], trading=[c])
    game = state(session_id)
    assert game["discs"][first]["owner"] == c
    assert game["wonders"]["pyramids"]["parts"] == {a: number}
    expect(page.get_by_text("Bruno to play")).to_be_visible()

    # Turn 2, Bruno builds the second disc alone.
    demand_b = game["discs"][second]["demand"]
    build(page, session_id, second, own=demand_b)
    parts = state(session_id)["wonders"]["pyramids"]["parts"]

    # Turn 3, Chiara completes the pyramids; accepting the trailing player's offer evens
    # Ada and Bruno, so the wonder scores with a tie (TB-18).
    demand_c = game["discs"][third]["demand"]
    kind_c, number_c = next(iter(demand_c.items()))
    gap = parts[a] - parts[b]
    trailing = b if gap > 0 else a
    help_cards = abs(gap)
    offers = {trailing: {kind_c: help_cards}} if help_cards else {}
    build(
        page,
        session_id,
        third,
        own={kind_c: number_c - help_cards},
        offers=offers,
        accept=[trailing] if help_cards else [],
    )
    scored = state(session_id)["wonders"]["pyramids"]["scored"]
    assert scored["parts"][a] == scored["parts"][b]
    assert scored["points"][a] == scored["points"][b]
    wonder_card = page.locator("li.wonder", has_text="Pyramids of Giza")
    expect(wonder_card).to_contain_text("scored on row 1")
    expect(wonder_card).to_contain_text(f"Ada {scored['points'][a]}")
    expect(wonder_card).to_contain_text(f"Bruno {scored['points'][b]}")
    shot(page, screenshots, "02-tie-scored")

    # Then each active player builds a disc of the scarcest kind alone until one runs out.
    while not state(session_id)["over"]:
        game = state(session_id)
        on_board = [d for w in game["wonders"].values() for d in w["discs"]]
        counts = {
            k: sum(1 for d in on_board if k in game["discs"][d]["demand"])
            for k in ("camel", "crane", "ship", "stonemason")
        }
        scarce = min((k for k in counts if counts[k]), key=lambda k: counts[k])
        disc = next(d for d in on_board if scarce in game["discs"][d]["demand"])
        build(page, session_id, disc, own=game["discs"][disc]["demand"])

    expect(page.get_by_text("Game over: final scoring")).to_be_visible()
    shot(page, screenshots, "03-game-over")
    page.get_by_role("button", name="Finish and record results").click()
    expect(page.get_by_test_id("status")).to_have_text("finished")
    shot(page, screenshots, "04-finished")

    results = {r.player.name: r for r in Result.objects.filter(session_id=session_id).select_related("player")}
    rows = page.get_by_test_id("standings").locator("li")
    expect(rows).to_have_count(3)
    for index in range(3):
        text = rows.nth(index).inner_text()
        name = next(n for n in NAMES if n in text)
        assert text.split()[0] == str(results[name].rank)
        assert str(results[name].score) in text
    assert sorted(r.rank for r in results.values())[0] == 1
