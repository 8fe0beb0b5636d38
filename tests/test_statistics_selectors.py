"""What the statistics pages and API read: a player's figures, a game's, the leaderboard."""

import datetime

import pytest
from django.db import transaction
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sessions import services, tasks
from sessions.models import Result
from sessions.statistics import selectors
from sessions.statistics.ratings import MIN_RATED_PLAYS
from tests.test_statistics import play


def counted(night, players, scores, **kwargs):
    session = play(night, players, scores, **kwargs)
    tasks.update_statistics(session.pk)
    return session


def by_name(stats):
    return {o.name: (o.shared, o.wins, o.losses, o.draws) for o in stats.opponents}


def test_head_to_head_is_pairwise_and_a_shared_first_place_is_a_win_for_each(night, players):
    ada, bruno, chiara, dieter = players
    counted(night, [ada, bruno, chiara, dieter], [30, 30, 10, 10])  # Ada and Bruno share first, the rest third
    assert by_name(selectors.player_statistics(ada)) == {
        "Bruno": (1, 1, 0, 0),
        "Chiara": (1, 1, 0, 0),
        "Dieter": (1, 1, 0, 0),
    }
    assert by_name(selectors.player_statistics(bruno))["Ada"] == (1, 1, 0, 0)
    assert by_name(selectors.player_statistics(chiara)) == {
        "Ada": (1, 0, 1, 0),
        "Bruno": (1, 0, 1, 0),
        "Dieter": (1, 0, 0, 1),  # a shared third place is a draw
    }


class RolledBack(Exception):
    """Ends a hypothesis example's transaction: each example starts from the same players."""


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.permutations(range(4)), st.lists(st.integers(1, 3), min_size=3, max_size=3)), max_size=6))
def test_head_to_head_is_what_a_plain_reading_of_the_results_gives(night, players, plays):
    """Each pair's record, as the database sums it, against the ranks read one result at a
    time: the shared plays, the wins (a shared first place is one for each), the losses and
    the draws."""
    try:
        with transaction.atomic():
            for day, (order, scores) in enumerate(plays):
                play(night, [players[i] for i in order[:3]], scores, days=day)
            expected: dict[tuple[int, int], list[int]] = {}
            for result in Result.objects.all():
                for other in Result.objects.filter(session_id=result.session_id).exclude(pk=result.pk):
                    record = expected.setdefault((result.player_id, other.player_id), [0, 0, 0, 0])
                    record[0] += 1
                    both_first = result.rank == other.rank == 1
                    record[1 if result.rank < other.rank or both_first else 2 if result.rank > other.rank else 3] += 1
            for player in players:
                stats = selectors.player_statistics(player, opponents=len(players))
                found = {(player.pk, o.player_id): [o.shared, o.wins, o.losses, o.draws] for o in stats.opponents}
                assert found == {key: record for key, record in expected.items() if key[0] == player.pk}
                assert stats.opponent_count == len(found)
            raise RolledBack
    except RolledBack:
        pass


def test_plays_wins_scores_streaks_and_last_played_per_game(night, players):
    ada, bruno, chiara, _dieter = players
    three = [ada, bruno, chiara]
    for day, scores in enumerate([[10, 5, 1], [20, 25, 1], [30, 5, 1], [40, 5, 1], [50, 5, 1]]):
        counted(night, three, scores, days=day)
    counted(night, [ada, bruno], [2, 1], game="babel-on", days=9, places=True)  # no score
    stats = selectors.player_statistics(ada)
    assert (stats.plays, stats.wins, stats.win_rate) == (6, 4, pytest.approx(4 / 6, abs=1e-4))
    assert (stats.current_streak, stats.longest_streak) == (0, 3)
    tower = next(line for line in stats.games if line.game == "tower-of-babel")
    assert (tower.plays, tower.wins, tower.best, tower.worst, tower.average) == (5, 4, 50, 10, 30.0)
    babel_on = next(line for line in stats.games if line.game == "babel-on")
    assert (babel_on.plays, babel_on.wins, babel_on.best, babel_on.average) == (1, 0, None, None)
    assert stats.last_played.date() == datetime.date(2026, 3, 11)
    assert [o.name for o in stats.regular_opponents] == ["Bruno", "Chiara"]


def test_the_rating_is_shown_only_after_the_minimum_of_plays(night, players):
    for day in range(MIN_RATED_PLAYS - 1):
        counted(night, players[:3], [30, 20, 10], days=day)
    assert selectors.player_statistics(players[0]).rating is None
    counted(night, players[:3], [30, 20, 10], days=MIN_RATED_PLAYS)
    stats = selectors.player_statistics(players[0])
    assert stats.rating is not None
    assert stats.rating > 0
    assert stats.games[0].rating is not None
    assert len(stats.history) == MIN_RATED_PLAYS
    assert stats.history[-1].overall == pytest.approx(stats.rating, abs=0.01)


def test_rival_and_nemesis_are_named_only_after_three_shared_plays(night, players):
    ada, bruno, chiara, _dieter = players
    counted(night, [ada, bruno, chiara], [1, 30, 20], days=0)
    counted(night, [ada, bruno, chiara], [25, 30, 20], days=1)
    stats = selectors.player_statistics(ada)
    assert stats.rival is None
    assert stats.nemesis is None
    counted(night, [ada, bruno, chiara], [1, 30, 20], days=2)
    stats = selectors.player_statistics(ada)
    assert stats.nemesis is not None
    assert stats.nemesis.name == "Bruno"
    assert stats.rival is not None
    assert stats.rival.name == "Chiara"


def test_the_game_page_reads_winning_scores_distribution_seats_and_points_by_source(night, players):
    session = play(night, players[:3], [40, 30, 20])
    for result in session.results.all():
        result.breakdown = {"wonders": result.score - 5, "rejected": 2, "discs": 3, "action_cards": 0}
        result.save(update_fields=["breakdown"])
    tasks.update_statistics(session.pk)
    counted(night, players[:3], [10, 50, 20], days=1)
    view = selectors.game_statistics(night.group, "tower-of-babel")
    assert (view.plays, view.average_winning_score, view.best_winning_score) == (2, 45.0, 50)
    assert view.scores == [(10, 1), (20, 2), (30, 1), (40, 1), (50, 1)]
    assert [(s.seat, s.plays, s.wins) for s in view.seats] == [(0, 2, 1), (1, 2, 1), (2, 2, 0)]
    # No point from action cards: played without them (TB-10), so the source is left out.
    assert view.breakdown == [("wonders", 25.0), ("rejected", 2.0), ("discs", 3.0)]


def test_a_game_without_sessions_has_empty_statistics(group):
    view = selectors.game_statistics(group, "babel-cubes")
    assert (view.plays, view.scores, view.seats, view.top) == (0, [], [], [])


def test_the_leaderboard_orders_by_rating_or_win_rate_with_a_minimum_of_plays(night, players):
    ada, bruno, chiara, dieter = players
    for day in range(MIN_RATED_PLAYS):
        counted(night, [ada, bruno, chiara], [30, 20, 10], days=day)
    counted(night, [dieter, ada], [1, 2], game="babel-on", days=8, places=True)
    rows = selectors.leaderboard(night.group)
    assert [r.name for r in rows] == ["Ada", "Bruno", "Chiara", "Dieter"]
    assert rows[-1].rating is None  # one play: not rated yet
    by_rate = selectors.leaderboard(night.group, order="win_rate")
    assert [r.name for r in by_rate] == ["Dieter", "Ada", "Bruno", "Chiara"]
    assert [r.name for r in selectors.leaderboard(night.group, min_plays=2)] == ["Ada", "Bruno", "Chiara"]
    tower = selectors.leaderboard(night.group, game="babel-on")
    assert [(r.name, r.plays, r.wins) for r in tower] == [("Dieter", 1, 1), ("Ada", 1, 0)]  # unrated: by wins


def test_the_period_filters_count_only_the_plays_of_this_month_or_year(night, players):
    now = timezone.now()
    old = counted(night, players[:3], [30, 20, 10])
    old.finished_at = now.replace(year=now.year - 1)
    old.save(update_fields=["finished_at"])
    recent = play(night, players[:3], [10, 20, 30])
    recent.finished_at = now
    recent.save(update_fields=["finished_at"])
    tasks.rebuild_statistics()  # the moved dates: count everything again
    assert {r.name: r.plays for r in selectors.leaderboard(night.group)} == {"Ada": 2, "Bruno": 2, "Chiara": 2}
    this_year = selectors.leaderboard(night.group, period="year")
    assert {r.name: (r.plays, r.wins) for r in this_year} == {"Ada": (1, 0), "Bruno": (1, 0), "Chiara": (1, 1)}
    assert next(r.name for r in selectors.leaderboard(night.group, period="month", order="win_rate")) == "Chiara"


def test_results_of_other_groups_do_not_count(night, players, owner):
    from sessions import services

    counted(night, players[:3], [30, 20, 10])
    other = services.create_group(owner=owner, name="Other table")
    other_players = [services.create_player(group=other, name=n) for n in ["Ada", "Eve", "Finn"]]
    other_night = services.create_night(group=other, date=datetime.date(2026, 11, 20))
    counted(other_night, other_players, [1, 2, 3])
    assert [r.name for r in selectors.leaderboard(night.group)] == ["Ada", "Bruno", "Chiara"]
    assert selectors.game_statistics(night.group, "tower-of-babel").plays == 1
    assert Result.objects.count() == 6


def test_each_length_of_the_head_to_head_list_is_the_start_of_the_whole_ranking(night, group, players):
    """The database names only the opponents that can be listed (``selectors._opponents``):
    whatever the length asked, with ties at its end, the list is the whole ranking's start."""
    ada = players[0]
    guests = [services.create_player(group=group, name=f"Guest {n}") for n in "FEDCBA"]
    for day in range(8):  # Guests F and E share four plays with Ada, the other four two each
        table = [ada, guests[day % 6], guests[(day * 5 + 1) % 6]]
        counted(night, table, [[30, 20, 10], [10, 30, 20], [20, 10, 30]][day % 3], days=day)
    whole = selectors.player_statistics(ada, opponents=100)
    ranking = [(o.name, o.shared, o.wins, o.losses) for o in whole.opponents]
    assert [shared for _name, shared, _wins, _losses in ranking] == [4, 4, 2, 2, 2, 2]
    for shown in range(8):
        stats = selectors.player_statistics(ada, opponents=shown)
        assert [(o.name, o.shared, o.wins, o.losses) for o in stats.opponents] == ranking[:shown]
        assert stats.opponent_count == 6
        assert (stats.rival, stats.nemesis) == (whole.rival, whole.nemesis)


def test_head_to_head_keeps_the_most_shared_opponents_and_counts_them_all(night, group, players):
    ada, bruno, chiara, dieter = players
    others = [services.create_player(group=group, name=f"Guest {n:02d}") for n in range(34)]
    for pair in range(0, 34, 2):  # Ada meets each guest once
        counted(night, [ada, others[pair], others[pair + 1]], [30, 20, 10], days=pair)
    for day in range(4):  # and Bruno, Chiara, Dieter four times each, Chiara winning them all
        counted(night, [chiara, ada, bruno, dieter], [40, 30, 20, 10], days=40 + day)
    stats = selectors.player_statistics(ada, opponents=30)
    assert stats.opponent_count == 37
    assert len(stats.opponents) == 30
    assert [o.name for o in stats.opponents[:4]] == ["Bruno", "Chiara", "Dieter", "Guest 00"]
    assert [o.name for o in stats.regular_opponents] == ["Bruno", "Chiara", "Dieter", "Guest 00", "Guest 01"]
    assert by_name(stats)["Chiara"] == (4, 0, 4, 0)
    assert stats.nemesis is not None
    assert stats.nemesis.name == "Chiara"
    fewer = selectors.player_statistics(ada, opponents=2)  # a rival or nemesis is looked for past the list
    assert [o.name for o in fewer.opponents] == ["Bruno", "Chiara"]
    assert fewer.nemesis is not None
    assert fewer.nemesis.name == "Chiara"
    assert fewer.rival is not None
    assert stats.rival is not None
    assert fewer.rival.name == stats.rival.name == "Bruno"
