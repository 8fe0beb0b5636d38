"""Properties of Babel On! checked on random games and bags: blocks are never created or lost
(BO-1, BO-2), a refused event changes nothing (BO-7..BO-11), and the draw chances are exact
(the hypergeometric distribution, BO-5)."""

import copy
from fractions import Fraction
from itertools import combinations
from math import comb

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.babel_on import engine as bo
from scoring.babel_on.chance import chance_at_least, draw_distribution
from scoring.babel_on.tower import cells, check_remove, fits, floors, value
from scoring.errors import RuleError

ENGINE = bo.BabelOn()
CELLS = cells()


def addresses(state):
    return [
        (seat, floor, cell)
        for seat in state["seats"]
        if seat not in state["eliminated"]
        for floor in range(1, floors() + 1)
        for cell in CELLS
    ]


def legal(check, *args, **kwargs):
    try:
        check(*args, **kwargs)
    except RuleError:
        return False
    return True


def legal_adds(tower):
    return [(f, c) for f in range(1, floors() + 1) for c in CELLS if fits(tower, f, CELLS.index(c))]


def legal_removals(state, seat):
    return [
        (owner, f, c)
        for owner, f, c in addresses(state)
        if state["towers"][owner][f - 1][CELLS.index(c)] is not None
        and legal(
            check_remove,
            state["towers"][owner],
            f,
            CELLS.index(c),
            owner_colour=state["colours"][owner],
            by_owner=owner == seat,
            field="",
        )
    ]


def next_event(data, state):
    """An event for this state: mostly one that follows the rules, sometimes any at all."""
    wild = data.draw(st.integers(0, 4)) == 0
    seat = state["active"]
    pending = state["pending"]
    spot = st.sampled_from(addresses(state))
    if pending is None:
        kind = data.draw(st.sampled_from(["roll", "roll", "roll", "bonus", "knock"]))
        if kind == "roll":
            return bo.ROLL, {"call": data.draw(st.sampled_from(["even", "odd"])), "roll": data.draw(st.integers(1, 6))}
        if kind == "bonus":
            places = legal_adds(state["towers"][seat]) if not wild else [(1, "nw")]
            count = data.draw(st.integers(1, 2))
            return bo.BONUS, {"blocks": [{"floor": f, "cell": c} for f, c in places[:count]]}
        knocker, victim = data.draw(spot)[0], data.draw(spot)[0]
        return bo.KNOCK, {"seat": knocker, "tower": victim}
    count = pending["count"]
    if pending["kind"] == "draw":
        colours = [c for c, n in state["bag"].items() if n] or ["red"]
        tower = copy.deepcopy(state["towers"][seat])
        blocks = []
        for _ in range(count):
            floor, cell = data.draw(st.sampled_from(legal_adds(tower) or [(1, "nw")]))
            tower[floor - 1][CELLS.index(cell)] = "x"
            blocks.append({"colour": data.draw(st.sampled_from(colours)), "floor": floor, "cell": cell})
        if wild:
            blocks = blocks[:-1]
        return bo.DRAW, {"blocks": blocks}
    if not wild and len(legal_removals(state, seat)) < count:  # the table records what it did instead
        top = [(t, f, c) for t, f, c in addresses(state) if _top(state, t, f, c)]
        remove = [{"tower": t, "floor": f, "cell": c} for t, f, c in top[:1]]
        return bo.ADJUST, {"note": "not enough blocks to move", "remove": remove, "end_turn": True}
    if wild:
        targets = [data.draw(spot) for _ in range(count)]
        return bo.MOVE, {
            "removals": [{"tower": t, "floor": f, "cell": c} for t, f, c in targets],
            "additions": [{"tower": t, "floor": f, "cell": c} for t, f, c in reversed(targets)],
        }
    after = copy.deepcopy(state)
    taken = []
    for _ in range(count):  # one at a time: each removal changes what the next may take
        choices = legal_removals(after, seat)
        if not choices:
            break
        owner, floor, cell = data.draw(st.sampled_from(choices))
        after["towers"][owner][floor - 1][CELLS.index(cell)] = None
        taken.append((owner, floor, cell))
    destinations = []
    for _ in taken:
        owner = data.draw(st.sampled_from([p for p in state["seats"] if p not in state["eliminated"]]))
        floor, cell = data.draw(st.sampled_from(legal_adds(after["towers"][owner]) or [(1, "nw")]))
        after["towers"][owner][floor - 1][CELLS.index(cell)] = "x"
        destinations.append((owner, floor, cell))
    return bo.MOVE, {
        "removals": [{"tower": t, "floor": f, "cell": c} for t, f, c in taken],
        "additions": [{"tower": t, "floor": f, "cell": c} for t, f, c in destinations],
    }


def _top(state, seat, floor, cell):
    tower = state["towers"][seat]
    index = CELLS.index(cell)
    return tower[floor - 1][index] is not None and (floor == floors() or tower[floor][index] is None)


def started(data):
    players = data.draw(st.integers(2, 6))
    seats = [str(n) for n in range(1, players + 1)]
    state = ENGINE.initial_state(seats=seats, options={}, seed=data.draw(st.integers(0, 2**32)))
    colours = data.draw(st.permutations(value("colours")))
    state = ENGINE.apply(state, type=bo.SETUP, payload={"colours": dict(zip(seats, colours, strict=False))})
    while state["phase"] == "rolloff":
        state = ENGINE.apply(state, type=bo.ROLLOFF, payload={"digital": True})
    return state


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_the_bag_towers_and_bonus_blocks_always_hold_24_blocks_of_each_colour_and_refusals_change_nothing(data):
    """BO-1, BO-2: 24 blocks per colour in play, wherever they are; BO-7..BO-11: a refused
    event leaves the state exactly as it was."""
    state = started(data)
    in_play = set(state["bag"])
    accepted = refused = 0
    for _ in range(data.draw(st.integers(10, 60))):
        if state["phase"] == "over":
            break
        event, payload = next_event(data, state)
        before = copy.deepcopy(state)
        try:
            state = ENGINE.apply(state, type=event, payload=payload)
            accepted += 1
        except RuleError:
            assert state == before
            refused += 1
        assert bo.blocks_by_colour(state) == dict.fromkeys(in_play, value("blocks_per_colour"))
        assert all(0 <= n <= value("bonus_blocks") for n in state["bonus"].values())
    assert accepted + refused > 0


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 60), st.data())
def test_the_draw_chances_sum_to_one_over_k(total, data):  # BO-5
    mine = data.draw(st.integers(0, total))
    drawn = data.draw(st.integers(0, min(total, 6)))
    distribution = draw_distribution(total, mine, drawn)
    assert sum(distribution) == 1
    assert all(isinstance(p, Fraction) and p >= 0 for p in distribution)
    assert chance_at_least(total, mine, drawn, 0) == 1
    assert chance_at_least(total, mine, drawn, drawn + 1) == 0


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 9), st.data())
def test_the_draw_chances_match_counting_every_draw_of_a_small_bag(total, data):  # BO-5
    mine = data.draw(st.integers(0, total))
    drawn = data.draw(st.integers(0, total))
    at_least = data.draw(st.integers(0, drawn))
    bag = [True] * mine + [False] * (total - mine)  # labelled blocks: True is my colour
    draws = list(combinations(range(total), drawn))
    hits = sum(1 for draw in draws if sum(bag[i] for i in draw) >= at_least)
    assert chance_at_least(total, mine, drawn, at_least) == Fraction(hits, len(draws))


def test_the_chance_to_draw_two_of_mine_from_the_opening_bag_is_exact():  # BO-2, BO-5
    # Two players: 22 red, 22 blue, 24 green. Drawing 4, at least 2 red.
    ways = comb(22, 2) * comb(46, 2) + comb(22, 3) * comb(46, 1) + comb(22, 4)
    assert chance_at_least(68, 22, 4, 2) == Fraction(ways, comb(68, 4))
    assert chance_at_least(68, 22, 4, 2) == Fraction(5768, 14807)  # about 39.0 %


def chance_refusal(total, mine, drawn, at_least):
    try:
        chance_at_least(total, mine, drawn, at_least)
    except RuleError as error:
        return error
    raise AssertionError("the chance was given")


def test_the_chance_of_a_negative_number_of_blocks_is_refused_on_that_field():
    error = chance_refusal(68, 22, 4, -1)
    assert (error.field, error.rule, error.params) == ("at_least", None, {})


def test_a_bag_cannot_hold_more_of_my_colour_than_it_holds_in_all():  # BO-5
    for mine in (-1, 69):
        error = chance_refusal(68, mine, 4, 2)
        assert (error.field, error.rule, error.params) == ("mine", "BO-5", {"total": 68})


def test_a_draw_takes_no_more_blocks_than_the_bag_holds():  # BO-5
    for drawn in (-1, 11):
        error = chance_refusal(10, 3, drawn, 0)
        assert (error.field, error.rule, error.params) == ("drawn", "BO-5", {"total": 10})
    assert chance_at_least(10, 3, 10, 3) == 1  # the whole bag is a draw


# (bag, mine in it, drawn, at least): the chance as the share of equally likely draws, counted
# with binomial coefficients.
CHANCES = [
    (68, 22, 4, 5),  # more of mine than are drawn: impossible
    (6, 6, 0, 1),  # nothing drawn
    (0, 0, 0, 1),  # an empty bag
    (10, 0, 3, 1),  # none of mine left
    (10, 10, 3, 3),  # only mine left
    (24, 5, 6, 2),
]


def test_every_chance_shown_is_an_exact_fraction_even_an_impossible_one():  # BO-5
    for total, mine, drawn, at_least in CHANCES:
        ways = sum(comb(mine, k) * comb(total - mine, drawn - k) for k in range(at_least, drawn + 1))
        chance = chance_at_least(total, mine, drawn, at_least)
        assert isinstance(chance, Fraction), (total, mine, drawn, at_least)
        assert chance == Fraction(ways, comb(total, drawn))
