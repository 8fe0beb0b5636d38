"""A year in review (issue 44, point 7): a group's and a player's page for one year, and the
image that sums it up to share, drawn by the server as SVG.

Members only, as every group page (an outsider gets a 404). The year is in the address, so a
year's page can be shared or bookmarked; its links lead to the other years with plays. Plain
links and an <img>: nothing here needs JavaScript.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.text import slugify
from django.views.decorators.http import require_GET

from sessions import selectors
from sessions.games import GAMES, game_name
from sessions.http import MemberRequest
from sessions.models import Group
from sessions.statistics import year as figures
from sessions.statistics import year_cards
from sessions.statistics.selectors import MIN_SHARED_PLAYS


def _checked(year: int) -> int:
    if not figures.FIRST_YEAR <= year <= figures.LAST_YEAR:
        raise Http404
    return year


@login_required
@require_GET
def group_year(request: MemberRequest, group_id: int, year: int) -> HttpResponse:
    group = selectors.membership(request.user, group_id).group
    review = figures.group_year(group, _checked(year))
    context = _context(review, group=group, title=group.name, years=figures.group_years(group))
    context["card_url"] = reverse("group_year_card", args=[group.pk, year])
    context["year_url"] = "group_year"
    context["owner_id"] = group.pk
    return render(request, "statistics/year.html", context)


@login_required
@require_GET
def player_year(request: MemberRequest, player_id: int, year: int) -> HttpResponse:
    player = selectors.player_of_member(request.user, player_id)
    review = figures.player_year(player, _checked(year))
    context = _context(review, group=player.group, title=player.name, years=figures.player_years(player))
    context.update(player=player, card_url=reverse("player_year_card", args=[player.pk, year]))
    context["year_url"] = "player_year"
    context["owner_id"] = player.pk
    return render(request, "statistics/year.html", context)


@login_required
@require_GET
def group_year_card(request: MemberRequest, group_id: int, year: int) -> HttpResponse:
    group = selectors.membership(request.user, group_id).group
    return _card(figures.group_year(group, _checked(year)), name=group.name)


@login_required
@require_GET
def player_year_card(request: MemberRequest, player_id: int, year: int) -> HttpResponse:
    player = selectors.player_of_member(request.user, player_id)
    return _card(figures.player_year(player, _checked(year)), name=player.name)


def _context(review: figures.YearReview, *, group: Group, title: str, years: list[int]) -> dict[str, Any]:
    earlier = [year for year in years if year < review.year]
    later = [year for year in years if year > review.year]
    return {
        "group": group,
        "title": title,
        "review": review,
        "cards": year_cards.headline_cards(review, group_id=group.pk),
        "most_met": year_cards.head_to_head_words(review.most_met) if review.most_met else "",
        "closest": year_cards.head_to_head_words(review.closest) if review.closest else "",
        "highlights": [year_cards.highlight_words(h, game_name(h.game)) for h in review.highlights],
        "years": years,
        "other_years": any(year != review.year for year in years),
        "previous_year": earlier[-1] if earlier else None,
        "next_year": later[0] if later else None,
        "min_shared_plays": MIN_SHARED_PLAYS,
    }


def _card(review: figures.YearReview, *, name: str) -> HttpResponse:
    """The year's image: names and counts only. The template escapes every text (a player
    called ``<script>`` or ``&`` is drawn as typed); ``year_cards`` strips what XML cannot hold."""
    svg = render_to_string(
        "statistics/year_card.svg",
        {
            "review": review,
            "title": year_cards.card_title(name),
            "figures": year_cards.card_figures(review),
            "width": year_cards.WIDTH,
            "height": year_cards.HEIGHT,
            "games": " · ".join(str(game.name) for game in GAMES.values()),
        },
    )
    response = HttpResponse(svg, content_type="image/svg+xml; charset=utf-8")
    filename = f"{slugify(name) or 'babel'}-{review.year}.svg"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["Cache-Control"] = "private, no-cache"
    return response
