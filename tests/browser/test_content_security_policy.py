"""The Content-Security-Policy in a real browser: the pages it guards still work, the charts
and the API's documentation included, and it blocks nothing the app sends (every browser test
checks that last part on every page it opens)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from sessions import tasks
from sessions.models import Player
from tests.browser.conftest import OpenContext, a_table, log_in
from tests.test_statistics import play

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_statistics_charts_and_the_api_documentation_show_under_the_policy(new_context: OpenContext) -> None:
    session = a_table("tower-of-babel", password="policy-pass-123")
    players = list(Player.objects.filter(group=session.group).order_by("pk"))
    for day, scores in enumerate([[40, 30, 20], [35, 30, 32]]):
        tasks.update_statistics(play(session.night, players, scores, days=day).pk)
    page = new_context().new_page()
    log_in(page, "ada", "policy-pass-123")

    page.goto(f"/p/{players[0].pk}/statistics/")
    chart = page.locator("figure.chart canvas").first  # drawn by Chart.js, a static script
    expect(chart).to_be_visible()
    box = chart.bounding_box()
    assert box is not None
    assert box["width"] > 200  # sized by the stylesheet, no inline style

    page.goto("/api/docs/")
    expect(page.locator(".swagger-ui .info .title")).to_be_visible()  # its start-up script ran
