"""The leaderboard by rating: rated players first, the others by wins, and the page says so."""

import pytest
from django.urls import reverse

from sessions import services, tasks
from sessions.statistics import selectors
from sessions.statistics.ratings import MIN_RATED_PLAYS
from tests.test_statistics import play


@pytest.fixture
def eve(group):
    return services.create_player(group=group, name="Eve")


def counted(night, players, scores, days):
    tasks.update_statistics(play(night, players, scores, days=days).pk)


@pytest.fixture
def nobody_rated(night, players, eve):
    """Ada plays most and never wins; Bruno wins twice, Chiara once in three, Dieter once in one."""
    ada, bruno, chiara, dieter = players
    counted(night, [ada, bruno, chiara], [10, 30, 20], days=0)
    counted(night, [ada, bruno, chiara], [10, 20, 30], days=1)
    counted(night, [ada, dieter, eve], [20, 30, 10], days=2)
    counted(night, [ada, bruno, chiara], [10, 30, 20], days=3)
    return night.group


def test_before_any_rating_players_are_ordered_by_wins_then_win_rate_then_plays(nobody_rated):
    rows = selectors.leaderboard(nobody_rated)
    assert all(row.rating is None for row in rows)
    # Dieter and Chiara have a win each: Dieter's in one game comes first. Ada and Eve have
    # none: Ada, who played more, comes first.
    assert [(row.name, row.wins, row.plays) for row in rows] == [
        ("Bruno", 2, 3),
        ("Dieter", 1, 1),
        ("Chiara", 1, 3),
        ("Ada", 0, 4),
        ("Eve", 0, 1),
    ]


def test_the_page_says_why_players_are_ordered_by_wins_before_any_rating(member_client, nobody_rated):
    page = member_client.get(reverse("leaderboard", args=[nobody_rated.pk])).content.decode()
    assert f"Ratings show after {MIN_RATED_PLAYS} games; until then, players are ordered by wins." in page
    names = ["Bruno", "Dieter", "Chiara", "Ada", "Eve"]
    assert sorted(names, key=lambda name: page.index(f">{name}</a>")) == names


def test_rated_players_come_first_by_rating_then_the_others_by_wins(member_client, night, players, eve):
    ada, bruno, chiara, dieter = players
    for day in range(MIN_RATED_PLAYS):
        counted(night, [ada, bruno, chiara], [10, 20, 30], days=day)
    counted(night, [ada, dieter, eve], [20, 10, 30], days=MIN_RATED_PLAYS)  # Eve wins her only game
    rows = selectors.leaderboard(night.group)
    rated = [row.rating for row in rows[:3]]
    assert None not in rated
    assert rated == sorted(rated, reverse=True)
    assert {row.name for row in rows[:3]} == {"Ada", "Bruno", "Chiara"}
    assert [row.name for row in rows[3:]] == ["Eve", "Dieter"]
    page = member_client.get(reverse("leaderboard", args=[night.group.pk])).content.decode()
    assert "Players without a rating yet come after the rated ones, ordered by wins." in page
    assert "until then, players are ordered by wins" not in page


def test_when_everyone_is_rated_the_page_has_nothing_to_explain(member_client, night, players):
    for day in range(MIN_RATED_PLAYS):
        counted(night, players[:3], [10, 20, 30], days=day)
    page = member_client.get(reverse("leaderboard", args=[night.group.pk])).content.decode()
    assert "ordered by wins" not in page
    assert 'data-testid="leaderboard-order"' not in page


def test_the_win_rate_order_is_unchanged(nobody_rated):
    rows = selectors.leaderboard(nobody_rated, order="win_rate")
    assert [row.name for row in rows] == ["Dieter", "Bruno", "Chiara", "Ada", "Eve"]
