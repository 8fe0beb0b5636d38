"""The overview cards that lead the statistics pages (issue 44): a big figure, a short label
and a line of context each, in the reader's language. The figures are the selectors'
(``selectors.player_statistics``, ``overview``); this module only words them.

A card whose figure does not apply yet (no scores in a game played by places, no rival before
enough games together) is left out rather than shown empty.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format, number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from sessions.statistics.overview import GameOverview, GroupOverview, Leader
from sessions.statistics.ratings import MIN_RATED_PLAYS
from sessions.statistics.selectors import GameStatisticsView, Opponent, PlayerStatistics


@dataclass(frozen=True)
class Card:
    key: str  # names the card for the tests and the page's CSS (data-card)
    label: str
    figure: str
    context: str = ""
    href: str = ""  # the figure links there (a player's or a game's page)
    long_figure: bool = False  # a name rather than a number: drawn smaller so that it fits


def percent(wins: int, plays: int) -> str:
    return _("%(percent)s%%") % {"percent": round(100 * wins / plays)} if plays else "-"


def decimal(value: float) -> str:
    return number_format(value, decimal_pos=1)


def day(moment: datetime) -> str:
    return date_format(timezone.localtime(moment), "DATE_FORMAT")


def games(count: int) -> str:
    return ngettext("%(count)d game", "%(count)d games", count) % {"count": count}


def wins(count: int) -> str:
    return ngettext("%(count)d win", "%(count)d wins", count) % {"count": count}


def wins_in(won: int, played: int) -> str:
    """ "3 wins in 5 games"."""
    return _("%(wins)s in %(games)s") % {"wins": wins(won), "games": games(played)}


def last_on(moment: datetime | None) -> str:
    return _("the last on %(date)s") % {"date": day(moment)} if moment else ""


def game_card(label: str, *, group_id: int, game: str, name: str, plays: int, of: int) -> Card:
    """The game played most: ``plays`` of ``of`` games, linked to its statistics."""
    context = _("%(plays)s of %(all)s") % {"plays": games(plays), "all": games(of)}
    href = reverse("game_statistics", args=[group_id, game])
    return Card("favourite-game", label, name, context, href=href, long_figure=True)


def record(opponent: Opponent) -> str:
    """How a player fared against an opponent ("2 wins, 1 loss"), with the right plurals."""
    losses = ngettext("%(count)d loss", "%(count)d losses", opponent.losses) % {"count": opponent.losses}
    return _("%(wins)s, %(losses)s") % {"wins": wins(opponent.wins), "losses": losses}


def player_url(player_id: int) -> str:
    return reverse("player_statistics", args=[player_id])


def tied(context: str, leader: Leader) -> str:
    """The context, and how many other players share the leader's figure."""
    if not leader.others:
        return context
    others = ngettext("tied with %(count)d other", "tied with %(count)d others", leader.others) % {
        "count": leader.others
    }
    return _("%(context)s; %(others)s") % {"context": context, "others": others}


def name_card(key: str, label: str, leader: Leader, context: str) -> Card:
    return Card(key, label, leader.name, tied(context, leader), href=player_url(leader.player_id), long_figure=True)


def leads(leader: Leader | None, players: int) -> bool:
    """Whether a leader stands out: not when every player shares the figure."""
    return leader is not None and leader.others + 1 < players


# --- a player ------------------------------------------------------------------------------


def player_cards(stats: PlayerStatistics, *, group_id: int) -> list[Card]:
    if not stats.plays:
        return []
    cards = [
        Card(
            "plays",
            _("Plays"),
            str(stats.plays),
            last_on(stats.last_played),
        ),
        Card("wins", _("Wins"), str(stats.wins), _("first places, shared ones included")),
        Card(
            "win-rate",
            _("Win rate"),
            percent(stats.wins, stats.plays),
            wins_in(stats.wins, stats.plays),
        ),
        Card(
            "current-streak", _("Current win streak"), str(stats.current_streak), _("wins in a row up to the last game")
        ),
        Card("longest-streak", _("Longest win streak"), str(stats.longest_streak), _("the most wins in a row")),
    ]
    if stats.rating is not None:
        rating = _("a cautious estimate of skill, after %(games)s") % {"games": games(stats.rated_plays)}
        if stats.band is not None:  # where the skill likely lies (sessions/statistics/bands.py)
            likely = {"low": round(stats.band.low), "high": round(stats.band.high), "games": games(stats.rated_plays)}
            rating = _("skill likely between %(low)s and %(high)s, after %(games)s") % likely
        cards.append(Card("rating", _("Rating"), decimal(stats.rating), rating))
    else:
        shown_after = ngettext("shown after %(count)d game", "shown after %(count)d games", MIN_RATED_PLAYS)
        cards.append(Card("rating", _("Rating"), "-", shown_after % {"count": MIN_RATED_PLAYS}))
    scored = stats.scored_game
    if scored is not None and scored.best is not None and scored.average is not None and scored.worst is not None:
        scored_in = _("in %(game)s") % {"game": scored.name}
        over = ngettext("in %(game)s, over %(count)d game", "in %(game)s, over %(count)d games", scored.scored) % {
            "game": scored.name,
            "count": scored.scored,
        }
        cards += [
            Card("best-score", _("Best score"), str(scored.best), scored_in),
            Card("average-score", _("Average score"), decimal(scored.average), over),
            Card("worst-score", _("Worst score"), str(scored.worst), scored_in),
        ]
    favourite = stats.favourite_game
    if favourite is not None:
        cards.append(
            game_card(
                _("Favourite game"),
                group_id=group_id,
                game=favourite.game,
                name=favourite.name,
                plays=favourite.plays,
                of=stats.plays,
            )
        )
    if stats.rival is not None:
        rival = stats.rival
        cards.append(
            Card(
                "rival",
                _("Rival"),
                rival.name,
                ngettext(
                    "met most often: %(count)d game together, %(record)s",
                    "met most often: %(count)d games together, %(record)s",
                    rival.shared,
                )
                % {"count": rival.shared, "record": record(rival)},
                href=player_url(rival.player_id),
                long_figure=True,
            )
        )
    if stats.nemesis is not None:
        nemesis = stats.nemesis
        cards.append(
            Card(
                "nemesis",
                _("Nemesis"),
                nemesis.name,
                ngettext(
                    "beat %(name)s %(count)d time in %(games)s",
                    "beat %(name)s %(count)d times in %(games)s",
                    nemesis.losses,
                )
                % {"name": stats.player.name, "count": nemesis.losses, "games": games(nemesis.shared)},
                href=player_url(nemesis.player_id),
                long_figure=True,
            )
        )
    return cards


# --- a game --------------------------------------------------------------------------------


def game_cards(view: GameStatisticsView, overview: GameOverview) -> list[Card]:
    if not view.plays:
        return []
    cards = [
        Card(
            "plays",
            _("Plays"),
            str(view.plays),
            _("%(players)s players a game on average") % {"players": decimal(overview.results / view.plays)},
        )
    ]
    if overview.players:
        context = ""
        if overview.most_plays is not None and leads(overview.most_plays, overview.players):
            most = overview.most_plays
            context = tied(_("%(name)s played most: %(games)s") % {"name": most.name, "games": games(most.plays)}, most)
        cards.append(Card("players", _("Players"), str(overview.players), context))
    if overview.best_score is not None:
        best = overview.best_score
        by = tied(_("by %(name)s") % {"name": best.name}, best)
        cards.append(Card("best-score", _("Best score"), str(int(best.value)), by, href=player_url(best.player_id)))
    if view.average_winning_score is not None:
        cards.append(
            Card(
                "average-winning-score",
                _("Average winning score"),
                decimal(view.average_winning_score),
                _("the best winning score: %(score)s") % {"score": view.best_winning_score},
            )
        )
    if overview.average_score is not None:
        cards.append(
            Card(
                "average-score",
                _("Average score"),
                decimal(overview.average_score),
                ngettext("of %(count)d score", "of %(count)d scores", overview.scores) % {"count": overview.scores},
            )
        )
    if overview.most_wins is not None and leads(overview.most_wins, overview.players):
        most = overview.most_wins
        cards.append(
            name_card(
                "most-wins",
                _("Most wins"),
                most,
                wins_in(int(most.value), most.plays),
            )
        )
    if overview.first_seat is not None:
        seat = overview.first_seat
        cards.append(
            Card(
                "first-player",
                _("First player wins"),
                percent(seat.wins, seat.plays),
                wins_in(seat.wins, seat.plays),
            )
        )
    top = view.top[0] if view.top else None
    if top is not None and top.rating is not None:
        cards.append(
            Card(
                "best-rated",
                _("Best rated"),
                top.name,
                _("rating %(rating)s after %(games)s") % {"rating": decimal(top.rating), "games": games(top.plays)},
                href=player_url(top.player_id),
                long_figure=True,
            )
        )
    return cards


# --- the group -----------------------------------------------------------------------------


def group_cards(overview: GroupOverview, *, group_id: int) -> list[Card]:
    if not overview.plays:
        return []
    cards = [
        Card(
            "plays",
            _("Games played"),
            str(overview.plays),
            last_on(overview.last_played),
        ),
        Card(
            "players",
            _("Players"),
            str(overview.players),
            ngettext("%(count)d of the four games played", "%(count)d of the four games played", overview.games)
            % {"count": overview.games},
        ),
    ]
    if overview.favourite is not None:
        game, name, plays = overview.favourite
        cards.append(
            game_card(_("Favourite game"), group_id=group_id, game=game, name=name, plays=plays, of=overview.plays)
        )
    if overview.most_wins is not None and leads(overview.most_wins, overview.players):
        most = overview.most_wins
        cards.append(
            name_card(
                "most-wins",
                _("Most wins"),
                most,
                wins_in(int(most.value), most.plays),
            )
        )
    if overview.most_plays is not None and leads(overview.most_plays, overview.players):
        most = overview.most_plays
        cards.append(name_card("most-plays", _("Most games"), most, games(most.plays)))
    if overview.best_win_rate is not None and leads(overview.best_win_rate, overview.players):
        best = overview.best_win_rate
        cards.append(
            name_card(
                "best-win-rate",
                _("Best win rate"),
                best,
                _("%(percent)s: %(wins)s in %(games)s")
                % {"percent": percent(best.wins, best.plays), "wins": wins(best.wins), "games": games(best.plays)},
            )
        )
    if overview.longest_streak is not None and leads(overview.longest_streak, overview.players):
        longest = overview.longest_streak
        cards.append(
            name_card(
                "longest-streak",
                _("Longest win streak"),
                longest,
                ngettext("%(count)d win in a row", "%(count)d wins in a row", int(longest.value))
                % {"count": int(longest.value)},
            )
        )
    if overview.current_streak is not None and leads(overview.current_streak, overview.players):
        current = overview.current_streak
        cards.append(
            name_card(
                "current-streak",
                _("On a winning streak"),
                current,
                ngettext("%(count)d win in a row so far", "%(count)d wins in a row so far", int(current.value))
                % {"count": int(current.value)},
            )
        )
    return cards
