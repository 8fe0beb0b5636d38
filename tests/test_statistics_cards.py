"""The statistics pages' overview cards (issue 44, point 2): each figure as the selectors read
it from the statistics' rows equals a plain recomputation from the Results, for random small
groups of plays (hypothesis); the pages show them as cards, the leaderboard's filters swap its
table alone, and the query counts stay flat."""

from __future__ import annotations

import datetime
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.db import transaction
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.statistics import generate
from sessions import services
from sessions.games import BABEL_ON, TOWER_OF_BABEL, game_name
from sessions.models import Group, Player, Result, Seat
from sessions.statistics import overview, selectors
from sessions.statistics import services as statistics
from sessions.statistics.ratings import MIN_RATED_PLAYS
from sessions.statistics.selectors import MIN_SHARED_PLAYS
from tests.test_statistics import play
from tests.test_statistics_pages import cards, figures

# --- a plain reading of the Results ----------------------------------------------------------


@dataclass(frozen=True)
class Seen:
    """A finished session's result, as read one at a time."""

    session: int
    played: datetime.datetime
    game: str
    player: int
    name: str
    rank: int
    score: int | None
    seat: int


def results(group: Group) -> list[Seen]:
    """Every result of the group's finished sessions, in the order of play (then by session)."""
    seats = {(s.session_id, s.player_id): s.order for s in Seat.objects.filter(session__group=group)}
    found = [
        Seen(
            r.session_id,
            r.session.finished_at or r.session.updated_at,
            r.session.game,
            r.player_id,
            r.player.name,
            r.rank,
            r.score,
            seats[(r.session_id, r.player_id)],
        )
        for r in Result.objects.filter(session__group=group, session__status="finished").select_related(
            "session", "player"
        )
    ]
    return sorted(found, key=lambda seen: (seen.played, seen.session))


def streaks(won: list[bool]) -> tuple[int, int]:
    """(the wins in a row at the end, the most in a row)."""
    current = longest = 0
    for win in won:
        current = current + 1 if win else 0
        longest = max(longest, current)
    return current, longest


def first_by_name(
    candidates: dict[int, tuple[str, Any]], key: Callable[[Any], Any], same: Callable[[Any], Any] | None = None
) -> tuple[str, int] | None:
    """(the name of the best candidate by ``key``, then by name; how many others share its
    figure, ``same`` of the value: the whole key unless said)."""
    if not candidates:
        return None
    same = same or key
    best = min(candidates.values(), key=lambda candidate: (key(candidate[1]), candidate[0]))
    others = sum(same(value) == same(best[1]) for _name, value in candidates.values()) - 1
    return best[0], others


def named(records: dict[int, tuple[str, Any]], name: str) -> Any:
    """The record of the opponent called ``name``."""
    return next(record for found, record in records.values() if found == name)


def plain_player_figures(seen: list[Seen], player: Player) -> dict[str, Any]:
    mine = [s for s in seen if s.player == player.pk]
    by_game: dict[str, list[Seen]] = defaultdict(list)
    for s in mine:
        by_game[s.game].append(s)
    ordered_games = sorted(by_game, key=lambda g: (-len(by_game[g]), game_name(g)))
    scored_games = [g for g in ordered_games if any(s.score is not None for s in by_game[g])]
    scored = [s.score for s in by_game[scored_games[0]] if s.score is not None] if scored_games else []
    won_in = {g: sum(s.rank == 1 for s in by_game[g]) for g in by_game}
    most_won = sorted((g for g in by_game if won_in[g]), key=lambda g: (-won_in[g], -len(by_game[g]), game_name(g)))
    # Head to head, pair by pair: a shared first place is a win for each.
    records: dict[int, list[Any]] = {}
    for s in mine:
        for other in (o for o in seen if o.session == s.session and o.player != player.pk):
            record = records.setdefault(other.player, [other.name, 0, 0, 0])
            record[1] += 1
            record[2] += s.rank < other.rank or s.rank == other.rank == 1
            record[3] += s.rank > other.rank
    qualified = {pk: (name, (shared, wins, losses)) for pk, (name, shared, wins, losses) in records.items()}
    qualified = {pk: value for pk, value in qualified.items() if value[1][0] >= MIN_SHARED_PLAYS}
    beaten_by = {pk: value for pk, value in qualified.items() if value[1][2] > value[1][1]}
    rival = first_by_name(qualified, lambda r: (-r[0], abs(r[1] - r[2]) / r[0]))
    nemesis = first_by_name(beaten_by, lambda r: (-r[2], -r[2] / r[0]))
    return {
        "plays": len(mine),
        "wins": sum(s.rank == 1 for s in mine),
        "win rate": round(sum(s.rank == 1 for s in mine) / len(mine), 4) if mine else None,
        "streaks": streaks([s.rank == 1 for s in mine]),
        "favourite game": ordered_games[0] if ordered_games else None,
        "most won game": most_won[0] if most_won else None,
        "best, average and worst score": (
            (scored_games[0], max(scored), round(sum(scored) / len(scored), 1), min(scored)) if scored else None
        ),
        "rival": rival and (rival[0], *named(qualified, rival[0])),
        "nemesis": nemesis and (nemesis[0], *named(beaten_by, nemesis[0])),
    }


def read_player_figures(player: Player) -> dict[str, Any]:
    stats = selectors.player_statistics(player)
    scored, rival, nemesis = stats.scored_game, stats.rival, stats.nemesis
    return {
        "plays": stats.plays,
        "wins": stats.wins,
        "win rate": stats.win_rate,
        "streaks": (stats.current_streak, stats.longest_streak),
        "favourite game": stats.favourite_game and stats.favourite_game.game,
        "most won game": stats.most_won_game and stats.most_won_game.game,
        "best, average and worst score": scored and (scored.game, scored.best, scored.average, scored.worst),
        "rival": rival and (rival.name, rival.shared, rival.wins, rival.losses),
        "nemesis": nemesis and (nemesis.name, nemesis.shared, nemesis.wins, nemesis.losses),
    }


def leader_of(
    per_player: dict[int, tuple[str, Any]], key: Callable[[Any], Any], same: Callable[[Any], Any] | None = None
) -> tuple[Any, ...] | None:
    """(name, how many others share the figure) of the best by ``key`` (then by name), or None."""
    return first_by_name(per_player, key, same)


def as_leader(found: overview.Leader | None) -> tuple[str, int] | None:
    return None if found is None else (found.name, found.others)


def plain_game_figures(seen: list[Seen], game: str) -> dict[str, Any]:
    here = [s for s in seen if s.game == game]
    sessions = {s.session for s in here}
    per_player: dict[int, tuple[str, list[Seen]]] = {}
    for s in here:
        per_player.setdefault(s.player, (s.name, []))[1].append(s)
    plays = {pk: (name, len(rows)) for pk, (name, rows) in per_player.items()}
    wins = {pk: (name, (sum(r.rank == 1 for r in rows), len(rows))) for pk, (name, rows) in per_player.items()}
    wins = {pk: value for pk, value in wins.items() if value[1][0]}
    best = {
        pk: (name, max(r.score for r in rows if r.score is not None))
        for pk, (name, rows) in per_player.items()
        if any(r.score is not None for r in rows)
    }
    scores = [s.score for s in here if s.score is not None]
    winning = [s.score for s in here if s.score is not None and s.rank == 1]
    first = [s for s in here if s.seat == 0]
    return {
        "plays": len(sessions),
        "players": len(per_player),
        "results": len(here),
        "most plays": leader_of(plays, lambda n: -n),
        "most wins": leader_of(wins, lambda w: (-w[0], w[1]), same=lambda w: w[0]),
        "best score": (max(best.values(), key=lambda v: v[1])[1], leader_of(best, lambda b: -b)) if best else None,
        "average score": round(sum(scores) / len(scores), 1) if scores else None,
        "average winning score": round(sum(winning) / len(winning), 1) if winning else None,
        "first player": (len(first), sum(s.rank == 1 for s in first)) if first else None,
    }


def read_game_figures(group: Group, game: str) -> dict[str, Any]:
    view = selectors.game_statistics(group, game)
    found = overview.game_overview(view)
    best = found.best_score
    return {
        "plays": view.plays,
        "players": found.players,
        "results": found.results,
        "most plays": as_leader(found.most_plays),
        "most wins": as_leader(found.most_wins),
        "best score": None if best is None else (best.value, (best.name, best.others)),
        "average score": found.average_score,
        "average winning score": view.average_winning_score,
        "first player": None if found.first_seat is None else (found.first_seat.plays, found.first_seat.wins),
    }


def plain_group_figures(seen: list[Seen]) -> dict[str, Any]:
    per_player: dict[int, tuple[str, list[Seen]]] = {}
    for s in seen:
        per_player.setdefault(s.player, (s.name, []))[1].append(s)
    won = {pk: (name, [r.rank == 1 for r in rows]) for pk, (name, rows) in per_player.items()}
    sessions_by_game = Counter(game for game, _session in {(s.game, s.session) for s in seen})
    favourite = sorted(sessions_by_game, key=lambda g: (-sessions_by_game[g], game_name(g)))
    plays = {pk: (name, len(w)) for pk, (name, w) in won.items()}
    wins = {pk: (name, (sum(w), len(w))) for pk, (name, w) in won.items() if sum(w)}
    regulars = {pk: (name, sum(w) / len(w)) for pk, (name, w) in won.items() if len(w) >= MIN_RATED_PLAYS and sum(w)}
    longest = {pk: (name, streaks(w)[1]) for pk, (name, w) in won.items() if streaks(w)[1]}
    current = {pk: (name, streaks(w)[0]) for pk, (name, w) in won.items() if streaks(w)[0]}
    return {
        "plays": len({s.session for s in seen}),
        "players": len(per_player),
        "last played": max((s.played for s in seen), default=None),
        "favourite game": (favourite[0], sessions_by_game[favourite[0]]) if favourite else None,
        "games": len(sessions_by_game),
        "most plays": leader_of(plays, lambda n: -n),
        "most wins": leader_of(wins, lambda w: (-w[0], w[1]), same=lambda w: w[0]),
        "best win rate": leader_of(regulars, lambda r: -r),
        "longest streak": leader_of(longest, lambda n: -n),
        "current streak": leader_of(current, lambda n: -n),
    }


def read_group_figures(group: Group) -> dict[str, Any]:
    found = overview.group_overview(group)
    return {
        "plays": found.plays,
        "players": found.players,
        "last played": found.last_played,
        "favourite game": found.favourite and found.favourite[::2],
        "games": found.games,
        "most plays": as_leader(found.most_plays),
        "most wins": as_leader(found.most_wins),
        "best win rate": as_leader(found.best_win_rate),
        "longest streak": as_leader(found.longest_streak),
        "current streak": as_leader(found.current_streak),
    }


# --- random small groups of plays ------------------------------------------------------------

# A play: its game, who sits (a permutation of the four players, the first 2 to 4 of it), their
# scores (Tower of Babel; small, so that ties are common) or places (Babel On!), and its day
# (a few days, so that plays share one and are told apart by their order).
ONE_PLAY = st.tuples(
    st.sampled_from([TOWER_OF_BABEL, BABEL_ON]),
    st.permutations(range(4)),
    st.integers(2, 4),
    st.lists(st.integers(0, 3), min_size=4, max_size=4),
    st.integers(0, 3),
)
PLAYS = st.lists(ONE_PLAY, min_size=1, max_size=7)
# Streaks, rivals and nemeses need longer histories to tell their rules apart (a nemesis by
# count or by rate, a rival by shared plays or by closeness): more plays, more examples.
LONGER_PLAYS = st.lists(ONE_PLAY, min_size=3, max_size=12)
MORE_EXAMPLES = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
EXAMPLES = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


class RolledBack(Exception):
    """Ends a hypothesis example's transaction: each example starts from the same players."""


def played(night, players, plays) -> None:
    for game, order, size, scores, day in plays:
        if game == TOWER_OF_BABEL:
            seated = [players[i] for i in order[: max(size, 3)]]  # three players at least
            play(night, seated, scores[: len(seated)], days=day)
        else:
            seated = [players[i] for i in order[:size]]
            play(night, seated, list(range(1, size + 1)), game=game, days=day, places=True)
    statistics.rebuild_group(group_id=night.group_id)


def in_a_rolled_back_group(check: Callable[[], None]) -> None:
    try:
        with transaction.atomic():
            check()
            raise RolledBack
    except RolledBack:
        pass


PLAYER_FIGURES = ["plays", "wins", "win rate", "favourite game", "most won game", "best, average and worst score"]
PLAYER_HISTORY_FIGURES = ["streaks", "rival", "nemesis"]
GAME_FIGURES = [
    "plays",
    "players",
    "results",
    "most plays",
    "most wins",
    "best score",
    "average score",
    "average winning score",
    "first player",
]
GROUP_FIGURES = [
    "plays",
    "players",
    "last played",
    "favourite game",
    "games",
    "most plays",
    "most wins",
    "best win rate",
    "longest streak",
    "current streak",
]


@pytest.mark.parametrize("figure", PLAYER_FIGURES)
@EXAMPLES
@given(plays=PLAYS)
def test_a_player_figure_is_what_a_plain_reading_of_the_results_gives(night, players, figure, plays):
    def check() -> None:
        played(night, players, plays)
        seen = results(night.group)
        for player in players:
            assert read_player_figures(player)[figure] == plain_player_figures(seen, player)[figure], player.name

    in_a_rolled_back_group(check)


@pytest.mark.parametrize("figure", PLAYER_HISTORY_FIGURES)
@MORE_EXAMPLES
@given(plays=LONGER_PLAYS)
def test_a_player_s_streaks_rival_and_nemesis_are_what_a_plain_reading_of_the_results_gives(
    night, players, figure, plays
):
    def check() -> None:
        played(night, players, plays)
        seen = results(night.group)
        for player in players:
            assert read_player_figures(player)[figure] == plain_player_figures(seen, player)[figure], player.name

    in_a_rolled_back_group(check)


@pytest.mark.parametrize("figure", GAME_FIGURES)
@EXAMPLES
@given(plays=PLAYS)
def test_a_game_figure_is_what_a_plain_reading_of_the_results_gives(night, players, figure, plays):
    def check() -> None:
        played(night, players, plays)
        seen = results(night.group)
        for game in (TOWER_OF_BABEL, BABEL_ON):
            assert read_game_figures(night.group, game)[figure] == plain_game_figures(seen, game)[figure], game

    in_a_rolled_back_group(check)


@pytest.mark.parametrize("figure", GROUP_FIGURES)
@EXAMPLES
@given(plays=PLAYS)
def test_a_group_figure_is_what_a_plain_reading_of_the_results_gives(night, players, figure, plays):
    def check() -> None:
        played(night, players, plays)
        assert read_group_figures(night.group)[figure] == plain_group_figures(results(night.group))[figure]

    in_a_rolled_back_group(check)


# --- examples, as a reader would check them ----------------------------------------------------


def counted(night, seated, scores, *, days, game=TOWER_OF_BABEL, places=False):
    play(night, seated, scores, days=days, game=game, places=places)
    statistics.rebuild_group(group_id=night.group_id)


def test_the_rival_is_the_opponent_met_most_often_and_the_nemesis_who_beat_the_player_most(night, players):
    """Chiara has beaten Ada more often than anyone (three times in four); Bruno, met five
    times, is the rival, though Ada beats him more often than not."""
    ada, bruno, chiara, _dieter = players
    for day in range(4):  # Ada beats Bruno four times
        counted(night, [ada, bruno], [1, 2], game=BABEL_ON, days=day, places=True)
    counted(night, [ada, bruno, chiara], [10, 20, 30], days=4)
    for day in range(5, 8):  # Ada beats Chiara once, then loses twice
        counted(night, [ada, chiara], [1, 2] if day == 5 else [2, 1], game=BABEL_ON, days=day, places=True)
    stats = selectors.player_statistics(ada)
    assert stats.rival is not None
    assert (stats.rival.name, stats.rival.shared) == ("Bruno", 5)
    assert stats.nemesis is not None
    assert (stats.nemesis.name, stats.nemesis.losses, stats.nemesis.shared) == ("Chiara", 3, 4)


def test_the_nemesis_is_counted_in_games_won_not_in_a_share_of_them(night, players):
    """Chiara beat Ada four times in six, Dieter three times in three: Chiara, who beat her
    more often (and a shared first place is no loss)."""
    ada, _bruno, chiara, dieter = players
    for day, places in enumerate([[2, 1], [2, 1], [2, 1], [2, 1], [1, 2], [1, 2]]):
        counted(night, [ada, chiara], places, game=BABEL_ON, days=day, places=True)
    for day in range(6, 9):
        counted(night, [ada, dieter], [2, 1], game=BABEL_ON, days=day, places=True)
    stats = selectors.player_statistics(ada)
    assert stats.nemesis is not None
    assert (stats.nemesis.name, stats.nemesis.losses, stats.nemesis.shared) == ("Chiara", 4, 6)
    assert stats.rival is not None
    assert (stats.rival.name, stats.rival.shared) == ("Chiara", 6)


def test_a_player_s_page_leads_with_its_cards(member_client, night, players):
    ada, bruno, chiara, _dieter = players
    for day, scores in enumerate([[40, 30, 20], [35, 30, 32], [10, 30, 20]]):
        counted(night, [ada, bruno, chiara], scores, days=day)
    counted(night, [ada, bruno], [1, 2], game=BABEL_ON, days=3, places=True)
    page = member_client.get(reverse("player_statistics", args=[ada.pk])).content.decode()
    shown = cards(page)
    assert list(shown) == [
        "Plays",
        "Wins",
        "Win rate",
        "Current win streak",
        "Longest win streak",
        "Rating",
        "Best score",
        "Average score",
        "Worst score",
        "Favourite game",
        "Rival",
    ]
    assert shown["Win rate"] == ("75%", "3 wins in 4 games")
    assert (shown["Current win streak"][0], shown["Longest win streak"][0]) == ("1", "2")
    assert shown["Best score"] == ("40", "in Tower of Babel")
    assert shown["Average score"] == ("28.3", "in Tower of Babel, over 3 games")
    assert shown["Worst score"] == ("10", "in Tower of Babel")
    assert shown["Favourite game"] == ("Tower of Babel", "3 games of 4 games")
    assert shown["Rival"] == ("Bruno", "met most often: 4 games together, 3 wins, 1 loss")
    # Ada beats each of them more often than not: no nemesis.
    assert page.index('data-testid="cards"') < page.index("By game")  # the cards first, then the details


def test_a_game_s_page_leads_with_its_cards_and_a_game_played_by_places_has_no_score_cards(
    member_client, night, players
):
    ada, bruno, chiara, dieter = players
    counted(night, [ada, bruno, chiara], [40, 30, 20], days=0)
    counted(night, [bruno, ada, dieter], [50, 30, 20], days=1)
    counted(night, [ada, bruno], [1, 2], game=BABEL_ON, days=2, places=True)
    page = member_client.get(reverse("game_statistics", args=[night.group_id, TOWER_OF_BABEL])).content.decode()
    shown = cards(page)
    assert shown["Plays"] == ("2", "3.0 players a game on average")
    assert shown["Players"][0] == "4"
    assert shown["Best score"] == ("50", "by Bruno")
    assert shown["Average winning score"] == ("45.0", "the best winning score: 50")
    assert shown["Average score"] == ("31.7", "of 6 scores")
    assert shown["First player wins"] == ("100%", "2 wins in 2 games")
    assert shown["Most wins"] == ("Ada", "1 win in 2 games; tied with 1 other")
    places = cards(member_client.get(reverse("game_statistics", args=[night.group_id, BABEL_ON])).content.decode())
    assert not {"Best score", "Average score", "Average winning score"} & set(places)
    assert places["Most wins"] == ("Ada", "1 win in 1 game")


def test_the_group_page_shows_the_group_s_cards_and_links_to_the_details(member_client, night, players):
    ada, bruno, chiara, dieter = players
    for day in range(3):
        counted(night, [ada, bruno, chiara], [40, 30, 20], days=day)
    counted(night, [dieter, ada], [1, 2], game=BABEL_ON, days=3, places=True)
    page = member_client.get(reverse("group", args=[night.group_id])).content.decode()
    shown = cards(page)
    assert shown["Games played"][0] == "4"
    assert shown["Players"] == ("4", "2 of the four games played")
    assert shown["Favourite game"] == ("Tower of Babel", "3 games of 4 games")
    assert shown["Most wins"] == ("Ada", "3 wins in 4 games")
    assert shown["Most games"] == ("Ada", "4 games")
    assert shown["Longest win streak"] == ("Ada", "3 wins in a row")
    assert shown["On a winning streak"] == ("Dieter", "1 win in a row so far")  # Ada's ended with his win
    section = page[page.index('data-testid="group-statistics"') :]
    for url in (reverse("leaderboard", args=[night.group_id]), reverse("play_log", args=[night.group_id])):
        assert url in section


def test_a_group_without_games_shows_no_cards(member_client, group, players):
    page = member_client.get(reverse("group", args=[group.pk])).content.decode()
    assert cards(page) == {}
    assert "The figures show once a game is finished." in page


def test_the_leaderboard_s_filters_swap_its_table_alone_and_work_without_javascript(member_client, night, players):
    ada, bruno, chiara, dieter = players
    counted(night, [ada, bruno, chiara], [40, 30, 20], days=0)
    counted(night, [dieter, ada], [1, 2], game=BABEL_ON, days=1, places=True)
    url = reverse("leaderboard", args=[night.group_id])
    page = member_client.get(url).content.decode()
    form = page[page.index('<form method="get" action="' + url) :]
    form = form[: form.index("</form>")]
    assert 'hx-trigger="change, submit"' in form
    assert 'hx-target="#leaderboard"' in form
    assert 'hx-push-url="true"' in form
    assert '<button type="submit" data-apply>' in form  # kept for a browser without JavaScript
    region = member_client.get(url, {"game": BABEL_ON}, headers={"HX-Request": "true"})
    assert "HX-Request" in region["Vary"]
    body = region.content.decode()
    assert "<form" not in body
    assert "<html" not in body
    assert 'data-testid="leaderboard-table"' in body
    assert ">Dieter</a>" in body
    assert ">Bruno</a>" not in body
    whole = member_client.get(url, {"game": BABEL_ON}).content.decode()  # the same address, whole
    assert "<form" in whole
    assert ">Bruno</a>" not in whole
    assert '<option value="babel-on" selected>' in whole


def test_the_leaderboard_marks_the_reader_s_own_row(member_client, member, night, players):
    ada, bruno, chiara, _dieter = players
    counted(night, [ada, bruno, chiara], [40, 30, 20], days=0)
    url = reverse("leaderboard", args=[night.group_id])
    assert 'data-testid="own-row"' not in member_client.get(url).content.decode()
    Player.objects.filter(pk=bruno.pk).update(user=member)
    page = member_client.get(url).content.decode()
    assert page.count('data-testid="own-row"') == 1
    own = page[page.index('data-testid="own-row"') :]
    assert own.index(">Bruno</a>") < own.index("</tr>")


def pages_of(group: Group) -> list[str]:
    return [
        reverse("group", args=[group.pk]),
        reverse("game_statistics", args=[group.pk, "seven-wonders"]),
        reverse("leaderboard", args=[group.pk]),
    ]


def test_the_group_and_game_pages_read_as_many_queries_for_a_big_group_as_for_a_small_one(
    member_client, owner, member, group, django_assert_max_num_queries
):
    """The cards read the statistics' rows: a query or two, whatever the size."""
    generate(group=group, players=6, sessions=30)
    statistics.rebuild_group(group_id=group.pk)
    big = services.create_group(owner=owner, name="Big table")
    services.add_member(group=big, user=member)
    generate(group=big, players=60, sessions=600)
    statistics.rebuild_group(group_id=big.pk)
    for small_page, big_page in zip(pages_of(group), pages_of(big), strict=True):
        member_client.get(small_page)
        with django_assert_max_num_queries(14) as small:
            assert member_client.get(small_page).status_code == 200
        with django_assert_max_num_queries(len(small.captured_queries)):
            assert member_client.get(big_page).status_code == 200


def test_the_cards_figures_are_the_selectors(member_client, night, players):
    """The page shows what the selectors read, not figures of its own."""
    ada, bruno, chiara, _dieter = players
    for day in range(MIN_RATED_PLAYS):
        counted(night, [ada, bruno, chiara], [40 - day, 30, 20 + 4 * day], days=day)
    stats = selectors.player_statistics(ada)
    shown = figures(member_client.get(reverse("player_statistics", args=[ada.pk])).content.decode())
    assert shown["Plays"] == str(stats.plays)
    assert shown["Wins"] == str(stats.wins)
    assert shown["Longest win streak"] == str(stats.longest_streak)
    assert stats.rating is not None
    assert shown["Rating"] == f"{stats.rating:.1f}"


def test_a_player_who_never_played_shows_no_cards(member_client, group):
    nobody = services.create_player(group=group, name="Nobody")
    page = member_client.get(reverse("player_statistics", args=[nobody.pk])).content.decode()
    assert cards(page) == {}
    assert "No games counted yet." in page
