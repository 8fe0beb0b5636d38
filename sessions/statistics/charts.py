"""Charts drawn on the server as SVG, with their text alternative.

Each chart is an ``<svg role="img">`` named by its ``<title>`` and ``<desc>`` (through
``aria-labelledby``), and comes with a table of the same figures for the page to show
under it: a screen reader gets the summary and the table, a sighted reader the picture.
Every text is escaped; the numbers are formatted here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from django.utils.formats import date_format, number_format
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.timezone import is_aware, localtime

WIDTH, HEIGHT = 400, 240  # user units: about one to one on a phone, so the text stays readable
LEFT, RIGHT, TOP, BOTTOM = 48, 12, 12, 36
PALETTE = ("#3b6fb6", "#c8553d", "#2a9d8f", "#8e6c8a", "#e9a23b", "#5c6b73")
MAX_LINE_POINTS = 300  # a longer history is thinned for the picture (the table keeps the summary)


@dataclass(frozen=True)
class Chart:
    chart_id: str
    title: str
    description: str
    svg: SafeString
    headers: tuple[str, ...] = ()
    rows: Sequence[tuple[str, ...]] = field(default_factory=list)


@dataclass(frozen=True)
class Series:
    name: str
    points: Sequence[tuple[datetime, float]]


def _open(chart_id: str, title: str, description: str, height: int = HEIGHT) -> list[str]:
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {WIDTH} {height}" '
        f'role="img" aria-labelledby="{chart_id}-title {chart_id}-desc" focusable="false" '
        f'fill="currentColor">',  # sized by the stylesheet (the CSP allows no inline style)
        f'<title id="{chart_id}-title">{escape(title)}</title>',
        f'<desc id="{chart_id}-desc">{escape(description)}</desc>',
    ]


def _num(value: float, decimals: int = 1) -> str:
    return str(number_format(round(value, decimals), decimal_pos=decimals if value != int(value) else 0))


def shown_date(moment: datetime) -> str:
    """A date as the pages write it (``|date:"DATE_FORMAT"``): the language's own format, with
    its month names, in the local time zone, so the chart's labels read like the text around it."""
    return str(date_format(localtime(moment) if is_aware(moment) else moment, "DATE_FORMAT"))


def _thin(points: Sequence[tuple[datetime, float]]) -> Sequence[tuple[datetime, float]]:
    if len(points) <= MAX_LINE_POINTS:
        return points
    step = len(points) / (MAX_LINE_POINTS - 1)
    return [points[int(i * step)] for i in range(MAX_LINE_POINTS - 1)] + [points[-1]]


def line_chart(
    *, chart_id: str, title: str, description: str, series: Sequence[Series], headers: tuple[str, ...]
) -> Chart:
    """One line per series over time. The table: per series, plays, first, last, lowest, highest.

    ``headers`` names those six columns (translated by the caller).
    """
    parts = _open(chart_id, title, description)
    drawn = [s for s in series if s.points]
    rows = [
        (
            s.name,
            str(len(s.points)),
            _num(s.points[0][1]),
            _num(s.points[-1][1]),
            _num(min(v for _t, v in s.points)),
            _num(max(v for _t, v in s.points)),
        )
        for s in drawn
    ]
    if drawn:
        times = [t.timestamp() for s in drawn for t, _v in s.points]
        values = [v for s in drawn for _t, v in s.points]
        t0, t1 = min(times), max(times)
        low, high = min([*values, 0.0]), max([*values, 0.0])
        if high - low < 1:
            high = low + 1
        span_t = (t1 - t0) or 1.0
        plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

        def x(t: float) -> float:
            return LEFT + (t - t0) / span_t * plot_w

        def y(v: float) -> float:
            return TOP + (high - v) / (high - low) * plot_h

        parts.append(_axes(low, high, y))
        zero = y(0.0)
        parts.append(
            f'<line class="zero" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{zero:.1f}" y2="{zero:.1f}" '
            'stroke="currentColor" stroke-opacity="0.3" stroke-dasharray="4 4" />'
        )
        for index, s in enumerate(drawn):
            colour = PALETTE[index % len(PALETTE)]
            coords = " ".join(f"{x(t.timestamp()):.1f},{y(v):.1f}" for t, v in _thin(s.points))
            parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{coords}" />')
            lx = LEFT + index * min(150, (WIDTH - LEFT) // len(drawn))
            parts.append(f'<rect x="{lx}" y="{HEIGHT - 14}" width="10" height="10" fill="{colour}" />')
            parts.append(f'<text x="{lx + 14}" y="{HEIGHT - 5}" font-size="11">{escape(s.name)}</text>')
        first = min((s.points[0][0] for s in drawn), key=lambda t: t.timestamp())
        last = max((s.points[-1][0] for s in drawn), key=lambda t: t.timestamp())
        for tx, anchor, moment in ((LEFT, "start", first), (WIDTH - RIGHT, "end", last)):
            label = escape(shown_date(moment))
            parts.append(
                f'<text x="{tx}" y="{HEIGHT - BOTTOM + 14}" font-size="11" text-anchor="{anchor}">{label}</text>'
            )
    parts.append("</svg>")
    return Chart(chart_id, title, description, mark_safe("".join(parts)), headers, rows)


def bar_chart(
    *, chart_id: str, title: str, description: str, bars: Sequence[tuple[str, float]], headers: tuple[str, str]
) -> Chart:
    """Vertical bars, one per label (a score distribution). The table: label, value."""
    parts = _open(chart_id, title, description)
    if bars:
        high = max(max(v for _l, v in bars), 1)
        plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
        slot = plot_w / len(bars)

        def y(v: float) -> float:
            return TOP + (high - v) / high * plot_h

        parts.append(_axes(0, high, y))
        for index, (label, value) in enumerate(bars):
            bx = LEFT + index * slot + slot * 0.1
            top = y(value)
            parts.append(
                f'<rect x="{bx:.1f}" y="{top:.1f}" width="{slot * 0.8:.1f}" height="{TOP + plot_h - top:.1f}" '
                f'fill="{PALETTE[0]}"><title>{escape(label)}: {_num(value)}</title></rect>'
            )
            parts.append(
                f'<text x="{bx + slot * 0.4:.1f}" y="{HEIGHT - BOTTOM + 14}" font-size="10" '
                f'text-anchor="middle">{escape(label)}</text>'
            )
    parts.append("</svg>")
    rows = [(label, _num(value)) for label, value in bars]
    return Chart(chart_id, title, description, mark_safe("".join(parts)), headers, rows)


def hbar_chart(
    *, chart_id: str, title: str, description: str, bars: Sequence[tuple[str, float]], headers: tuple[str, str]
) -> Chart:
    """Horizontal bars with long labels (wins by game). The table: label, value."""
    row_h = 28
    height = TOP + BOTTOM // 2 + row_h * max(len(bars), 1)
    parts = _open(chart_id, title, description, height)
    label_w = 170
    if bars:
        high = max(max(v for _l, v in bars), 1)
        plot_w = WIDTH - label_w - RIGHT - 40
        for index, (label, value) in enumerate(bars):
            by = TOP + index * row_h
            width = value / high * plot_w
            parts.append(
                f'<text x="{label_w - 6}" y="{by + 17}" font-size="12" text-anchor="end">{escape(label)}</text>'
            )
            parts.append(
                f'<rect x="{label_w}" y="{by + 4}" width="{width:.1f}" height="{row_h - 8}" '
                f'fill="{PALETTE[index % len(PALETTE)]}" />'
            )
            parts.append(f'<text x="{label_w + width + 6:.1f}" y="{by + 17}" font-size="12">{_num(value)}</text>')
    parts.append("</svg>")
    rows = [(label, _num(value)) for label, value in bars]
    return Chart(chart_id, title, description, mark_safe("".join(parts)), headers, rows)


def stacked_hbar_chart(
    *,
    chart_id: str,
    title: str,
    description: str,
    bars: Sequence[tuple[str, Sequence[tuple[str, float]]]],
    headers: tuple[str, ...],
) -> Chart:
    """Horizontal bars cut into parts (a player's points by source): one bar per label, each
    part in its source's colour, a legend above. The table: label, then each source's value
    in ``headers``' order (``headers[1:]`` name the sources), then the total."""
    sources = list(headers[1:-1])
    row_h, legend_h, label_w = 30, 20 * ((len(sources) + 2) // 3), 110
    height = TOP + legend_h + row_h * max(len(bars), 1) + 8
    parts = _open(chart_id, title, description, height)
    for index, source in enumerate(sources):  # the legend, three to a line
        lx, ly = LEFT + (index % 3) * 120 - 36, TOP + (index // 3) * 20
        parts.append(f'<rect x="{lx}" y="{ly}" width="12" height="12" fill="{PALETTE[index % len(PALETTE)]}" />')
        parts.append(f'<text x="{lx + 16}" y="{ly + 10}" font-size="11">{escape(source)}</text>')
    high = max((sum(max(v, 0) for _s, v in split) for _l, split in bars), default=0) or 1
    plot_w = WIDTH - label_w - RIGHT - 36
    for row, (label, split) in enumerate(bars):
        by, bx = TOP + legend_h + row * row_h, float(label_w)
        parts.append(f'<text x="{label_w - 6}" y="{by + 18}" font-size="12" text-anchor="end">{escape(label)}</text>')
        for source, value in split:
            if value <= 0:  # a loss (rejected offers) is in the table, not drawn
                continue
            width = value / high * plot_w
            colour = PALETTE[sources.index(source) % len(PALETTE)]
            parts.append(
                f'<rect x="{bx:.1f}" y="{by + 5}" width="{width:.1f}" height="{row_h - 10}" fill="{colour}">'
                f"<title>{escape(label)}, {escape(source)}: {_num(value)}</title></rect>"
            )
            bx += width
        total = sum(v for _s, v in split)
        parts.append(f'<text x="{bx + 6:.1f}" y="{by + 18}" font-size="12">{_num(total)}</text>')
    parts.append("</svg>")
    rows = [
        (label, *(_num(dict(split).get(source, 0)) for source in sources), _num(sum(v for _s, v in split)))
        for label, split in bars
    ]
    return Chart(chart_id, title, description, mark_safe("".join(parts)), headers, rows)


def _axes(low: float, high: float, y: Callable[[float], float]) -> str:
    """The y axis with its lowest and highest values."""
    bottom, top = y(low), y(high)
    return (
        f'<line class="axis" x1="{LEFT}" x2="{LEFT}" y1="{top:.1f}" y2="{bottom:.1f}" stroke="currentColor" />'
        f'<text x="{LEFT - 4}" y="{top + 4:.1f}" font-size="11" text-anchor="end">{_num(high)}</text>'
        f'<text x="{LEFT - 4}" y="{bottom:.1f}" font-size="11" text-anchor="end">{_num(low)}</text>'
    )


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
