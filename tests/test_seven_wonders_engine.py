"""7 Wonders: Babel play-by-play: the tile draft, the Babel board and Great Projects."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.errors import RuleError
from scoring.seven_wonders import engine as sw
from scoring.seven_wonders.data import markers_for, project
from scoring.seven_wonders.engine import SevenWonders

ENGINE = SevenWonders()
ALL = {"tower_tiles": True, "great_projects": True}


def new(players=3, options=ALL, seed=4):
    return ENGINE.initial_state(seats=[str(n) for n in range(players)], options=options, seed=seed)


def apply(state, event_type, **payload):
    return ENGINE.apply(state, type=event_type, payload=payload)


def refused(state, event_type, rule, **payload):
    with pytest.raises(RuleError) as error:
        ENGINE.apply(state, type=event_type, payload=payload)
    assert error.value.rule == rule, error.value.message
    return error.value


def draft(state, choose=min):
    """Everyone keeps ``choose`` of their hand at both steps."""
    for _step in (1, 2):
        for seat in state["seats"]:
            state = apply(state, sw.DRAFT_PICK, seat=seat, tile=choose(state["hands"][seat]))
    return state


@pytest.mark.parametrize(("players", "spaces"), [(2, 2), (3, 3), (4, 3), (5, 4), (8, 4)])
def test_the_board_side_and_active_spaces_follow_the_player_count(players, spaces):  # SW-1
    assert new(players)["spaces"] == spaces


def test_each_player_is_dealt_three_different_tiles_from_the_seed():  # SW-2
    state = new(4)
    dealt = [t for hand in state["hands"].values() for t in hand]
    assert len(dealt) == len(set(dealt)) == 12
    assert new(4)["hands"] == state["hands"]
    assert new(4, seed=5)["hands"] != state["hands"]


def test_the_draft_keeps_one_passes_right_keeps_one_and_adds_the_last():  # SW-2
    state = new(3)
    hands = state["hands"]
    state = draft(state)
    assert state["draft_step"] == 0
    # seat 0 kept its smallest, then the smallest of what seat 1 (on its left) passed on,
    # then received the last tile seat 1 kept from seat 2's hand.
    first = min(hands["0"])
    second = min(t for t in hands["1"] if t != min(hands["1"]))
    from_two = [t for t in hands["2"] if t != min(hands["2"])]
    third = max(from_two)
    assert state["tiles"]["0"] == sorted([first, second, third])


@given(st.integers(2, 8), st.integers(0, 1000), st.sampled_from([min, max]))
def test_after_any_draft_each_player_holds_three_of_the_dealt_tiles(players, seed, choose):  # SW-2
    state = new(players, seed=seed)
    dealt = sorted(t for hand in state["hands"].values() for t in hand)
    done = draft(state, choose)
    assert all(len(tiles) == 3 for tiles in done["tiles"].values())
    assert sorted(t for tiles in done["tiles"].values() for t in tiles) == dealt


def test_a_pick_must_come_from_the_hand_and_the_draft_ends_once():  # SW-2
    state = new(3)
    outside = next(t for t in range(1, 25) if t not in state["hands"]["0"])
    refused(state, sw.DRAFT_PICK, "SW-2", seat="0", tile=outside)
    refused(draft(state), sw.DRAFT_PICK, "SW-2", seat="0", tile=1)


def test_a_table_can_record_a_draft_done_with_the_physical_tiles():  # SW-2
    state = apply(new(2), sw.DRAFT_RECORD, tiles={"0": [1, 5, 9], "1": [2, 19, 24]})
    assert state["tiles"] == {"0": [1, 5, 9], "1": [2, 19, 24]}
    refused(new(2), sw.DRAFT_RECORD, "SW-2", tiles={"0": [1, 5, 9], "1": [1, 19, 24]})
    refused(new(2), sw.DRAFT_RECORD, "SW-2", tiles={"0": [1, 5], "1": [2, 19, 24]})


def test_tiles_are_built_only_after_the_draft_and_ages_resolve_in_order():  # SW-4
    refused(new(3), sw.BUILD_TILES, "SW-2", tiles={"0": 1})
    state = new(3)
    for _age in (1, 2, 3):
        state = apply(state, sw.END_AGE)
    refused(state, sw.END_AGE, "SW-10")


def test_tiles_built_in_one_turn_are_placed_in_increasing_number_clockwise():  # SW-5, SW-6
    state = apply(new(3), sw.DRAFT_RECORD, tiles={"0": [1, 5, 9], "1": [2, 19, 24], "2": [3, 7, 11]})
    state = apply(state, sw.BUILD_TILES, tiles={"0": 9, "1": 2})
    assert sw.visible_tiles(state) == [2, 9, None]
    state = apply(state, sw.BUILD_TILES, tiles={"2": 7})
    state = apply(state, sw.BUILD_TILES, tiles={"1": 19})
    assert sw.visible_tiles(state) == [19, 9, 7]  # the fourth covers the oldest
    assert sw.tiles_built(state, "1") == 2
    refused(state, sw.BUILD_TILES, "SW-5", tiles={"0": 2})  # not your tile
    refused(state, sw.BUILD_TILES, "SW-5", tiles={"1": 19})  # built already


def test_two_players_have_two_active_spaces():  # SW-1, SW-6
    state = apply(new(2), sw.DRAFT_RECORD, tiles={"0": [1, 5, 9], "1": [2, 19, 24]})
    for tile in (1, 2, 5):
        state = apply(state, sw.BUILD_TILES, tiles={"0" if tile in (1, 5) else "1": tile})
    assert sw.visible_tiles(state) == [5, 2]


def test_one_project_of_each_age_is_drawn_with_players_minus_one_markers():  # SW-3
    state = new(5)
    ages = {1: [], 2: [], 3: []}
    for age, slug in enumerate(state["projects"], start=1):
        ages[age].append(project(slug)["age"])
    assert ages == {1: [1], 2: [2], 3: [3]}
    assert state["markers_left"] == 4


def test_participation_takes_a_marker_until_none_is_left():  # SW-9
    state = new(3)
    state = apply(apply(state, sw.PARTICIPATE, seat="0"), sw.PARTICIPATE, seat="1")
    assert state["markers_left"] == 0
    refused(state, sw.PARTICIPATE, "SW-9", seat="2")
    extra = apply(state, sw.PARTICIPATE, seat="2", same_turn_reserve=True)
    assert extra["markers"] == {"0": 1, "1": 1, "2": 1}


def test_a_successful_age_rewards_and_a_failed_one_punishes_or_gives_tokens():  # SW-10
    state = apply(apply(new(3), sw.PARTICIPATE, seat="0"), sw.PARTICIPATE, seat="0")
    state = apply(state, sw.END_AGE)
    assert state["resolved"][0]["success"] is True
    assert state["resolved"][0]["outcomes"][0]["times"] == 2
    assert state["age"] == 2
    assert state["markers_left"] == 2
    assert state["markers"] == {}
    state = apply(apply(state, sw.PARTICIPATE, seat="1"), sw.END_AGE, cannot_suffer=["2"])
    outcomes = {o["seat"]: o["outcome"] for o in state["resolved"][1]["outcomes"]}
    assert outcomes == {"0": "penalty", "1": "none", "2": "penalty_token"}
    assert sw.penalty_token_points(state, "2") == -2


def test_modules_left_out_refuse_their_events():  # SW-2, SW-3
    plain = new(3, options={})
    refused(plain, sw.DRAFT_PICK, "SW-2", seat="0", tile=1)
    refused(plain, sw.PARTICIPATE, "SW-3", seat="0")


def test_sheets_for_all_players_give_the_standings():  # SW-12, SW-14
    state = new(2, options={})
    state = apply(state, sw.SHEET, seat="0", sheet={"coins": 4, "civilian": 10})
    assert ENGINE.standings(state) is None
    state = apply(state, sw.SHEET, seat="1", sheet={"coins": 7, "civilian": 10})
    assert [(s.seat, s.score, s.rank) for s in ENGINE.standings(state)] == [("0", 11, 2), ("1", 12, 1)]


@pytest.mark.parametrize("players", [2, 4, 7])
def test_a_whole_game_runs_through_the_draft_three_ages_and_the_sheets(players):  # SW-1..SW-14
    state = draft(new(players, seed=players))
    seats = state["seats"]
    for age in (1, 2, 3):
        builder = seats[age % players]
        unbuilt = [t for t in state["tiles"][builder] if t not in {tile for _s, tile in state["built"]}]
        state = apply(state, sw.BUILD_TILES, tiles={builder: unbuilt[0]})
        for seat in seats[: markers_for(players)]:
            state = apply(state, sw.PARTICIPATE, seat=seat)
        state = apply(state, sw.END_AGE)
    assert [r["success"] for r in state["resolved"]] == [True, True, True]
    assert state["age"] == 4
    assert sum(sw.tiles_built(state, seat) for seat in seats) == 3
    for index, seat in enumerate(seats):
        state = apply(state, sw.SHEET, seat=seat, sheet={"coins": index, "civilian": 10})
    standings = {s.seat: s for s in ENGINE.standings(state)}
    # 10 + coins // 3 each: the last seats have the most points, coins break the ties (SW-14).
    assert standings[seats[-1]].rank == 1
    assert standings[seats[0]].rank == players


def test_tiles_declared_on_the_phones_are_placed_with_the_others_in_increasing_number():  # SW-5, SW-6
    state = apply(new(3), sw.DRAFT_RECORD, tiles={"0": [1, 5, 9], "1": [2, 19, 24], "2": [3, 7, 11]})
    state = apply(state, sw.DECLARE_TILE, seat="0", tile=9)
    state = apply(state, sw.DECLARE_TILE, seat="1", tile=24)
    state = apply(state, sw.DECLARE_TILE, seat="1", tile=2)  # changed their mind
    assert state["built"] == []
    state = apply(state, sw.BUILD_TILES, tiles={"2": 7})  # the host adds a player without a phone
    assert sw.visible_tiles(state) == [2, 7, 9]
    assert state["declared"] == {}
    state = apply(state, sw.DECLARE_TILE, seat="0", tile=5)
    state = apply(state, sw.BUILD_TILES, tiles={"0": 1})  # given here: it wins over the declaration
    assert [tile for _seat, tile in state["built"]] == [2, 7, 9, 1]


def test_a_declared_tile_is_an_own_unbuilt_one_after_the_draft_and_can_be_taken_back():  # SW-2, SW-5
    refused(new(3), sw.DECLARE_TILE, "SW-2", seat="0", tile=1)
    state = apply(new(3), sw.DRAFT_RECORD, tiles={"0": [1, 5, 9], "1": [2, 19, 24], "2": [3, 7, 11]})
    refused(state, sw.DECLARE_TILE, "SW-5", seat="0", tile=2)  # not yours
    state = apply(state, sw.BUILD_TILES, tiles={"0": 1})
    refused(state, sw.DECLARE_TILE, "SW-5", seat="0", tile=1)  # built already
    state = apply(state, sw.DECLARE_TILE, seat="0", tile=5)
    state = apply(state, sw.DECLARE_TILE, seat="0", tile=None)
    assert state["declared"] == {}
    refused(state, sw.BUILD_TILES, "SW-5")  # nothing declared and nothing given
