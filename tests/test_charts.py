"""The charts (issue 44, point 3): what each is given to draw, the palette that tells its
series apart without colour alone, no rating curve before a rating is shown, and the page
that carries them (the data as JSON, the table of figures, the vendored Chart.js)."""

import itertools
import json
import math
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

from django.conf import settings
from django.test import override_settings
from django.urls import reverse

from sessions import services, tasks
from sessions.statistics import charts
from sessions.statistics.ratings import MIN_RATED_PLAYS
from tests.test_statistics import play

START = datetime(2026, 1, 1, 20, 30, tzinfo=UTC)
HEADERS = ("Rating", "Plays", "First", "Last", "Lowest", "Highest")
STATIC = Path(settings.BASE_DIR) / "static"


def series(name, values):
    return charts.Series(name, [(START + timedelta(days=i), v) for i, v in enumerate(values)])


def lab(colour):
    """CIE L*a*b* (D65) of a #rrggbb colour."""
    r, g, b = (int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
    r, g, b = ((c / 12.92) if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b))
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883
    f = [v ** (1 / 3) if v > 0.008856 else 7.787 * v + 16 / 116 for v in (x, y, z)]
    return 116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])


def chart_data(page, chart_id):
    found = re.search(rf'<script id="{chart_id}-data" type="application/json">(.*?)</script>', page, re.S)
    return None if found is None else json.loads(found.group(1))


def test_every_two_colours_of_the_palette_are_far_apart():
    distances = {(a, b): math.dist(lab(a), lab(b)) for a, b in itertools.combinations(charts.PALETTE, 2)}
    closest = min(distances, key=distances.__getitem__)
    assert distances[closest] >= 15, f"{closest} are only {distances[closest]:.1f} apart"


def test_each_series_of_a_chart_has_its_own_colour_and_its_own_marker_dash_or_pattern():
    looks = [charts.look(index) for index in range(len(charts.PALETTE))]
    assert len({look["colour"] for look in looks}) == len(charts.PALETTE)
    assert len({look["pattern"] for look in looks}) == len(charts.PALETTE)  # 7 Wonders' eleven sources
    lines = looks[: len(charts.MARKERS)]
    assert len({look["marker"] for look in lines}) == len(lines)
    assert len({tuple(look["dash"]) for look in lines}) == len(lines)


def test_charts_js_draws_every_pattern_the_palette_names():
    script = (STATIC / "js" / "charts.js").read_text()
    for pattern in charts.PATTERNS:
        assert f'"{pattern}"' in script or f" {pattern}: [" in script, pattern


def test_a_line_is_drawn_from_its_fifth_rating_and_not_at_all_before():
    four = series("Tower of Babel", [1, 2, 3, 4])
    six = series("All games", [1, 2, 3, 4, 5.25, 3])
    chart = charts.line_chart(
        chart_id="h", title="t", description="d", series=[six, four], headers=HEADERS, drawn_from_point=MIN_RATED_PLAYS
    )
    assert [s["name"] for s in chart.config["series"]] == ["All games"]
    assert [y for _x, y in chart.config["series"][0]["points"]] == [5.25, 3]
    assert chart.rows == [("All games", "6", "5.2", "3", "3", "5.2")]  # plays counted whole, ratings as drawn

    too_few = charts.line_chart(
        chart_id="h", title="t", description="d", series=[four], headers=HEADERS, drawn_from_point=5, empty="Later."
    )
    assert too_few.config is None
    assert too_few.rows == []
    assert too_few.empty == "Later."


def test_a_line_chart_places_its_points_on_local_days_each_with_its_look():
    chart = charts.line_chart(
        chart_id="h", title="t", description="d", series=[series("A", [0, 2.5]), series("B", [1])], headers=HEADERS
    )
    first, second = chart.config["series"]
    assert first["points"] == [[20454.8542, 0], [20455.8542, 2.5]]  # 1 Jan 2026 at 20:30
    assert (first["colour"], first["marker"]) != (second["colour"], second["marker"])
    with override_settings(TIME_ZONE="Asia/Tokyo"):  # 05:30 the next morning there
        assert charts.day_number(START) == 20455.2292


def test_a_long_history_is_thinned_in_the_picture_but_summed_up_whole_in_the_table():
    chart = charts.line_chart(
        chart_id="h", title="t", description="d", series=[series("All", list(range(1000)))], headers=HEADERS
    )
    assert len(chart.config["series"][0]["points"]) == charts.MAX_LINE_POINTS
    assert chart.rows == [("All", "1000", "0", "999", "0", "999")]


def test_a_points_by_source_chart_gives_each_source_its_colour_and_keeps_a_loss():
    chart = charts.stacked_hbar_chart(
        chart_id="p",
        title="Points by source",
        description="d",
        bars=[("Ada", [("Military", 9), ("Babel tiles", 2), ("Rejected", -3)]), ("Bruno", [("Military", 4)])],
        headers=("Player", "Military", "Babel tiles", "Rejected", "Total"),
    )
    military, tiles, rejected = chart.config["series"]
    assert military["colour"] != tiles["colour"]
    assert military["pattern"] != tiles["pattern"]
    assert (military["values"], tiles["values"], rejected["values"]) == ([9, 4], [2, 0], [-3, 0])
    assert chart.rows == [("Ada", "9", "2", "-3", "8"), ("Bruno", "4", "0", "0", "4")]


def test_an_empty_chart_has_nothing_to_draw_and_no_rows():
    chart = charts.bar_chart(chart_id="s", title="Scores", description="None yet", bars=[], headers=("S", "N"))
    assert chart.config is None
    assert chart.rows == []


def test_scores_are_grouped_into_at_most_twelve_equal_ranges():
    assert charts.score_bins([]) == []
    assert charts.score_bins([(3, 1), (5, 2)]) == [("3", 1), ("4", 0), ("5", 2)]
    bins = charts.score_bins([(0, 1), (10, 2), (99, 4)])
    assert len(bins) <= 12
    assert bins[0] == ("0\u20138", 1)  # 100 values in ranges of 9
    assert sum(count for _label, count in bins) == 7
    assert bins[-1][1] == 4


def test_a_player_with_four_plays_has_no_rating_curve_and_is_told_when_it_comes(member_client, night, players):
    ada, bruno, chiara = players[:3]
    for day in range(MIN_RATED_PLAYS - 1):
        tasks.update_statistics(play(night, [ada, bruno, chiara], [30, 20, 10], days=day).pk)
    page = member_client.get(reverse("player_statistics", args=[ada.pk])).content.decode()
    assert chart_data(page, "rating-history") is None
    assert "The rating history is drawn after 5 games." in page
    assert chart_data(page, "wins-by-game")["series"][0]["values"] == [4]


def test_the_fifth_play_draws_the_curve_with_its_table_and_the_page_loads_the_chart_script(
    member_client, night, players, django_assert_max_num_queries
):
    ada, bruno, chiara = players[:3]
    for day in range(MIN_RATED_PLAYS):
        tasks.update_statistics(play(night, [ada, bruno, chiara], [30, 20, 10], days=day).pk)
    with django_assert_max_num_queries(12):
        page = member_client.get(reverse("player_statistics", args=[ada.pk])).content.decode()
    data = chart_data(page, "rating-history")
    assert [(s["name"], len(s["points"])) for s in data["series"]] == [("All games", 1), ("Tower of Babel", 1)]
    assert '<th scope="row">All games</th><td>5</td>' in page  # the table of figures, under the chart
    assert re.search(r'<script src="/static/js/charts\.[0-9a-f]+\.js" defer></script>|js/charts\.js', page)
    library = re.search(r'data-chart-library="([^"]+)"', page).group(1)
    assert "vendor/chart.js-4.6.1/chart.umd.min" in library
    assert 'aria-describedby="rating-history-summary"' in page


def test_names_in_the_chart_data_are_escaped(member_client, night, players):

    ada, bruno, chiara = players[:3]
    tasks.update_statistics(play(night, [ada, bruno, chiara], [30, 20, 10]).pk)
    services.rename_player(player=ada, name="</script><b>Ada</b>")
    page = member_client.get(reverse("player_statistics", args=[ada.pk])).content.decode()
    assert "</script><b>" not in page
    assert chart_data(page, "wins-by-game")["labels"] == ["Tower of Babel"]


def test_the_vendored_library_and_our_script_need_no_eval():
    for path in (STATIC / "js" / "charts.js", STATIC / "vendor" / "chart.js-4.6.1" / "chart.umd.min.js"):
        text = path.read_text()
        assert not re.search(r"\beval\(|new Function\(", text), path
    assert (STATIC / "vendor" / "chart.js-4.6.1" / "LICENSE.md").read_text().startswith("The MIT License")
