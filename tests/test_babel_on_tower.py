"""One Babel On! tower: the building rules (BO-7..BO-11) and the perfect tower (BO-13)."""

import pytest

from scoring.babel_on.tower import (
    check_add,
    check_built,
    check_remove,
    empty_tower,
    failures,
    is_perfect,
    lowest_incomplete,
    protected_up_to,
    suggested_places,
    top_floor,
    tower_from_floors,
)
from scoring.errors import RuleError

NW, NE, SW, SE = range(4)
FULL = ["blue", "green", "blue", "green"]


def refused(call, rule):
    with pytest.raises(RuleError) as error:
        call()
    assert error.value.rule == rule
    return error.value


def test_a_tower_has_six_floors_of_four_cells_bottom_first():  # BO-7
    tower = empty_tower()
    assert len(tower) == 6
    assert all(floor == [None, None, None, None] for floor in tower)
    assert (lowest_incomplete(tower), top_floor(tower)) == (1, 0)


def test_a_block_above_the_ground_needs_a_block_under_it_in_the_same_cell():  # BO-7
    tower = tower_from_floors([["red", None, None, None]])
    check_add(tower, 2, NW, field="x")
    error = refused(lambda: check_add(tower, 2, NE, field="blocks[0]"), "BO-7")
    assert error.field == "blocks[0]"
    assert "must sit on a block in the same cell of floor 1" in error.message


def test_a_cell_holds_one_block():  # BO-7
    tower = tower_from_floors([["red", None, None, None]])
    refused(lambda: check_add(tower, 1, NW, field="x"), "BO-7")


def test_only_the_lowest_incomplete_floor_and_the_one_above_take_blocks():  # BO-8
    tower = tower_from_floors([["red", "red", "red", None], ["red", "red", None, None]])
    check_add(tower, 1, SE, field="x")
    check_add(tower, 2, SW, field="x")
    error = refused(lambda: check_add(tower, 3, NW, field="x"), "BO-8")
    assert "floor 1 is not complete yet" in error.message
    complete_first = tower_from_floors([FULL, ["red", "red", None, None]])
    check_add(complete_first, 3, NW, field="x")  # floor 1 complete: floors 2 and 3 are open


def test_a_removal_may_not_leave_three_partly_built_floors():  # BO-8
    tower = tower_from_floors([FULL, FULL, ["red", "red", None, None], ["red", None, None, None]])
    refused(lambda: check_remove(tower, 2, SE, owner_colour="purple", by_owner=True, field="x"), "BO-8")
    check_remove(tower, 4, NW, owner_colour="purple", by_owner=True, field="x")


def test_a_block_with_a_block_on_top_cannot_be_taken_off():  # BO-7
    tower = tower_from_floors([FULL, ["red", None, None, None]])
    refused(lambda: check_remove(tower, 1, NW, owner_colour="purple", by_owner=False, field="x"), "BO-7")
    check_remove(tower, 1, NE, owner_colour="purple", by_owner=False, field="x")
    refused(lambda: check_remove(tower, 3, NE, owner_colour="purple", by_owner=False, field="x"), "BO-7")


def test_an_opponents_colour_comes_off_only_from_a_top_floor_of_that_colour_alone():  # BO-10
    below_top = tower_from_floors([["red", "blue", "blue", "blue"], [None, "blue", None, None]])
    error = refused(lambda: check_remove(below_top, 1, NW, owner_colour="red", by_owner=False, field="x"), "BO-10")
    assert "top floor" in error.message
    mixed_top = tower_from_floors([FULL, ["red", "green", None, None]])
    refused(lambda: check_remove(mixed_top, 2, NW, owner_colour="red", by_owner=False, field="x"), "BO-10")
    check_remove(mixed_top, 2, NE, owner_colour="red", by_owner=False, field="x")  # another colour is fine
    alone = tower_from_floors([FULL, ["red", "red", None, None]])
    check_remove(alone, 2, NW, owner_colour="red", by_owner=False, field="x")


def test_the_owner_takes_their_own_colour_off_freely():  # BO-10
    tower = tower_from_floors([["red", "blue", "blue", "blue"], ["blue", None, None, None]])
    check_remove(tower, 1, SW, owner_colour="blue", by_owner=True, field="x")
    check_remove(tower, 1, NE, owner_colour="blue", by_owner=True, field="x")


def test_a_floor_of_four_own_blocks_and_every_floor_below_are_protected_even_from_the_owner():  # BO-11
    tower = tower_from_floors([FULL, ["red"] * 4, ["green", None, None, None]])
    assert protected_up_to(tower, "red") == 2
    for by_owner in (True, False):
        error = refused(
            lambda b=by_owner: check_remove(tower, 2, NE, owner_colour="red", by_owner=b, field="x"), "BO-11"
        )
        assert "Floor 2" in error.message
    check_remove(tower, 3, NW, owner_colour="red", by_owner=False, field="x")
    assert protected_up_to(tower, "green") == 0


def perfect_for_few():
    return tower_from_floors([["red", "red", "blue", "green"]] * 6)


def test_a_complete_tower_with_adjacent_pairs_lined_up_is_perfect_for_two_to_four_players():  # BO-13
    for players in (2, 3, 4):
        assert is_perfect(perfect_for_few(), "red", players)


def test_diagonal_pairs_do_not_count_for_two_to_four_players():  # BO-13
    tower = perfect_for_few()
    tower[3] = ["red", "blue", "green", "red"]
    found = failures(tower, "red", 4)
    assert [(f.floor, f.condition) for f in found] == [(4, "adjacent")]
    assert "not diagonally" in found[0].message
    assert is_perfect(tower, "red", 5)  # one block per floor is enough for 5-6 players


def test_five_or_six_players_need_one_block_of_their_colour_per_floor():  # BO-13
    tower = tower_from_floors(
        [["red", "blue", "blue", "blue"]] * 3 + [["blue"] * 4] + [["red", "blue", "blue", "blue"]] * 2
    )
    found = failures(tower, "red", 6)
    assert [(f.floor, f.condition) for f in found] == [(4, "colour"), (4, "line_up"), (5, "line_up")]


def test_every_floor_above_the_first_needs_own_colour_directly_above_own_colour():  # BO-13
    tower = tower_from_floors([["red", "red", "blue", "blue"], ["blue", "blue", "red", "red"]] * 3)
    found = failures(tower, "red", 2)
    assert {f.condition for f in found} == {"line_up"}
    assert [f.floor for f in found] == [2, 3, 4, 5, 6]
    assert found[0].message == "Floor 2: none of your blocks is above one of yours on floor 1."


def test_an_incomplete_tower_says_which_floors_miss_blocks():  # BO-13
    tower = perfect_for_few()
    tower[5] = ["red", "red", None, None]
    found = failures(tower, "red", 2)
    assert [(f.floor, f.condition, f.message) for f in found] == [(6, "complete", "Floor 6 has 2 of 4 blocks.")]


def test_a_tower_given_whole_must_be_able_to_stand():  # BO-7, BO-8
    error = refused(
        lambda: check_built(tower_from_floors([["red", None, None, None], [None, "red", None, None]]), field="floors"),
        "BO-7",
    )
    assert error.field == "floors[1][1]"
    leaning = tower_from_floors([["red", "red", "red", None], ["red", None, None, None], ["red", None, None, None]])
    assert refused(lambda: check_built(leaning, field="floors"), "BO-8").field == "floors[2]"


def test_the_suggested_places_fill_the_lowest_floor_first_and_follow_the_rules():  # BO-7, BO-8
    assert suggested_places(empty_tower(), 6) == ["1-nw", "1-ne", "1-sw", "1-se", "2-nw", "2-ne"]
    assert suggested_places(tower_from_floors([["red", None, None, None]]), 2) == ["1-ne", "1-sw"]
    assert suggested_places(perfect_for_few(), 3) == []
