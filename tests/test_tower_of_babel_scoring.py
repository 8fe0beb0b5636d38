"""Tower of Babel: the component table, wonder scoring, disc sets and dealing."""

import itertools
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.errors import RuleError
from scoring.tower_of_babel.discs import check_held_card_names, deal, disc_set, score_discs
from scoring.tower_of_babel.table import load_table, raw_data, unverified
from scoring.tower_of_babel.wonders import score_wonder

TABLE = load_table()


def wonder(parts, row=1):
    return score_wonder(parts, TABLE.row_values(row), TABLE.present_points)


def test_there_are_four_kinds_of_building_card():  # TB-2
    assert TABLE.kinds == ("camel", "crane", "ship", "stonemason")


def test_there_are_eight_wonders_with_three_disc_spaces_each():  # TB-3
    board = deal(TABLE, two_kind_variant=False, seed=1)
    assert len(board) == 8
    assert all(len(discs) == 3 for discs in board.values())


def test_the_base_game_has_six_single_discs_per_kind_demanding_three_to_six():  # TB-4
    discs = disc_set(TABLE, two_kind_variant=False)
    assert len(discs) == 24
    assert Counter(next(iter(d)) for d in discs) == dict.fromkeys(TABLE.kinds, 6)
    assert all(3 <= number <= 6 for d in discs for number in d.values())


def test_the_first_two_kind_disc_demands_two_camels_and_three_stonemasons_from_outside_the_seed():  # TB-4
    assert {"camel": 2, "stonemason": 3} in raw_data()["two_kind_discs"]["value"]
    assert raw_data()["two_kind_discs"]["verified"][0] == "outside_seed"


def test_each_player_has_twenty_parts_fifteen_ones_and_five_threes():  # TB-5
    assert dict(TABLE.parts_per_player) == {1: 15, 3: 5}


def test_the_action_deck_has_fifteen_cards_of_seven_types():  # TB-22
    cards = dict(TABLE.action_cards)
    assert sum(cards.values()) == 15
    assert cards["card_draw"] == 3
    assert len(cards) == 7


def test_the_rows_start_at_eight_four_and_the_final_row_is_ten_five():  # TB-6
    assert TABLE.row_values(1) == (8, 4)
    assert TABLE.row_values("final") == (10, 5)
    assert len(TABLE.rows) == 7
    with pytest.raises(RuleError) as error:
        TABLE.row_values(8)
    assert (error.value.field, error.value.rule) == ("row", "TB-6")


def test_the_disc_set_bonus_table_has_its_verified_values():  # TB-7
    assert (TABLE.bonus(0), TABLE.bonus(1), TABLE.bonus(2), TABLE.bonus(4)) == (0, 0, 5, 20)


def test_unverified_values_are_marked_so():  # TB-4, TB-6, TB-7
    marks = unverified()
    assert marks["set_bonus"] == [3, 5, 6, 7]
    assert marks["rows"] == [1, 2, 3, 4, 5, 6]
    assert marks["single_disc_numbers"] is True
    assert marks["two_kind_discs"] == [1, 2, 3]


def test_a_group_can_override_unverified_values_but_not_verified_ones():  # TB-7
    table = load_table({"set_bonus": [0, 0, 5, 12, 20, 30, 40, 50]})
    assert table.bonus(3) == 12
    with pytest.raises(RuleError) as error:
        load_table({"set_bonus": [0, 0, 6, 10, 20, 30, 40, 50]})
    assert error.value.field == "set_bonus[2]"
    with pytest.raises(RuleError):
        load_table({"final_row": [12, 6]})
    with pytest.raises(RuleError):
        load_table({"rows": [[8, 4]]})


def test_the_two_kind_variant_swaps_a_five_of_each_kind_for_the_two_kind_discs():  # TB-8
    discs = disc_set(TABLE, two_kind_variant=True)
    assert len(discs) == 24
    assert sum(1 for d in discs if len(d) == 2) == 4
    fives = Counter(next(iter(d)) for d in discs if len(d) == 1 and next(iter(d.values())) == 5)
    assert fives == dict.fromkeys(TABLE.kinds, 1)


def test_dealing_is_reproducible_from_the_seed_and_uses_every_disc():  # TB-8
    first = deal(TABLE, two_kind_variant=True, seed=42)
    assert first == deal(TABLE, two_kind_variant=True, seed=42)
    assert first != deal(TABLE, two_kind_variant=True, seed=43)
    dealt = sorted(sorted(d.items()) for discs in first.values() for d in discs)
    assert dealt == sorted(sorted(d.items()) for d in disc_set(TABLE, two_kind_variant=True))


def test_the_seed_example_of_a_majority():  # TB-17, TB-18
    assert wonder({"red": 6, "yellow": 3, "green": 1, "blue": 0}) == {"red": 8, "yellow": 4, "green": 3, "blue": 0}


def test_the_seed_example_of_a_tie_for_first():  # TB-18
    assert wonder({"red": 5, "yellow": 5, "green": 1, "blue": 2}) == {"red": 4, "yellow": 4, "green": 3, "blue": 3}


def test_a_tie_for_second_gives_the_leader_the_first_value_and_the_tied_three():  # TB-18
    assert wonder({"red": 6, "yellow": 2, "green": 2, "blue": 1}, row=2) == {
        "red": 10,
        "yellow": 3,
        "green": 3,
        "blue": 3,
    }


def test_a_lone_builder_takes_the_first_value():  # TB-17
    assert wonder({"red": 4, "yellow": 0}) == {"red": 8, "yellow": 0}


def test_a_wonder_without_parts_scores_nothing():  # TB-20
    assert score_wonder({"red": 0, "blue": 0}, TABLE.row_values("final"), 3) == {"red": 0, "blue": 0}


def test_the_seed_example_of_disc_sets():  # TB-20
    discs = [["camel"], ["camel"], ["camel"], ["camel", "stonemason"], ["ship"], ["ship"], ["crane"]]
    result = score_discs(TABLE, discs)
    assert result.total == 25
    assert result.sets == {"camel": 20, "crane": 0, "ship": 5, "stonemason": 0}
    assert result.assignment == ["camel", "camel", "camel", "camel", "ship", "ship", "crane"]


def test_action_cards_add_a_point_per_disc_and_five_points():  # TB-20, TB-22
    result = score_discs(TABLE, [["ship"], ["ship"], ["crane"]], building_disc_bonus=1, five_points=2)
    assert result.action_card_points == 3 + 10
    assert result.total == 5 + 13


@pytest.mark.parametrize(
    ("discs", "field", "rule"),
    [
        ([["camel"], ["horse"]], "discs[1]", "TB-2"),
        ([["camel", "camel"]], "discs[0]", "TB-4"),
        ([[]], "discs[0]", "TB-4"),
        ([["camel", "crane", "ship"]], "discs[0]", "TB-4"),
        ([["camel"]] * 7, "discs", "TB-4"),
        ([["camel", "crane"]], "discs[0]", "TB-4"),
        ([["camel", "stonemason"], ["stonemason", "camel"]], "discs[1]", "TB-4"),
        ([["camel"]] * 6 + [["camel", "stonemason"]], "discs", "TB-8"),
    ],
)
def test_impossible_disc_collections_are_refused_naming_the_disc_and_rule(discs, field, rule):
    with pytest.raises(RuleError) as error:
        score_discs(TABLE, discs)
    assert (error.value.field, error.value.rule) == (field, rule)


parts = st.dictionaries(st.text(min_size=1, max_size=3), st.integers(0, 20), min_size=1, max_size=5)
rows = st.sampled_from([1, 2, 3, 4, 5, 6, 7, "final"])


@given(parts, rows)
def test_wonder_points_are_never_negative_and_absent_players_score_nothing(counts, row):  # TB-17
    points = wonder(counts, row)
    assert all(value >= 0 for value in points.values())
    assert all(points[p] == 0 for p, c in counts.items() if c == 0)


@given(parts, rows)
def test_more_parts_never_score_fewer_points(counts, row):  # TB-17, TB-18
    points = wonder(counts, row)
    for a, b in itertools.permutations(counts, 2):
        if counts[a] > counts[b]:
            assert points[a] >= points[b]
        if counts[a] == counts[b]:
            assert points[a] == points[b]


@given(parts, rows, st.randoms())
def test_wonder_scoring_is_symmetric_under_renaming_and_reordering(counts, row, rnd):  # TB-18
    names = list(counts)
    renamed = names[:]
    rnd.shuffle(renamed)
    mapping = dict(zip(names, renamed, strict=True))
    shuffled = list(counts.items())
    rnd.shuffle(shuffled)
    points = wonder(counts, row)
    assert wonder({mapping[p]: c for p, c in shuffled}, row) == {mapping[p]: v for p, v in points.items()}


kinds = st.sampled_from(TABLE.kinds)
collections = st.tuples(
    st.lists(kinds, max_size=12).filter(lambda ks: max(Counter(ks).values(), default=0) <= 5),
    st.lists(st.sampled_from([0, 1, 2, 3]), max_size=4, unique=True),
)


@given(collections)
def test_the_best_assignment_is_never_worse_than_any_other(collection):  # TB-20
    singles, double_indexes = collection
    doubles = [[kind for kind, _n in TABLE.two_kind_discs[i]] for i in double_indexes]
    discs = [[k] for k in singles] + doubles
    best = score_discs(TABLE, discs)
    for assignment in itertools.product(*discs):
        counts = Counter(assignment)
        assert best.total >= sum(TABLE.bonus(counts[k]) for k in TABLE.kinds)
    counts = Counter(best.assignment)
    assert best.total == sum(TABLE.bonus(counts[k]) for k in TABLE.kinds)
    assert all(kind in disc for kind, disc in zip(best.assignment, discs, strict=True))


def test_all_six_single_discs_of_a_kind_can_be_held_without_two_kind_discs():  # TB-4, TB-8, TB-20
    assert score_discs(TABLE, [["camel"]] * 6).total == 40
    with pytest.raises(RuleError) as error:
        score_discs(TABLE, [["camel"]] * 6 + [["camel", "stonemason"]])
    assert error.value.rule == "TB-8"


def test_a_disc_that_is_not_a_list_of_kinds_is_refused_with_tb_4():  # TB-4
    for disc in ({"camel": 3}, "ca"):
        with pytest.raises(RuleError) as error:
            score_discs(TABLE, [disc])
        assert (error.value.field, error.value.rule) == ("discs[0]", "TB-4")


def test_equally_good_assignments_go_to_the_first_kind_listed():  # TB-20
    assert score_discs(TABLE, [["camel", "stonemason"]]).assignment == ["camel"]
    assert score_discs(TABLE, [["stonemason", "camel"]]).assignment == ["stonemason"]


def test_only_the_held_cards_that_score_at_the_end_can_be_declared():  # TB-20
    check_held_card_names({"building_disc_bonus": 1, "five_points": 2}, field="held")
    with pytest.raises(RuleError) as error:
        check_held_card_names({"five_points": 1, "joker": 1}, field="held")
    assert (error.value.field, error.value.rule) == ("held.joker", "TB-20")


def test_a_stored_table_without_the_variants_disc_cannot_deal_the_variant():  # TB-8
    table = load_table({"single_disc_numbers": [3, 4, 4, 6, 6, 6]}, edition_rules=False)
    assert len(disc_set(table, two_kind_variant=False)) == 24
    with pytest.raises(RuleError) as error:
        disc_set(table, two_kind_variant=True)
    assert (error.value.field, error.value.rule, error.value.params) == ("single_disc_numbers", "TB-8", {"number": 5})
