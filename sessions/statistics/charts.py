"""What each chart is given: its figures as a table, and the data the browser draws it from.

The drawing is Chart.js's (vendored under ``static/vendor/chart.js-4.6.1/``), run by
``static/js/charts.js`` from the ``config`` below, which ``templates/statistics/_chart.html``
writes into the page as JSON. Here are only the figures, the palette and the rules of what is
drawn: the table under each chart says the same as the picture, so it is the text alternative
and what a browser without JavaScript shows.

Colour is never alone: each series of a line chart has its own marker and dash, each part of
a bar its own pattern, on top of a colour-blind-safe palette (Okabe and Ito's, then a few
that stay apart from it), one colour a category.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from django.utils.formats import number_format
from django.utils.timezone import is_aware, localtime

# Okabe and Ito's palette (its black as a grey, readable on both themes), then colours that
# stay at least 15 apart (CIE76) from it and from one another: 7 Wonders scores up to eleven
# sources. tests/test_charts.py measures the distances.
PALETTE = (
    "#0072B2",  # blue
    "#E69F00",  # orange
    "#009E73",  # bluish green
    "#CC79A7",  # reddish purple
    "#56B4E9",  # sky blue
    "#D55E00",  # vermillion
    "#F0E442",  # yellow
    "#999999",  # grey
    "#882255",  # wine (Paul Tol)
    "#BBCC33",  # pear (Paul Tol)
    "#FFAABB",  # pink (Paul Tol)
)
# A line's marker (Chart.js's point styles) and dash, and a bar's pattern (drawn by charts.js),
# one per series, in the palette's order.
MARKERS = ("circle", "rect", "triangle", "rectRot", "star", "crossRot", "cross", "rectRounded")
DASHES: tuple[tuple[int, ...], ...] = ((), (6, 3), (2, 3), (8, 3, 2, 3), (12, 4), (4, 2, 4, 6), (1, 2), (10, 2, 2, 2))
PATTERNS = (
    "solid",
    "diagonal",
    "dots",
    "horizontal",
    "cross",
    "vertical",
    "reverse-diagonal",
    "grid",
    "dashes",
    "zigzag",
    "rings",
)
MAX_LINE_POINTS = 300  # a longer history is thinned for the picture (the table sums it up whole)
EPOCH = date(1970, 1, 1)


@dataclass(frozen=True)
class Chart:
    chart_id: str
    title: str
    description: str
    # What charts.js draws (``None``: nothing to draw, and the template says ``empty``).
    config: dict[str, Any] | None
    headers: tuple[str, ...] = ()
    rows: Sequence[tuple[str, ...]] = field(default_factory=list)
    empty: str = ""


@dataclass(frozen=True)
class Series:
    name: str
    points: Sequence[tuple[datetime, float]]


def look(index: int) -> dict[str, Any]:
    """The colour, marker, dash and pattern of the ``index``-th series of a chart."""
    return {
        "colour": PALETTE[index % len(PALETTE)],
        "marker": MARKERS[index % len(MARKERS)],
        "dash": list(DASHES[index % len(DASHES)]),
        "pattern": PATTERNS[index % len(PATTERNS)],
    }


def _num(value: float, decimals: int = 1) -> str:
    return str(number_format(round(value, decimals), decimal_pos=decimals if value != int(value) else 0))


def day_number(moment: datetime) -> float:
    """Days since 1970-01-01 on the local calendar, the time of day as a fraction: the x of a
    point, so that whole numbers are the local midnights charts.js labels with dates written in
    the page's language (``Intl.DateTimeFormat``), one date a tick, never the same twice."""
    local = localtime(moment) if is_aware(moment) else moment
    seconds = local.hour * 3600 + local.minute * 60 + local.second
    return round((local.date() - EPOCH).days + seconds / 86400, 4)


def _thin(points: Sequence[tuple[datetime, float]]) -> Sequence[tuple[datetime, float]]:
    if len(points) <= MAX_LINE_POINTS:
        return points
    step = len(points) / (MAX_LINE_POINTS - 1)
    return [points[int(i * step)] for i in range(MAX_LINE_POINTS - 1)] + [points[-1]]


def line_chart(
    *,
    chart_id: str,
    title: str,
    description: str,
    series: Sequence[Series],
    headers: tuple[str, ...],
    drawn_from_point: int = 1,
    empty: str = "",
) -> Chart:
    """One line per series over time. The table: per series, plays, first, last, lowest, highest
    (``headers`` names those six columns, translated by the caller).

    A series is drawn from its ``drawn_from_point``-th point on, and one with fewer points not
    at all: a rating is shown only after ``MIN_RATED_PLAYS`` plays, and a chart must not show
    what the page says is not shown yet. The table then sums up the drawn points only."""
    drawn = [(s, s.points[drawn_from_point - 1 :]) for s in series if len(s.points) >= drawn_from_point]
    drawn = [(s, points) for s, points in drawn if points]
    rows = [
        (
            s.name,
            str(len(s.points)),
            _num(points[0][1]),
            _num(points[-1][1]),
            _num(min(v for _t, v in points)),
            _num(max(v for _t, v in points)),
        )
        for s, points in drawn
    ]
    config = None
    if drawn:
        config = {
            "kind": "line",
            "series": [
                {"name": s.name, **look(index), "points": [[day_number(t), round(v, 2)] for t, v in _thin(points)]}
                for index, (s, points) in enumerate(drawn)
            ],
        }
    return Chart(chart_id, title, description, config, headers, rows, empty)


def bar_chart(
    *, chart_id: str, title: str, description: str, bars: Sequence[tuple[str, float]], headers: tuple[str, str]
) -> Chart:
    """Vertical bars, one per label (a score distribution). The table: label, value."""
    return _bars("bar", chart_id, title, description, bars, headers)


def hbar_chart(
    *, chart_id: str, title: str, description: str, bars: Sequence[tuple[str, float]], headers: tuple[str, str]
) -> Chart:
    """Horizontal bars with long labels (wins by game). The table: label, value."""
    return _bars("hbar", chart_id, title, description, bars, headers)


def _bars(
    kind: str, chart_id: str, title: str, description: str, bars: Sequence[tuple[str, float]], headers: tuple[str, str]
) -> Chart:
    # One series: the labels name the bars, so its colour says nothing and it has no legend.
    config = None
    if bars:
        config = {
            "kind": kind,
            "labels": [label for label, _v in bars],
            "series": [{"name": headers[1], **look(0), "values": [value for _l, value in bars]}],
        }
    rows = [(label, _num(value)) for label, value in bars]
    return Chart(chart_id, title, description, config, headers, rows)


def stacked_hbar_chart(
    *,
    chart_id: str,
    title: str,
    description: str,
    bars: Sequence[tuple[str, Sequence[tuple[str, float]]]],
    headers: tuple[str, ...],
) -> Chart:
    """Horizontal bars cut into parts (a player's points by source): one bar per label, each
    source a series with its own colour and pattern, a loss (rejected offers) left of zero.
    The table: label, then each source's value in ``headers``' order (``headers[1:-1]`` name
    the sources), then the total."""
    sources = list(headers[1:-1])
    config = None
    if bars and sources:
        config = {
            "kind": "stacked-hbar",
            "labels": [label for label, _split in bars],
            "series": [
                {"name": source, **look(index), "values": [dict(split).get(source, 0) for _l, split in bars]}
                for index, source in enumerate(sources)
            ],
        }
    rows = [
        (label, *(_num(dict(split).get(source, 0)) for source in sources), _num(sum(v for _s, v in split)))
        for label, split in bars
    ]
    return Chart(chart_id, title, description, config, headers, rows)


def score_bins(scores: Sequence[tuple[int, int]], *, bins: int = 12) -> list[tuple[str, int]]:
    """Group (score, count) pairs into at most ``bins`` equal ranges, labelled "low-high"."""
    if not scores:
        return []
    low, high = scores[0][0], scores[-1][0]
    width = max(1, -(-(high - low + 1) // bins))
    counts: dict[int, int] = {}
    for score, count in scores:
        start = low + (score - low) // width * width
        counts[start] = counts.get(start, 0) + count
    return [
        (str(start) if width == 1 else f"{start}\u2013{start + width - 1}", counts.get(start, 0))
        for start in range(low, high + 1, width)
    ]
