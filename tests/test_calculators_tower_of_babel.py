"""The public Tower of Babel calculators, as the contract in shared/api/calculators.md says."""

import pytest
from rest_framework.test import APIClient

from sessions.api.calculators import CalculatorThrottle

WONDER = "/api/v1/calculators/tower-of-babel/wonder"
DISCS = "/api/v1/calculators/tower-of-babel/discs"


@pytest.fixture
def api():
    return APIClient(enforce_csrf_checks=True)


def test_the_contract_example_of_a_wonder(api):  # TB-17, TB-18
    response = api.post(WONDER, {"parts": {"red": 6, "yellow": 3, "green": 1, "blue": 0}, "row": 1}, format="json")
    assert response.status_code == 200
    body = response.json()
    assert body["points"] == {"red": 8, "yellow": 4, "green": 3, "blue": 0}
    assert body["values"] == [8, 4]


def test_the_final_row_scores_unfinished_wonders_ten_five(api):  # TB-20
    body = api.post(WONDER, {"parts": {"a": 2, "b": 2, "c": 1}, "row": "final"}, format="json").json()
    assert body == {"points": {"a": 5, "b": 5, "c": 3}, "values": [10, 5], "present_points": 3}


def test_values_override_the_row(api):  # TB-6
    body = api.post(WONDER, {"parts": {"a": 3, "b": 1}, "row": 4, "values": [15, 7]}, format="json").json()
    assert body["points"] == {"a": 15, "b": 7}


def test_the_contract_example_of_disc_sets(api):  # TB-7, TB-20
    discs = [["camel"], ["camel"], ["camel"], ["camel", "stonemason"], ["ship"], ["ship"], ["crane"]]
    body = api.post(
        DISCS, {"discs": discs, "action_cards": {"building_disc_bonus": 0, "five_points": 0}}, format="json"
    ).json()
    assert body["total"] == 25
    assert body["sets"] == {"camel": 20, "ship": 5, "crane": 0, "stonemason": 0}
    assert body["assignment"] == ["camel", "camel", "camel", "camel", "ship", "ship", "crane"]
    assert body["action_card_points"] == 0


def test_a_bonus_table_overrides_the_default(api):  # TB-7
    body = api.post(DISCS, {"discs": [["ship"]] * 3, "bonus_table": {"3": 12}}, format="json").json()
    assert body["total"] == 12
    assert body["bonus_table"]["3"] == 12


def test_action_cards_count_in_the_total(api):  # TB-20, TB-22
    body = api.post(
        DISCS,
        {"discs": [["crane"], ["crane"]], "action_cards": {"building_disc_bonus": 2, "five_points": 1}},
        format="json",
    ).json()
    assert (body["action_card_points"], body["total"]) == (2 * 2 + 5, 5 + 9)


@pytest.mark.parametrize(
    ("body", "field", "rule"),
    [
        ({"parts": {"red": -1}, "row": 1}, "parts.red", None),
        ({"parts": {"red": 1}, "row": 8}, "row", "TB-6"),
        ({"parts": {"red": 1}, "row": "last"}, "row", None),
        ({"parts": {"x" * 41: 1}, "row": 1}, "parts." + "x" * 41, None),
        ({"parts": {}, "row": 1}, "parts", None),
        ({"row": 1}, "parts", None),
        ({"parts": {"a": 1}, "row": 1, "values": [9]}, "values", None),
        ([1, 2], "non_field_errors", None),
    ],
)
def test_bad_wonder_input_answers_400_naming_the_field_and_rule(api, body, field, rule):
    response = api.post(WONDER, body, format="json")
    assert response.status_code == 400
    error = response.json()["errors"][0]
    assert (error["field"], error["rule"]) == (field, rule)
    assert error["message"]


@pytest.mark.parametrize(
    ("body", "field", "rule"),
    [
        ({"discs": [["camel"], ["horse"]]}, "discs[1]", "TB-2"),
        ({"discs": [["camel", "camel"]]}, "discs[0]", "TB-4"),
        ({"discs": [["camel"]] * 7}, "discs", "TB-4"),
        ({"discs": [["camel"]] * 6 + [["camel", "stonemason"]]}, "discs", "TB-8"),
        ({"discs": [["ship"]], "bonus_table": {"8": 60}}, "bonus_table.8", "TB-7"),
        ({"discs": [["ship"]], "bonus_table": {"2": -5}}, "bonus_table.2", None),
        ({"discs": [["ship"]], "action_cards": {"five_points": 3}}, "action_cards.five_points", "TB-22"),
        ({"discs": "camel"}, "discs", None),
        ({"discs": [["ship"], "camel"]}, "discs[1]", None),
    ],
)
def test_bad_disc_input_answers_400_naming_the_field_and_rule(api, body, field, rule):
    response = api.post(DISCS, body, format="json")
    assert response.status_code == 400
    error = response.json()["errors"][0]
    assert (error["field"], error["rule"]) == (field, rule)


def test_the_calculators_need_no_account_and_no_csrf_token(api):
    assert api.post(WONDER, {"parts": {"a": 1}, "row": 1}, format="json").status_code == 200


def test_only_post_is_allowed(api):
    assert api.get(WONDER).status_code == 405


def test_anonymous_calls_are_throttled(api, monkeypatch):
    monkeypatch.setattr(CalculatorThrottle, "THROTTLE_RATES", {"calculator": "2/minute"})
    statuses = [api.post(WONDER, {"parts": {"a": 1}, "row": 1}, format="json").status_code for _ in range(3)]
    assert statuses == [200, 200, 429]


def test_the_throttle_is_off_when_the_rate_is_zero(api, monkeypatch):
    monkeypatch.setattr(CalculatorThrottle, "THROTTLE_RATES", {"calculator": None})
    statuses = {api.post(WONDER, {"parts": {"a": 1}, "row": 1}, format="json").status_code for _ in range(5)}
    assert statuses == {200}


@pytest.mark.parametrize("card", ["joker", "five_point", "building_disc_bonuses"])
def test_tb_20_an_unknown_action_card_is_refused_naming_the_field_and_rule(api, card):
    response = api.post(DISCS, {"discs": [["ship"]], "action_cards": {card: 1}}, format="json")
    assert response.status_code == 400
    error = response.json()["errors"][0]
    assert (error["field"], error["rule"]) == (f"action_cards.{card}", "TB-20")
    assert "(rule TB-20)" in error["message"]


@pytest.mark.parametrize(("values", "status"), [([4, 8], 400), ([5, 5], 200), ([15, 7], 200)])
def test_tb_6_a_row_whose_first_value_is_below_its_second_is_refused(api, values, status):
    response = api.post(WONDER, {"parts": {"a": 3, "b": 1}, "row": 2, "values": values}, format="json")
    assert response.status_code == status
    if status == 400:
        error = response.json()["errors"][0]
        assert (error["field"], error["rule"]) == ("values", "TB-6")
