"""The Babel On! turn tracker: set-up, roll-off, even/odd turns, bonus blocks, knocks, the
round's end and the winner (BO-1..BO-6, BO-9, BO-12, BO-14)."""

import copy

import pytest

from scoring import session as core
from scoring.babel_on import engine as bo
from scoring.babel_on.chance import chance_at_least
from scoring.babel_on.tower import failures, tower_from_floors
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


# --- what each refusal names, and the paths the tests above leave out (mutation testing) ------


def house_rule(wrong_call, players=2, options=None):
    """Seat "1" (red) plays first; ``wrong_call`` is the group's house rule (None: a session
    stored before the Decision)."""
    seats = [str(n) for n in range(1, players + 1)]
    table = {} if wrong_call is None else {"table": {"wrong_call": wrong_call}}
    state = ENGINE.initial_state(seats=seats, options=options or table, seed=1)
    state = apply(state, bo.SETUP, colours=dict(zip(seats, COLOURS, strict=False)))
    return apply(state, bo.ROLLOFF, rolls={seat: 6 if seat == "1" else 1 for seat in seats})


def field_of(state, type, rule, **payload):
    return refused(state, type, rule, **payload).field


def block(colour, floor, cell):
    return {"colour": colour, "floor": floor, "cell": cell}


def test_a_group_may_set_only_the_wrong_call_house_rule_to_a_known_choice():  # BO-5
    bo.check_house_rules({})
    for choice in ("miss", "draw", "take_off"):
        bo.check_house_rules({"wrong_call": choice})
    with pytest.raises(RuleError) as error:
        bo.check_house_rules({"wrong_call": "roll again"})
    assert (error.value.field, error.value.rule) == ("wrong_call", "BO-5")
    with pytest.raises(RuleError) as error:
        bo.check_house_rules({"extra_turn": True})
    assert (error.value.field, error.value.rule) == ("extra_turn", None)
    with pytest.raises(RuleError) as error:
        bo.check_house_rules({"wrong_call": "miss", "zeta": 1, "alpha": 2})
    assert error.value.field == "alpha"


def test_without_a_house_rule_a_wrong_call_is_a_miss_and_nothing_is_left_to_record():  # BO-5
    # The group's edition table, or the option as an older session stored it.
    for state in (house_rule("miss"), house_rule(None, options={"table": {}, "wrong_call": "miss"})):
        assert state["wrong_call"] == "miss"
        assert bo.wrong_call_choices(state) == ("pass", "miss")
        state = apply(state, bo.ROLL, call="even", roll=3, miss_choice=True)
        assert (state["active"], state["pending"]) == ("2", None)
        assert field_of(state, bo.MISS, "BO-5", choice="pass") == "type"


def test_the_draw_house_rule_keeps_the_turn_open_for_one_block_drawn_or_a_pass():  # BO-5
    state = house_rule("draw")
    assert bo.wrong_call_choices(state) == ("pass", "draw")
    state = apply(state, bo.ROLL, call="odd", roll=4)
    assert (state["active"], state["pending"]) == ("1", {"kind": "miss", "count": 4})
    assert field_of(state, bo.ROLL, "BO-5", call="odd", roll=1) == "type"
    assert field_of(state, bo.DRAW, "BO-5", blocks=[]) == "type"
    assert field_of(state, bo.MISS, "BO-5", choice="take_off") == "choice"
    assert field_of(state, bo.MISS, "BO-5", choice=None) == "choice"
    error = refused(state, bo.MISS, "BO-5", choice="draw", blocks=[block("green", 1, "nw")] * 2)
    assert (error.field, error.params) == ("blocks", {"count": 1})
    assert field_of(state, bo.MISS, None, choice="draw", blocks="green") == "blocks"
    drawn = apply(state, bo.MISS, choice="draw", blocks=[block("green", 1, "nw")])
    assert drawn["towers"]["1"][0] == ["green", None, None, None]
    assert drawn["bag"] == {"red": 22, "blue": 22, "green": 23}
    assert (drawn["active"], drawn["pending"], drawn["last_roll"]["choice"]) == ("2", None, "draw")
    passed = apply(state, bo.MISS, choice="pass")
    assert (passed["towers"], passed["bag"]) == (state["towers"], state["bag"])
    assert (passed["active"], passed["pending"], passed["last_roll"]["choice"]) == ("2", None, "pass")


def test_the_take_off_house_rule_takes_one_block_off_your_own_tower_into_the_bag():  # BO-5, BO-10
    own_below_top = [["red", "green", "green", "green"], [None, "green", None, None]]
    state = with_towers(house_rule("take_off"), {"1": own_below_top})
    assert bo.wrong_call_choices(state) == ("pass", "take_off")
    state = apply(state, bo.ROLL, call="even", roll=1)
    assert state["pending"] == {"kind": "miss", "count": 1}
    assert field_of(state, bo.MISS, "BO-5", choice="draw", blocks=[]) == "choice"
    assert field_of(state, bo.MISS, "BO-5", choice="take_off") == "block"  # a block may come off
    assert field_of(state, bo.MISS, "BO-7", choice="take_off", block={"floor": 1, "cell": "ne"}) == "block"
    assert field_of(state, bo.MISS, None, choice="take_off", block="1-nw") == "block"
    assert field_of(state, bo.MISS, "BO-7", choice="take_off", block={"floor": 0, "cell": "nw"}) == "block.floor"
    assert field_of(state, bo.MISS, "BO-7", choice="take_off", block={"floor": 1, "cell": "n"}) == "block.cell"
    # The owner takes their own colour off a floor below the top (BO-10 binds only opponents).
    taken = apply(state, bo.MISS, choice="take_off", block={"floor": 1, "cell": "nw"})
    assert taken["towers"]["1"][:2] == [[None, "green", "green", "green"], [None, "green", None, None]]
    assert taken["bag"] == {"red": 23, "blue": 22, "green": 24}
    assert (taken["active"], taken["pending"], taken["last_roll"]["choice"]) == ("2", None, "take_off")
    green_on_red = with_towers(state, {"1": [["red", "red", "red", "red"], ["green", None, None, None]]})
    assert field_of(green_on_red, bo.MISS, "BO-11", choice="take_off", block={"floor": 1, "cell": "ne"}) == "block"
    taken = apply(green_on_red, bo.MISS, choice="take_off", block={"floor": 2, "cell": "nw"})
    assert taken["bag"] == {"red": 22, "blue": 22, "green": 25}
    assert taken["towers"]["1"][1] == [None] * 4


def test_the_take_off_house_rule_takes_nothing_when_no_block_may_come_off():  # BO-5, BO-11
    for floors in ([], [["red"] * 4]):
        state = apply(with_towers(house_rule("take_off"), {"1": floors}), bo.ROLL, call="odd", roll=2)
        after = apply(state, bo.MISS, choice="take_off")
        assert (after["towers"], after["bag"]) == (state["towers"], state["bag"])
        assert (after["active"], after["last_roll"]["choice"]) == ("2", "take_off")


def test_a_session_stored_before_the_decision_holds_a_wrong_call_only_when_the_form_asked():  # BO-5
    state = house_rule(None)
    assert state["wrong_call"] is None
    assert bo.wrong_call_choices(state) == ("pass", "draw")
    held = apply(state, bo.ROLL, call="even", roll=5, miss_choice=True)
    assert (held["active"], held["pending"]) == ("1", {"kind": "miss", "count": 5})
    assert apply(state, bo.ROLL, call="even", roll=5)["active"] == "2"
    assert apply(state, bo.ROLL, call="even", roll=4, miss_choice=True)["pending"] == {"kind": "draw", "count": 4}
    assert field_of(state, bo.ROLL, None, call="even", roll=5, miss_choice="yes") == "miss_choice"


def test_a_roll_before_the_last_one_is_recorded_says_what_is_left_to_record():  # BO-5
    # A wrong call under a house rule (or the form of a session stored before the Decision)
    # leaves its choice to record; a right call leaves its blocks: the refusal says which.
    wrong_calls = [
        (apply(house_rule("draw"), bo.ROLL, call="odd", roll=4), "drawn"),
        (apply(house_rule(None), bo.ROLL, call="even", roll=5, miss_choice=True), "drawn"),
        (apply(house_rule("take_off"), bo.ROLL, call="odd", roll=4), "taken off your tower"),
    ]
    right_calls = [apply(playing(), bo.ROLL, call="even", roll=4), apply(playing(), bo.ROLL, call="odd", roll=3)]
    for state, gives in wrong_calls:
        error = refused(state, bo.ROLL, "BO-5", call="even", roll=2)
        assert (error.field, error.params) == ("type", {})
        assert "wrong call" in error.message.lower()
        assert gives in error.message.lower()  # what the group's house rule gives
    for state in right_calls:
        error = refused(state, bo.ROLL, "BO-5", call="even", roll=2)
        assert (error.field, error.params) == ("type", {})
        assert "wrong call" not in error.message.lower()
        assert "blocks of this roll" in error.message.lower()


def test_a_roll_needs_a_call_and_a_die_face_and_records_who_rolled_what():  # BO-4, BO-5
    state = playing()
    assert field_of(state, bo.ROLL, "BO-5", roll=2) == "call"
    assert field_of(state, bo.ROLL, "BO-5", call="high", roll=2) == "call"
    assert field_of(state, bo.ROLL, "BO-4", call="even", roll=9) == "roll"
    rolled = apply(state, bo.ROLL, call="even", roll=4)
    assert rolled["last_roll"] == {"seat": "1", "call": "even", "roll": 4, "digital": False, "outcome": "draw"}
    assert field_of(rolled, bo.ROLL, "BO-5", call="odd", roll=1) == "type"
    assert field_of(rolled, bo.MOVE, "BO-5", removals=[], additions=[]) == "type"
    assert field_of(state, bo.DRAW, "BO-5", blocks=[]) == "type"


def test_the_apps_die_rolls_the_same_numbers_for_a_stored_session():  # BO-3, BO-4
    state = ENGINE.initial_state(seats=["1", "2"], options={}, seed=7)
    state = apply(state, bo.SETUP, colours={"1": "red", "2": "blue"})
    state = apply(state, bo.ROLLOFF, digital=True)
    assert (state["rolloff"]["rounds"], state["dice"]) == ([{"1": 6, "2": 3}], 2)
    rolls = []
    for _ in range(4):
        state = apply(state, bo.ROLL, call="even")
        rolls.append(state["last_roll"]["roll"])
        assert state["last_roll"]["digital"] is True
        if state["pending"]:
            state = apply(state, bo.ADJUST, note="not recorded", end_turn=True)
    assert (rolls, state["dice"]) == ([6, 2, 5, 1], 6)


def test_a_draw_names_the_block_that_breaks_a_rule():  # BO-2, BO-5, BO-7
    state = apply(playing(), bo.ROLL, call="even", roll=2)
    good = block("green", 1, "nw")
    assert field_of(state, bo.DRAW, None, blocks={"colour": "green"}) == "blocks"
    assert field_of(state, bo.DRAW, None, blocks=["green", good]) == "blocks[0]"
    assert field_of(state, bo.DRAW, "BO-2", blocks=[block("black", 1, "nw"), good]) == "blocks[0].colour"
    assert field_of(state, bo.DRAW, "BO-7", blocks=[good, block("green", 0, "ne")]) == "blocks[1].floor"
    assert field_of(state, bo.DRAW, "BO-7", blocks=[good, block("green", 1, "middle")]) == "blocks[1].cell"
    assert field_of(state, bo.DRAW, "BO-7", blocks=[good, good]) == "blocks[1]"
    error = refused(state, bo.DRAW, "BO-5", blocks=[good])
    assert (error.field, error.params) == ("blocks", {"count": 2})


def test_a_draw_from_a_nearly_empty_bag_takes_what_is_left():  # BO-5 (Decision)
    state = playing()
    state["bag"] = {"red": 0, "blue": 1, "green": 0}
    state = apply(state, bo.ROLL, call="even", roll=4)
    error = refused(state, bo.DRAW, "BO-5", blocks=[block("blue", 1, "nw")] * 4)
    assert (error.field, error.params) == ("blocks", {"limit": 1, "count": 4, "left": 1, "room": 24})
    drawn = apply(state, bo.DRAW, blocks=[block("blue", 1, "nw")])
    assert (drawn["towers"]["1"][0][0], drawn["bag"]["blue"], drawn["active"]) == ("blue", 0, "2")


def test_a_draw_onto_a_nearly_full_tower_places_what_fits():  # BO-5 (Decision)
    nearly_full = [["red", "red", "green", "green"]] * 5 + [["red", "red", "green", None]]
    state = apply(with_towers(playing(), {"1": nearly_full}), bo.ROLL, call="even", roll=2)
    error = refused(state, bo.DRAW, "BO-5", blocks=[block("green", 6, "se")] * 2)
    assert (error.field, error.params) == ("blocks", {"limit": 1, "count": 2, "left": 68, "room": 1})
    assert apply(state, bo.DRAW, blocks=[block("green", 6, "se")])["towers"]["1"][5][3] == "green"


def test_a_move_counts_the_blocks_that_can_come_off_every_tower_together():  # BO-5 (Decision), BO-9
    state = with_towers(playing(), {"1": [["red", None, None, None]], "2": [["blue", "green", "green", None]]})
    state = apply(state, bo.ROLL, call="odd", roll=3)
    removals = [{"tower": "1", "floor": 1, "cell": "nw"}, {"tower": "2", "floor": 1, "cell": "ne"}]
    removals.append({"tower": "2", "floor": 1, "cell": "sw"})
    additions = [{"tower": "2", "floor": 1, "cell": "se"}, {"tower": "1", "floor": 1, "cell": "nw"}]
    additions.append({"tower": "1", "floor": 1, "cell": "ne"})
    moved = apply(state, bo.MOVE, removals=removals, additions=additions)
    assert moved["towers"]["1"][0] == ["green", "green", None, None]
    assert moved["towers"]["2"][0] == ["blue", None, None, "red"]


def test_a_move_with_no_block_on_any_tower_moves_none_and_ends_the_turn():  # BO-5 (Decision)
    state = apply(playing(), bo.ROLL, call="odd", roll=1)
    error = refused(state, bo.MOVE, "BO-5", removals=[{"tower": "1", "floor": 1, "cell": "nw"}], additions=[])
    assert (error.field, error.params) == ("removals", {"count": 0, "rolled": 1})
    moved = apply(state, bo.MOVE, removals=[], additions=[])
    assert (moved["active"], moved["towers"]) == ("2", state["towers"])


def test_a_move_short_of_blocks_moves_all_that_can_come_off():  # BO-5 (Decision)
    state = with_towers(playing(), {"2": [["blue", "green", None, None]]})
    state = apply(state, bo.ROLL, call="odd", roll=5)
    # The green first: the blue is the owner's colour, and comes off only alone on the top floor.
    removals = [{"tower": "2", "floor": 1, "cell": "ne"}, {"tower": "2", "floor": 1, "cell": "nw"}]
    additions = [{"tower": "1", "floor": 1, "cell": "nw"}, {"tower": "1", "floor": 1, "cell": "ne"}]
    error = refused(state, bo.MOVE, "BO-5", removals=removals[:1], additions=additions)
    assert (error.field, error.params) == ("removals", {"count": 2, "rolled": 5})
    error = refused(state, bo.MOVE, "BO-5", removals=removals, additions=additions[:1])
    assert (error.field, error.params) == ("additions", {"count": 2, "rolled": 5})
    moved = apply(state, bo.MOVE, removals=removals, additions=additions)
    assert moved["towers"]["1"][0] == ["green", "blue", None, None]


def test_a_move_names_the_list_or_the_block_that_breaks_a_rule():  # BO-5, BO-7, BO-9, BO-12
    state = with_towers(playing(), {"1": [["red", "red", None, None]], "2": [["blue", "green", None, None]]})
    state = apply(state, bo.ROLL, call="odd", roll=1)
    take = [{"tower": "2", "floor": 1, "cell": "ne"}]
    put = [{"tower": "1", "floor": 1, "cell": "sw"}]
    for removals, additions, name in ((take, [], "additions"), ([], put, "removals")):
        error = refused(state, bo.MOVE, "BO-5", removals=removals, additions=additions)
        assert (error.field, error.params) == (name, {"count": 1})
    assert field_of(state, bo.MOVE, None, removals=take[0], additions=put) == "removals"
    assert field_of(state, bo.MOVE, None, removals=take, additions=None) == "additions"
    assert field_of(state, bo.MOVE, None, removals=["2-1-ne"], additions=put) == "removals[0]"
    assert field_of(state, bo.MOVE, None, removals=[{**take[0], "tower": "7"}], additions=put) == "removals[0].tower"
    assert field_of(state, bo.MOVE, "BO-7", removals=[{**take[0], "floor": 0}], additions=put) == "removals[0].floor"
    assert field_of(state, bo.MOVE, None, removals=take, additions=["1-1-sw"]) == "additions[0]"
    assert field_of(state, bo.MOVE, None, removals=take, additions=[{**put[0], "tower": None}]) == "additions[0].tower"
    on_a_block = [{"tower": "1", "floor": 1, "cell": "ne"}]
    assert field_of(state, bo.MOVE, "BO-7", removals=take, additions=on_a_block) == "additions[0]"
    for index in (True, 1, 5, -1, "0"):
        error = refused(state, bo.MOVE, "BO-9", removals=take, additions=[{**put[0], "block": index}])
        assert error.field == "additions[0].block"
    assert apply(state, bo.MOVE, removals=take, additions=[{**put[0], "block": 0}])["towers"]["1"][0][2] == "green"


def test_the_active_player_moves_their_own_colour_from_below_the_top_floor():  # BO-10
    state = with_towers(playing(), {"1": [["red", "green", "green", "green"], [None, "green", None, None]]})
    state = apply(state, bo.ROLL, call="odd", roll=1)
    take = [{"tower": "1", "floor": 1, "cell": "nw"}]
    moved = apply(state, bo.MOVE, removals=take, additions=[{"tower": "2", "floor": 1, "cell": "nw"}])
    assert (moved["towers"]["1"][0][0], moved["towers"]["2"][0][0]) == (None, "red")


def test_bonus_blocks_name_the_block_that_breaks_a_rule():  # BO-6, BO-7
    state = with_towers(playing(), {"1": [["red", None, None, None]]})
    assert field_of(state, bo.BONUS, None, blocks={"floor": 1, "cell": "ne"}) == "blocks"
    error = refused(state, bo.BONUS, "BO-6", blocks=[{"floor": 1, "cell": c} for c in ("ne", "sw", "se")])
    assert (error.field, error.params) == ("blocks", {"left": 2})
    assert field_of(state, bo.BONUS, None, blocks=["1-ne"]) == "blocks[0]"
    assert field_of(state, bo.BONUS, "BO-7", blocks=[{"floor": 9, "cell": "ne"}]) == "blocks[0].floor"
    assert field_of(state, bo.BONUS, "BO-7", blocks=[{"floor": 1, "cell": "up"}]) == "blocks[0].cell"
    assert field_of(state, bo.BONUS, "BO-7", blocks=[{"floor": 1, "cell": "ne"}, {"floor": 1, "cell": "nw"}]) == (
        "blocks[1]"
    )


def test_a_knock_names_a_player_of_the_session_and_a_tower_still_standing():  # BO-12
    state = playing(3)
    assert field_of(state, bo.KNOCK, None, seat="9", tower="1") == "seat"
    assert field_of(state, bo.KNOCK, None, seat=None, tower="1") == "seat"
    assert field_of(state, bo.KNOCK, None, seat="1", tower="9") == "tower"
    out = apply(state, bo.KNOCK, seat="2", tower="3")
    assert field_of(out, bo.KNOCK, "BO-12", seat="1", tower="2") == "tower"


def test_the_last_player_standing_wins_even_in_the_middle_of_a_roll():  # BO-12, BO-14
    state = apply(playing(), bo.ROLL, call="even", roll=2)
    state = apply(state, bo.KNOCK, seat="1", tower="2")
    assert (state["phase"], state["winner"], state["active"], state["pending"]) == ("over", "2", None, None)


def test_a_tower_knocked_over_by_its_owner_is_no_longer_perfect():  # BO-12, BO-14
    state = with_towers(playing(), {"1": [*PERFECT[:5], ["red", "red", "green", None]]})
    state = apply(state, bo.BONUS, blocks=[{"floor": 6, "cell": "se"}])
    assert state["perfect_since"]["1"] is not None
    state = apply(state, bo.KNOCK, seat="1", tower="1")
    assert state["perfect_since"] == {"1": None, "2": None}


def test_the_standings_say_who_won_how_and_what_each_tower_holds():  # BO-12, BO-14
    state = with_towers(playing(3), {"1": [["red", "blue", None, None]], "3": [["green", None, None, None]]})
    state = apply(state, bo.ROLL, call="even", roll=1)
    state = apply(state, bo.ROLL, call="even", roll=1)
    state = apply(state, bo.KNOCK, seat="2", tower="1")
    state = apply(state, bo.KNOCK, seat="3", tower="1")
    breakdowns = {s.seat: s.breakdown for s in ENGINE.standings(state)}
    assert breakdowns == {
        "1": {"won_by": "last_standing", "perfect": False, "blocks": 2, "eliminated": False, "rounds": 1},
        "2": {"won_by": None, "perfect": False, "blocks": 0, "eliminated": True, "rounds": 1},
        "3": {"won_by": None, "perfect": False, "blocks": 0, "eliminated": True, "rounds": 1},
    }


def test_the_round_ends_when_the_die_comes_back_to_the_first_player_whoever_that_is():  # BO-3, BO-14
    state = apply(set_up(3), bo.ROLLOFF, rolls={"1": 2, "2": 6, "3": 1})
    assert state["active"] == "2"
    for active in ("2", "3"):
        assert (state["active"], state["round"]) == (active, 1)
        state = apply(state, bo.ROLL, call="even", roll=1)
    assert (state["active"], state["round"]) == ("1", 1)
    state = apply(state, bo.ROLL, call="even", roll=1)
    assert (state["active"], state["round"], state["checks"]) == ("2", 2, [{"round": 1, "perfect": []}])


def test_of_two_perfect_towers_the_one_completed_first_wins_whatever_the_seat_order():  # BO-14
    state = with_towers(set_up(), {"1": [*PERFECT[:5], ["red", "red", "green", None]], "2": ALMOST})
    state = apply(state, bo.ROLLOFF, rolls={"1": 1, "2": 6})
    state = apply(state, bo.BONUS, blocks=[{"floor": 6, "cell": "se"}])  # seat 2 completes first
    state = apply(state, bo.ROLL, call="even", roll=1)
    state = apply(state, bo.BONUS, blocks=[{"floor": 6, "cell": "se"}])
    state = apply(state, bo.ROLL, call="even", roll=1)
    assert state["checks"][-1]["perfect"] == ["1", "2"]
    assert (state["phase"], state["winner"], state["won_by"], state["active"]) == ("over", "2", "perfect", None)


def test_a_manual_adjustment_adds_blocks_from_the_bag_and_keeps_the_turn_unless_told():  # BO-5 (Decision), BO-7
    state = apply(playing(), bo.ROLL, call="odd", roll=5)
    state["placements"] = 10
    add = [{"tower": "2", "floor": 1, "cell": "nw", "colour": "green"}]
    adjusted = apply(state, bo.ADJUST, note="a block fell back", add=add)
    assert (adjusted["towers"]["2"][0][0], adjusted["bag"]["green"], adjusted["placements"]) == ("green", 23, 11)
    assert (adjusted["active"], adjusted["pending"]) == ("1", state["pending"])
    assert apply(state, bo.ADJUST, note="x" * bo.NOTE_LIMIT)["adjustments"][-1]["note"] == "x" * bo.NOTE_LIMIT
    error = refused(state, bo.ADJUST, None, note="x" * (bo.NOTE_LIMIT + 1))
    assert (error.field, error.params) == ("note", {"limit": bo.NOTE_LIMIT})
    assert field_of(state, bo.ADJUST, None, note="n", end_turn="yes") == "end_turn"
    assert field_of(state, bo.ADJUST, None, note="n", add=add[0]) == "add"
    assert field_of(state, bo.ADJUST, None, note="n", remove="all") == "remove"
    assert field_of(state, bo.ADJUST, None, note="n", add=["green"]) == "add[0]"
    assert field_of(state, bo.ADJUST, None, note="n", add=[{**add[0], "tower": "5"}]) == "add[0].tower"
    assert field_of(state, bo.ADJUST, "BO-2", note="n", add=[{**add[0], "colour": "black"}]) == "add[0].colour"
    assert field_of(state, bo.ADJUST, "BO-7", note="n", add=[{**add[0], "floor": 2}]) == "add[0]"
    assert field_of(state, bo.ADJUST, "BO-7", note="n", add=[{**add[0], "cell": "nn"}]) == "add[0].cell"
    assert field_of(state, bo.ADJUST, "BO-7", note="n", add=[add[0], add[0]]) == "add[1]"
    assert field_of(state, bo.ADJUST, "BO-7", note="n", remove=[{"tower": "2", "floor": 1, "cell": "nw"}]) == (
        "remove[0]"
    )
    assert field_of(state, bo.ADJUST, None, note="n", remove=[{"tower": "0", "floor": 1, "cell": "nw"}]) == (
        "remove[0].tower"
    )


def test_a_tower_completed_by_a_manual_adjustment_counts_from_when_it_was_completed():  # BO-14
    state = with_towers(playing(), {"1": [*PERFECT[:5], ["red", "red", "green", None]], "2": ALMOST})
    state["placements"] = 10
    state = apply(state, bo.BONUS, blocks=[{"floor": 6, "cell": "se"}])
    state = apply(state, bo.ROLL, call="even", roll=1)
    add = [{"tower": "2", "floor": 6, "cell": "se", "colour": "green"}]
    state = apply(state, bo.ADJUST, note="rebuilt after a bump", add=add, end_turn=True)
    assert state["perfect_since"] == {"1": 11, "2": 12}
    assert (state["winner"], state["checks"][-1]["perfect"]) == ("1", ["1", "2"])


def test_the_board_shows_why_a_tower_is_not_perfect_and_the_chance_to_draw():  # BO-5, BO-13
    state = with_towers(playing(), {"2": [["blue", "green", "green", "blue"]]})  # blue only diagonally
    shown = bo.tower_failures(state, "2")
    assert [(f["floor"], f["condition"], f["params"]) for f in shown[:4]] == [
        (1, "adjacent", {"floor": 1}),
        (2, "complete", {"floor": 2, "count": 0}),
        (2, "adjacent", {"floor": 2}),
        (2, "line_up", {"floor": 2, "below": 1}),
    ]
    assert [f["template"] for f in shown] == [f.template for f in failures(state["towers"]["2"], "blue", 2)]
    state = apply(state, bo.ROLL, call="even", roll=2)
    state = apply(state, bo.DRAW, blocks=[block("red", 1, "nw"), block("red", 1, "ne")])
    assert bo.chance_for(state, "1", 4, 1) == chance_at_least(66, 20, 4, 1)
    assert bo.chance_for(state, "2", 3, 2) == chance_at_least(66, 22, 3, 2)


def test_a_new_game_waits_for_its_set_up_with_empty_towers_and_an_empty_bag():  # BO-1, BO-2, BO-7
    state = ENGINE.initial_state(seats=["1", "2"], options={}, seed=5)
    empty = [[None] * 4 for _ in range(6)]
    assert state == {
        "seats": ["1", "2"],
        "seed": 5,
        "phase": "setup",
        "colours": {},
        "extra": None,
        "bag": {},
        "bonus": {},
        "towers": {"1": empty, "2": empty},
        "eliminated": [],
        "rolloff": {"contenders": ["1", "2"], "rounds": []},
        "dice": 0,
        "first": None,
        "active": None,
        "pending": None,
        "last_roll": None,
        "round": 1,
        "placements": 0,
        "perfect_since": {"1": None, "2": None},
        "checks": [],
        "adjustments": [],
        "winner": None,
        "won_by": None,
        "wrong_call": None,
    }
    with pytest.raises(RuleError) as error:
        ENGINE.initial_state(seats=[str(n) for n in range(7)], options={}, seed=1)
    assert (error.value.field, error.value.params) == ("seats", {"low": 2, "high": 6})


def test_each_event_comes_in_its_phase_and_names_the_event_type_when_it_does_not():  # BO-2, BO-3, BO-14
    blank = ENGINE.initial_state(seats=["1", "2"], options={}, seed=1)
    error = refused(blank, "bo.shuffle", None)
    assert (error.field, error.params) == ("type", {"type": "bo.shuffle"})
    assert field_of(blank, bo.ROLLOFF, "BO-3", digital=True) == "type"
    assert field_of(blank, bo.ROLL, "BO-3", call="even") == "type"
    state = playing()
    assert field_of(state, bo.SETUP, "BO-2", colours={"1": "red", "2": "blue"}) == "type"
    assert field_of(state, bo.ROLLOFF, "BO-3", digital=True) == "type"
    over = apply(state, bo.KNOCK, seat="2", tower="1")
    assert field_of(over, bo.ADJUST, "BO-14", note="after the end") == "type"


def test_the_set_up_names_the_colour_or_the_extra_colour_that_breaks_a_rule():  # BO-1, BO-2
    blank = ENGINE.initial_state(seats=["1", "2"], options={}, seed=1)
    assert field_of(blank, bo.SETUP, "BO-1", colours=["red", "blue"]) == "colours"
    error = refused(blank, bo.SETUP, "BO-1", colours={"1": "red", "2": "pink"})
    assert (error.field, error.params) == ("colours.2", {"colours": "red, blue, green, yellow, purple, orange"})
    assert field_of(blank, bo.SETUP, "BO-1", colours={"1": "red", "2": "red"}) == "colours.2"
    assert field_of(blank, bo.SETUP, "BO-2", colours={"1": "red", "2": "blue"}, extra="blue") == "extra"
    four = ENGINE.initial_state(seats=["1", "2", "3", "4"], options={}, seed=1)
    colours = dict(zip(["1", "2", "3", "4"], COLOURS, strict=False))
    assert field_of(four, bo.SETUP, "BO-2", colours=colours, extra="orange") == "extra"


def test_the_roll_off_names_the_roll_that_breaks_a_rule():  # BO-3, BO-4
    state = set_up(3)
    assert field_of(state, bo.ROLLOFF, "BO-3", rolls=[6, 1, 1]) == "rolls"
    assert field_of(state, bo.ROLLOFF, "BO-3", rolls={"1": 6, "2": 1, "3": 1, "9": 2}) == "rolls.9"
    error = refused(state, bo.ROLLOFF, "BO-4", rolls={"1": 6, "2": 0, "3": 1})
    assert (error.field, error.params) == ("rolls.2", {"faces": 6})
