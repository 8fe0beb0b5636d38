"""The statistics pages: player, game and leaderboard, with their charts, for members only."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from bench.statistics import generate
from sessions import tasks
from sessions.models import RatingHistory, Result
from sessions.statistics import services as statistics
from sessions.statistics.selectors import leaderboard
from tests.test_statistics import play


@pytest.fixture
def played(night, players):
    """Ada wins twice then loses, against Bruno and Chiara; Dieter beats Ada at Babel On!."""
    ada, bruno, chiara, dieter = players
    for day, scores in enumerate([[40, 30, 20], [35, 30, 32], [10, 30, 20]]):
        tasks.update_statistics(play(night, [ada, bruno, chiara], scores, days=day).pk)
    tasks.update_statistics(play(night, [ada, dieter], [2, 1], game="babel-on", days=4, places=True).pk)
    return night.group


CARD = re.compile(
    r'<li class="stat-card" data-card="[\w-]+">\s*<span class="stat-label">([^<]+)</span>\s*'
    r'<span class="stat-figure[^"]*">(?:<a [^>]*>)?([^<]*)(?:</a>)?</span>\s*'
    r'(?:<span class="stat-context">([^<]*)</span>)?'
)


def cards(page):
    """The overview cards of a page: {label: (figure, context)}."""
    return {label: (figure, context) for label, figure, context in CARD.findall(page)}


def figures(page):
    """The overview cards' figures: {label: figure}."""
    return {label: figure for label, (figure, _context) in cards(page).items()}


def urls(group, player):
    return [
        reverse("player_statistics", args=[player.pk]),
        reverse("game_statistics", args=[group.pk, "tower-of-babel"]),
        reverse("leaderboard", args=[group.pk]),
    ]


def test_the_player_page_shows_plays_wins_streaks_scores_and_head_to_head(member_client, played, players):
    page = member_client.get(reverse("player_statistics", args=[players[0].pk])).content.decode()
    shown = figures(page)
    assert shown["Plays"] == "4"
    assert shown["Wins"] == "2"
    assert shown["Win rate"] == "50%"
    assert shown["Current win streak"] == "0"
    assert shown["Longest win streak"] == "2"
    assert "<td>40</td><td>28.3</td><td>10</td>" in page  # best, average, worst in Tower of Babel
    assert re.search(r">Bruno</a></th>\s*<td>3</td><td>2</td><td>1</td><td>0</td>", page)
    # 3 shared plays, as many as with Chiara and as close to even: first by name. Dieter,
    # met once, is no rival.
    assert cards(page)["Rival"] == ("Bruno", "met most often: 3 games together, 2 wins, 1 loss")
    assert "Dieter" in page


def test_the_charts_are_described_with_their_figures_as_a_table_and_drawn_from_data(member_client, played, players):
    # Drawn by Chart.js in the browser (tests/test_charts.py, tests/browser/test_statistics_charts.py).
    page = member_client.get(reverse("player_statistics", args=[players[0].pk])).content.decode()
    assert '<script id="wins-by-game-data" type="application/json">' in page
    assert '<figcaption id="wins-by-game-summary">' in page
    assert '<th scope="row">Tower of Babel</th><td>2</td>' in page  # wins by game, as a table too
    assert '<script id="rating-history-data"' not in page  # 4 plays: no rating shown, so no curve
    game = member_client.get(reverse("game_statistics", args=[played.pk, "tower-of-babel"])).content.decode()
    assert '<script id="score-distribution-data" type="application/json">' in game
    scripts = re.findall(r"<script[^>]*>", game.split("<main", 1)[1])
    assert all('type="application/json"' in script for script in scripts)  # data only, nothing run


def test_the_chart_texts_are_escaped(member_client, played, players):
    from sessions import services

    services.rename_player(player=players[0], name="<b>Ada</b>")
    page = member_client.get(reverse("player_statistics", args=[players[0].pk])).content.decode()
    assert "<b>Ada</b>" not in page
    assert "&lt;b&gt;Ada&lt;/b&gt;: 2 wins in 4 games." in page  # the wins chart's summary


def test_the_game_page_shows_winning_scores_seats_and_points_by_source(member_client, played):
    page = member_client.get(reverse("game_statistics", args=[played.pk, "tower-of-babel"])).content.decode()
    shown = cards(page)
    assert shown["Plays"][0] == "3"
    assert shown["Average winning score"] == ("35.0", "the best winning score: 40")
    assert "First player" in page
    assert "Average points by source" not in page  # scores typed in: no points by source

    Result.objects.filter(session__game="tower-of-babel").update(
        breakdown={"wonders": 12, "final_wonders": 3, "rejected": 4, "discs": 6, "action_cards": 1}
    )
    tasks.rebuild_statistics()
    page = member_client.get(reverse("game_statistics", args=[played.pk, "tower-of-babel"])).content.decode()
    assert '<th scope="row">Rejected offers</th><td>4.0</td>' in page
    assert '<th scope="row">Disc sets</th><td>6.0</td>' in page


def test_the_leaderboard_filters_by_game_period_minimum_and_order(member_client, played):
    url = reverse("leaderboard", args=[played.pk])
    page = member_client.get(url).content.decode()
    assert page.index(">Ada</a>") < page.index(">Dieter</a>")
    page = member_client.get(url, {"game": "babel-on", "order": "win_rate"}).content.decode()
    assert page.index(">Dieter</a>") < page.index(">Ada</a>")
    assert ">Bruno</a>" not in page
    page = member_client.get(url, {"min_plays": 4}).content.decode()
    assert ">Ada</a>" in page
    assert ">Bruno</a>" not in page
    page = member_client.get(url, {"period": "month", "min_plays": "nonsense"}).content.decode()
    assert "Leaderboard" in page  # an invalid filter falls back to the defaults


def test_an_unknown_game_is_not_found(member_client, played):
    assert member_client.get(reverse("game_statistics", args=[played.pk, "chess"])).status_code == 404


def test_outsiders_get_not_found_and_visitors_the_login(outsider_client, client, played, players):
    for url in urls(played, players[0]):
        assert outsider_client.get(url).status_code == 404
        response = client.get(url)
        assert response.status_code == 302
        assert "/login/" in response["Location"]


def test_owner_and_member_see_the_pages(owner_client, member_client, played, players):
    for url in urls(played, players[0]):
        assert owner_client.get(url).status_code == 200
        assert member_client.get(url).status_code == 200


def test_the_group_page_links_to_the_statistics(member_client, played, players):
    page = member_client.get(reverse("group", args=[played.pk])).content.decode()
    assert reverse("leaderboard", args=[played.pk]) in page
    assert reverse("player_statistics", args=[players[0].pk]) in page


def test_the_page_does_not_wait_for_the_task_and_shows_the_session_once_it_has_run(member_client, night, players):
    session = play(night, players[:3], [10, 20, 30])
    url = reverse("player_statistics", args=[players[2].pk])
    page = member_client.get(url).content.decode()
    assert "No games counted yet." in page  # the figures are the task's
    assert 'id="wins-by-game-data"' not in page
    tasks.update_statistics(session.pk)
    page = member_client.get(url).content.decode()
    assert figures(page)["Wins"] == "1"
    assert figures(page)["Current win streak"] == "1"
    assert 'id="wins-by-game-data"' in page


@pytest.mark.parametrize(("sessions", "people"), [(30, 6), (600, 40)])
def test_the_pages_and_the_api_use_at_most_ten_queries_whatever_the_size(
    member_client, group, sessions, people, django_assert_max_num_queries
):
    generate(group=group, players=people, sessions=sessions)
    statistics.rebuild_group(group_id=group.pk)
    player = group.players.order_by("pk").first()
    year = RatingHistory.objects.filter(player=player).order_by("year").values_list("year", flat=True).first()
    pages = [
        *urls(group, player),
        reverse("leaderboard", args=[group.pk]) + "?period=year&order=win_rate&min_plays=2&game=seven-wonders",
        reverse("api-player-statistics", args=[player.pk]),
        reverse("api-player-rating-history", args=[player.pk, year]),
        reverse("api-game-statistics", args=[group.pk, "seven-wonders"]),
        reverse("api-leaderboard", args=[group.pk]) + "?period=month",
    ]
    for url in pages:
        with django_assert_max_num_queries(10):
            assert member_client.get(url).status_code == 200


def test_a_player_s_page_reads_the_results_only_for_head_to_head(member_client, group):
    """The figures per game and the streaks come from the rating rows: only head to head sums
    the player's plays (one query), so the rest of the page costs the same however often the
    player has played."""
    generate(group=group, players=6, sessions=60)
    statistics.rebuild_group(group_id=group.pk)
    player = group.players.order_by("pk").first()
    for url in (reverse("player_statistics", args=[player.pk]), reverse("api-player-statistics", args=[player.pk])):
        with CaptureQueriesContext(connection) as queries:
            assert member_client.get(url).status_code == 200
        reading_results = [q["sql"] for q in queries if Result._meta.db_table in q["sql"]]
        assert len(reading_results) == 1
        assert "WITH pairs AS" in reading_results[0]


def test_long_lists_are_cut_on_the_page_and_say_how_many_more(member_client, group):
    generate(group=group, players=130, sessions=300)
    statistics.rebuild_group(group_id=group.pk)
    total = len(leaderboard(group))
    assert total > 100
    page = member_client.get(reverse("leaderboard", args=[group.pk])).content.decode()
    assert page.count('<th scope="row"><a href="/p/') == 100
    assert f"And {total - 100} more players" in page
