"""Tower of Babel's component table (``scoring/tower_of_babel/table.py``), with no database:
the values the data file gives and how each is known (verified, unverified, outside the seed),
the corrections a group may make to the values that are not verified, and the rules an edition
table must keep to be played (TB-1, TB-4, TB-5, TB-6, TB-8, TB-22). A refusal names the rule,
the field the pages mark and the numbers their message shows."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from scoring.errors import RuleError
from scoring.tower_of_babel.table import (
    OUTSIDE_SEED,
    UNVERIFIED,
    VERIFIED,
    check_row,
    load_table,
    marking_at,
    markings,
    outside_seed,
)

NUMBERS = [3, 4, 4, 5, 5, 6]
TWO_KIND = [
    {"camel": 2, "stonemason": 3},
    {"crane": 2, "ship": 3},
    {"ship": 2, "camel": 3},
    {"stonemason": 2, "crane": 3},
]
ROWS = [[8, 4], [10, 5], [12, 6], [14, 7], [16, 8], [18, 9], [20, 10]]
SET_BONUS = [0, 0, 5, 10, 20, 30, 40, 50]
CARDS = {
    "card_draw": 3,
    "card_trade": 2,
    "joker": 2,
    "building_disc_bonus": 2,
    "triple_bonus": 2,
    "double_turn": 2,
    "five_points": 2,
}


def with_item(values: list[Any], index: int, value: Any) -> list[Any]:
    """``values`` (a copy) with one position changed."""
    changed = copy.deepcopy(values)
    changed[index] = value
    return changed


def refusal(overrides: dict[str, Any]) -> tuple[str | None, str, dict[str, object]]:
    """The (rule, field, params) of the refusal of a group's ``overrides``."""
    with pytest.raises(RuleError) as error:
        load_table(overrides)
    assert error.value.message  # the English text the page shows, its numbers filled in
    return error.value.rule, error.value.field, error.value.params


# --- the data file ---------------------------------------------------------------------------


def test_the_table_holds_the_data_files_values():  # TB-1, TB-4, TB-5, TB-6, TB-7, TB-22
    table = load_table()
    assert table.min_players == 3
    assert table.single_disc_range == (3, 6)
    assert table.most_cards == 6
    assert table.single_disc_numbers == (3, 4, 4, 5, 5, 6)
    assert table.two_kind_discs[1] == (("crane", 2), ("ship", 3))
    assert table.rows == tuple(tuple(row) for row in ROWS)
    assert (table.row_values(1), table.row_values(7), table.row_values("final")) == ((8, 4), (20, 10), (10, 5))
    assert table.set_bonus == tuple(SET_BONUS)
    assert table.parts_per_player == ((1, 15), (3, 5))
    assert table.parts_in_play == 29  # 15 + 3 * 5, less the part that marks the score
    assert table.action_cards == tuple(CARDS.items())


def test_each_value_is_marked_verified_unverified_or_outside_the_seed():  # TB-1, TB-4, TB-5, TB-6, TB-22
    assert markings("max_players") == VERIFIED
    assert markings("min_players") == OUTSIDE_SEED
    assert markings("single_disc_numbers") == UNVERIFIED
    assert markings("two_kind_discs") == [OUTSIDE_SEED, UNVERIFIED, UNVERIFIED, UNVERIFIED]
    # The edition page asks for the marking of every position, of a whole-entry marking too.
    assert marking_at("min_players", 0) == OUTSIDE_SEED
    assert marking_at("single_disc_numbers", 4) == UNVERIFIED
    assert marking_at("action_cards", 6) == OUTSIDE_SEED
    assert (marking_at("rows", 0), marking_at("rows", 1)) == (VERIFIED, UNVERIFIED)
    assert outside_seed() == ["min_players", "single_disc_range", "two_kind_discs", "parts_per_player", "action_cards"]


@pytest.mark.parametrize("row", [0, 8, -1, True, "3", 2.0, None])
def test_a_scoring_row_is_one_to_seven_or_final(row):  # TB-6
    with pytest.raises(RuleError) as error:
        load_table().row_values(row)
    assert (error.value.rule, error.value.field, error.value.params) == ("TB-6", "row", {"rows": 7})


def test_a_session_stores_the_entries_added_in_issue_40_only_where_the_group_changed_them():  # TB-1, TB-5
    default = load_table()
    assert default.as_json() == {
        "single_disc_numbers": NUMBERS,
        "two_kind_discs": TWO_KIND,
        "rows": ROWS,
        "set_bonus": SET_BONUS,
    }
    two_players = load_table({"min_players": 2})
    assert set(two_players.as_json()) == {"min_players", "single_disc_numbers", "two_kind_discs", "rows", "set_bonus"}
    assert two_players.as_json()["min_players"] == 2
    for table in (default, two_players):
        assert load_table(table.as_json(), edition_rules=False) == table


# --- what a group may set ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("overrides", "expected"),
    [
        ({"min_players": 2}, {"min_players": 2}),  # the house rule of two players
        ({"min_players": 5}, {"min_players": 5}),
        ({"single_disc_range": [1, 6]}, {"single_disc_range": (1, 6)}),
        (
            {"single_disc_range": [1, 6], "single_disc_numbers": [1, 4, 4, 5, 5, 6]},
            {"single_disc_numbers": (1, 4, 4, 5, 5, 6)},
        ),
        (
            {"single_disc_range": [5, 5], "single_disc_numbers": [5] * 6},
            {"single_disc_range": (5, 5), "most_cards": 5},
        ),
        ({"single_disc_numbers": [3, 3, 5, 5, 6, 6]}, {"single_disc_numbers": (3, 3, 5, 5, 6, 6)}),
        (
            {"two_kind_discs": with_item(TWO_KIND, 1, {"ship": 6, "crane": 1})},
            {
                "two_kind_discs": (
                    (("camel", 2), ("stonemason", 3)),
                    (("crane", 1), ("ship", 6)),
                    *load_table().two_kind_discs[2:],
                )
            },
        ),
        ({"rows": with_item(ROWS, 1, [9, 9])}, {"rows": ((8, 4), (9, 9), *load_table().rows[2:])}),
        ({"set_bonus": [0, 0, 5, 0, 20, 30, 40, 100]}, {"set_bonus": (0, 0, 5, 0, 20, 30, 40, 100)}),
        ({"parts_per_player": {"1": 1, "3": 19}}, {"parts_per_player": ((1, 1), (3, 19)), "parts_in_play": 57}),
        (
            {"action_cards": {**CARDS, "card_draw": 2, "joker": 3}},
            {"action_cards": (("card_draw", 2), ("card_trade", 2), ("joker", 3), *tuple(CARDS.items())[3:])},
        ),
    ],
)
def test_a_group_may_correct_a_value_not_verified(overrides, expected):  # TB-1, TB-4, TB-5, TB-6, TB-7, TB-8, TB-22
    table = load_table(overrides)
    assert {name: getattr(table, name) for name in expected} == expected


@pytest.mark.parametrize(
    ("overrides", "rule", "field", "params"),
    [
        ({"min_players": 1}, "TB-1", "min_players", {"low": 2, "high": 5}),
        ({"min_players": 6}, "TB-1", "min_players", {"low": 2, "high": 5}),
        ({"single_disc_range": [0, 6]}, "TB-4", "single_disc_range", {}),
        ({"single_disc_range": [6, 5]}, "TB-4", "single_disc_range", {}),
        ({"single_disc_numbers": [2, 4, 4, 5, 5, 6]}, "TB-4", "single_disc_numbers[0]", {"low": 3, "high": 6}),
        ({"single_disc_numbers": [3, 4, 4, 5, 5, 7]}, "TB-4", "single_disc_numbers[5]", {"low": 3, "high": 6}),
        (
            {"single_disc_range": [2, 5], "single_disc_numbers": [2, 4, 4, 5, 5, 6]},
            "TB-4",
            "single_disc_numbers[5]",
            {"low": 2, "high": 5},
        ),
        ({"single_disc_numbers": [3, 3, 4, 4, 6, 6]}, "TB-8", "single_disc_numbers", {"number": 5}),
        (
            {"two_kind_discs": with_item(TWO_KIND, 1, {"crane": 0, "ship": 3})},
            "TB-4",
            "two_kind_discs[1].crane",
            {"low": 1, "high": 6},
        ),
        (
            {"two_kind_discs": with_item(TWO_KIND, 1, {"crane": 2, "ship": 7})},
            "TB-4",
            "two_kind_discs[1].ship",
            {"low": 1, "high": 6},
        ),
        (
            {
                "single_disc_range": [3, 5],
                "single_disc_numbers": [3, 4, 4, 5, 5, 5],
                "two_kind_discs": with_item(TWO_KIND, 3, {"stonemason": 6, "crane": 3}),
            },
            "TB-4",
            "two_kind_discs[3].stonemason",
            {"low": 1, "high": 5},
        ),
        ({"rows": with_item(ROWS, 2, [6, 12])}, "TB-6", "rows[2]", {"first": 6, "second": 12}),
        ({"parts_per_player": {"1": 15, "3": 6}}, "TB-5", "parts_per_player", {"count": 20}),
        ({"parts_per_player": {"1": 0, "3": 20}}, "TB-5", "parts_per_player.1", {"value": "1"}),
        ({"action_cards": {**CARDS, "joker": 3}}, "TB-22", "action_cards", {"count": 15}),
    ],
)
def test_a_table_that_breaks_a_rule_is_refused(overrides, rule, field, params):  # TB-1, TB-4, TB-5, TB-6, TB-8, TB-22
    assert refusal(overrides) == (rule, field, params)


def test_a_stored_table_is_read_without_the_edition_rules():  # TB-8
    # A session replays from the table it started with, even one saved before a check existed.
    table = load_table({"single_disc_numbers": [3, 3, 4, 4, 6, 6]}, edition_rules=False)
    assert table.single_disc_numbers == (3, 3, 4, 4, 6, 6)
    assert refusal({"single_disc_numbers": [3, 3, 4, 4, 6, 6]})[0] == "TB-8"


@pytest.mark.parametrize(
    ("overrides", "field", "params"),
    [
        # the verified values stay fixed
        ({"final_row": [12, 6]}, "final_row", {}),
        ({"max_players": 6}, "max_players", {}),
        ({"set_bonus": with_item(SET_BONUS, 2, 6)}, "set_bonus[2]", {}),
        ({"rows": with_item(ROWS, 0, [9, 4])}, "rows[0]", {}),
        # a list keeps its length, its numbers are whole numbers from 0 to 100
        ({"rows": ROWS[:1]}, "rows", {"count": 7}),
        ({"rows": "8,4"}, "rows", {"count": 7}),
        ({"rows": with_item(ROWS, 1, 5)}, "rows[1]", {"count": 2}),
        ({"rows": with_item(ROWS, 1, [10, 5, 1])}, "rows[1]", {"count": 2}),
        ({"rows": with_item(ROWS, 1, [10, -1])}, "rows[1][1]", {}),
        ({"set_bonus": with_item(SET_BONUS, 3, 101)}, "set_bonus[3]", {}),
        ({"set_bonus": with_item(SET_BONUS, 3, -1)}, "set_bonus[3]", {}),
        ({"set_bonus": with_item(SET_BONUS, 3, True)}, "set_bonus[3]", {}),
        ({"set_bonus": with_item(SET_BONUS, 3, "10")}, "set_bonus[3]", {}),
        ({"set_bonus": with_item(SET_BONUS, 3, 10.0)}, "set_bonus[3]", {}),
        ({"min_players": True}, "min_players", {}),
        ({"min_players": "2"}, "min_players", {}),
        ({"min_players": 2.0}, "min_players", {}),
        # counts by value or by card keep their keys
        ({"parts_per_player": {"1": 20}}, "parts_per_player", {"count": 2}),
        ({"parts_per_player": {"1": 15, "3": 5, "5": 0}}, "parts_per_player", {"count": 2}),
        ({"parts_per_player": ["1", "3"]}, "parts_per_player", {"count": 2}),
        ({"action_cards": {k: v for k, v in CARDS.items() if k != "joker"}}, "action_cards", {"count": 7}),
        ({"parts_per_player": {"1": 15.0, "3": 5}}, "parts_per_player.1", {}),
        ({"parts_per_player": {"1": -1, "3": 21}}, "parts_per_player.1", {}),
        ({"two_kind_discs": with_item(TWO_KIND, 1, {"crane": -1, "ship": 3})}, "two_kind_discs[1].crane", {}),
        ({"two_kind_discs": with_item(TWO_KIND, 1, {"crane": True, "ship": 3})}, "two_kind_discs[1].crane", {}),
    ],
)
def test_a_correction_keeps_the_values_shape(overrides, field, params):  # TB-1, TB-4, TB-5, TB-6, TB-7, TB-22
    assert refusal(overrides) == (None, field, params)


@pytest.mark.parametrize(
    "disc",
    [
        {"camel": 1, "crane": 1, "ship": 1},
        {"crane": 5},
        {"crane": 2, "dragon": 3},
        5,
        ["crane", "ship"],
    ],
)
def test_a_two_kind_disc_names_two_kinds_of_the_game(disc):  # TB-2, TB-4
    assert refusal({"two_kind_discs": with_item(TWO_KIND, 1, disc)}) == ("TB-4", "two_kind_discs[1]", {})


def test_a_scoring_row_a_calculator_is_given_keeps_its_first_value_not_below_its_second():  # TB-6, TB-17
    check_row([9, 9], field="values")
    with pytest.raises(RuleError) as error:
        check_row([4, 8], field="values")
    assert (error.value.rule, error.value.field, error.value.params) == ("TB-6", "values", {"first": 4, "second": 8})
