"""Statistics pages: a player's, a game's in a group, and the group's leaderboard.

They read precomputed rows (a few queries, whatever the group's size) and never wait for
the statistics tasks: a session finished a moment ago shows up once its task has run.
"""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from sessions import selectors
from sessions.games import GAMES, game_name
from sessions.http import MemberRequest
from sessions.sources import source_label
from sessions.statistics import cards, charts, from_moves, overview
from sessions.statistics import selectors as statistics
from sessions.statistics.forms import LeaderboardForm
from sessions.statistics.ratings import MIN_RATED_PLAYS

# A page lists at most this many leaderboard rows (the API lists all).
PAGE_ROWS = 100


def wins(count: int) -> str:
    return ngettext("%(count)d win", "%(count)d wins", count) % {"count": count}


def rating_history_chart(stats: statistics.PlayerStatistics) -> charts.Chart:
    by_game: dict[str, list[tuple[datetime, float]]] = {}
    for point in stats.history:
        by_game.setdefault(point.game, []).append((point.played_at, point.rating))
    series = [charts.Series(_("All games"), [(p.played_at, p.overall) for p in stats.history])]
    series += [charts.Series(game_name(game), points) for game, points in sorted(by_game.items())]
    return charts.line_chart(
        chart_id="rating-history",
        title=_("Rating history of %(name)s") % {"name": stats.player.name},
        description=_("The rating of %(name)s after each game, over all games and in each game.")
        % {"name": stats.player.name},
        series=series,
        headers=(_("Rating"), _("Plays"), _("First"), _("Last"), _("Lowest"), _("Highest")),
        # No curve of a rating the page says is not shown yet.
        drawn_from_point=MIN_RATED_PLAYS,
        empty=ngettext(
            "The rating history is drawn after %(count)d game.",
            "The rating history is drawn after %(count)d games.",
            MIN_RATED_PLAYS,
        )
        % {"count": MIN_RATED_PLAYS},
    )


def wins_by_game_chart(stats: statistics.PlayerStatistics) -> charts.Chart:
    return charts.hbar_chart(
        chart_id="wins-by-game",
        title=_("Wins by game"),
        description=_("%(name)s: %(wins)s in %(plays)s.")
        % {
            "name": stats.player.name,
            "wins": wins(stats.wins),
            "plays": ngettext("%(count)d game", "%(count)d games", stats.plays) % {"count": stats.plays},
        },
        bars=[(line.name, line.wins) for line in stats.games],
        headers=(_("Game"), _("Wins")),
    )


def score_distribution_chart(view: statistics.GameStatisticsView) -> charts.Chart:
    bins = charts.score_bins(view.scores)
    return charts.bar_chart(
        chart_id="score-distribution",
        title=_("Score distribution"),
        description=_("How many final scores of %(game)s fell in each range.") % {"game": view.name},
        bars=bins,
        headers=(_("Score"), _("Results")),
    )


@login_required
def player_statistics(request: MemberRequest, player_id: int) -> HttpResponse:
    player = selectors.player_of_member(request.user, player_id)
    stats = statistics.player_statistics(player)
    context = {
        "player": player,
        "head_to_head": stats.opponents,
        "more_opponents": stats.opponent_count - len(stats.opponents),
        "group": player.group,
        "stats": stats,
        "cards": cards.player_cards(stats, group_id=player.group_id),
        "history_chart": rating_history_chart(stats),
        "wins_chart": wins_by_game_chart(stats),
        "min_rated_plays": MIN_RATED_PLAYS,
        "min_shared_plays": statistics.MIN_SHARED_PLAYS,
    }
    return render(request, "statistics/player.html", context)


@login_required
def game_statistics(request: MemberRequest, group_id: int, game: str) -> HttpResponse:
    group = selectors.membership(request.user, group_id).group
    if game not in GAMES:
        raise Http404
    view = statistics.game_statistics(group, game)
    context = {
        "group": group,
        "view": view,
        "cards": cards.game_cards(view, overview.game_overview(view)),
        "breakdown": [(source_label(game, key), average) for key, average in view.breakdown],
        "chart": score_distribution_chart(view),
        "moves": from_moves.moves_of_game(group, game),
        "min_rated_plays": MIN_RATED_PLAYS,
    }
    return render(request, "statistics/game.html", context)


@login_required
def leaderboard(request: MemberRequest, group_id: int) -> HttpResponse:
    group = selectors.membership(request.user, group_id).group
    form = LeaderboardForm(request.GET or None)
    filters = form.filters()
    rows = statistics.leaderboard(group, **filters)
    context = {
        "group": group,
        "form": form,
        "filters": filters,
        "rows": rows[:PAGE_ROWS],
        "own_players": overview.own_players(group, request.user),
        "more_rows": max(0, len(rows) - PAGE_ROWS),
        # Whether the page says why players without a rating are ordered by wins.
        "rated": any(row.rating is not None for row in rows),
        "unrated": any(row.rating is None for row in rows),
        "games": GAMES.values(),
        "min_rated_plays": MIN_RATED_PLAYS,
    }
    # The filters apply as they change: htmx asks for the table's region alone (and pushes
    # its address); without JavaScript the form's button loads the whole page.
    partial = request.htmx and not request.htmx.history_restore_request
    response = render(
        request, "statistics/_leaderboard_table.html" if partial else "statistics/leaderboard.html", context
    )
    patch_vary_headers(response, ["HX-Request"])  # one address, two answers: a cache keeps both apart
    return response
