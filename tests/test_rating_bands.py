"""Each rating with its band (issue 44, point 5): mu ± 2 sigma, where the skill likely lies,
beside the cautious rating (mu - 3 sigma) on the leaderboard, the player's and the game's
pages and in the statistics API, and neither before MIN_RATED_PLAYS plays."""

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from sessions import tasks
from sessions.models import PlayerRating
from sessions.statistics import selectors as statistics
from sessions.statistics.bands import shown_band
from sessions.statistics.ratings import MIN_RATED_PLAYS, OVERALL
from tests.test_statistics import play


@pytest.fixture
def played(night, players):
    """Ada, Bruno and Chiara have MIN_RATED_PLAYS games; Dieter joined for one."""
    ada, bruno, chiara, dieter = players
    for day in range(MIN_RATED_PLAYS):
        tasks.update_statistics(play(night, [ada, bruno, chiara], [30, 20 + day, 25], days=day).pk)
    tasks.update_statistics(play(night, [ada, dieter, chiara], [10, 30, 20], days=9).pk)
    return night.group


def stored(player, game=OVERALL):
    row = PlayerRating.objects.get(player=player, game=game)
    return row.mu, row.sigma


def test_it_gives_each_shown_rating_the_band_of_two_sigmas_around_mu(played, players, django_assert_max_num_queries):
    with django_assert_max_num_queries(1):  # the band costs no query
        rows = {row.name: row for row in statistics.leaderboard(played)}
    mu, sigma = stored(players[0])
    assert (rows["Ada"].band.low, rows["Ada"].band.high) == (round(mu - 2 * sigma, 2), round(mu + 2 * sigma, 2))
    assert rows["Ada"].band.low > rows["Ada"].rating  # the cautious rating sits below the band
    assert rows["Dieter"].rating is None  # one game: neither yet
    assert rows["Dieter"].band is None


def test_the_band_narrows_as_a_player_plays():
    assert shown_band(25.0, 8.0, MIN_RATED_PLAYS - 1) is None
    wide, narrow = shown_band(25.0, 8.0, MIN_RATED_PLAYS), shown_band(25.0, 3.0, 40)
    assert (wide.low, wide.high, narrow.low, narrow.high) == (9.0, 41.0, 19.0, 31.0)


def test_the_pages_show_the_band_under_each_rating_with_words_for_screen_readers(member_client, played, players):
    mu, sigma = stored(players[0], "tower-of-babel")
    words = f"skill likely between {round(mu - 2 * sigma)} and {round(mu + 2 * sigma)}"
    pages = {
        "leaderboard": member_client.get(f"/g/{played.pk}/leaderboard/?game=tower-of-babel").content.decode(),
        "player": member_client.get(f"/p/{players[0].pk}/statistics/").content.decode(),
        "game": member_client.get(f"/g/{played.pk}/games/tower-of-babel/").content.decode(),
    }
    for name, page in pages.items():
        assert words in page, name
        assert f"{round(mu - 2 * sigma)}\u2013{round(mu + 2 * sigma)}" in page, name  # the numbers, with an en dash
    # Ada, Bruno and Chiara are rated in the game, Dieter not yet.
    assert pages["leaderboard"].count('data-testid="rating-band"') == 3


def test_the_api_sends_the_band_with_each_rating(member, played, players):
    client = APIClient()
    client.force_authenticate(member)
    mu, sigma = stored(players[0])
    game_mu, game_sigma = stored(players[0], "tower-of-babel")
    band = {"low": round(mu - 2 * sigma, 2), "high": round(mu + 2 * sigma, 2)}
    game_band = {"low": round(game_mu - 2 * game_sigma, 2), "high": round(game_mu + 2 * game_sigma, 2)}
    leaderboard = client.get(reverse("api-leaderboard", args=[played.pk])).json()["rows"]
    assert {row["name"]: row["rating_band"] for row in leaderboard}["Ada"] == band
    assert {row["name"]: row["rating_band"] for row in leaderboard}["Dieter"] is None
    player = client.get(reverse("api-player-statistics", args=[players[0].pk])).json()
    assert player["rating_band"] == band
    assert player["games"][0]["rating_band"] == game_band
    top = client.get(reverse("api-game-statistics", args=[played.pk, "tower-of-babel"])).json()["top"]
    assert {row["name"]: row["rating_band"] for row in top}["Ada"] == game_band
