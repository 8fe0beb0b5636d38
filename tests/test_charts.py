"""SVG charts drawn on the server: accessible, escaped, with their figures as a table."""

import re
from datetime import UTC, datetime, timedelta

from sessions.statistics import charts

START = datetime(2026, 1, 1, tzinfo=UTC)


def series(name, values):
    return charts.Series(name, [(START + timedelta(days=i), v) for i, v in enumerate(values)])


HEADERS = ("Rating", "Plays", "First", "Last", "Lowest", "Highest")


def test_a_line_chart_is_an_image_named_by_its_title_and_description():
    chart = charts.line_chart(
        chart_id="h", title="History", description="Ratings", series=[series("All", [0, 2.5, 1])], headers=HEADERS
    )
    assert chart.svg.startswith("<svg")
    assert 'role="img"' in chart.svg
    assert 'aria-labelledby="h-title h-desc"' in chart.svg
    assert '<title id="h-title">History</title><desc id="h-desc">Ratings</desc>' in chart.svg
    assert chart.rows == [("All", "3", "0", "1", "0", "2.5")]


def test_a_long_history_is_thinned_in_the_picture_but_summed_up_whole_in_the_table():
    chart = charts.line_chart(
        chart_id="h", title="t", description="d", series=[series("All", list(range(1000)))], headers=HEADERS
    )
    points = re.search(r'points="([^"]+)"', chart.svg).group(1).split()
    assert len(points) == charts.MAX_LINE_POINTS
    assert chart.rows == [("All", "1000", "0", "999", "0", "999")]


def test_names_are_escaped():
    chart = charts.hbar_chart(
        chart_id="w", title="<b>", description="a & b", bars=[("<script>", 3)], headers=("Game", "Wins")
    )
    assert "<script>" not in chart.svg
    assert "&lt;script&gt;" in chart.svg
    assert '<title id="w-title">&lt;b&gt;</title>' in chart.svg
    assert chart.rows == [("<script>", "3")]  # the template escapes the table


def test_an_empty_chart_still_has_its_title_and_no_rows():
    chart = charts.bar_chart(chart_id="s", title="Scores", description="None yet", bars=[], headers=("S", "N"))
    assert "<rect" not in chart.svg
    assert '<title id="s-title">Scores</title>' in chart.svg
    assert chart.rows == []


def test_scores_are_grouped_into_at_most_twelve_equal_ranges():
    assert charts.score_bins([]) == []
    assert charts.score_bins([(3, 1), (5, 2)]) == [("3", 1), ("4", 0), ("5", 2)]
    bins = charts.score_bins([(0, 1), (10, 2), (99, 4)])
    assert len(bins) <= 12
    assert bins[0] == ("0\u20138", 1)  # 100 values in ranges of 9
    assert sum(count for _label, count in bins) == 7
    assert bins[-1][1] == 4
