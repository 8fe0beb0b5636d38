"""A year in review in the browser (issue 44, point 7): on a 390 px phone and a 1280 px laptop,
in both themes, the page fits without scrolling sideways, and the shareable image loads with its
size; screenshots in artifacts/screenshots/."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import expect

from sessions import services
from sessions.models import GameSession, Result
from tests.browser.conftest import OpenContext, log_in

pytestmark = pytest.mark.browser


def played_year(year: int) -> tuple[int, int]:
    """A group with a long name and a few games this year; its id and its first player's."""
    owner = User.objects.create_user("yara", password="year-pass-123")
    group = services.create_group(owner=owner, name="The Thursday Tower-of-Babel Society of Greater Oberhausen")
    names = ("Maximiliana Wolkenstein", "Bruno", "Chiara", "<script>&amp;")
    players = [services.create_player(group=group, name=name) for name in names]
    night = services.create_night(group=group, date=datetime.date(year, 1, 1))
    finished = timezone.make_aware(datetime.datetime(year, 1, 1, 21))
    for number, (game, scores) in enumerate(
        [("tower-of-babel", [45, 44, 30]), ("seven-wonders", [50, 61, 40]), ("tower-of-babel", [70, 20, 69])]
    ):
        session = GameSession.objects.create(
            night=night, group=group, game=game, status="finished", secret="1", state={}, finished_at=finished
        )
        for index, score in enumerate(scores):
            rank = 1 + sum(other > score for other in scores)
            Result.objects.create(session=session, player=players[(index + number) % 4], score=score, rank=rank)
    return group.pk, players[0].pk


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_year_fits_the_screen_and_its_image_loads(new_context: OpenContext, screenshots: Path, width, theme):
    year = timezone.localdate().year
    group_id, player_id = played_year(year)
    page = new_context(worker=False).new_page()
    page.emulate_media(color_scheme=theme)
    page.set_viewport_size({"width": width, "height": 900})
    log_in(page, "yara", "year-pass-123")
    for kind, url in (("group", f"/g/{group_id}/year/{year}/"), ("player", f"/p/{player_id}/year/{year}/")):
        page.goto(url)
        expect(page.get_by_test_id("cards")).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= width, (kind, "scrolls sideways")
        card = page.get_by_test_id("year-card")
        card.scroll_into_view_if_needed()
        page.wait_for_function(
            "() => { const i = document.querySelector('.year-card'); return i.complete && i.naturalWidth > 0; }"
        )
        natural = page.evaluate(
            "() => { const i = document.querySelector('.year-card'); return [i.naturalWidth, i.naturalHeight]; }"
        )
        assert natural == [1080, 1350]
        box = card.bounding_box()
        assert box is not None
        assert 0 < box["width"] <= width
        assert box["height"] > 0
        page.screenshot(path=screenshots / f"year-in-review-{kind}-{width}-{theme}.png", full_page=True)
