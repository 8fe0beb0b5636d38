"""The public 7 Wonders calculators, as the contract in shared/api/calculators.md says."""

import pytest
from rest_framework.test import APIClient

SCORE = "/api/v1/calculators/seven-wonders/score"
PROJECT = "/api/v1/calculators/seven-wonders/great-project"

ADA = {
    "name": "Ada", "military": 9, "coins": 10, "wonder": 10, "civilian": 12,
    "science": {"tablet": 3, "compass": 2, "gear": 1, "wild": 1, "archives": 0},
    "commercial": 4, "guilds": 6, "leaders": 0, "cities": 0, "babel_tiles": 2, "great_projects": -2,
}  # fmt: skip


@pytest.fixture
def api():
    return APIClient()


def test_the_contract_example_of_a_sheet(api):  # SW-12, SW-13
    body = api.post(SCORE, {"players": [ADA]}, format="json").json()
    player = body["players"][0]
    assert player["columns"] == {
        "military": 9, "treasury": 3, "wonder": 10, "civilian": 12, "science": 31, "commercial": 4,
        "guilds": 6, "leaders": 0, "cities": 0, "babel_tiles": 5, "great_projects": -2,
    }  # fmt: skip
    assert (player["total"], player["rank"]) == (78, 1)
    assert body["winners"] == ["Ada"]


def test_ranks_use_the_coin_tiebreak_and_share_exact_ties(api):  # SW-14
    players = [
        {"name": "a", "coins": 3, "civilian": 10},
        {"name": "b", "coins": 3, "civilian": 10},
        {"name": "c", "coins": 9, "civilian": 7},
        {"name": "d", "coins": 0, "civilian": 9},
        {"name": "e", "coins": 2, "civilian": 10},
    ]
    body = api.post(SCORE, {"players": players}, format="json").json()
    ranks = [(p["name"], p["total"], p["rank"]) for p in body["players"]]
    assert ranks == [("a", 11, 1), ("b", 11, 1), ("c", 10, 3), ("d", 9, 5), ("e", 10, 4)]
    assert body["winners"] == ["a", "b"]


def test_only_name_and_coins_are_required(api):
    body = api.post(SCORE, {"players": [{"name": "Bo", "coins": 2}]}, format="json").json()
    assert body["players"][0]["total"] == 0


@pytest.mark.parametrize(
    ("players", "field", "rule"),
    [
        ([{"name": "Bo"}], "players[0].coins", None),
        ([{"coins": 1}], "players[0].name", None),
        ([{"name": "Bo", "coins": 1, "babel_tiles": 4}], "players[0].babel_tiles", "SW-8"),
        ([{"name": "Bo", "coins": 1, "science": {"gear": -1}}], "players[0].science.gear", None),
        ([{"name": "Bo", "coins": 1, "wonder": "ten"}], "players[0].wonder", None),
        ([{"name": "Bo", "coins": 1}, {"name": "Bo", "coins": 2}], "players[1].name", None),
        ([], "players", None),
    ],
)
def test_bad_sheets_answer_400_naming_the_field(api, players, field, rule):
    response = api.post(SCORE, {"players": players}, format="json")
    assert response.status_code == 400
    error = response.json()["errors"][0]
    assert (error["field"], error["rule"]) == (field, rule)


def test_the_contract_example_of_a_great_project(api):  # SW-10
    body = {
        "project": "river-port",
        "players": [{"name": "Ada", "markers": 2}, {"name": "Bo", "markers": 0, "can_suffer_penalty": False}],
        "markers_left": 0,
        "age": 2,
    }
    answer = api.post(PROJECT, body, format="json").json()
    assert answer["success"] is True
    assert answer["results"] == [
        {"name": "Ada", "outcome": "reward", "times": 2},
        {"name": "Bo", "outcome": "none", "times": 0},
    ]


def test_a_failed_project_gives_penalties_and_tokens(api):  # SW-10
    body = {
        "project": "river-port",
        "players": [
            {"name": "Ada", "markers": 1},
            {"name": "Bo", "markers": 0},
            {"name": "Cy", "markers": 0, "can_suffer_penalty": False},
        ],
        "markers_left": 1,
        "age": 2,
    }
    answer = api.post(PROJECT, body, format="json").json()
    assert answer["success"] is False
    assert answer["results"] == [
        {"name": "Ada", "outcome": "none", "times": 0},
        {"name": "Bo", "outcome": "penalty", "times": 1},
        {"name": "Cy", "outcome": "penalty_token", "times": 1, "vp": -2},
    ]


@pytest.mark.parametrize(
    ("change", "field", "rule"),
    [
        ({"project": "moon-base"}, "project", "SW-11"),
        ({"age": 3}, "age", "SW-3"),
        ({"age": 4}, "age", None),
        ({"markers_left": -1}, "markers_left", None),
        ({"players": [{"name": "Ada"}]}, "players[0].markers", None),
        ({"players": [{"name": "Ada", "markers": 1}, {"name": "Ada", "markers": 0}]}, "players[1].name", None),
    ],
)
def test_bad_projects_answer_400_naming_the_field(api, change, field, rule):
    body = {"project": "river-port", "players": [{"name": "Ada", "markers": 2}], "markers_left": 0, "age": 2} | change
    response = api.post(PROJECT, body, format="json")
    assert response.status_code == 400
    error = response.json()["errors"][0]
    assert (error["field"], error["rule"]) == (field, rule)


def test_sw_10_no_marker_left_while_nobody_holds_one_is_refused_naming_the_field(api):
    body = {
        "project": "river-port",
        "players": [{"name": "Ada", "markers": 0}, {"name": "Bo", "markers": 0}],
        "markers_left": 0,
        "age": 2,
    }
    response = api.post(PROJECT, body, format="json")
    assert response.status_code == 400
    error = response.json()["errors"][0]
    assert (error["field"], error["rule"]) == ("markers_left", "SW-10")
