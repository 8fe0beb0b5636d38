"""The statistics API: player, game and leaderboard, with the pages' per-group isolation."""

import datetime

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from sessions import tasks
from sessions.api import statistics as statistics_api
from sessions.api.statistics import HistoryOut, HistoryPointOut
from sessions.statistics.ratings import MIN_RATED_PLAYS
from sessions.statistics.selectors import HistoryPoint
from tests.test_statistics import play


def api(user):
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


@pytest.fixture
def played(night, players):
    ada, bruno, chiara, _dieter = players
    for day in range(MIN_RATED_PLAYS):
        tasks.update_statistics(play(night, [ada, bruno, chiara], [30, 20, 10 + day], days=day).pk)
    return night.group


def endpoints(group, player):
    return [
        reverse("api-player-statistics", args=[player.pk]),
        reverse("api-game-statistics", args=[group.pk, "tower-of-babel"]),
        reverse("api-leaderboard", args=[group.pk]),
        reverse("api-player-rating-history", args=[player.pk, 2026]),
    ]


def test_player_statistics_give_figures_per_game_opponents_and_the_rating_history(member, played, players):
    body = api(member).get(reverse("api-player-statistics", args=[players[0].pk])).json()
    assert (body["name"], body["plays"], body["wins"], body["win_rate"]) == ("Ada", 5, 5, 1.0)
    assert (body["current_streak"], body["longest_streak"], body["min_rated_plays"]) == (5, 5, MIN_RATED_PLAYS)
    assert body["rating"] > 0
    assert body["games"][0] | {"rating": None, "rating_band": None} == {
        "game": "tower-of-babel",
        "name": "Tower of Babel",
        "plays": 5,
        "wins": 5,
        "win_rate": 1.0,
        "best": 30,
        "average": 30.0,
        "worst": 30,
        "rating": None,
        "rating_band": None,
        "rated_plays": 5,
    }
    assert [o["name"] for o in body["head_to_head"]] == ["Bruno", "Chiara"]
    assert body["head_to_head"][0] == {
        "player": players[1].pk,
        "name": "Bruno",
        "shared": 5,
        "wins": 5,
        "losses": 0,
        "draws": 0,
    }
    assert body["rival"]["name"] == "Bruno"
    assert body["nemesis"] is None
    assert len(body["history"]) == 5
    assert set(body["history"][0]) == {"played_at", "game", "rating", "overall"}


def test_player_statistics_send_the_latest_points_of_the_rating_history_and_the_years_that_hold_the_rest(
    member, night, players, monkeypatch
):
    ada, bruno, chiara, _dieter = players
    for day in (0, 100, 400, 500, 800, 900, 950):  # 2026, 2027 and 2028
        tasks.update_statistics(play(night, [ada, bruno, chiara], [30, 20, 10], days=day).pk)
    monkeypatch.setattr(statistics_api, "HISTORY_SHOWN", 4)
    client = api(member)
    body = client.get(reverse("api-player-statistics", args=[ada.pk])).json()
    assert body["history_years"] == [2026, 2027, 2028]
    years = [
        client.get(reverse("api-player-rating-history", args=[ada.pk, year])).json() for year in (2026, 2027, 2028)
    ]
    assert [len(year["points"]) for year in years] == [2, 2, 3]
    assert {tuple(year["years"]) for year in years} == {(2026, 2027, 2028)}
    whole = [point for year in years for point in year["points"]]
    assert len(whole) == body["rated_plays"] == 7
    assert [point["played_at"] for point in whole] == sorted(point["played_at"] for point in whole)
    assert body["history"] == whole[-4:]  # two years hold the latest four: the oldest is not read
    monkeypatch.setattr(statistics_api, "HISTORY_SHOWN", 6)
    assert client.get(reverse("api-player-statistics", args=[ada.pk])).json()["history"] == whole[-6:]


def test_a_year_without_rating_history_is_not_found(member, played, players):
    assert api(member).get(reverse("api-player-rating-history", args=[players[0].pk, 2025])).status_code == 404


def test_game_statistics_give_plays_winning_scores_distribution_and_seats(member, played):
    body = api(member).get(reverse("api-game-statistics", args=[played.pk, "tower-of-babel"])).json()
    assert (body["plays"], body["average_winning_score"], body["best_winning_score"]) == (5, 30.0, 30)
    assert {"score": 20, "count": 5} in body["scores"]
    assert body["seats"][0] == {"seat": 0, "plays": 5, "wins": 5, "win_rate": 1.0}
    assert body["breakdown"] == []
    assert [t["name"] for t in body["top"]] == ["Ada", "Bruno", "Chiara"]


def test_the_leaderboard_takes_its_filters_from_the_query(member, played):
    url = reverse("api-leaderboard", args=[played.pk])
    body = api(member).get(url, {"order": "win_rate", "period": "year", "min_plays": 1}).json()
    assert (body["order"], body["period"], body["min_plays"], body["game"]) == ("win_rate", "year", 1, "")
    assert [row["name"] for row in api(member).get(url).json()["rows"]] == ["Ada", "Bruno", "Chiara"]
    assert api(member).get(url, {"min_plays": 6}).json()["rows"] == []
    assert api(member).get(url, {"game": "babel-on"}).json()["rows"] == []


def test_a_wrong_filter_is_refused_naming_the_field(member, played):
    response = api(member).get(reverse("api-leaderboard", args=[played.pk]), {"period": "decade"})
    assert response.status_code == 400
    assert "period" in str(response.json())


def test_an_unknown_game_is_not_found(member, played):
    assert api(member).get(reverse("api-game-statistics", args=[played.pk, "chess"])).status_code == 404


def test_owner_and_member_read_outsiders_get_not_found_and_visitors_must_log_in(
    owner, member, outsider, played, players
):
    for url in endpoints(played, players[0]):
        assert api(owner).get(url).status_code == 200
        assert api(member).get(url).status_code == 200
        assert api(outsider).get(url).status_code == 404
        assert api(None).get(url).status_code in (401, 403)


def test_the_endpoints_are_in_the_openapi_schema_with_their_fields(member):
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    paths = schema["paths"]
    assert "/api/v1/players/{player_id}/statistics/" in paths
    assert "/api/v1/groups/{group_id}/leaderboard/" in paths
    assert "/api/v1/groups/{group_id}/games/{game}/statistics/" in paths
    components = schema["components"]["schemas"]
    assert {"rating", "history", "head_to_head", "rival"} <= set(components["PlayerStatisticsOut"]["properties"])
    assert {"rows", "period"} <= set(components["LeaderboardOut"]["properties"])


def test_the_leaderboard_sends_its_first_rows_and_says_how_many_players_it_has(member, played):
    url = reverse("api-leaderboard", args=[played.pk])
    body = api(member).get(url, {"limit": 2}).json()
    assert (body["limit"], body["players"]) == (2, 3)
    assert [row["name"] for row in body["rows"]] == ["Ada", "Bruno"]
    assert api(member).get(url).json()["limit"] == 50
    refused = api(member).get(url, {"limit": 201})
    assert refused.status_code == 400
    assert "limit" in str(refused.json())


ONE_HOUR_EAST = datetime.timezone(datetime.timedelta(hours=1))


def test_the_rating_history_is_written_as_its_schema_says() -> None:
    points = [
        HistoryPoint(datetime.datetime(2026, 3, 11, 20, 0, tzinfo=datetime.UTC), "babel-on", 1.5, -2.25),
        HistoryPoint(
            datetime.datetime(2026, 3, 12, 21, 5, 7, 123456, tzinfo=ONE_HOUR_EAST), "tower-of-babel", 0.0, 3.0
        ),
    ]
    assert HistoryOut().to_representation(points) == HistoryPointOut(points, many=True).data
