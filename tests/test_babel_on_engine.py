"""The Babel On! turn tracker: set-up, roll-off, even/odd turns, bonus blocks, knocks, the
round's end and the winner (BO-1..BO-6, BO-9, BO-12, BO-14)."""

import copy

import pytest

from scoring import session as core
from scoring.babel_on import engine as bo
from scoring.babel_on.tower import tower_from_floors
from scoring.errors import RuleError
from sessions.games import GAMES

ENGINE = bo.BabelOn()
COLOURS = ["red", "blue", "green", "yellow", "purple", "orange"]


def apply(state, type, **payload):
    return ENGINE.apply(state, type=type, payload=payload)


def refused(state, type, rule, **payload):
    before = copy.deepcopy(state)
    with pytest.raises(RuleError) as error:
        apply(state, type, **payload)
    assert error.value.rule == rule
    assert state == before
    return error.value


def set_up(players=2, seed=1, extra=None):
    seats = [str(n) for n in range(1, players + 1)]
    state = ENGINE.initial_state(seats=seats, options={}, seed=seed)
    return apply(state, bo.SETUP, colours=dict(zip(seats, COLOURS, strict=False)), extra=extra)


def playing(players=2, seed=1):
    """Seat "1" wins the roll-off with a typed 6."""
    state = set_up(players, seed)
    rolls = {seat: 6 if seat == "1" else 1 for seat in state["seats"]}
    return apply(state, bo.ROLLOFF, rolls=rolls)


def test_the_game_is_for_two_to_six_players_each_with_their_own_colour():  # BO-1
    for count in (1, 7):
        with pytest.raises(RuleError) as error:
            ENGINE.initial_state(seats=[str(n) for n in range(count)], options={}, seed=1)
        assert error.value.rule == "BO-1"
    state = ENGINE.initial_state(seats=["1", "2"], options={}, seed=1)
    refused(state, bo.SETUP, "BO-1", colours={"1": "red", "2": "red"})
    refused(state, bo.SETUP, "BO-1", colours={"1": "red", "2": "pink"})
    assert GAMES["babel-on"].engine is not None


def test_two_players_bag_their_22_blocks_and_24_of_an_extra_colour_the_app_picks():  # BO-2
    state = set_up(2)
    assert state["bag"] == {"red": 22, "blue": 22, "green": 24}
    assert state["bonus"] == {"1": 2, "2": 2}
    assert state["extra"] == "green"
    assert bo.blocks_by_colour(state) == {"red": 24, "blue": 24, "green": 24}


def test_three_players_may_name_the_extra_colour_four_players_have_none():  # BO-2
    state = set_up(3, extra="orange")
    assert state["bag"] == {"red": 22, "blue": 22, "green": 22, "orange": 24}
    blank = ENGINE.initial_state(seats=["1", "2", "3"], options={}, seed=1)
    colours = {"1": "red", "2": "blue", "3": "green"}
    refused(blank, bo.SETUP, "BO-2", colours=colours, extra="red")
    four = set_up(4)
    assert four["extra"] is None
    assert four["bag"] == dict.fromkeys(["red", "blue", "green", "yellow"], 22)
    blank4 = ENGINE.initial_state(seats=["1", "2", "3", "4"], options={}, seed=1)
    refused(blank4, bo.SETUP, "BO-2", colours=dict(zip(["1", "2", "3", "4"], COLOURS, strict=False)), extra="orange")
    refused(state, bo.SETUP, "BO-2", colours=colours)


def test_the_highest_roll_starts_and_ties_reroll_among_the_tied_only():  # BO-3
    state = set_up(3)
    refused(state, bo.ROLL, "BO-3", call="even", roll=2)
    state = apply(state, bo.ROLLOFF, rolls={"1": 5, "2": 5, "3": 2})
    assert state["phase"] == "rolloff"
    assert state["rolloff"]["contenders"] == ["1", "2"]
    refused(state, bo.ROLLOFF, "BO-3", rolls={"1": 3, "2": 4, "3": 6})
    state = apply(state, bo.ROLLOFF, rolls={"1": 3, "2": 4})
    assert (state["phase"], state["first"], state["active"]) == ("playing", "2", "2")


def test_the_apps_die_is_seeded_by_the_session_so_a_replay_rolls_the_same():  # BO-3, BO-4
    first = apply(set_up(4, seed=99), bo.ROLLOFF, digital=True)
    again = apply(set_up(4, seed=99), bo.ROLLOFF, digital=True)
    assert first == again
    for rolls in first["rolloff"]["rounds"]:
        assert all(1 <= roll <= 6 for roll in rolls.values())


def test_the_die_is_an_ordinary_six_sided_die():  # BO-4
    state = playing()
    for roll in (0, 7, "3", True):
        refused(state, bo.ROLL, "BO-4", call="odd", roll=roll)
    seen = set()
    for seed in range(60):
        seen.add(apply(playing(seed=seed), bo.ROLL, call="even")["last_roll"]["roll"])
    assert seen == {1, 2, 3, 4, 5, 6}


@pytest.mark.parametrize(
    ("call", "roll", "outcome"),
    [("even", 4, "draw"), ("even", 3, "miss"), ("odd", 5, "move"), ("odd", 2, "miss")],
)
def test_a_roll_means_a_draw_a_move_or_a_miss(call, roll, outcome):  # BO-5
    assert bo.meaning(call, roll) == outcome
    state = apply(playing(), bo.ROLL, call=call, roll=roll)
    assert state["last_roll"]["outcome"] == outcome
    if outcome == "miss":  # the die goes to the left
        assert (state["active"], state["pending"]) == ("2", None)
    else:
        assert state["pending"] == {"kind": outcome, "count": roll}


def test_a_right_even_call_draws_exactly_that_many_blocks_onto_your_own_tower():  # BO-5
    state = apply(playing(), bo.ROLL, call="even", roll=2)
    refused(state, bo.ROLL, "BO-5", call="odd", roll=3)
    refused(state, bo.DRAW, "BO-5", blocks=[{"colour": "red", "floor": 1, "cell": "nw"}])
    refused(state, bo.DRAW, "BO-2", blocks=[{"colour": "black", "floor": 1, "cell": "nw"}] * 2)
    refused(state, bo.MOVE, "BO-5", removals=[], additions=[])
    blocks = [{"colour": "green", "floor": 1, "cell": "nw"}, {"colour": "red", "floor": 2, "cell": "nw"}]
    state = apply(state, bo.DRAW, blocks=blocks)
    assert state["towers"]["1"][:2] == [["green", None, None, None], ["red", None, None, None]]
    assert state["bag"] == {"red": 21, "blue": 22, "green": 23}
    assert (state["active"], state["pending"]) == ("2", None)


def test_a_colour_the_bag_no_longer_holds_cannot_be_drawn():  # BO-5
    state = apply(playing(), bo.ROLL, call="even", roll=2)
    state["bag"]["red"] = 1
    blocks = [{"colour": "red", "floor": 1, "cell": "nw"}, {"colour": "red", "floor": 1, "cell": "ne"}]
    assert refused(state, bo.DRAW, "BO-5", blocks=blocks).field == "blocks[1].colour"


def test_a_draw_that_breaks_the_structure_is_refused_and_names_the_block():  # BO-7
    state = apply(playing(), bo.ROLL, call="even", roll=2)
    blocks = [{"colour": "red", "floor": 1, "cell": "nw"}, {"colour": "red", "floor": 2, "cell": "se"}]
    assert refused(state, bo.DRAW, "BO-7", blocks=blocks).field == "blocks[1]"


def with_towers(state, towers):
    state = copy.deepcopy(state)
    for seat, floors in towers.items():
        state["towers"][seat] = tower_from_floors(floors)
    return state


def test_a_right_odd_call_takes_blocks_off_first_then_adds_them():  # BO-9
    state = with_towers(playing(), {"1": [["red", "red", None, None]], "2": [["blue", "green", "green", None]]})
    state = apply(state, bo.ROLL, call="odd", roll=1)
    move = {
        "removals": [{"tower": "2", "floor": 1, "cell": "ne"}],
        "additions": [{"tower": "1", "floor": 1, "cell": "sw"}],
    }
    moved = apply(state, bo.MOVE, **move)
    assert moved["towers"]["1"][0] == ["red", "red", "green", None]
    assert moved["towers"]["2"][0] == ["blue", None, "green", None]
    assert moved["active"] == "2"
    refused(state, bo.MOVE, "BO-5", removals=move["removals"], additions=[])


def test_a_cell_freed_by_a_removal_can_take_a_block_in_the_same_move():  # BO-9
    state = with_towers(playing(), {"2": [["yellow", "green", "green", "yellow"], ["green", None, None, None]]})
    state = apply(state, bo.ROLL, call="odd", roll=3)
    removals = [{"tower": "2", "floor": 2, "cell": "nw"}, {"tower": "2", "floor": 1, "cell": "nw"}]
    removals.append({"tower": "2", "floor": 1, "cell": "ne"})
    additions = [
        {"tower": "2", "floor": 1, "cell": "nw", "block": 2},
        {"tower": "1", "floor": 1, "cell": "nw", "block": 0},
        {"tower": "1", "floor": 1, "cell": "ne", "block": 1},
    ]
    moved = apply(state, bo.MOVE, removals=removals, additions=additions)
    assert moved["towers"]["2"][0] == ["green", None, "green", "yellow"]
    assert moved["towers"]["1"][0] == ["green", "yellow", None, None]
    twice = [{**a, "block": 0} for a in additions]
    refused(state, bo.MOVE, "BO-9", removals=removals, additions=twice)


def test_a_move_may_not_break_last_resort_or_a_protected_floor():  # BO-10, BO-11
    state = with_towers(playing(), {"2": [["blue", "blue", "blue", "blue"], ["green", None, None, None]]})
    state = apply(state, bo.ROLL, call="odd", roll=1)
    add = [{"tower": "1", "floor": 1, "cell": "nw"}]
    refused(state, bo.MOVE, "BO-11", removals=[{"tower": "2", "floor": 1, "cell": "se"}], additions=add)
    mixed = with_towers(state, {"2": [["green", "yellow", "green", "green"], ["blue", "yellow", None, None]]})
    error = refused(mixed, bo.MOVE, "BO-10", removals=[{"tower": "2", "floor": 2, "cell": "nw"}], additions=add)
    assert error.field == "removals[0]"


def test_bonus_blocks_one_or_two_go_on_your_own_tower_and_become_normal_blocks():  # BO-6
    state = playing()
    refused(state, bo.BONUS, "BO-6", blocks=[])
    state = apply(state, bo.BONUS, blocks=[{"floor": 1, "cell": "nw"}])
    assert (state["bonus"]["1"], state["towers"]["1"][0][0], state["active"]) == (1, "red", "1")
    refused(state, bo.BONUS, "BO-6", blocks=[{"floor": 1, "cell": "ne"}, {"floor": 1, "cell": "sw"}])
    state = apply(state, bo.BONUS, blocks=[{"floor": 1, "cell": "ne"}])
    assert state["bonus"]["1"] == 0
    assert bo.blocks_by_colour(state)["red"] == 24
    refused(state, bo.BONUS, "BO-6", blocks=[{"floor": 1, "cell": "sw"}])


def test_knocking_your_own_tower_over_returns_it_and_your_bonus_blocks_to_the_bag():  # BO-12
    state = with_towers(playing(), {"1": [["red", "green", None, None]]})
    state["bag"]["red"] -= 1
    state["bag"]["green"] -= 1
    state = apply(state, bo.KNOCK, seat="1", tower="1")
    assert state["towers"]["1"][0] == [None] * 4
    assert state["bag"] == {"red": 24, "blue": 22, "green": 24}
    assert (state["bonus"]["1"], state["active"], state["eliminated"]) == (0, "2", [])


def test_knocking_an_opponents_tower_over_eliminates_you_and_the_last_one_standing_wins():  # BO-12, BO-14
    state = playing(3)
    state = apply(state, bo.KNOCK, seat="2", tower="3")
    assert state["eliminated"] == ["2"]
    assert state["active"] == "1"
    state = apply(state, bo.ROLL, call="even", roll=1)  # a miss: "2" is skipped
    assert state["active"] == "3"
    assert refused(state, bo.KNOCK, "BO-12", seat="2", tower="1").field == "seat"
    state = apply(state, bo.KNOCK, seat="3", tower="1")
    assert (state["phase"], state["winner"], state["won_by"]) == ("over", "1", "last_standing")
    ranks = {s.seat: s.rank for s in ENGINE.standings(state)}
    assert ranks == {"1": 1, "2": 2, "3": 2}
    refused(state, bo.ROLL, "BO-14", call="odd", roll=1)


PERFECT = [["red", "red", "green", "green"]] * 6
ALMOST = [["blue", "blue", "green", "green"]] * 5 + [["blue", "blue", "green", None]]


def test_a_perfect_tower_wins_only_at_the_end_of_the_round():  # BO-13, BO-14
    state = with_towers(playing(), {"1": [*PERFECT[:5], ["red", "red", "green", None]]})
    state = apply(state, bo.BONUS, blocks=[{"floor": 6, "cell": "se"}])
    assert state["perfect_since"]["1"] == state["placements"]
    state = apply(state, bo.ROLL, call="even", roll=1)
    assert state["phase"] == "playing"  # seat 2 has not played this round yet
    assert ENGINE.standings(state) is None
    state = apply(state, bo.ROLL, call="odd", roll=2)  # seat 2 misses: the round ends
    assert (state["phase"], state["winner"], state["won_by"]) == ("over", "1", "perfect")
    assert state["checks"] == [{"round": 1, "perfect": ["1"]}]
    assert [s.breakdown["perfect"] for s in ENGINE.standings(state)] == [True, False]


def test_when_several_towers_are_perfect_the_first_completed_wins():  # BO-14
    state = with_towers(playing(), {"1": [*PERFECT[:5], ["red", "red", "green", None]], "2": ALMOST})
    state = apply(state, bo.BONUS, blocks=[{"floor": 6, "cell": "se"}])
    state = apply(state, bo.ROLL, call="even", roll=1)
    state = apply(state, bo.BONUS, blocks=[{"floor": 6, "cell": "se"}])
    assert state["perfect_since"]["1"] < state["perfect_since"]["2"]
    state = apply(state, bo.ROLL, call="even", roll=1)
    assert state["winner"] == "1"
    assert state["checks"][-1]["perfect"] == ["1", "2"]


def test_a_round_without_a_perfect_tower_goes_on():  # BO-14
    state = apply(playing(), bo.ROLL, call="even", roll=1)
    state = apply(state, bo.ROLL, call="even", roll=1)
    assert (state["round"], state["active"], state["checks"]) == (2, "1", [{"round": 1, "perfect": []}])


def test_a_manual_adjustment_needs_a_note_and_can_end_the_turn():  # BO-5 (Decision)
    state = with_towers(playing(), {"1": [["red", "green", None, None]]})
    state["bag"]["red"] -= 1
    state["bag"]["green"] -= 1
    state = apply(state, bo.ROLL, call="odd", roll=5)
    with pytest.raises(RuleError) as error:
        apply(state, bo.ADJUST, note=" ", remove=[])
    assert error.value.field == "note"
    note = "Only two blocks could be moved: wasted turn, took the green one off"
    state = apply(state, bo.ADJUST, note=note, remove=[{"tower": "1", "floor": 1, "cell": "ne"}], end_turn=True)
    assert state["towers"]["1"][0] == ["red", None, None, None]
    assert state["bag"]["green"] == 24
    assert state["adjustments"] == [{"note": note, "round": 1, "active": "1"}]
    assert (state["active"], state["pending"]) == ("2", None)


def test_the_session_core_sends_a_won_game_to_scoring():  # BO-14
    rules = GAMES["babel-on"].rules
    events = [core.Event(1, core.START)]
    state = core.replay(rules, seats=["1", "2"], options={}, seed=3, events=events)
    state = core.step(rules, state, core.Event(2, bo.SETUP, {"colours": {"1": "red", "2": "blue"}}))
    state = core.step(rules, state, core.Event(3, bo.ROLLOFF, {"rolls": {"1": 2, "2": 6}}))
    state = core.step(rules, state, core.Event(4, bo.KNOCK, {"seat": "2", "tower": "1"}))
    assert state["status"] == core.SCORING
    assert [(s.seat, s.rank) for s in core.standings(rules, state)] == [("1", 1), ("2", 2)]


def test_a_tower_spoiled_before_the_round_ends_does_not_win():  # BO-13, BO-14
    state = with_towers(playing(), {"1": [*PERFECT[:5], ["red", "red", "green", None]]})
    state = apply(state, bo.BONUS, blocks=[{"floor": 6, "cell": "se"}])
    state = apply(state, bo.ROLL, call="even", roll=1)
    state = apply(state, bo.ROLL, call="odd", roll=1)  # seat 2 takes the green block off seat 1's top floor
    removal = [{"tower": "1", "floor": 6, "cell": "sw"}]
    state = apply(state, bo.MOVE, removals=removal, additions=[{"tower": "2", "floor": 1, "cell": "nw"}])
    assert state["perfect_since"]["1"] is None
    assert (state["phase"], state["round"], state["checks"]) == ("playing", 2, [{"round": 1, "perfect": []}])
