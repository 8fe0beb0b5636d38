"""The calibration page (issue 44, point 5): the group's past games replayed in order, the
chance the ratings gave each player before each game, grouped in bands of ten percent against
how often they won, and the Brier score against even chances; kept until the statistics change."""

import datetime
import itertools
from unittest import mock

import pytest
from django.template.defaultfilters import floatformat
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sessions import services, tasks
from sessions.models import Result
from sessions.statistics import calibration
from sessions.statistics.ratings import MIN_RATED_PLAYS, MODEL
from tests.test_statistics import play

pytestmark = pytest.mark.usefixtures("eager")

NAMES = ["Ada", "Bruno", "Chiara", "Dieter", "Élodie"]
DASH = "\u2013"  # the en dash between a band's ends
TABLES = itertools.count()  # a new group for each example: one owner's groups have different names


def recomputed(group):
    """The page's figures worked out plainly: OpenSkill's public rate and predict_win over the
    stored results in the order of play, a player with fewer than MIN_RATED_PLAYS plays in the
    game at a fresh rating."""
    games: dict[int, tuple[str, list[tuple[int, int]]]] = {}
    results = Result.objects.filter(session__group=group, session__status="finished")
    for session, game, player, rank in results.order_by("session__finished_at", "session_id").values_list(
        "session_id", "session__game", "player_id", "rank"
    ):
        games.setdefault(session, (game, []))[1].append((player, rank))
    ratings, plays = {}, {}
    bands = {}  # band -> [players, chances' sum, wins]
    brier = even = 0.0
    played = 0
    for game, entries in games.values():
        keys = [(player, game) for player, _rank in entries]
        if len(entries) > 1:
            known = [ratings[key] if plays.get(key, 0) >= MIN_RATED_PLAYS else MODEL.rating() for key in keys]
            for (_player, rank), chance in zip(entries, MODEL.predict_win([[r] for r in known]), strict=True):
                band = bands.setdefault(min(int(chance * 10), 9), [0, 0.0, 0])
                band[0] += 1
                band[1] += chance
                band[2] += rank == 1
                brier += (chance - (rank == 1)) ** 2
                even += (1 / len(entries) - (rank == 1)) ** 2
            played += 1
            now = [ratings.get(key) or MODEL.rating() for key in keys]
            rated = MODEL.rate([[r] for r in now], ranks=[rank for _player, rank in entries])
            ratings.update({key: team[0] for key, team in zip(keys, rated, strict=True)})
        for key in keys:
            plays[key] = plays.get(key, 0) + 1
    predictions = sum(band[0] for band in bands.values())
    return played, bands, brier / predictions if predictions else None, even / predictions if predictions else None


def competition_ranks(finishes):
    """1, 1, 3 for finishes 5, 5, 2: the higher the better, ties share their place."""
    return [1 + sum(other > mine for other in finishes) for mine in finishes]


a_game = st.one_of(
    st.tuples(st.just("babel-on"), st.lists(st.integers(0, 4), min_size=2, max_size=4, unique=True)),
    st.tuples(st.just("tower-of-babel"), st.lists(st.integers(0, 4), min_size=3, max_size=4, unique=True)),
).flatmap(
    lambda g: st.tuples(
        st.just(g[0]), st.just(g[1]), st.lists(st.integers(0, 2), min_size=len(g[1]), max_size=len(g[1]))
    )
)


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(history=st.lists(a_game, min_size=1, max_size=14))
def test_the_page_shows_what_a_plain_replay_of_a_random_history_computes(owner, owner_client, history):
    group = services.create_group(owner=owner, name=f"Random table {next(TABLES)}")
    people = [services.create_player(group=group, name=name) for name in NAMES]
    night = services.create_night(group=group, date=datetime.date(2026, 3, 1))
    for day, (game, seated, finishes) in enumerate(history):
        play(night, [people[i] for i in seated], competition_ranks(finishes), game=game, days=day, places=True)
    played, bands, brier, even = recomputed(group)
    response = owner_client.get(f"/g/{group.pk}/ratings/calibration/")
    shown = response.context["calibration"]
    assert shown.games == played
    assert [(b.index, b.predictions, b.wins) for b in shown.bands] == [
        (i, n, w) for i, (n, _s, w) in sorted(bands.items())
    ]
    assert [b.predicted_sum for b in shown.bands] == pytest.approx([s for _i, (_n, s, _w) in sorted(bands.items())])
    assert (shown.brier, shown.even_brier) == pytest.approx((brier, even))
    page = response.content.decode()
    for index, (n, _sum, wins) in bands.items():
        games = "game" if n == 1 else "games"
        won = round(100 * wins / n)
        sentence = (
            f"When the ratings gave a player {index * 10}{DASH}{index * 10 + 10}%, they won {won}% of {n} {games}."
        )
        assert sentence in page
    assert f'data-testid="brier-ratings">{floatformat(brier, 3)}<' in page  # rounded as the page rounds
    assert f'data-testid="brier-even">{floatformat(even, 3)}<' in page


def test_a_group_with_no_games_says_so(member_client, group):
    page = member_client.get(f"/g/{group.pk}/ratings/calibration/").content.decode()
    assert 'data-testid="no-games"' in page
    assert "calibration-table" not in page


def test_the_figures_are_kept_until_the_statistics_change(
    member_client, night, players, django_capture_on_commit_callbacks
):
    ada, bruno, chiara, _dieter = players
    url = f"/g/{night.group_id}/ratings/calibration/"
    with django_capture_on_commit_callbacks(execute=True):
        tasks.update_statistics(play(night, [ada, bruno, chiara], [3, 2, 1], days=0).pk)
    assert member_client.get(url).context["calibration"].games == 1
    with mock.patch.object(calibration, "replayed_calibration", side_effect=AssertionError("replayed again")):
        assert member_client.get(url).context["calibration"].games == 1  # from the cache
    with django_capture_on_commit_callbacks(execute=True):
        tasks.update_statistics(
            play(night, [ada, bruno], [1, 2], game="babel-on", days=1, places=True).pk
        )  # forgets the kept figures
    assert member_client.get(url).context["calibration"].games == 2
    with django_capture_on_commit_callbacks(execute=True):
        tasks.rebuild_group_statistics(night.group_id)
    with mock.patch.object(calibration, "replayed_calibration", wraps=calibration.replayed_calibration) as replayed:
        assert member_client.get(url).context["calibration"].games == 2
    assert replayed.call_count == 1  # a rebuild forgets them too


def test_it_replays_the_ratings_before_each_game_not_after(night, players):
    """Two new players: even chances before their first game, whoever won it."""
    ada, bruno, _chiara, _dieter = players
    play(night, [ada, bruno], [1, 2], game="babel-on", days=0, places=True)
    figures = calibration.replayed_calibration(night.group_id)
    assert [(band.index, band.predictions, band.wins) for band in figures.bands] == [(5, 2, 1)]
    assert figures.brier == pytest.approx(0.25) == figures.even_brier


def test_the_leaderboard_links_to_the_calibration(member_client, group):
    page = member_client.get(f"/g/{group.pk}/leaderboard/").content.decode()
    assert f'href="/g/{group.pk}/ratings/calibration/"' in page


def test_outsiders_do_not_see_a_groups_calibration(outsider_client, group):
    assert outsider_client.get(f"/g/{group.pk}/ratings/calibration/").status_code == 404
