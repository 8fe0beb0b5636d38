"""The statistics pages speak a player's words: no formulas, no parts of a game the group never
played, empty states as sentences, and counts with the right plural."""

import re

import pytest
from django.urls import reverse

from sessions import tasks
from sessions.models import Result
from sessions.statistics.ratings import MIN_RATED_PLAYS
from tests.test_statistics import play
from tests.test_statistics_pages import cards

JARGON = re.compile(r"\bmu\b|sigma|ordinal|conservative|openskill", re.I)


def visible_text(page):
    """The page's text as a reader sees it: tags, and the language names of the footer's form, left out."""
    main = page.split("<main", 1)[1].split("</main>", 1)[0]
    return re.sub(r"<[^>]+>", " ", main)


@pytest.fixture
def rated(night, players):
    for day in range(MIN_RATED_PLAYS):
        tasks.update_statistics(play(night, players[:3], [30, 20, 10], days=day).pk)
    return night.group


def test_no_page_explains_the_rating_with_a_formula(member_client, rated, players):
    for url in (
        reverse("leaderboard", args=[rated.pk]),
        reverse("player_statistics", args=[players[0].pk]),
        reverse("game_statistics", args=[rated.pk, "tower-of-babel"]),
    ):
        page = member_client.get(url).content.decode()
        assert not JARGON.search(visible_text(page)), url
        assert "How ratings work" in page


def test_the_leaderboard_caption_says_what_the_rating_is_in_words(member_client, rated):
    page = member_client.get(reverse("leaderboard", args=[rated.pk])).content.decode()
    assert (
        f"Rating: a cautious estimate of skill that grows as you play, shown after {MIN_RATED_PLAYS} rated games."
        in page
    )


def test_counts_of_games_read_as_games(member_client, rated, players):
    game = member_client.get(reverse("game_statistics", args=[rated.pk, "tower-of-babel"])).content.decode()
    assert f'<small class="muted">{MIN_RATED_PLAYS} games</small>' in game  # best rated
    page = member_client.get(reverse("player_statistics", args=[players[3].pk])).content.decode()
    assert "No games counted yet." in page  # Dieter has not played


def test_a_game_nobody_played_says_so_and_shows_no_empty_tables(member_client, rated):
    page = member_client.get(reverse("game_statistics", args=[rated.pk, "babel-on"])).content.decode()
    assert "No games of Babel On! yet." in page
    for empty in ("<dt>Plays</dt>", "Best rated", "Wins by seat", "Score distribution"):
        assert empty not in page


def points_by_source(client, group, game):
    page = client.get(reverse("game_statistics", args=[group.pk, game])).content.decode()
    return dict(re.findall(r'<th scope="row">([^<]+)</th><td>([^<]+)</td>', page))


def test_the_points_by_source_leave_out_the_modules_nobody_scored_from(member_client, night, players):
    session = play(night, players[:3], [40, 30, 20], game="seven-wonders")
    columns = {"military": 5, "treasury": 3, "civilian": 10, "leaders": 0, "cities": 0, "babel_tiles": 0}
    Result.objects.filter(session=session).update(breakdown={**columns, "great_projects": 0, "guilds": 0})
    tasks.update_statistics(session.pk)
    sources = points_by_source(member_client, night.group, "seven-wonders")
    assert sources["Military"] == "5.0"
    assert sources["Guilds"] == "0.0"  # a part of every game: shown even at 0
    for module in ("Leaders", "Cities", "Babel tiles", "Great Projects"):
        assert module not in sources

    Result.objects.filter(session=session).update(breakdown={**columns, "leaders": 4})
    tasks.rebuild_statistics()
    sources = points_by_source(member_client, night.group, "seven-wonders")
    assert sources["Leaders"] == "4.0"
    assert "Cities" not in sources


def test_tower_of_babel_played_without_action_cards_shows_no_action_cards(member_client, night, players):
    session = play(night, players[:3], [40, 30, 20])
    Result.objects.filter(session=session).update(breakdown={"wonders": 20, "discs": 5, "action_cards": 0})
    tasks.update_statistics(session.pk)
    sources = points_by_source(member_client, night.group, "tower-of-babel")
    assert sources["Wonders"] == "20.0"
    assert "Action cards" not in sources


def test_an_empty_play_log_is_a_sentence_not_a_numbered_list(member_client, group):
    for url in (reverse("play_log", args=[group.pk]), reverse("group", args=[group.pk])):
        page = member_client.get(url).content.decode()
        assert '<p class="muted">No games finished yet.</p>' in page
        assert '<ol class="log">' not in page


def test_counts_take_the_singular_for_one(member_client, night, players):
    ada, bruno, chiara, _dieter = players
    tasks.update_statistics(play(night, [ada, bruno, chiara], [30, 20, 10]).pk)
    page = member_client.get(reverse("player_statistics", args=[ada.pk])).content.decode()
    assert "Ada: 1 win in 1 game." in page  # the wins chart's summary
    assert "(1 game together)" in page  # regular opponents
    for day in (1, 2):
        tasks.update_statistics(play(night, [ada, bruno, chiara], [10, 30, 20], days=day).pk)
    page = member_client.get(reverse("player_statistics", args=[ada.pk])).content.decode()
    assert "Ada: 1 win in 3 games." in page
    assert cards(page)["Nemesis"] == ("Bruno", "beat Ada 2 times in 3 games")
    assert "(3 games together)" in page
