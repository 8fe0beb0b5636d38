"""The calibration page on a phone (issue 44, point 5): its table of bands fits 390 px with no
sideways scroll, in the light and the dark theme, and at a laptop's width. Screenshots go to
artifacts/screenshots/."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Literal

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from sessions import tasks
from sessions.management.commands.load_demo import DEMO_PASSWORD, DEMO_USER
from sessions.models import GameNight, Group, Player
from tests.browser.conftest import OpenContext, log_in
from tests.test_statistics import play

pytestmark = pytest.mark.browser

THEMES: tuple[Literal["light", "dark"], ...] = ("light", "dark")
# The table's box: how much wider its table is than the box, and the page than the window.
OVERFLOW = """() => {
  const table = document.querySelector('[data-testid="calibration-table"]');
  return {table: table.scrollWidth - table.parentElement.clientWidth,
          page: document.documentElement.scrollWidth - window.innerWidth};
}"""


def a_group_with_a_history() -> Group:
    """The demo group and forty more games of Babel On! between players of unequal skill, so
    that the ratings give chances in most bands."""
    call_command("load_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115 (closed with the process)
    group = Group.objects.get(name="Demo table")
    players = list(Player.objects.filter(group=group).order_by("pk")[:4])
    night = GameNight.objects.filter(group=group).first()
    chance = random.Random(44)
    for day in range(40):
        seated = chance.sample(players, chance.choice([2, 3, 4]))
        finish = sorted(seated, key=lambda p: players.index(p) + chance.gauss(0, 1.5))
        play(night, seated, [finish.index(p) + 1 for p in seated], game="babel-on", days=day, places=True)
    tasks.rebuild_statistics()
    return group


def test_the_calibration_table_fits_a_phone_without_scrolling_sideways(new_context: OpenContext, screenshots: Path):
    group = a_group_with_a_history()
    page = new_context().new_page()
    log_in(page, DEMO_USER, DEMO_PASSWORD)
    page.goto(f"/g/{group.pk}/leaderboard/")
    page.get_by_test_id("calibration-link").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("How well the ratings predict")
    found = []
    for theme in THEMES:
        page.emulate_media(color_scheme=theme)
        for width in (390, 1280):
            page.set_viewport_size({"width": width, "height": 900})
            page.reload()
            expect(page.get_by_test_id("calibration-band").first).to_be_visible()
            overflow = page.evaluate(OVERFLOW)
            if overflow["table"] > 0 or overflow["page"] > 0:
                found.append(f"{width}px {theme}: {overflow}")
            page.screenshot(path=screenshots / f"ratings-calibration-{width}-{theme}.png", full_page=True)
    assert found == []
    assert page.get_by_test_id("calibration-band").count() >= 3
    expect(page.get_by_test_id("brier-verdict")).to_be_visible()
