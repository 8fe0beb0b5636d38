"""The statistics charts as a person sees them (issue 44, point 3): a player's and a game's
page at a phone's and a laptop's width, light and dark, each chart drawn by the vendored
Chart.js at a sensible size, its legend's items side by side without overlapping or running
off the panel, its x axis dated in the page's language with no date twice, its table of
figures under it, and nothing scrolling sideways. Screenshots go to artifacts/screenshots/."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Literal

import pytest
from django.core.management import call_command
from playwright.sync_api import Page, expect

from sessions import tasks
from sessions.management.commands.load_demo import DEMO_PASSWORD, DEMO_USER
from sessions.models import GameNight, Group, Player
from tests.browser.conftest import OpenContext, log_in
from tests.test_statistics import play

pytestmark = pytest.mark.browser

WIDTHS = (390, 1280)
THEMES: tuple[Literal["light", "dark"], ...] = ("light", "dark")

# Each drawn chart: its canvas's box, its legend items' boxes and its figure's, its x axis's labels.
DRAWN = """() => Array.from(document.querySelectorAll("figure.chart")).map(figure => {
  const canvas = figure.querySelector(".chart-frame canvas");
  const chart = canvas && Chart.getChart(canvas);
  const box = element => { const r = element.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  return {
    id: figure.querySelector("figcaption").id,
    canvas: canvas ? box(canvas) : null,
    figure: box(figure),
    legend: Array.from(figure.querySelectorAll(".chart-legend li")).map(box),
    xLabels: chart && chart.config.type === "line" ? chart.scales.x.ticks.map(t => t.label).filter(l => l) : null,
    table: figure.querySelectorAll("details.chart-figures table tbody tr").length,
  };
})"""


def a_group_with_ratings() -> tuple[Group, Player]:
    """The demo group, where Ada has also played Tower of Babel seven times and Babel On! five:
    her rating history has three lines (all games and each game), each past its fifth play."""
    call_command("load_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115 (closed with the process)
    group = Group.objects.get(name="Demo table")
    ada, bruno, chiara, dieter = Player.objects.filter(group=group).order_by("pk")[:4]
    night = GameNight.objects.filter(group=group).first()
    for day, scores in enumerate([[40, 30, 20], [35, 30, 32], [10, 30, 20], [50, 45, 20], [44, 41, 39], [60, 30, 31]]):
        play(night, [ada, bruno, chiara], scores, days=day * 4)
    for day, places in enumerate([[1, 2], [2, 1], [1, 2], [1, 2], [2, 1]]):
        play(night, [ada, dieter], places, game="babel-on", days=day * 5 + 1, places=True)
    tasks.rebuild_statistics()  # in the order the games finished, over several weeks
    return group, ada


def overlapping(boxes: list[list[float]]) -> list[tuple[int, int]]:
    return [
        (i, j)
        for i, a in enumerate(boxes)
        for j, b in enumerate(boxes)
        if i < j and a[0] < b[2] - 0.5 and b[0] < a[2] - 0.5 and a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5
    ]


def drawn_charts(page: Page) -> list[dict[str, Any]]:
    boxes = page.locator("[data-chart]")
    expect(page.locator("[data-chart][data-chart-drawn]")).to_have_count(boxes.count())
    result: list[dict[str, Any]] = page.evaluate(DRAWN)
    return result


def test_the_charts_are_drawn_readable_and_tidy_on_a_phone_and_a_laptop(new_context: OpenContext, screenshots: Path):
    group, ada = a_group_with_ratings()
    page = new_context().new_page()
    log_in(page, DEMO_USER, DEMO_PASSWORD)
    pages = {"player": f"/p/{ada.pk}/statistics/", "game": f"/g/{group.pk}/games/tower-of-babel/"}
    found: list[str] = []
    for name, path in pages.items():
        for theme in THEMES:
            page.emulate_media(color_scheme=theme)
            for width in WIDTHS:
                page.set_viewport_size({"width": width, "height": 900})
                page.goto(path)
                charts = drawn_charts(page)
                assert charts, f"{name}: no chart"
                where = f"{name} {width}px {theme}"
                for chart in charts:
                    left, top, right, bottom = chart["canvas"]
                    if not (right - left > 100 and 100 < bottom - top <= 320):
                        found.append(f"{where} {chart['id']}: a canvas of {right - left:.0f}x{bottom - top:.0f}")
                    if overlapping(chart["legend"]):
                        found.append(f"{where} {chart['id']}: legend items overlap {overlapping(chart['legend'])}")
                    if any(item[2] > chart["figure"][2] + 0.5 for item in chart["legend"]):
                        found.append(f"{where} {chart['id']}: a legend item runs off the figure")
                    if not chart["table"]:
                        found.append(f"{where} {chart['id']}: no table of figures")
                    labels = chart["xLabels"]
                    if labels is not None and (len(labels) < 2 or len(set(labels)) != len(labels)):
                        found.append(f"{where} {chart['id']}: x-axis labels {labels}")
                overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
                if overflow > 0:
                    found.append(f"{where}: scrolls {overflow}px sideways")
                page.screenshot(path=screenshots / f"statistics-charts-{name}-{width}-{theme}.png", full_page=True)
    assert found == [], "\n".join(found)
    page.goto(pages["player"])
    player = {chart["id"]: chart for chart in drawn_charts(page)}
    assert len(player["rating-history-summary"]["legend"]) == 3  # all games, Tower of Babel, Babel On!


def test_the_dates_on_the_rating_chart_are_written_in_the_readers_language(new_context: OpenContext):
    _group, ada = a_group_with_ratings()
    page = new_context().new_page()
    log_in(page, DEMO_USER, DEMO_PASSWORD)
    labels = {}
    for language in ("en", "it", "de"):
        page.goto(f"/p/{ada.pk}/statistics/")
        page.locator("#language").select_option(language)  # the footer's language switch
        page.locator("form.language button").click()
        expect(page.locator("html")).to_have_attribute("lang", language)
        history = next(chart for chart in drawn_charts(page) if chart["id"] == "rating-history-summary")
        labels[language] = history["xLabels"]
    assert all(re.fullmatch(r"[A-Z][a-z]{2} \d{1,2}", label) for label in labels["en"]), labels["en"]  # "Mar 6"
    assert all(re.fullmatch(r"\d{1,2} [a-z]{3}", label) for label in labels["it"]), labels["it"]  # "6 mar"
    assert all(re.fullmatch(r"\d{1,2}\. [A-ZÄÖÜ][a-zäöü]{2,3}\.?", label) for label in labels["de"]), labels["de"]
