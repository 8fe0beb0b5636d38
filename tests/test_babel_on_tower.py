"""One Babel On! tower: the building rules (BO-7..BO-11) and the perfect tower (BO-13)."""

import signal
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from scoring.babel_on.tower import (
    blocks,
    cell_index,
    check_add,
    check_built,
    check_remove,
    empty_tower,
    failures,
    floor_number,
    is_complete,
    is_perfect,
    lowest_incomplete,
    most_removable,
    protected_up_to,
    removable_blocks,
    room,
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


def test_a_full_tower_is_complete_stands_and_takes_no_more_blocks():  # BO-7, BO-8
    full = tower_from_floors([FULL] * 6)
    assert lowest_incomplete(full) is None
    assert is_complete(full)
    assert not is_complete(tower_from_floors([FULL] * 5 + [["red", "red", "red", None]]))
    assert not is_complete(empty_tower())
    check_built(full, field="floors")
    assert (blocks(full), room(full), top_floor(full)) == (24, 0, 6)


def test_the_blocks_on_a_tower_and_its_room_left_add_up_to_24():  # BO-5, BO-7
    tower = tower_from_floors([FULL, ["red", None, "red", None]])
    assert (blocks(tower), room(tower)) == (6, 18)
    assert (blocks(empty_tower()), room(empty_tower())) == (0, 24)


def test_a_cell_is_named_by_its_corner_of_the_grid():  # BO-7
    assert [cell_index(name, field="x") for name in ("nw", "ne", "sw", "se")] == [NW, NE, SW, SE]
    for raw in ("north", "NW", None, 0):
        error = refused(lambda r=raw: cell_index(r, field="blocks[2].cell"), "BO-7")
        assert (error.field, error.params) == ("blocks[2].cell", {"cells": "nw, ne, sw, se"})


def test_a_floor_is_a_whole_number_from_1_to_6():  # BO-7
    assert [floor_number(n, field="x") for n in (1, 6)] == [1, 6]
    for raw in (0, 7, -1, True, "2", 2.0, None):
        error = refused(lambda r=raw: floor_number(r, field="blocks[0].floor"), "BO-7")
        assert (error.field, error.params) == ("blocks[0].floor", {"floors": 6})


def test_each_refused_addition_names_the_block_it_was_given_for():  # BO-7, BO-8
    tower = tower_from_floors([["red", "red", "red", None], ["red", None, None, None]])
    assert refused(lambda: check_add(tower, 1, NW, field="blocks[1]"), "BO-7").field == "blocks[1]"
    assert refused(lambda: check_add(tower, 3, NW, field="blocks[1]"), "BO-8").field == "blocks[1]"


def test_each_refused_removal_names_the_block_it_was_given_for():  # BO-7, BO-8, BO-11
    tower = tower_from_floors([FULL, ["red", None, None, None]])
    for floor, cell, rule in ((2, NE, "BO-7"), (1, NW, "BO-7")):
        error = refused(
            lambda f=floor, c=cell: check_remove(tower, f, c, owner_colour="red", by_owner=True, field="removals[1]"),
            rule,
        )
        assert error.field == "removals[1]"
    protected = tower_from_floors([["red"] * 4, ["blue", None, None, None]])
    error = refused(
        lambda: check_remove(protected, 1, NE, owner_colour="red", by_owner=True, field="removals[2]"), "BO-11"
    )
    assert (error.field, error.params) == ("removals[2]", {"protected": 1})
    leaning = tower_from_floors([FULL, FULL, ["red", "red", None, None], ["red", None, None, None]])
    error = refused(
        lambda: check_remove(leaning, 2, SE, owner_colour="red", by_owner=True, field="removals[0]"), "BO-8"
    )
    assert (error.field, error.params) == ("removals[0]", {"partial": 2})


def test_taking_a_block_off_a_lower_floor_is_judged_on_the_tower_without_that_block():  # BO-8
    tower = tower_from_floors([FULL, FULL, ["red", None, None, None]])
    check_remove(tower, 2, SE, owner_colour="purple", by_owner=True, field="x")  # floors 2 and 3 partly built
    high = tower_from_floors([FULL] * 5 + [["red", None, None, None]])
    check_remove(high, 5, SE, owner_colour="purple", by_owner=True, field="x")  # floors 5 and 6


def test_the_suggested_places_reach_the_top_floors():  # BO-7, BO-8
    assert suggested_places(tower_from_floors([FULL] * 4), 5) == ["5-nw", "5-ne", "5-sw", "5-se", "6-nw"]
    assert suggested_places(tower_from_floors([FULL] * 5), 5) == ["6-nw", "6-ne", "6-sw", "6-se"]


def test_the_owner_may_take_their_own_colour_off_below_the_top_floor_others_may_not():  # BO-10
    tower = tower_from_floors([["red", "blue", "blue", "blue"], [None, "blue", None, None]])
    assert list(removable_blocks(tower, "red", by_owner=True)) == [(1, NW), (1, SW), (1, SE), (2, NE)]
    assert list(removable_blocks(tower, "red", by_owner=False)) == [(1, SW), (1, SE), (2, NE)]


def test_no_block_of_a_protected_or_empty_tower_can_be_moved():  # BO-5, BO-11
    protected = tower_from_floors([["red"] * 4])
    assert list(removable_blocks(protected, "red", by_owner=True)) == []
    for by_owner in (True, False):
        assert most_removable(protected, "red", by_owner=by_owner, cap=5) == 0
        assert most_removable(empty_tower(), "red", by_owner=by_owner, cap=5) == 0


def test_a_tower_gives_up_as_many_blocks_as_can_come_off_one_after_another_and_no_more():  # BO-5, BO-11
    assert most_removable(tower_from_floors([["blue", None, None, None]]), "red", by_owner=True, cap=5) == 1
    tower = tower_from_floors([["red"] * 4, FULL, ["green", "green", None, None]])
    assert most_removable(tower, "red", by_owner=False, cap=5) == 5
    assert most_removable(tower, "red", by_owner=True, cap=3) == 3
    assert most_removable(tower, "red", by_owner=True, cap=24) == 6


def test_a_tower_given_whole_names_the_floor_a_floating_block_needs_under_it():  # BO-7, BO-8
    error = refused(
        lambda: check_built(
            tower_from_floors([FULL, ["red", None, None, None], [None, "red", None, None]]), field="floors"
        ),
        "BO-7",
    )
    assert (error.field, error.params) == ("floors[2][1]", {"floor": 3, "below": 2})
    check_built(tower_from_floors([["red", "red", "red", None], ["red", None, None, None]]), field="floors")
    check_built(tower_from_floors([FULL, ["red", "red", None, None], ["red", None, None, None]]), field="floors")


def test_every_failure_of_a_perfect_tower_can_be_shown_with_its_floor():  # BO-13
    tower = tower_from_floors(
        [["red", "blue", "blue", "blue"]] * 3
        + [["blue"] * 4]
        + [["red", "blue", "blue", "blue"], ["red", "blue", None, None]]
    )
    for players in (2, 6):
        found = failures(tower, "red", players)
        assert all(isinstance(f.message, str) and f.message for f in found)
    colour = [f for f in failures(tower, "red", 6) if f.condition == "colour"]
    assert [(f.floor, f.params) for f in colour] == [(4, {"floor": 4})]


@contextmanager
def within_seconds(seconds: float) -> Iterator[None]:
    """Fails the block if it runs longer than ``seconds`` (wall clock)."""

    def too_slow(signum, frame):
        raise AssertionError(f"took longer than {seconds} s")

    previous = signal.signal(signal.SIGALRM, too_slow)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


# (tower, owner colour, blocks asked for, most that can come off): more is asked than the tower
# can give, so every order of removals must be ruled out; a tower reached by several orders is
# searched once, else the orders of 16 or 24 blocks would take for ever.
SEARCHED_WHOLE = [
    ([FULL] * 6, "red", 25, 24),
    ([["red"] * 4, *[FULL] * 4], "red", 24, 16),
    ([FULL] * 4 + [["red", "red", "blue", None]], "red", 24, 19),
]


def test_the_most_blocks_a_whole_tower_gives_up_is_found_at_once():  # BO-5, BO-8, BO-11
    with within_seconds(10):
        for raw, owner, cap, most in SEARCHED_WHOLE:
            for by_owner in (True, False):
                assert most_removable(tower_from_floors(raw), owner, by_owner=by_owner, cap=cap) == most
