"""The public Babel On! calculator, as the contract in shared/api/calculators.md says."""

import pytest
from rest_framework.test import APIClient

from sessions.api.calculators import CalculatorThrottle

TOWER = "/api/v1/calculators/babel-on/tower"
MINE = ["red", "red", "blue", "green"]


@pytest.fixture
def api():
    return APIClient(enforce_csrf_checks=True)


def test_the_contract_example_is_neither_complete_nor_perfect_and_says_why_by_floor(api):  # BO-13
    body = {"players": 4, "color": "red", "floors": [MINE, ["red", "red", "blue", None]]}
    response = api.post(TOWER, body, format="json")
    assert response.status_code == 200
    result = response.json()
    assert (result["complete"], result["perfect"]) == (False, False)
    assert {f["rule"] for f in result["failures"]} == {"BO-13"}
    assert result["failures"][0] == {
        "rule": "BO-13",
        "floor": 2,
        "reason": "Floor 2 has 3 of 4 blocks.",
        "condition": "complete",
    }
    assert {(f["floor"], f["condition"]) for f in result["failures"]} >= {
        (3, "complete"),
        (3, "adjacent"),
        (6, "line_up"),
    }
    assert all(f["floor"] >= 2 for f in result["failures"])


def test_a_perfect_tower_has_no_failures(api):  # BO-13
    body = {"players": 2, "color": "red", "floors": [MINE] * 6}
    assert api.post(TOWER, body, format="json").json() == {"complete": True, "perfect": True, "failures": []}


def test_a_complete_tower_can_still_fail_the_colour_rules(api):  # BO-13
    floors = [MINE] * 5 + [["red", "blue", "green", "red"]]
    four = api.post(TOWER, {"players": 4, "color": "red", "floors": floors}, format="json").json()
    assert (four["complete"], four["perfect"]) == (True, False)
    assert [(f["floor"], f["condition"]) for f in four["failures"]] == [(6, "adjacent")]
    five = api.post(TOWER, {"players": 5, "color": "red", "floors": floors}, format="json").json()
    assert five == {"complete": True, "perfect": True, "failures": []}


@pytest.mark.parametrize(
    ("body", "field", "rule"),
    [
        ({"players": 7, "color": "red", "floors": []}, "players", "BO-1"),
        ({"players": 1, "color": "red", "floors": []}, "players", "BO-1"),
        ({"players": 4, "color": "red", "floors": [MINE] * 7}, "floors", "BO-7"),
        ({"players": 4, "color": "red", "floors": [MINE, ["red", "red"]]}, "floors[1]", "BO-7"),
        (
            {"players": 4, "color": "red", "floors": [["red", None, None, None], [None, "red", None, None]]},
            "floors[1][1]",
            "BO-7",
        ),
        (
            {
                "players": 4,
                "color": "red",
                "floors": [["red", "red", "red", None], ["red", None, None, None], ["red", None, None, None]],
            },
            "floors[2]",
            "BO-8",
        ),
        ({"players": "four", "color": "red", "floors": []}, "players", None),
        ({"players": 4, "color": "", "floors": []}, "color", None),
        ({"players": 4, "color": "red"}, "floors", None),
        ({"players": 4, "color": "red", "floors": [MINE, "red"]}, "floors[1]", None),
        ({"players": 4, "color": "red", "floors": [["red", "red", "red", {}]]}, "floors[0][3]", None),
    ],
)
def test_bad_input_answers_400_naming_the_field_and_rule(api, body, field, rule):  # BO-1, BO-7, BO-8
    response = api.post(TOWER, body, format="json")
    assert response.status_code == 400
    error = response.json()["errors"][0]
    assert (error["field"], error["rule"]) == (field, rule)
    assert error["message"]


def test_the_calculator_needs_no_account_and_only_takes_post(api):
    assert api.get(TOWER).status_code == 405
    assert api.post(TOWER, {"players": 2, "color": "red", "floors": []}, format="json").status_code == 200


def test_anonymous_calls_are_throttled(api, monkeypatch):
    monkeypatch.setattr(CalculatorThrottle, "THROTTLE_RATES", {"calculator": "1/minute"})
    body = {"players": 2, "color": "red", "floors": []}
    assert [api.post(TOWER, body, format="json").status_code for _ in range(2)] == [200, 429]


def test_the_calculator_is_in_the_openapi_schema(api):
    schema = api.get("/api/schema/").content.decode()
    assert "/api/v1/calculators/babel-on/tower" in schema
