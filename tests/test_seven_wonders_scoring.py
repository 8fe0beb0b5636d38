"""7 Wonders: Babel: science, the score sheet, ranks, and Great Projects (SW-1..SW-14)."""

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.errors import RuleError
from scoring.seven_wonders.data import data, markers_for, project
from scoring.seven_wonders.projects import Participant, resolve
from scoring.seven_wonders.science import best_science, points_for
from scoring.seven_wonders.sheet import rank_sheets, score_sheet


def test_three_two_one_symbols_score_twenty_one():  # SW-13
    assert points_for(3, 2, 1) == 9 + 4 + 1 + 7


def test_three_two_two_symbols_score_thirty_one():  # SW-13
    assert points_for(3, 2, 2) == 17 + 14


def test_a_wild_symbol_goes_where_it_scores_most():  # SW-13
    science = best_science(3, 2, 1, wild=1)
    assert (science.points, science.counts) == (31, {"tablet": 3, "compass": 2, "gear": 2})


def test_archives_tokens_add_three_per_set():  # SW-13
    assert points_for(2, 2, 2, archives=2) == 12 + 2 * (7 + 6)


@pytest.mark.parametrize(
    ("tablet", "compass", "gear", "points"),
    [(3, 0, 0, 9), (0, 3, 0, 9), (0, 0, 3, 9), (0, 3, 3, 18), (3, 0, 3, 18), (3, 3, 0, 18), (1, 1, 1, 10)],
)
def test_each_symbol_scores_its_square_and_only_a_set_of_all_three_scores_seven(tablet, compass, gear, points):
    # SW-13: squares, not doubles (3 of one symbol is 9); two symbols without the third make no set.
    assert points_for(tablet, compass, gear) == points


def test_archives_tokens_typed_on_a_sheet_raise_its_science():  # SW-13, SW-12
    with_archives = {**ADA, "science": {"tablet": 2, "compass": 2, "gear": 2, "wild": 0, "archives": 1}}
    assert score_sheet(with_archives).columns["science"] == 12 + 2 * (7 + 3)


def brute_force(tablet, compass, gear, wild, archives):
    best = 0
    for placed in itertools.product(range(3), repeat=wild):
        counts = [tablet, compass, gear]
        for symbol in placed:
            counts[symbol] += 1
        best = max(best, points_for(*counts, archives=archives))
    return best


counts = st.integers(0, 6)


@given(counts, counts, counts, st.integers(0, 6), st.integers(0, 2))
def test_the_optimiser_equals_brute_force_over_every_wild_assignment(tablet, compass, gear, wild, archives):  # SW-13
    assert best_science(tablet, compass, gear, wild=wild, archives=archives).points == brute_force(
        tablet, compass, gear, wild, archives
    )


@given(counts, counts, counts, st.integers(0, 4), st.sampled_from(["tablet", "compass", "gear", "wild"]))
def test_adding_a_symbol_never_lowers_science(tablet, compass, gear, wild, added):  # SW-13
    before = best_science(tablet, compass, gear, wild=wild).points
    more = {"tablet": tablet, "compass": compass, "gear": gear, "wild": wild}
    more[added] += 1
    assert best_science(more["tablet"], more["compass"], more["gear"], wild=more["wild"]).points >= before


ADA = {
    "name": "Ada", "military": 9, "coins": 10, "wonder": 10, "civilian": 12,
    "science": {"tablet": 3, "compass": 2, "gear": 1, "wild": 1, "archives": 0},
    "commercial": 4, "guilds": 6, "leaders": 0, "cities": 0, "babel_tiles": 2, "great_projects": -2,
}  # fmt: skip


def test_the_contract_sheet_totals_seventy_eight():  # SW-12
    sheet = score_sheet(ADA)
    assert sheet.columns == {
        "military": 9, "treasury": 3, "wonder": 10, "civilian": 12, "science": 31, "commercial": 4,
        "guilds": 6, "leaders": 0, "cities": 0, "babel_tiles": 5, "great_projects": -2,
    }  # fmt: skip
    assert sheet.total == 78


@pytest.mark.parametrize(("tiles", "points"), [(0, 0), (1, 2), (2, 5), (3, 10)])
def test_babel_tiles_score_two_five_ten(tiles, points):  # SW-8
    assert score_sheet({"name": "x", "coins": 0, "babel_tiles": tiles}).columns["babel_tiles"] == points


def test_a_fourth_tile_is_refused_with_the_rule():  # SW-8
    with pytest.raises(RuleError) as error:
        score_sheet({"name": "x", "coins": 0, "babel_tiles": 4}, field="players[0]")
    assert (error.value.field, error.value.rule) == ("players[0].babel_tiles", "SW-8")


def test_treasury_is_one_point_per_three_coins_rounded_down():  # SW-12
    assert [score_sheet({"name": "x", "coins": c}).columns["treasury"] for c in (0, 2, 3, 8, 9)] == [0, 0, 1, 2, 3]


def test_coins_break_a_tie_on_points_and_an_exact_tie_is_shared():  # SW-14
    sheets = [
        score_sheet({"name": "a", "coins": 4, "civilian": 10}),
        score_sheet({"name": "b", "coins": 7, "civilian": 9}),
        score_sheet({"name": "c", "coins": 4, "civilian": 10}),
        score_sheet({"name": "d", "coins": 1, "civilian": 5}),
    ]
    assert rank_sheets(sheets) == {"b": 1, "a": 2, "c": 2, "d": 4}


sheets = st.lists(
    st.builds(lambda civ, coins: (civ, coins), st.integers(0, 30), st.integers(0, 20)), min_size=1, max_size=8
)


@given(sheets, st.randoms())
def test_ranking_is_a_permutation_invariant_function_of_the_sheets(entries, rnd):  # SW-14
    named = [score_sheet({"name": f"p{i}", "coins": coins, "civilian": civ}) for i, (civ, coins) in enumerate(entries)]
    shuffled = named[:]
    rnd.shuffle(shuffled)
    assert rank_sheets(named) == rank_sheets(shuffled)


def test_two_and_eight_player_games_get_two_and_six_markers():  # SW-3
    assert markers_for(2) == 2
    assert markers_for(8) == 6


def test_a_project_starts_with_players_minus_one_markers():  # SW-3
    assert [markers_for(n) for n in range(3, 8)] == [2, 3, 4, 5, 6]


def test_the_fifteen_projects_are_five_per_age_and_marked_single_source():  # SW-11
    cards = data()["projects"]["value"]
    assert len(cards) == 15
    assert [sum(1 for c in cards if c["age"] == age) for age in (1, 2, 3)] == [5, 5, 5]
    assert data()["projects"]["single_source"] is True
    assert project("river-port")["colour"] == "yellow"


def test_the_twenty_four_tiles_are_listed_with_their_effects():  # SW-7
    tiles = data()["tiles"]["value"]
    assert sorted(int(n) for n in tiles) == list(range(1, 25))
    assert "drop a step" in tiles["19"]


def test_a_successful_project_rewards_each_marker():  # SW-10
    success, results = resolve(
        "river-port", [Participant("Ada", 2), Participant("Bo", 0, can_suffer_penalty=False)], markers_left=0, age=2
    )
    assert success
    assert [(r.name, r.outcome, r.times) for r in results] == [("Ada", "reward", 2), ("Bo", "none", 0)]


def test_a_failed_project_punishes_only_those_without_a_marker():  # SW-10
    success, results = resolve(
        "archives",
        [Participant("Derek", 2), Participant("Tom", 0), Participant("Christophe", 0, can_suffer_penalty=False)],
        markers_left=1,
        age=3,
    )
    assert not success
    assert [(r.outcome, r.vp) for r in results] == [("none", None), ("penalty", None), ("penalty_token", -3)]


@pytest.mark.parametrize(("age", "vp"), [(1, -1), (2, -2), (3, -3)])
def test_a_penalty_token_costs_the_age_in_points(age, vp):  # SW-10
    slug = {1: "rampart-road", 2: "river-port", 3: "giant-trebuchet"}[age]
    _success, results = resolve(slug, [Participant("x", 0, can_suffer_penalty=False)], markers_left=2, age=age)
    assert results[0].vp == vp


def test_tile_nineteen_lowers_military_reward_tokens_a_step():  # SW-7, SW-10
    for slug, age, plain, lowered in [("double-walls", 1, 1, 0), ("war-mirror", 2, 3, 1), ("giant-trebuchet", 3, 5, 3)]:
        assert resolve(slug, [Participant("x", 1)], markers_left=0, age=age)[1][0].vp == plain
        assert resolve(slug, [Participant("x", 1)], markers_left=0, age=age, tiles=[19])[1][0].vp == lowered


def test_a_project_of_another_age_is_refused():  # SW-3
    with pytest.raises(RuleError) as error:
        resolve("archives", [Participant("x", 1)], markers_left=0, age=1)
    assert (error.value.field, error.value.rule) == ("age", "SW-3")


def test_an_unknown_project_is_refused():  # SW-11
    with pytest.raises(RuleError) as error:
        resolve("hanging-bridge", [], markers_left=0, age=1)
    assert (error.value.field, error.value.rule) == ("project", "SW-11")


def test_smelter_and_menagerie_tokens_count_in_the_great_projects_column():  # SW-10, SW-12
    sheet = score_sheet(
        {
            "name": "x",
            "coins": 0,
            "great_projects": -1,
            "smelter": 2,
            "wonder_stages": 3,
            "menagerie": 1,
            "guilds_around": 4,
        }
    )
    assert sheet.columns["great_projects"] == -1 + 2 * 3 + 1 * 4


def sheet_refused(entry, field):
    """Refused as malformed input (no rule broken), naming ``field``."""
    with pytest.raises(RuleError) as error:
        score_sheet(entry, field="players[0]")
    assert (error.value.field, error.value.rule) == (field, None), error.value.message
    return error.value


def test_a_sheet_needs_its_coins_and_a_column_left_empty_counts_zero():  # SW-12
    sheet_refused({"name": "x"}, "players[0].coins")
    sheet_refused({"name": "x", "coins": None}, "players[0].coins")
    empty = {"name": "x", "coins": 3, "civilian": None, "science": {"tablet": None, "gear": 2}}
    sheet = score_sheet({**empty, "babel_tiles": None, "smelter": None, "wonder_stages": 3})
    assert sheet.columns == {
        "military": 0, "treasury": 1, "wonder": 0, "civilian": 0, "science": 4, "commercial": 0,
        "guilds": 0, "leaders": 0, "cities": 0, "babel_tiles": 0, "great_projects": 0,
    }  # fmt: skip
    assert (sheet.name, sheet.coins, sheet.total) == ("x", 3, 5)
    assert score_sheet({"coins": 0}).name == ""


def test_a_sheet_takes_whole_numbers_in_their_range():  # SW-12
    sheet_refused({"name": "x", "coins": "3"}, "players[0].coins")
    sheet_refused({"name": "x", "coins": 3, "civilian": True}, "players[0].civilian")
    sheet_refused({"name": "x", "coins": 3, "civilian": 2.5}, "players[0].civilian")
    sheet_refused({"name": "x", "coins": -1}, "players[0].coins")
    assert score_sheet({"name": "x", "coins": 3, "military": -200, "civilian": 999}).total == 1 - 200 + 999
    error = sheet_refused({"name": "x", "coins": 3, "military": -201}, "players[0].military")
    assert error.params == {"low": -200, "high": 999}
    sheet_refused({"name": "x", "coins": 3, "civilian": 1000}, "players[0].civilian")
    sheet_refused({"name": "x", "coins": 3, "science": [3, 2, 1]}, "players[0].science")
    sheet_refused({"name": "x", "coins": 3, "science": {"gear": -1}}, "players[0].science.gear")
    sheet_refused({"name": "x", "coins": 3, "menagerie": "1"}, "players[0].menagerie")


def test_a_sheet_shows_where_its_wild_symbols_went():  # SW-13
    sheet = score_sheet({"name": "x", "coins": 0, "science": {"tablet": 2, "compass": 2, "wild": 1}})
    assert sheet.science == {"tablet": 2, "compass": 2, "gear": 1}
    assert sheet.columns["science"] == 4 + 4 + 1 + 7


def test_no_wild_symbol_unless_one_is_given():  # SW-13
    assert best_science(1, 1, 1) == best_science(1, 1, 1, wild=0)
    assert best_science(1, 1, 1).points == 1 + 1 + 1 + 7


def test_a_sheet_without_a_field_name_reports_the_player():
    with pytest.raises(RuleError) as error:
        score_sheet({"name": "x"})
    assert error.value.field == "player.coins"
