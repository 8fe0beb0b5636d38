"""7 Wonders: Babel: science, the score sheet, ranks, and Great Projects (SW-1..SW-14)."""

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.errors import RuleError
from scoring.seven_wonders.data import check_corrections, data, markers_for, project, tile_effects, tiles_outside_seed
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


def defeat_tokens_on(slug, tokens):
    """A group's correction: the card's penalty gives ``tokens`` defeat tokens (SW-10, SW-11)."""
    return {"projects": {slug: {"penalty_defeat_tokens": tokens}}}


@pytest.mark.parametrize(
    ("tokens", "tiles", "given"),
    [(0, [], 0), (0, [22], 0), (1, [], 1), (3, [], 3), (1, [22], 2), (3, [22], 6), (3, [19, 21, 23], 3)],
)
def test_a_penalty_gives_the_cards_defeat_tokens_doubled_while_tile_22_is_visible(tokens, tiles, given):  # SW-7, SW-10
    players = [Participant("a", 1), Participant("b", 0), Participant("c", 0, can_suffer_penalty=False)]
    corrections = defeat_tokens_on("cranes", tokens)
    success, outcomes = resolve("cranes", players, markers_left=1, age=1, tiles=tiles, corrections=corrections)
    assert not success
    assert [(o.name, o.outcome, o.times, o.vp, o.defeat_tokens) for o in outcomes] == [
        ("a", "none", 0, None, 0),
        ("b", "penalty", 1, None, given),
        ("c", "penalty_token", 1, -1, 0),
    ]
    assert all(type(o.defeat_tokens) is int for o in outcomes)


def test_tomyris_takes_no_defeat_token_from_a_penalty_the_others_do():  # SW-10 (seed 002, Leaders)
    players = [Participant("a", 1), Participant("t", 0, takes_no_defeat_tokens=True), Participant("b", 0)]
    for tiles, others in (([], 2), ([22], 4)):
        _success, outcomes = resolve(
            "cranes", players, markers_left=1, age=1, tiles=tiles, corrections=defeat_tokens_on("cranes", 2)
        )
        assert [(o.name, o.outcome, o.times, o.defeat_tokens) for o in outcomes] == [
            ("a", "none", 0, 0),
            ("t", "penalty", 1, 0),
            ("b", "penalty", 1, others),
        ]


def test_a_corrected_military_reward_is_what_the_participants_get():  # SW-10, SW-11
    corrections = {"projects": {"war-mirror": {"reward_vp": 5}}}
    for tiles, vp in (([], 5), ([19], 3)):
        success, outcomes = resolve(
            "war-mirror",
            [Participant("x", 2), Participant("y", 0)],
            markers_left=0,
            age=2,
            tiles=tiles,
            corrections=corrections,
        )
        assert success
        assert [(o.outcome, o.times, o.vp) for o in outcomes] == [("reward", 2, vp), ("none", 0, None)]


@pytest.mark.parametrize(("corrected", "under_tile_19"), [(0, 0), (2, 1), (4, 3), (6, 5), (10, 5)])
def test_a_corrected_reward_that_is_no_token_drops_to_the_next_token_below_under_tile_19(corrected, under_tile_19):
    corrections = {"projects": {"giant-trebuchet": {"reward_vp": corrected}}}
    _success, outcomes = resolve(
        "giant-trebuchet", [Participant("x", 1)], markers_left=0, age=3, tiles=[19], corrections=corrections
    )
    assert [(o.outcome, o.vp) for o in outcomes] == [("reward", under_tile_19)]


def test_markers_left_below_zero_are_refused_naming_the_field():
    with pytest.raises(RuleError) as error:
        resolve("cranes", [Participant("x", 1)], markers_left=-1, age=1)
    assert (error.value.field, error.value.rule, error.value.params) == ("markers_left", None, {"low": 0, "high": 99})


def test_no_marker_left_while_nobody_holds_one_is_refused():  # SW-10
    with pytest.raises(RuleError) as error:
        resolve("cranes", [Participant("x", 0), Participant("y", 0)], markers_left=0, age=1)
    assert (error.value.field, error.value.rule) == ("markers_left", "SW-10")


def corrections_refused(raw, field, rule):
    """A group's card corrections refused with ``rule``, naming ``field``."""
    with pytest.raises(RuleError) as error:
        check_corrections(raw)
    assert (error.value.field, error.value.rule) == (field, rule), error.value.message
    return error.value


WAR_MIRROR = {
    "cost": "3 coins", "penalty": "discard a green card", "reward": "+4 VP military victory token",
    "reward_vp": 4, "penalty_defeat_tokens": 2,
}  # fmt: skip


def test_a_groups_corrections_replace_the_cards_texts_and_numbers():  # SW-11
    card = project("war-mirror", {"projects": {"war-mirror": WAR_MIRROR, "cranes": {"cost": "9 coins"}}})
    assert card == {
        "slug": "war-mirror", "age": 2, "name": "War Mirror", "colour": "red", "cost": "3 coins",
        "penalty": "discard a green card", "penalty_defeat_tokens": 2,
        "reward": {"kind": "military_victory", "vp": 4, "text": "+4 VP military victory token"},
    }  # fmt: skip
    assert project("war-mirror", {"projects": {"war-mirror": {"reward": "a banner"}}})["reward"] == {
        "kind": "military_victory",
        "vp": 3,
        "text": "a banner",
    }
    assert project("war-mirror", {"projects": {"war-mirror": {"reward_vp": 0}}})["reward"]["vp"] == 0
    assert project("war-mirror") == project("war-mirror", {"tiles": {"9": "x"}})
    assert project("war-mirror")["reward"] == {
        "kind": "military_victory",
        "vp": 3,
        "text": "+3 VP military victory token",
    }


def test_a_tiles_effect_is_the_groups_correction_or_the_card_data():  # SW-7
    assert tile_effects() == data()["tiles"]["value"]
    assert tile_effects({"projects": {}}) == data()["tiles"]["value"]
    corrected = tile_effects({"tiles": {"9": "neighbour grey goods -2"}})
    assert corrected == {**data()["tiles"]["value"], "9": "neighbour grey goods -2"}
    assert sorted(int(n) for n in corrected) == list(range(1, 25))


def test_six_tiles_are_assigned_one_by_one_outside_the_seed():  # SW-7
    assert tiles_outside_seed() == [1, 2, 6, 13, 15, 16]


def test_a_groups_corrections_come_back_checked():  # SW-7, SW-10, SW-11
    raw = {
        "tiles": {"9": "neighbour grey goods -2", "24": "x" * 200},
        "projects": {"war-mirror": WAR_MIRROR, "cranes": {"penalty_defeat_tokens": 0, "cost": " 1 coin "}},
    }
    assert check_corrections(raw) == raw
    assert check_corrections(None) == check_corrections({}) == {"tiles": {}, "projects": {}}
    assert check_corrections({"tiles": {"1": "y"}}) == {"tiles": {"1": "y"}, "projects": {}}
    assert check_corrections({"projects": {"archives": {"penalty": "z"}}}) == {
        "tiles": {},
        "projects": {"archives": {"penalty": "z"}},
    }
    for vp in (0, 10):
        assert check_corrections({"projects": {"giant-trebuchet": {"reward_vp": vp}}})["projects"] == {
            "giant-trebuchet": {"reward_vp": vp}
        }
    for tokens in (0, 10):
        assert check_corrections({"projects": {"obelisk": {"penalty_defeat_tokens": tokens}}})["projects"] == {
            "obelisk": {"penalty_defeat_tokens": tokens}
        }


def test_corrections_of_anything_but_tiles_and_projects_are_refused():  # SW-7, SW-11
    corrections_refused({"cards": {}}, "table", "SW-11")
    corrections_refused({"tiles": {}, "leaders": {}}, "table", "SW-11")
    corrections_refused(["tiles"], "table", "SW-11")
    corrections_refused({"tiles": ["9"]}, "table.tiles", "SW-7")
    corrections_refused({"projects": ["cranes"]}, "table.projects", "SW-11")


def test_a_tile_correction_names_a_tile_and_gives_its_text():  # SW-7
    error = corrections_refused({"tiles": {"25": "x"}}, "tiles.25", "SW-7")
    assert error.params == {"tile": "25"}
    corrections_refused({"tiles": {"0": "x"}}, "tiles.0", "SW-7")
    corrections_refused({"tiles": {9: "x"}}, "tiles.9", "SW-7")
    for text in ("", "   ", "x" * 201, 5, None):
        error = corrections_refused({"tiles": {"9": text}}, "tiles.9", "SW-7")
        assert error.params == {"max": 200}


def test_a_project_correction_names_a_card_and_what_can_be_corrected_on_it():  # SW-10, SW-11
    corrections_refused({"projects": {"hanging-bridge": {"cost": "1 coin"}}}, "project", "SW-11")
    corrections_refused({"projects": {"cranes": "1 coin"}}, "projects.cranes", "SW-11")
    corrections_refused({"projects": {"cranes": {"colour": "red"}}}, "projects.cranes", "SW-11")
    corrections_refused({"projects": {"cranes": {"cost": "1 coin", "age": 2}}}, "projects.cranes", "SW-11")
    for key in ("cost", "penalty", "reward"):
        for text in ("", " ", "x" * 201, 3):
            error = corrections_refused({"projects": {"cranes": {key: text}}}, f"projects.cranes.{key}", "SW-11")
            assert error.params == {"max": 200}


def test_only_a_military_reward_is_corrected_to_zero_to_ten_points():  # SW-10
    corrections_refused({"projects": {"cranes": {"reward_vp": 1}}}, "projects.cranes.reward_vp", "SW-10")
    for vp in (-1, 11, "4", None, 4.0):
        corrections_refused({"projects": {"war-mirror": {"reward_vp": vp}}}, "projects.war-mirror.reward_vp", "SW-10")


def test_a_penalty_gives_zero_to_ten_defeat_tokens():  # SW-10
    field = "projects.cranes.penalty_defeat_tokens"
    for tokens in (-1, 11, True, "1", None, 1.0):
        error = corrections_refused({"projects": {"cranes": {"penalty_defeat_tokens": tokens}}}, field, "SW-10")
        assert error.params == {"max": 10}
