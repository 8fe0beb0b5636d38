"""The words of a year in review (``sessions.statistics.year``): its headline cards on the
page, its highlights in sentences, and the few figures its shareable image draws.

The image carries names only (the group's or the player's, the players', the games'): no
place, no account, no e-mail. Its texts are cut to fit their space, and stripped of the
characters XML cannot hold (the template escapes the rest: ``<``, ``&``, quotes).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime

from django.urls import reverse
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from sessions.statistics.cards import Card, game_card, games, percent, player_url, wins_in
from sessions.statistics.year import Highlight, Pair, YearReview

# XML 1.0 has no place for the C0 controls but tab, newline and return, for lone surrogates, nor U+FFFE/FFFF.
NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def day(moment: date | datetime) -> str:
    return date_format(moment, "MONTH_DAY_FORMAT")


def _others(text: str, others: int) -> str:
    if not others:
        return text
    tied = ngettext("tied with %(count)d other", "tied with %(count)d others", others) % {"count": others}
    return _("%(text)s; %(tied)s") % {"text": text, "tied": tied}


def nights(count: int) -> str:
    return ngettext("%(count)d game night", "%(count)d game nights", count) % {"count": count}


# --- the page's cards ------------------------------------------------------------------------


def headline_cards(review: YearReview, *, group_id: int) -> list[Card]:
    """The cards that lead the page: none for a year without plays."""
    if not review.plays:
        return []
    cards = [Card("plays", _("Plays"), str(review.plays), nights(review.nights))]
    if review.player_id is not None:
        cards += [
            Card("wins", _("Wins"), str(review.wins), _("first places, shared ones included")),
            Card(
                "win-rate",
                _("Win rate"),
                percent(review.wins, review.plays),
                wins_in(review.wins, review.plays),
            ),
        ]
    else:
        cards.append(Card("players", _("Players"), str(len(review.players)), _("who played this year")))
        top = review.top_player
        if top is not None:
            context = wins_in(top.wins, top.plays)
            cards.append(
                Card("most-wins", _("Most wins"), top.name, context, href=player_url(top.player_id), long_figure=True)
            )
    favourite = review.favourite
    if favourite is not None:
        cards.append(
            game_card(
                _("Played most"),
                group_id=group_id,
                game=favourite.game,
                name=favourite.name,
                plays=favourite.plays,
                of=review.plays,
            )
        )
    if review.streak is not None:
        streak = review.streak
        by = "" if review.player_id is not None else _others(_("by %(name)s") % {"name": streak.name}, streak.others)
        cards.append(Card("longest-streak", _("Longest win streak"), str(streak.length), by or _("wins in a row")))
    night = review.busiest_night
    if night is not None:
        cards.append(
            Card(
                "busiest-night",
                _("Busiest night"),
                str(night.plays),
                ngettext("game on %(date)s", "games on %(date)s", night.plays) % {"date": day(night.date)},
                href=reverse("night", args=[night.night_id]),
            )
        )
    return cards


def head_to_head_words(pair: Pair) -> str:
    """ "Ada 4, Bruno 3 (1 draw) in 8 games"."""
    words = _("%(first)s %(first_wins)d, %(second)s %(second_wins)d in %(games)s") % {
        "first": pair.first.name,
        "first_wins": pair.first.wins,
        "second": pair.second.name,
        "second_wins": pair.second.wins,
        "games": games(pair.shared),
    }
    if pair.draws:
        draws = ngettext("%(count)d draw", "%(count)d draws", pair.draws) % {"count": pair.draws}
        words = _("%(record)s, %(draws)s") % {"record": words, "draws": draws}
    return words


@dataclass(frozen=True)
class HighlightWords:
    kind: str
    title: str
    moments: list[tuple[str, str]]  # (the winners' names, the day), newest first
    session_ids: list[int]


def highlight_words(highlight: Highlight, game: str) -> HighlightWords:
    count = highlight.count
    if highlight.kind == "perfect-tower":
        title = ngettext(
            "%(count)d game of %(game)s won with a perfect tower",
            "%(count)d games of %(game)s won with a perfect tower",
            count,
        )
    elif highlight.kind == "one-point":
        title = ngettext(
            "%(count)d game of %(game)s won by a single point",
            "%(count)d games of %(game)s won by a single point",
            count,
        )
    elif highlight.kind == "tie-break":
        title = ngettext(
            "%(count)d game of %(game)s won on the tie-break, level on points",
            "%(count)d games of %(game)s won on the tie-break, level on points",
            count,
        )
    else:
        level = highlight.moments[0].detail or 0
        title = ngettext(
            "The tallest tower of %(game)s: level %(level)d, reached in %(count)d game",
            "The tallest tower of %(game)s: level %(level)d, reached in %(count)d games",
            count,
        )
        title = title % {"game": game, "level": level, "count": count}
    if highlight.kind != "tallest-tower":
        title = title % {"count": count, "game": game}
    moments = [(_names(moment.winners), day(moment.played_at)) for moment in highlight.moments]
    return HighlightWords(highlight.kind, title, moments, [moment.session_id for moment in highlight.moments])


def _names(names: tuple[str, ...]) -> str:
    if len(names) == 1:
        return names[0]
    return _("%(names)s and %(last)s") % {"names": ", ".join(names[:-1]), "last": names[-1]}


# --- the shareable image ---------------------------------------------------------------------

# The image is 1080 x 1350 (a 4:5 post): the title, then the figures two a row.
WIDTH, HEIGHT = 1080, 1350
MOST_FIGURES = 6
FIRST_ROW, ROW_HEIGHT, COLUMNS_X, COLUMN_WIDTH = 600, 230, (80, 580), 400
LONGEST = 40  # characters of a name or label, whatever its size


def clean(text: str) -> str:
    """``text`` without the characters XML cannot hold, cut to LONGEST characters."""
    text = NOT_XML.sub("", text).strip()
    return text if len(text) <= LONGEST else text[: LONGEST - 1].rstrip() + "…"


def em_width(text: str) -> float:
    """About how wide ``text`` is in ems of a bold sans-serif font, a little over (DejaVu Sans
    is the widest of those the image names): the image has no layout engine to measure it."""
    return sum(
        0.38 if c in "iljtf.,:;'!|I ()" else 0.95 if c in "mwMW@%&" else 0.8 if c.isupper() else 0.68 for c in text
    )


@dataclass(frozen=True)
class Line:
    """A text of the image at the size that fits its width (cut where even the smallest does not)."""

    text: str
    size: int


def sized(text: str, *, largest: int, smallest: int, width: int) -> Line:
    text = clean(text)
    while text and em_width(text) * smallest > width:
        text = text[:-2].rstrip() + "…"
    size = largest if not text else min(largest, int(width / em_width(text)))
    return Line(text, max(size, smallest))


@dataclass(frozen=True)
class Figure:
    """A figure the image draws: big, its label under it; ``x`` and ``y`` where it goes."""

    value: Line
    label: Line
    x: int = 0
    y: int = 0


def _figure(value: str, label: str, *, name: bool = False) -> tuple[str, str, bool]:
    return value, label, name


def card_figures(review: YearReview) -> list[Figure]:
    """Up to six headline figures (none in a year without plays): names and counts only."""
    if not review.plays:
        return []  # the image says there were none
    found = [_figure(str(review.plays), ngettext("play", "plays", review.plays))]
    if review.player_id is not None:
        found += [
            _figure(str(review.wins), ngettext("win", "wins", review.wins)),
            _figure(percent(review.wins, review.plays), _("win rate")),
        ]
    else:
        found.append(_figure(str(review.nights), ngettext("game night", "game nights", review.nights)))
        top = review.top_player
        if top is not None:
            found.append(_figure(top.name, _("most wins: %(count)d") % {"count": top.wins}, name=True))
    if review.favourite is not None:
        favourite = review.favourite
        found.append(
            _figure(favourite.name, _("played most: %(games)s") % {"games": games(favourite.plays)}, name=True)
        )
    if review.streak is not None:
        found.append(_figure(str(review.streak.length), _("wins in a row")))
    rival = review.most_met
    if rival is not None and len(found) < MOST_FIGURES:
        if review.player_id is not None:  # the player's opponent met most often
            names = rival.second.name
        else:  # the two players who met most often
            names = _("%(first)s & %(second)s") % {"first": rival.first.name, "second": rival.second.name}
        found.append(_figure(names, _("met most: %(games)s") % {"games": games(rival.shared)}, name=True))
    return [
        Figure(
            sized(value, largest=64 if name else 120, smallest=28, width=COLUMN_WIDTH),
            sized(label, largest=34, smallest=22, width=COLUMN_WIDTH),
            COLUMNS_X[index % 2],
            FIRST_ROW + ROW_HEIGHT * (index // 2),
        )
        for index, (value, label, name) in enumerate(found[:MOST_FIGURES])
    ]


def card_title(name: str) -> Line:
    """The group's or the player's name, as large as fits the image's width."""
    return sized(name, largest=88, smallest=36, width=WIDTH - 160)
