"""7 Wonders: Babel play-by-play: the tile draft, the Babel board and Great Projects."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.errors import RuleError
from scoring.seven_wonders import engine as sw
from scoring.seven_wonders.data import data, markers_for, project
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


def test_a_recorded_draft_takes_only_whole_numbers_for_tiles():  # SW-2
    # JSON's true and 9.0 equal 1 and 9 in Python: they must not pass for tiles, and a list in
    # a list must be refused, not crash.
    for held in ([True, 5, 9], [1, 5, 9.0], [[1], [5], [9]], [1, 1, 9]):
        error = refused(new(2), sw.DRAFT_RECORD, "SW-2", tiles={"0": held, "1": [2, 19, 24]})
        assert error.field == "tiles.0"


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


# --- mutation testing (docs/mutation.md): every field, rule and state key the engine gives ---

COUNTED = {**ALL, "turns_counted": True}


def refused_at(state, event_type, rule, field, **payload):
    """Refused with ``rule`` (None: malformed input), naming ``field``."""
    error = refused(state, event_type, rule, **payload)
    assert error.field == field, error.message
    return error


def recorded(players=3, options=ALL):
    """A game whose tiles were drafted by hand: seat 0 holds 1, 5, 9; seat 1 2, 19, 24; ..."""
    held = [[1, 5, 9], [2, 19, 24], [3, 7, 11], [4, 6, 22]][:players]
    return apply(new(players, options), sw.DRAFT_RECORD, tiles={str(n): tiles for n, tiles in enumerate(held)})


def test_the_engine_takes_the_eight_events_of_the_game():
    assert ENGINE.event_types() == {
        "sw.draft_pick", "sw.draft_record", "sw.declare_tile", "sw.build_tiles",
        "sw.participate", "sw.next_turn", "sw.end_age", "sw.sheet",
    }  # fmt: skip


def test_a_game_with_every_module_starts_with_the_whole_state():  # SW-1, SW-2, SW-3, SW-9
    options = {**COUNTED, "leaders": True, "table": {"tiles": {"9": "neighbour grey goods -2"}}}
    state = ENGINE.initial_state(seats=["a", "b", "c"], options=options, seed=4)
    hands, projects = state.pop("hands"), state.pop("projects")
    assert sorted(hands) == ["a", "b", "c"]
    assert all(len(hand) == 3 for hand in hands.values())
    assert [project(slug)["age"] for slug in projects] == [1, 2, 3]
    assert state == {
        "seats": ["a", "b", "c"], "sheets": {}, "tiles_on": True, "projects_on": True, "leaders_on": True,
        "corrections": {"tiles": {"9": "neighbour grey goods -2"}, "projects": {}},
        "draft_step": 1, "kept": {"a": [], "b": [], "c": []}, "picks": {}, "tiles": {}, "built": [], "spaces": 3,
        "markers_left": 2, "markers": {}, "resolved": [], "turn": 1, "joined": [], "age": 1,
    }  # fmt: skip


def test_a_game_without_modules_holds_the_sheets_and_the_age_only():  # SW-12
    state = ENGINE.initial_state(seats=["a", "b"], options={}, seed=1)
    assert state == {
        "seats": ["a", "b"], "sheets": {}, "tiles_on": False, "projects_on": False, "leaders_on": False,
        "corrections": {"tiles": {}, "projects": {}}, "age": 1,
    }  # fmt: skip
    assert (sw.tiles_built(state, "a"), sw.reward_tokens(state, "a"), sw.penalty_token_points(state, "a")) == (0, {}, 0)


def test_a_table_that_does_not_count_turns_starts_without_a_turn():  # SW-9
    state = new(3)
    assert (state["turn"], state["joined"], state["leaders_on"]) == (None, [], False)


def test_an_unknown_event_type_is_refused_naming_it():
    error = refused_at(new(3), "sw.build_wonder", None, "type")
    assert error.params == {"type": "sw.build_wonder"}


def test_the_standings_break_each_score_down_by_column_with_the_coins():  # SW-12
    state = apply(new(2, options={}), sw.SHEET, seat="0", sheet={"coins": 4, "civilian": 10})
    state = apply(state, sw.SHEET, seat="1", sheet={"coins": 7, "military": 3})
    assert [s.breakdown for s in ENGINE.standings(state)] == [
        {
            "military": 0, "treasury": 1, "wonder": 0, "civilian": 10, "science": 0, "commercial": 0,
            "guilds": 0, "leaders": 0, "cities": 0, "babel_tiles": 0, "great_projects": 0, "coins": 4,
        },
        {
            "military": 3, "treasury": 2, "wonder": 0, "civilian": 0, "science": 0, "commercial": 0,
            "guilds": 0, "leaders": 0, "cities": 0, "babel_tiles": 0, "great_projects": 0, "coins": 7,
        },
    ]  # fmt: skip


def test_each_step_of_the_draft_leaves_the_picks_empty_and_says_which_step_is_next():  # SW-2
    state = new(3)
    hands = state["hands"]
    state = apply(state, sw.DRAFT_PICK, seat="0", tile=min(hands["0"]))
    assert (state["picks"], state["draft_step"]) == ({"0": min(hands["0"])}, 1)
    for seat in ("1", "2"):
        state = apply(state, sw.DRAFT_PICK, seat=seat, tile=min(hands[seat]))
    passed = {seat: sorted(hands[seat])[1:] for seat in hands}
    assert (state["picks"], state["draft_step"]) == ({}, 2)
    assert state["kept"] == {seat: [min(hands[seat])] for seat in hands}
    assert state["hands"] == {"0": passed["1"], "1": passed["2"], "2": passed["0"]}
    for seat in ("0", "1", "2"):
        state = apply(state, sw.DRAFT_PICK, seat=seat, tile=min(state["hands"][seat]))
    assert (state["kept"]["0"], state["hands"], state["picks"], state["draft_step"]) == (
        [min(hands["0"]), min(passed["1"])],
        {},
        {},
        0,
    )
    assert state["tiles"]["0"] == sorted([min(hands["0"]), min(passed["1"]), max(passed["2"])])


def test_a_pick_names_a_player_of_the_session_and_a_tile_of_their_hand():  # SW-2
    state = new(3)
    outside = next(t for t in range(1, 25) if t not in state["hands"]["0"])
    refused_at(state, sw.DRAFT_PICK, "SW-2", "tile", seat="0", tile=outside)
    refused_at(state, sw.DRAFT_PICK, None, "seat", seat="9", tile=state["hands"]["0"][0])
    refused_at(state, sw.DRAFT_PICK, None, "seat", tile=state["hands"]["0"][0])
    refused_at(draft(state), sw.DRAFT_PICK, "SW-2", "type", seat="0", tile=1)
    refused_at(new(3, options={}), sw.DRAFT_PICK, "SW-2", "type", seat="0", tile=1)


def test_a_seat_given_as_a_number_is_the_player_of_that_name():
    state = new(3)
    state = apply(state, sw.DRAFT_PICK, seat=0, tile=state["hands"]["0"][0])
    assert list(state["picks"]) == ["0"]


def test_a_draft_recorded_by_hand_ends_the_draft_with_nothing_left_in_hand():  # SW-2
    state = recorded(2)
    before = new(2)
    assert state == {
        **before,
        "hands": {},
        "kept": {"0": [], "1": []},
        "draft_step": 0,
        "tiles": {"0": [1, 5, 9], "1": [2, 19, 24]},
    }


def test_a_draft_is_recorded_only_before_the_apps_draft_has_begun():  # SW-2
    tiles = {"0": [1, 5, 9], "1": [2, 19, 24]}
    refused_at(recorded(2), sw.DRAFT_RECORD, "SW-2", "type", tiles=tiles)
    state = new(2)
    begun = apply(state, sw.DRAFT_PICK, seat="0", tile=state["hands"]["0"][0])
    refused_at(begun, sw.DRAFT_RECORD, "SW-2", "type", tiles=tiles)
    refused_at(new(2, options={"great_projects": True}), sw.DRAFT_RECORD, "SW-2", "type", tiles=tiles)


def test_a_recorded_draft_gives_three_different_tiles_to_every_player():  # SW-2
    state = new(2)
    refused_at(state, sw.DRAFT_RECORD, "SW-2", "tiles")
    refused_at(state, sw.DRAFT_RECORD, "SW-2", "tiles", tiles=[[1, 5, 9], [2, 19, 24]])
    refused_at(state, sw.DRAFT_RECORD, "SW-2", "tiles", tiles={"0": [1, 5, 9]})
    refused_at(state, sw.DRAFT_RECORD, "SW-2", "tiles", tiles={"0": [1, 5, 9], "1": [2, 19, 24], "2": [3, 4, 6]})
    for held in (5, "159", [1, 1, 5], [1, 5, 9, 13], [1, 1, 5, 9], []):
        error = refused_at(state, sw.DRAFT_RECORD, "SW-2", "tiles.0", tiles={"0": held, "1": [2, 19, 24]})
        assert error.params == {}
    error = refused_at(state, sw.DRAFT_RECORD, "SW-2", "tiles.1", tiles={"0": [1, 5, 9], "1": [2, 19, 25]})
    assert error.params == {"tile": 25}
    error = refused_at(state, sw.DRAFT_RECORD, "SW-2", "tiles.1", tiles={"0": [1, 5, 9], "1": [0, 19, 24]})
    assert error.params == {"tile": 0}
    error = refused_at(state, sw.DRAFT_RECORD, "SW-2", "tiles.1", tiles={"0": [1, 5, 9], "1": [2, 9, 24]})
    assert error.params == {"tile": 9}


def test_a_declared_tile_is_refused_naming_the_tile():  # SW-2, SW-5
    refused_at(new(3), sw.DECLARE_TILE, "SW-2", "type", seat="0", tile=1)
    refused_at(recorded(), sw.DECLARE_TILE, "SW-5", "tile", seat="0", tile=2)
    refused_at(recorded(), sw.DECLARE_TILE, None, "seat", seat="7", tile=1)


def test_declared_tiles_are_built_by_an_event_that_names_no_tile():  # SW-5
    state = apply(apply(recorded(), sw.DECLARE_TILE, seat="0", tile=9), sw.DECLARE_TILE, seat="1", tile=2)
    state = apply(state, sw.BUILD_TILES)
    assert (state["built"], state["declared"]) == ([["1", 2], ["0", 9]], {})


def test_built_tiles_are_refused_naming_the_tiles_or_the_seat():  # SW-2, SW-5
    refused_at(new(3), sw.BUILD_TILES, "SW-2", "type", tiles={"0": 1})
    refused_at(new(3, options={}), sw.BUILD_TILES, "SW-2", "type", tiles={"0": 1})
    state = recorded()
    refused_at(state, sw.BUILD_TILES, "SW-5", "tiles", tiles=[["0", 1]])
    refused_at(state, sw.BUILD_TILES, "SW-5", "tiles", tiles=None)
    refused_at(state, sw.BUILD_TILES, "SW-5", "tiles", tiles={})
    refused_at(state, sw.BUILD_TILES, "SW-5", "tiles.1", tiles={"0": 1, "1": 3})
    refused_at(state, sw.BUILD_TILES, None, "seat", tiles={"5": 1})


def test_a_player_joins_once_per_turn_and_again_in_the_next_turn():  # SW-9
    state = new(4, options=COUNTED)
    assert (state["turn"], sw.joined_this_turn(state), sw.participation(state, "0")) == (1, [], sw.CARD)
    state = apply(state, sw.PARTICIPATE, seat="0")
    assert (state["joined"], sw.joined_this_turn(state), state["markers_left"]) == (["0"], ["0"], 2)
    assert (sw.participation(state, "0"), sw.participation(state, "1")) == (None, sw.CARD)
    refused_at(state, sw.PARTICIPATE, "SW-9", "seat", seat="0")
    state = apply(state, sw.PARTICIPATE, seat="1")
    assert (state["joined"], state["markers_left"], sw.participation(state, "2")) == (["0", "1"], 1, sw.CARD)
    state = apply(state, sw.NEXT_TURN, turn=1)
    assert (state["turn"], state["joined"], sw.joined_this_turn(state)) == (2, [], [])
    state = apply(state, sw.PARTICIPATE, seat="0")
    assert (state["markers"], state["markers_left"], state["joined"]) == ({"0": 2, "1": 1}, 0, ["0"])


def test_with_no_marker_left_only_players_joining_in_the_same_turn_take_one_from_the_reserve():  # SW-9
    state = apply(new(3, options=COUNTED), sw.PARTICIPATE, seat="0")
    state = apply(apply(state, sw.NEXT_TURN), sw.PARTICIPATE, seat="1")
    assert (state["markers_left"], state["joined"]) == (0, ["1"])
    assert [sw.participation(state, seat) for seat in ("0", "1", "2")] == [sw.RESERVE, None, sw.RESERVE]
    refused_at(state, sw.PARTICIPATE, "SW-9", "seat", seat="2")
    refused_at(state, sw.PARTICIPATE, "SW-9", "same_turn_reserve", seat="2", same_turn_reserve="yes")
    joined = apply(state, sw.PARTICIPATE, seat="2", same_turn_reserve=True)
    assert (joined["markers"], joined["markers_left"], joined["joined"]) == ({"0": 1, "1": 1, "2": 1}, 0, ["1", "2"])
    later = apply(state, sw.NEXT_TURN, turn=2)
    assert [sw.participation(later, seat) for seat in ("0", "1", "2")] == [None, None, None]
    refused_at(later, sw.PARTICIPATE, "SW-9", "same_turn_reserve", seat="2", same_turn_reserve=True)
    refused_at(later, sw.PARTICIPATE, "SW-9", "seat", seat="2")


def test_a_table_that_does_not_count_turns_lets_a_player_join_twice_and_anyone_use_the_reserve():  # SW-9
    state = apply(apply(new(3), sw.PARTICIPATE, seat="0"), sw.PARTICIPATE, seat="0")
    assert (state["markers"], state["markers_left"], state["joined"]) == ({"0": 2}, 0, ["0", "0"])
    assert sw.joined_this_turn(state) == []
    assert [sw.participation(state, seat) for seat in ("0", "1")] == [sw.RESERVE, sw.RESERVE]
    refused_at(state, sw.PARTICIPATE, "SW-9", "seat", seat="1")
    state = apply(state, sw.PARTICIPATE, seat="1", same_turn_reserve=True)
    assert (state["markers"], state["markers_left"]) == ({"0": 2, "1": 1}, 0)


def test_a_participation_is_refused_without_projects_after_the_game_or_for_an_unknown_seat():  # SW-3, SW-10
    refused_at(new(3, options={"tower_tiles": True}), sw.PARTICIPATE, "SW-3", "type", seat="0")
    over = new(3)
    for _age in (1, 2, 3):
        over = apply(over, sw.END_AGE)
    refused_at(over, sw.PARTICIPATE, "SW-10", "type", seat="0")
    refused_at(new(3), sw.PARTICIPATE, None, "seat", seat="3")
    refused_at(new(3), sw.PARTICIPATE, None, "seat")


def test_each_new_turn_counts_on_and_a_second_press_for_the_same_turn_is_refused():  # SW-9
    state = new(3, options=COUNTED)
    state = apply(state, sw.PARTICIPATE, seat="0")
    state = apply(state, sw.NEXT_TURN, turn=1)
    assert (state["turn"], state["joined"]) == (2, [])
    error = refused_at(state, sw.NEXT_TURN, "SW-9", "turn", turn=1)
    assert error.params == {"turn": 1}
    refused_at(state, sw.NEXT_TURN, "SW-9", "turn", turn=3)
    state = apply(state, sw.NEXT_TURN)
    assert state["turn"] == 3
    for wrong in (True, "3", 3.0):
        refused_at(state, sw.NEXT_TURN, None, "turn", turn=wrong)
    assert apply(state, sw.NEXT_TURN, turn=3)["turn"] == 4


def test_a_table_that_did_not_count_turns_starts_counting_at_its_first_new_turn():  # SW-9
    state = apply(apply(new(3), sw.PARTICIPATE, seat="0"), sw.NEXT_TURN, turn=1)
    assert (state["turn"], state["joined"]) == (2, [])
    state = apply(state, sw.PARTICIPATE, seat="0")
    refused_at(state, sw.PARTICIPATE, "SW-9", "seat", seat="0")


def test_a_new_turn_is_refused_without_projects_and_after_the_third_age():  # SW-3, SW-10
    refused_at(new(3, options={}), sw.NEXT_TURN, "SW-3", "type")
    over = new(3)
    for _age in (1, 2, 3):
        over = apply(over, sw.END_AGE)
    refused_at(over, sw.NEXT_TURN, "SW-10", "type")


def test_an_age_ends_without_projects_by_counting_the_age_only():  # SW-4
    state = new(3, options={})
    ended = apply(state, sw.END_AGE)
    assert ended == {**state, "age": 2}
    ended = apply(apply(ended, sw.END_AGE), sw.END_AGE)
    assert ended["age"] == 4
    refused_at(ended, sw.END_AGE, "SW-10", "type")


def with_projects(state, *slugs):
    """The state with these projects drawn for the three ages (SW-3)."""
    return {**state, "projects": list(slugs)}


def test_the_end_of_an_age_records_each_outcome_with_the_tiles_the_leaders_and_the_groups_cards():  # SW-10
    age_one = [card["slug"] for card in data()["projects"]["value"] if card["age"] == 1]
    table = {"projects": {slug: {"penalty_defeat_tokens": 1} for slug in age_one}}
    state = recorded(4, {**COUNTED, "leaders": True, "table": table})
    state = apply(apply(state, sw.BUILD_TILES, tiles={"3": 22}), sw.PARTICIPATE, seat="0")
    before = state
    state = apply(state, sw.END_AGE, cannot_suffer=["3"], tomyris="2")
    assert state == {
        **before,
        "markers_left": 3,
        "markers": {},
        "turn": 1,
        "joined": [],
        "age": 2,
        "resolved": [
            {
                "age": 1,
                "project": before["projects"][0],
                "success": False,
                "outcomes": [
                    {"seat": "0", "outcome": "none", "times": 0, "vp": None, "defeat_tokens": 0},
                    {"seat": "1", "outcome": "penalty", "times": 1, "vp": None, "defeat_tokens": 2},
                    {"seat": "2", "outcome": "penalty", "times": 1, "vp": None, "defeat_tokens": 0},
                    {"seat": "3", "outcome": "penalty_token", "times": 1, "vp": -1, "defeat_tokens": 0},
                ],
            }
        ],
    }


def test_a_military_reward_drops_a_step_while_tile_19_shows_and_only_with_the_tiles():  # SW-7, SW-10
    state = with_projects(recorded(3), "double-walls", "war-mirror", "giant-trebuchet")
    state = apply(state, sw.BUILD_TILES, tiles={"1": 19})
    state = apply(apply(state, sw.PARTICIPATE, seat="0"), sw.PARTICIPATE, seat="1")
    state = apply(state, sw.END_AGE)
    state = apply(apply(state, sw.PARTICIPATE, seat="0"), sw.PARTICIPATE, seat="0")
    state = apply(state, sw.END_AGE)
    assert [[(o["outcome"], o["times"], o["vp"]) for o in r["outcomes"]] for r in state["resolved"]] == [
        [("reward", 1, 0), ("reward", 1, 0), ("none", 0, None)],
        [("reward", 2, 1), ("none", 0, None), ("none", 0, None)],
    ]
    plain = with_projects(new(3, options={"great_projects": True}), "double-walls", "war-mirror", "giant-trebuchet")
    plain = apply(plain, sw.END_AGE)
    plain = apply(apply(plain, sw.PARTICIPATE, seat="0"), sw.PARTICIPATE, seat="0")
    assert apply(plain, sw.END_AGE)["resolved"][1]["outcomes"][0]["vp"] == 3  # no tiles: no tile 19


def test_every_player_may_be_spared_a_penalty_and_the_list_names_players():  # SW-10
    state = new(3)
    ended = apply(state, sw.END_AGE, cannot_suffer=["0", "1", "2"])
    assert [o["outcome"] for o in ended["resolved"][0]["outcomes"]] == ["penalty_token"] * 3
    assert [sw.penalty_token_points(ended, seat) for seat in ("0", "1", "2")] == [-1, -1, -1]
    for wrong in ("2", ["3"], {"0": True}):
        refused_at(state, sw.END_AGE, None, "cannot_suffer", cannot_suffer=wrong)


def test_tomyris_is_named_only_in_a_game_with_leaders_and_among_its_players():  # SW-10
    state = new(3)
    refused_at(state, sw.END_AGE, "SW-10", "tomyris", tomyris="1")
    for nobody in ("", None):
        assert apply(state, sw.END_AGE, tomyris=nobody)["age"] == 2
    leaders = new(3, options={**ALL, "leaders": True})
    refused_at(leaders, sw.END_AGE, None, "tomyris", tomyris="3")
    assert apply(leaders, sw.END_AGE, tomyris="1")["age"] == 2


def test_after_the_third_age_the_card_is_not_refilled():  # SW-3, SW-10
    state = new(3, options=COUNTED)
    state = apply(apply(state, sw.END_AGE), sw.END_AGE)
    state = apply(apply(state, sw.PARTICIPATE, seat="2"), sw.PARTICIPATE, seat="0")
    state = apply(state, sw.END_AGE)
    assert {k: state[k] for k in ("markers_left", "markers", "turn", "joined", "age")} == {
        "markers_left": 0,
        "markers": {},
        "turn": 1,
        "joined": [],
        "age": 4,
    }
    assert apply(apply(new(3), sw.END_AGE), sw.END_AGE)["markers_left"] == 2


def test_reward_tokens_and_penalty_points_are_each_players_own():  # SW-10, SW-12
    state = with_projects(new(3), "cranes", "smelter", "archives")
    state = apply(apply(state, sw.PARTICIPATE, seat="0"), sw.END_AGE, cannot_suffer=["1", "2"])
    state = apply(apply(state, sw.PARTICIPATE, seat="0"), sw.PARTICIPATE, seat="1")
    state = apply(state, sw.END_AGE)
    state = apply(apply(state, sw.PARTICIPATE, seat="0"), sw.PARTICIPATE, seat="0")
    state = apply(state, sw.END_AGE)
    assert [sw.reward_tokens(state, seat) for seat in ("0", "1", "2")] == [
        {"smelter": 1, "archives": 2},
        {"smelter": 1},
        {},
    ]
    assert [sw.penalty_token_points(state, seat) for seat in ("0", "1", "2")] == [0, -1, -1]


def test_a_sheet_is_refused_naming_the_sheet_and_its_column():  # SW-8, SW-12
    state = new(2, options={})
    refused_at(state, sw.SHEET, None, "sheet", seat="0", sheet=[4, 10])
    refused_at(state, sw.SHEET, None, "sheet", seat="0")
    refused_at(state, sw.SHEET, None, "sheet.coins", seat="0", sheet={"civilian": 3})
    refused_at(state, sw.SHEET, "SW-8", "sheet.babel_tiles", seat="0", sheet={"coins": 1, "babel_tiles": 4})
    refused_at(state, sw.SHEET, None, "seat", seat="2", sheet={"coins": 1})
    assert apply(state, sw.SHEET, seat="1", sheet={"coins": 1})["sheets"] == {"1": {"coins": 1}}


def stored_before_turns_were_counted(state):
    """A state as the engine made it before it counted turns (no ``turn``, ``joined``,
    ``leaders_on``): sessions and snapshots stored then still carry on from it."""
    return {key: value for key, value in state.items() if key not in ("turn", "joined", "leaders_on")}


def test_a_game_stored_before_turns_were_counted_still_takes_participations_and_ends_its_age():  # SW-9, SW-10
    state = stored_before_turns_were_counted(new(3))
    assert (sw.joined_this_turn(state), sw.participation(state, "0")) == ([], sw.CARD)
    state = apply(apply(state, sw.PARTICIPATE, seat="0"), sw.PARTICIPATE, seat="0")
    assert (state["markers"], state["markers_left"], state["joined"]) == ({"0": 2}, 0, ["0", "0"])
    state = apply(state, sw.PARTICIPATE, seat="1", same_turn_reserve=True)
    assert (state["markers"], state["markers_left"]) == ({"0": 2, "1": 1}, 0)
    ended = apply(state, sw.END_AGE)
    assert [(o["seat"], o["outcome"], o["times"]) for o in ended["resolved"][0]["outcomes"]] == [
        ("0", "reward", 2),
        ("1", "reward", 1),
        ("2", "none", 0),
    ]
    assert (ended["age"], ended["turn"], ended["joined"], ended["markers_left"]) == (2, None, [], 2)
    fresh = apply(stored_before_turns_were_counted(new(3)), sw.PARTICIPATE, seat="2")
    assert (fresh["markers"], fresh["markers_left"], fresh["joined"]) == ({"2": 1}, 1, ["2"])
