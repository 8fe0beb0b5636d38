"""Babel On!'s JSON in the published schema (``sessions/api/shapes/babel_on.py``): every event
type of the engine has a typed payload, and whole games, played through the services and the
host's forms (each house rule for a wrong call, an undo, misses, a knock, a perfect tower, the
last player standing, random games), fit their shapes event by event; the engine refuses what
a payload's schema refuses, naming the field."""

import contextlib
import copy

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import session as core
from scoring.babel_on import engine as bo
from scoring.babel_on.tower import cells, removable_blocks, value
from scoring.errors import RuleError
from sessions import services
from sessions.api.shapes import babel_on as shapes
from sessions.boards import BOARDS
from sessions.games import GAMES
from sessions.models import GameSession
from tests.conftest import advance, play
from tests.shapes import check_the_shapes_of, problems
from tests.test_babel_on_engine import block
from tests.test_babel_on_pages import game, seats, set_up_and_roll_off
from tests.test_babel_on_properties import legal_adds, next_event

GAME = GAMES["babel-on"]
NW, NE, SW, SE = cells()


# --- the published shapes --------------------------------------------------------------------


def test_every_babel_on_event_type_has_a_typed_payload():
    assert set(shapes.EVENTS) == set(GAME.engine.event_types())
    assert shapes.PUBLIC_EVENTS == {}  # the event list shows every payload as it was sent


def test_every_babel_on_payload_says_its_rules_and_what_each_key_is():
    for kind, shape in shapes.EVENTS.items():
        assert "BO-" in shape["description"], kind
        assert set(shape.get("required", [])) <= set(shape["properties"]), kind
        for name, property_shape in shape["properties"].items():
            assert property_shape.get("description"), (kind, name)


# --- games played whole ----------------------------------------------------------------------


def new_game(night, players, count, wrong_call=None):
    """A started session of ``count`` players; ``wrong_call``: the group's house rule."""
    if wrong_call is not None:
        services.set_edition_table(group=night.group, game="babel-on", overrides={"wrong_call": wrong_call})
    session = services.create_session(night=night, game="babel-on", players=players[:count], secret="b0")
    services.set_edition_table(group=night.group, game="babel-on", overrides={})
    advance(session, core.START)
    return session


def turn_order(session):
    """The seats from the active one on, in the order the die goes round."""
    state = game(session)
    live = [seat for seat in state["seats"] if seat not in state["eliminated"]]
    start = live.index(state["active"])
    return live[start:] + live[:start]


def wrong_call(session):
    """The active player calls even and rolls a 1."""
    advance(session, bo.ROLL, call=bo.EVEN, roll=1)


def perfect_but_two(session, seat):
    """A correction building ``seat``'s tower: their colour on the north cells of every floor
    (two side by side, one above another: BO-13 for 2-4 players), the bag's most plentiful
    other colour on the south ones, all but the top floor's south cells."""
    state = game(session)
    mine, bag = state["colours"][seat], dict(state["bag"])
    add = []
    for floor, cells_of in enumerate(state["towers"][seat], start=1):
        for cell, held in zip(cells(), cells_of, strict=True):
            if held is not None or (floor == 6 and cell in (SW, SE)):
                continue
            colour = mine if cell in (NW, NE) else max((c for c in bag if c != mine), key=bag.get)
            bag[colour] -= 1
            add.append({"tower": seat, **block(colour, floor, cell)})
    return add


def a_perfect_tower_without_a_house_rule(night, players, member_client):
    """Two players, a wrong call is a miss (the Decision): a tie in the roll-off then the app's
    die, a miss, a draw undone and drawn again, a move, a bonus block, a correction, and a
    perfect tower that wins at the round's end (BO-13, BO-14)."""
    session = new_game(night, players, 2)
    a, b = seats(session)
    advance(session, bo.SETUP, colours={a: "blue", b: "red"}, extra="green")
    advance(session, bo.ROLLOFF, rolls={a: 4, b: 4})
    advance(session, bo.ROLLOFF, digital=True)
    while game(session)["phase"] == "rolloff":
        advance(session, bo.ROLLOFF, digital=True)
    first, second = turn_order(session)
    wrong_call(session)  # a miss: the die goes to the left
    advance(session, bo.ROLL, call=bo.EVEN, roll=2)
    drawn = [block("green", 1, SW), block("green", 1, SE)]
    advance(session, bo.DRAW, blocks=drawn)
    advance(session, core.UNDO)
    advance(session, bo.DRAW, blocks=drawn)
    advance(session, bo.ROLL, call=bo.ODD, roll=1)
    moved = {"tower": first, "floor": 1, "cell": SW, "block": 0}
    advance(session, bo.MOVE, removals=[{"tower": int(second), "floor": 1, "cell": SE}], additions=[moved])
    advance(session, bo.BONUS, blocks=[{"floor": 1, "cell": NW}])
    advance(session, bo.ADJUST, note="Rebuilt after the cat", add=perfect_but_two(session, first), end_turn=True)
    advance(session, bo.ROLL, call=bo.EVEN, roll=2)  # the first player completes a perfect tower
    advance(session, bo.DRAW, blocks=[block("green", 6, SW), block("green", 6, SE)])
    wrong_call(session)  # the round ends: the tower is checked
    assert (game(session)["winner"], game(session)["won_by"]) == (first, "perfect")
    advance(session, core.FINISH)
    return session


def the_last_player_standing_with_the_draw_house_rule(night, players, member_client):
    """Three players, a wrong call draws one block: one drawn, a pass, a draw, a knock of one's
    own tower, then two knocks of an opponent's tower leave the last player standing (BO-12)."""
    session = new_game(night, players, 3, wrong_call="draw")
    a, b, c = seats(session)
    advance(session, bo.SETUP, colours={a: "red", b: "blue", c: "yellow"})  # the app picks the extra
    advance(session, bo.ROLLOFF, rolls={a: 6, b: 1, c: 3})
    advance(session, bo.ROLL, call=bo.ODD, roll=2)
    advance(session, bo.MISS, choice="draw", blocks=[block("green", 1, NW)])
    advance(session, bo.ROLL, call=bo.ODD, roll=4)
    advance(session, bo.MISS, choice="pass")
    advance(session, bo.ROLL, call=bo.EVEN, roll=4)
    advance(session, bo.DRAW, blocks=[block("green", 1, cell) for cell in cells()])
    advance(session, bo.KNOCK, seat=a, tower=a)  # their own: the turn ends
    advance(session, bo.KNOCK, seat=c, tower=b)  # an opponent's: c is out
    advance(session, bo.KNOCK, seat=int(b), tower=int(a))  # a player's id as a number names their seat too
    assert (game(session)["winner"], game(session)["won_by"], game(session)["eliminated"]) == (
        a,
        "last_standing",
        [c, b],
    )
    advance(session, core.FINISH)
    return session


def the_take_off_house_rule_then_places_typed_in(night, players, member_client):
    """Four players (no extra colour), a wrong call takes a block off one's own tower: none when
    none may come off, one when one may; the table then types in the finishing order."""
    session = new_game(night, players, 4, wrong_call="take_off")
    keys = seats(session)
    advance(session, bo.SETUP, colours=dict(zip(keys, ["blue", "red", "green", "yellow"], strict=True)), extra=None)
    while game(session)["phase"] == "rolloff":
        advance(session, bo.ROLLOFF, digital=True)
    first, second, third, fourth = turn_order(session)
    wrong_call(session)
    advance(session, bo.MISS, choice="take_off")  # an empty tower: nothing to take off
    advance(session, bo.ROLL, call=bo.EVEN, roll=2)
    colour = max(game(session)["bag"], key=game(session)["bag"].get)
    advance(session, bo.DRAW, blocks=[block(colour, 1, NW), block(colour, 1, NE)])
    wrong_call(session)
    advance(session, bo.MISS, choice="pass")
    advance(session, bo.KNOCK, seat=first, tower=first)  # not their turn: the turn goes on
    wrong_call(session)
    advance(session, bo.MISS, choice="take_off", block=None)
    wrong_call(session)  # the first player's again
    advance(session, bo.MISS, choice="pass")
    wrong_call(session)
    advance(session, bo.MISS, choice="take_off", block={"floor": 1, "cell": NE})
    assert game(session)["towers"][second][0] == [colour, None, None, None]
    advance(session, "places.record", places={first: 2, second: 1, third: 3, fourth: 3})
    advance(session, core.FINISH)
    return session


def a_session_stored_before_the_wrong_call_decision(night, players, member_client):
    """Options without ``wrong_call`` (a session stored before the Decision, BO-5): a roll sent
    with ``miss_choice`` keeps a wrong call open for a block drawn or a pass."""
    session = services.create_session(night=night, game="babel-on", players=players[:2], secret="b1")
    keys = seats(session)
    state = core.initial_state(GAME.rules, seats=keys, options={}, seed=session.seed)
    GameSession.objects.filter(pk=session.pk).update(options={}, state=state)
    advance(session, core.START)
    assert game(session)["wrong_call"] is None
    advance(session, bo.SETUP, colours=dict(zip(keys, ["purple", "orange"], strict=True)), extra="yellow")
    advance(session, bo.ROLLOFF, rolls=dict(zip(keys, [2, 5], strict=True)))
    advance(session, bo.ROLL, call=bo.EVEN, roll=3, miss_choice=True)
    advance(session, bo.MISS, choice="draw", blocks=[block("yellow", 1, NW)])
    advance(session, bo.ROLL, call=bo.ODD, roll=2, miss_choice=True)
    advance(session, bo.MISS, choice="pass")
    advance(session, bo.ROLL, call=bo.EVEN, roll=5, miss_choice=False)  # the die goes on
    advance(session, bo.ROLL, call=bo.EVEN, roll=2, miss_choice=True)
    advance(session, bo.DRAW, blocks=[block("yellow", 1, NE), block("purple", 1, SW)])
    return session


def a_game_on_the_hosts_forms(night, players, member_client):
    """What the session page's forms send (``boards.babel_on.payload``): the set-up and the
    roll-off, a typed roll and its draw, a move, a bonus block, a miss, a correction, a knock,
    and a roll of the app's die."""
    session = new_game(night, players, 2)
    ada, bruno = set_up_and_roll_off(member_client, session)  # Ada (blue) starts
    sent = [
        ("roll", {"call": "even", "roll": "2", "die": "typed"}),
        ("draw", {"colour_0": "green", "spot_0": "1-nw", "colour_1": "green", "spot_1": "1-ne"}),
        ("roll", {"call": "odd", "roll": "1", "die": "typed"}),
        ("move", {"from_0": f"{ada}:1:ne", "to_0": f"{bruno}:1:nw"}),
        ("bonus", {"bonus_0": "1-sw"}),
        ("roll", {"call": "even", "roll": "3", "die": "typed"}),
        ("adjust", {"note": "Bruno's block slid", "remove_tower": bruno, "remove_floor": "1", "remove_cell": "nw"}),
        ("adjust", {"note": "Put back", "add_tower": bruno, "add_colour": "green", "add_floor": "1", "add_cell": "nw"}),
        ("knock", {"seat": bruno, "tower": bruno}),
        ("roll", {"call": "odd", "die": "app"}),
    ]
    for event, data in sent:
        assert play(member_client, session, event, **data).status_code == 302, (event, data)
    session.refresh_from_db()
    return session


GAMES_PLAYED = [
    a_perfect_tower_without_a_house_rule,
    the_last_player_standing_with_the_draw_house_rule,
    the_take_off_house_rule_then_places_typed_in,
    a_session_stored_before_the_wrong_call_decision,
    a_game_on_the_hosts_forms,
]


def game_states_misfit(session):
    """Every state of ``session``'s game checked against BabelOnState itself: the session's
    ``state.game`` is any game's state (an anyOf), which a state of another game's shape fits."""
    board = BOARDS["babel-on"]
    keys = [str(pk) for pk in session.seats.order_by("order").values_list("player_id", flat=True)]
    replay = {"seats": keys, "options": session.options, "seed": session.seed}
    state = core.initial_state(GAME.rules, **replay)
    found = [f"initial state: {p}" for p in problems(board.public_state(state)["game"], "BabelOnState")]
    done = []
    for event in (stored.as_core_event() for stored in session.events.order_by("seq")):
        done.append(event)
        if event.type == core.UNDO:
            state = core.replay(GAME.rules, events=done, **replay)
        else:
            state = core.step(GAME.rules, state, event)
        found += [f"seq {event.seq} game: {p}" for p in problems(board.public_state(state)["game"], "BabelOnState")]
    return found


def shapes_missed(session):
    return check_the_shapes_of(session) + game_states_misfit(session)


@pytest.mark.parametrize("played", GAMES_PLAYED, ids=lambda played: played.__name__)
def test_a_babel_on_game_played_whole_fits_its_published_shapes(played, night, players, member_client):
    session = played(night, players, member_client)
    found = shapes_missed(session)
    assert found == [], "\n".join(found)


def test_the_games_played_cover_every_event_type_house_rule_and_way_to_win(night, players, member_client):
    sessions = [played(night, players, member_client) for played in GAMES_PLAYED]
    sent = {event.type for session in sessions for event in session.events.all()}
    assert sent >= GAME.engine.event_types() | {core.UNDO, core.FINISH}
    states = [session.state["game"] for session in sessions]
    assert {state["wrong_call"] for state in states} == {*bo.WRONG_CALL_RULES, None}
    assert {state["won_by"] for state in states} == {"perfect", "last_standing", None}
    choices = {
        (event.payload["choice"], "block" in event.payload and event.payload["block"] is not None)
        for session in sessions
        for event in session.events.filter(type=bo.MISS)
    }
    assert choices >= {("pass", False), ("draw", False), ("take_off", False), ("take_off", True)}
    knocks = [event.payload for session in sessions for event in session.events.filter(type=bo.KNOCK)]
    assert any(knock["seat"] == knock["tower"] for knock in knocks)
    assert any(knock["seat"] != knock["tower"] for knock in knocks)
    results = [session for session in sessions if session.status == core.FINISHED]
    assert len(results) == 3  # two decided by the engine, one by the places typed in


def draw_for(state, count):
    """Blocks the bag holds, on places of the active player's tower one after another."""
    tower = copy.deepcopy(state["towers"][state["active"]])
    bag = dict(state["bag"])
    blocks = []
    for _ in range(min(count, bo.draw_limit(state, count))):
        floor, cell = legal_adds(tower)[0]
        colour = max(bag, key=bag.get)
        bag[colour] -= 1
        tower[floor - 1][cells().index(cell)] = colour
        blocks.append(block(colour, floor, cell))
    return blocks


@settings(
    max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(data=st.data())
def test_random_babel_on_games_fit_their_published_shapes(night, players, data):
    """Games of random moves (``test_babel_on_properties.next_event``: mostly legal, some not,
    refused and left out of the log), each house rule, through the services."""
    count = data.draw(st.integers(2, 4))
    session = new_game(night, players, count, wrong_call=data.draw(st.sampled_from(bo.WRONG_CALL_RULES)))
    keys = seats(session)
    advance(session, bo.SETUP, colours=dict(zip(keys, data.draw(st.permutations(value("colours"))), strict=False)))
    while game(session)["phase"] == "rolloff":
        advance(session, bo.ROLLOFF, digital=True)
    for _ in range(data.draw(st.integers(10, 40))):
        state = game(session)
        if state["phase"] == "over":
            break
        if state["pending"] and state["pending"]["kind"] == "miss":  # a wrong call under a house rule
            choice = data.draw(st.sampled_from(bo.wrong_call_choices(state)))
            given_ = {"choice": choice}
            if choice == "draw":
                given_["blocks"] = draw_for(state, value("wrong_call_draw"))
            elif choice == "take_off":
                tower = state["towers"][state["active"]]
                off = next(removable_blocks(tower, state["colours"][state["active"]], by_owner=True), None)
                given_["block"] = None if off is None else {"floor": off[0], "cell": cells()[off[1]]}
            kind, payload = bo.MISS, given_
        else:
            kind, payload = next_event(data, state)
        with contextlib.suppress(RuleError):  # refused: not in the log
            advance(session, kind, **payload)
    found = shapes_missed(session)
    assert found == [], "\n".join(found)


# --- the checks bite -------------------------------------------------------------------------


def test_a_babel_on_state_breakdown_or_payload_of_another_shape_does_not_fit(night, players, member_client):
    session = a_perfect_tower_without_a_house_rule(night, players, member_client)
    shown = BOARDS["babel-on"].public_state(session.state)["game"]
    assert problems(shown, "BabelOnState") == []
    towers = copy.deepcopy(shown["towers"])
    towers[next(iter(towers))][0][0] = "pink"
    for field, wrong in [
        ("round", "3"),
        ("towers", towers),
        ("pending", {"kind": "draw"}),
        ("won_by", "knock-out"),
        ("seed", 7),  # the app's die seed is secret: no such key
    ]:
        assert problems({**shown, field: wrong}, "BabelOnState"), field
    [breakdown, *_] = [result.breakdown for result in session.results.all()]
    assert problems(breakdown, "BabelOnBreakdown") == []
    assert problems({**breakdown, "blocks": "24"}, "BabelOnBreakdown")
    sent = {"type": bo.ROLL, "payload": {"call": "evens"}, "expected_version": 3}
    assert problems(sent, "EventIn")


def test_bo_3_a_roll_off_whose_digital_is_not_yes_or_no_is_refused_naming_it(night, players):
    session = new_game(night, players, 2)
    a, b = seats(session)
    advance(session, bo.SETUP, colours={a: "blue", b: "red"})
    for payload in ({"digital": "yes"}, {"digital": "yes", "rolls": {a: 3, b: 5}}, {"digital": None}):
        with pytest.raises(RuleError) as refused:
            advance(session, bo.ROLLOFF, **payload)
        assert (refused.value.field, refused.value.rule) == ("digital", "BO-3")
    assert game(session)["phase"] == "rolloff"
    advance(session, bo.ROLLOFF, digital=False, rolls={a: 3, b: 5})
    assert game(session)["first"] == b
