"""Issue 14, Babel On!: a legal move the forms refused (BO-7) and the two open points of the cut
rule text (BO-5): what a wrong call gives, and a draw or a move the table cannot complete. The
host's page, the active player's phone and the REST events API go through the same engine."""

import copy

import pytest
from rest_framework.test import APIClient

from scoring.babel_on import engine as bo
from scoring.babel_on.tower import cells, tower_from_floors
from scoring.errors import RuleError
from sessions import services
from sessions.api.tokens import create_api_token
from tests import test_babel_on_phones
from tests.conftest import advance, play, ruled
from tests.test_babel_on_pages import game, set_up_and_roll_off
from tests.test_babel_on_phones import my_turn, phone, send

ENGINE = bo.BabelOn()
MISS = "bo.miss"  # the wrong call's choice (Decision, BO-5)


table = test_babel_on_phones.table  # Ada (blue) won the roll-off against Bruno (red)


def page(client, session):
    return client.get(f"/s/{session.pk}/").content.decode()


def api(member, session, type, **payload):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {create_api_token(user=member, name='tests')[1]}")
    session.refresh_from_db()
    body = {"type": type, "expected_version": session.version, "payload": payload}
    return client.post(f"/api/v1/sessions/{session.pk}/events/", body, format="json")


def block(colour, place):
    floor, _sep, cell = place.partition("-")
    return {"colour": colour, "floor": int(floor), "cell": cell}


# --- BO-7: which block taken off goes where --------------------------------------------------

STACK_MOVE = {
    # Tapped the bottom block first: the green under the red, the red onto the green's new
    # place, then the green beside them. Each block goes where it was tapped to.
    "from_0": "{ada}:1:nw",
    "to_0": "{bruno}:1:nw",
    "from_1": "{ada}:2:nw",
    "to_1": "{bruno}:2:nw",
    "from_2": "{ada}:1:ne",
    "to_2": "{bruno}:1:ne",
}


@pytest.mark.parametrize("via", ["host", "phone"])
def test_bo_7_a_stack_tapped_in_any_order_comes_off_top_first_and_keeps_its_order(via, member_client, table):
    session, code, ada, bruno = table
    advance(session, bo.ROLL, call="even", roll=4)
    drawn = [block("green", "1-nw"), block("red", "2-nw"), block("green", "1-ne"), block("blue", "1-sw")]
    advance(session, bo.DRAW, blocks=drawn)
    advance(session, bo.ROLL, call="odd", roll=3)  # Bruno's right call: three blocks to move
    data = {name: value.format(ada=ada, bruno=bruno) for name, value in STACK_MOVE.items()}
    onto_one_cell = {**data, "to_2": data["to_0"]}
    if via == "host":
        assert 'name="to_0"' in page(member_client, session)  # one set of buttons, for the block being chosen
        twice = play(member_client, session, "move", **onto_one_cell)
        response = play(member_client, session, "move", **data)
    else:
        bruno_phone = phone(code, bruno)
        section = my_turn(bruno_phone, code)
        assert f'name="from_0" value="{ada}:2:nw"' in section  # the red on top can be tapped
        assert f'name="to_0" value="{bruno}:1:nw"' in section
        twice = send(bruno_phone, code, **onto_one_cell)
        response = send(bruno_phone, code, **data)
    # Two blocks onto one cell are refused with the rule, and nothing changes (BO-7).
    assert twice.status_code == 400
    assert ruled("That cell already holds a block. (rule BO-7)") in twice.content.decode()
    assert response.status_code == 302
    state = game(session)
    assert state["towers"][bruno][:2] == [["green", "green", None, None], ["red", None, None, None]]
    assert state["towers"][ada][:2] == [[None, None, "blue", None], [None] * 4]
    assert state["active"] == ada


def test_bo_7_without_the_mapping_the_ith_block_off_is_the_ith_put_on_as_before():
    state = ENGINE.initial_state(seats=["1", "2"], options={}, seed=1)
    state = ENGINE.apply(state, type=bo.SETUP, payload={"colours": {"1": "blue", "2": "red"}})
    state = ENGINE.apply(state, type=bo.ROLLOFF, payload={"rolls": {"1": 1, "2": 6}})
    state["towers"]["1"] = tower_from_floors([["green", None, None, None], ["red", None, None, None]])
    state = ENGINE.apply(state, type=bo.ROLL, payload={"call": "odd", "roll": 1})
    off = [{"tower": "1", "floor": 2, "cell": "nw"}]
    for bad in (True, "0", 1, -1):
        with pytest.raises(RuleError) as error:
            ENGINE.apply(
                state,
                type=bo.MOVE,
                payload={"removals": off, "additions": [{"tower": "2", "floor": 1, "cell": "nw", "block": bad}]},
            )
        assert (error.value.rule, error.value.field) == ("BO-9", "additions[0].block")
    moved = ENGINE.apply(
        state, type=bo.MOVE, payload={"removals": off, "additions": [{"tower": "2", "floor": 1, "cell": "nw"}]}
    )
    assert moved["towers"]["2"][0][0] == "red"


# --- BO-5, open point: a wrong call ----------------------------------------------------------


@pytest.fixture
def house_rule(member_client, night, players):
    """``house_rule(rule)``: the table of ``table`` in a group whose house rule for a wrong call
    is ``rule`` ("draw" or "take_off"), set on the group's edition page before the game."""

    def table_with(rule):
        services.set_edition_table(group=night.group, game="babel-on", overrides={"wrong_call": rule})
        session = services.create_session(
            night=night, game="babel-on", players=players[:2], colours=["blue", ""], secret="b"
        )
        advance(session, "session.start")
        ada, bruno = set_up_and_roll_off(member_client, session)
        return session, services.create_join_code(session=session).code, ada, bruno

    return table_with


@pytest.mark.parametrize("via", ["host", "phone", "api"])
def test_bo_5_a_wrong_call_is_a_miss_and_the_turn_passes(via, member, member_client, table):
    session, code, ada, bruno = table
    if via == "host":
        play(member_client, session, "roll", call="odd", roll="4", die="typed")
    elif via == "phone":
        send(phone(code, ada), code, call="odd", die="typed", roll="4")
    else:  # miss_choice, which kept the turn open before the Decision, changes nothing now
        assert api(member, session, bo.ROLL, call="odd", roll=4, miss_choice=True).status_code == 201
    state = game(session)
    assert (state["active"], state["pending"], state["last_roll"]["outcome"]) == (bruno, None, "miss")
    html = page(member_client, session)
    assert "a miss: the die goes to the left" in html
    assert "a wrong call" not in html
    assert "Pass: the die goes to the left" not in html
    assert "If you guessed wrong" not in html  # the cut rule text is for the rules page (BO-5)


def test_bo_5_a_groups_house_rule_draws_one_block_after_a_wrong_call(member_client, house_rule):
    session, _code, ada, bruno = house_rule("draw")
    play(member_client, session, "roll", call="odd", roll="4", die="typed")
    state = game(session)
    assert (state["active"], state["pending"]) == (ada, {"kind": "miss", "count": 4})
    html = page(member_client, session)
    assert "Ada: a wrong call" in html
    assert "house rule: draw one block from the bag onto your own tower, or pass." in html
    assert "Pass: the die goes to the left" in html
    assert "Draw this block" in html
    again = play(member_client, session, "roll", call="odd", roll="3", die="typed")
    assert ruled("(rule BO-5)") in again.content.decode()
    refused = play(member_client, session, "miss", choice="take_off", block="1-nw")  # not this group's rule
    assert ruled("(rule BO-5)") in refused.content.decode()
    response = play(member_client, session, "miss", choice="draw", colour_0="green", spot_0="1-nw")
    assert response.status_code == 302
    state = game(session)
    assert state["towers"][ada][0] == ["green", None, None, None]
    assert (state["bag"]["green"], state["active"], state["round"]) == (23, bruno, 1)
    assert "a miss: one block drawn, as the table agreed" in page(member_client, session)


def test_bo_5_a_groups_house_rule_takes_one_block_off_your_own_tower_on_your_phone(member_client, house_rule):
    session, code, ada, bruno = house_rule("take_off")
    add = [{"tower": ada, **block("green", "1-nw")}, {"tower": ada, **block("red", "1-ne")}]
    advance(session, bo.ADJUST, note="Ada's tower", add=add)
    ada_phone, bruno_phone = phone(code, ada), phone(code, bruno)
    send(ada_phone, code, call="even", die="typed", roll="5")
    section = my_turn(ada_phone, code)
    assert "house rule: take one block off your own tower, or pass." in section
    assert 'value="1-nw"' in section
    assert 'value="1-ne"' in section
    assert "Waiting for Ada to play." in bruno_phone.get(f"/j/{code}/").content.decode()
    reds_in_the_bag = game(session)["bag"]["red"]
    assert send(ada_phone, code, choice="take_off", block="1-ne").status_code == 302
    state = game(session)
    assert state["towers"][ada][0] == ["green", None, None, None]
    assert state["bag"]["red"] == reds_in_the_bag + 1  # back into the bag
    assert (state["active"], state["last_roll"]["choice"]) == (bruno, "take_off")


def test_bo_5_an_adjustment_after_a_wrong_call_stays_in_that_turn(member_client, house_rule):
    session, _code, ada, bruno = house_rule("draw")
    play(member_client, session, "roll", call="even", roll="3", die="typed")
    note = "Ada's wrong call: as agreed, she puts a green on her tower"
    adjusted = {
        "note": note,
        "add_colour": "green",
        "add_tower": ada,
        "add_floor": "1",
        "add_cell": "nw",
        "end_turn": "on",
    }
    assert play(member_client, session, "adjust", **adjusted).status_code == 302
    state = game(session)
    assert state["adjustments"] == [{"note": note, "round": 1, "active": ada}]
    assert (state["active"], state["round"], state["pending"]) == (bruno, 1, None)  # Bruno's turn is his own


def test_bo_5_a_session_stored_before_the_decision_replays_as_it_was_played():
    """Its options have no ``wrong_call``: a roll sent with ``miss_choice`` kept the turn open
    for the table's pass or one block drawn, one without it handed the die on."""
    state = ENGINE.initial_state(seats=["ada", "bruno"], options={}, seed=3)
    state = ENGINE.apply(state, type=bo.SETUP, payload={"colours": {"ada": "blue", "bruno": "red"}, "extra": "green"})
    state = ENGINE.apply(state, type=bo.ROLLOFF, payload={"rolls": {"ada": 6, "bruno": 1}})
    held = ENGINE.apply(state, type=bo.ROLL, payload={"call": "odd", "roll": 2, "miss_choice": True})
    assert held["pending"] == {"kind": "miss", "count": 2}
    drawn = ENGINE.apply(held, type=MISS, payload={"choice": "draw", "blocks": [block("blue", "1-nw")]})
    assert (drawn["towers"]["ada"][0][0], drawn["active"]) == ("blue", "bruno")
    passed = ENGINE.apply(state, type=bo.ROLL, payload={"call": "odd", "roll": 2})
    assert (passed["active"], passed["pending"]) == ("bruno", None)


@pytest.mark.parametrize(("rules", "field"), [({"wrong_call": "redo"}, "wrong_call"), ({"dice": 2}, "dice")])
def test_bo_5_a_house_rule_must_be_one_the_app_knows(rules, field):
    with pytest.raises(RuleError) as refused:
        bo.check_house_rules(rules)
    assert refused.value.field == field


# --- BO-5, open point: a draw or a move the table cannot complete ----------------------------


def fill(session, counts):
    """One manual adjustment putting blocks from the bag on the towers, floor by floor."""
    bag = dict(game(session)["bag"])
    add = []
    for seat, count in counts.items():
        for n in range(count):
            colour = max(bag, key=bag.get)
            bag[colour] -= 1
            add.append({"tower": seat, "colour": colour, "floor": n // 4 + 1, "cell": cells()[n % 4]})
    advance(session, bo.ADJUST, note="the towers of a long game", add=add)


@pytest.fixture
def four(member_client, night, players):
    """Four players (no extra colour, 88 blocks in the bag); Ada starts."""
    session = services.create_session(night=night, game="babel-on", players=players, secret="b")
    seats = [seat.key for seat in session.seats.all()]
    advance(session, "session.start")
    advance(session, bo.SETUP, colours=dict(zip(seats, ["blue", "red", "green", "yellow"], strict=True)))
    advance(session, bo.ROLLOFF, rolls={seat: 6 if n == 0 else 1 for n, seat in enumerate(seats)})
    return session, seats


@pytest.mark.parametrize("via", ["host", "phone", "api"])
def test_bo_5_a_draw_the_bag_cannot_complete_draws_the_blocks_left(via, member, member_client, four):
    session, (ada, bruno, chiara, dieter) = four
    fill(session, {bruno: 24, chiara: 24, dieter: 24, ada: 13})  # 3 blocks left in the bag
    play(member_client, session, "roll", call="even", roll="4", die="typed")
    left = [colour for colour, count in game(session)["bag"].items() for _ in range(count)]
    assert len(left) == 3
    html = page(member_client, session)
    assert 'name="colour_2"' in html
    assert 'name="colour_3"' not in html
    assert "Blocks in the bag: 3; room on the tower: 11." in html
    assert "Draw 3 of the 4 rolled; the other 1 is lost." in html  # the Decision, shown
    places = ["4-ne", "4-sw", "4-se"]
    if via == "api":
        response = api(member, session, bo.DRAW, blocks=[block(c, p) for c, p in zip(left, places, strict=True)])
        assert response.status_code == 201
    else:
        data = {f"colour_{i}": c for i, c in enumerate(left)} | {f"spot_{i}": p for i, p in enumerate(places)}
        if via == "host":
            response = play(member_client, session, "draw", **data)
        else:
            code = services.create_join_code(session=session).code
            response = send(phone(code, ada), code, **data)
        assert response.status_code == 302
    state = game(session)
    assert sum(state["bag"].values()) == 0
    assert state["towers"][ada][3][1:] == left
    assert (state["active"], state["pending"]) == (bruno, None)


def test_bo_5_a_full_tower_draws_nothing_and_a_wrong_call_can_only_pass(member_client, four):
    session, (ada, bruno, _chiara, _dieter) = four
    fill(session, {ada: 24})
    play(member_client, session, "roll", call="even", roll="2", die="typed")
    html = page(member_client, session)
    assert "Nothing to draw: end the turn" in html
    assert "None of the 2 blocks rolled can be drawn: they are lost." in html
    assert play(member_client, session, "draw").status_code == 302
    assert game(session)["active"] == bruno
    state = copy.deepcopy(game(session))
    state["active"], state["pending"] = ada, {"kind": "miss", "count": 3}
    assert bo.draw_limit(state, 1) == 0
    with pytest.raises(RuleError) as error:
        ENGINE.apply(state, type=MISS, payload={"choice": "draw", "blocks": [block("red", "1-nw")]})
    assert error.value.rule == "BO-5"


def test_bo_5_a_move_with_fewer_blocks_that_may_come_off_moves_those(member_client, table):
    session, code, ada, bruno = table
    # Ada's first floor is all blue (protected, BO-11) with a green on it: only the green may go.
    advance(
        session,
        bo.ADJUST,
        note="Ada's tower",
        add=[{"tower": ada, "colour": "blue", "floor": 1, "cell": c} for c in cells()]
        + [{"tower": ada, "colour": "green", "floor": 2, "cell": "nw"}],
    )
    advance(session, bo.ROLL, call="even", roll=1)  # Ada misses (an older log's roll): Bruno's turn
    play(member_client, session, "roll", call="odd", roll="3", die="typed")
    html = page(member_client, session)
    assert "Move 1 of the 3 rolled: no more can be taken off the towers (" in html
    assert "the other 2 are lost." in html
    assert 'name="from_0"' in html
    assert 'name="from_1"' not in html
    section = my_turn(phone(code, bruno), code)
    assert 'name="from_0"' in section
    assert 'name="from_1"' not in section
    response = play(member_client, session, "move", from_0=f"{ada}:2:nw", to_0=f"{bruno}:1:nw")
    assert response.status_code == 302
    state = game(session)
    assert state["towers"][bruno][0] == ["green", None, None, None]
    assert state["active"] == ada


def test_bo_5_the_blocks_that_may_come_off_are_counted_in_every_order():  # BO-7, BO-8, BO-10, BO-11
    from scoring.babel_on.tower import most_removable  # new with this Decision

    stack = tower_from_floors(
        [["green", "green", "green", "green"], ["red", "red", "red", None], ["red", None, None, None]]
    )
    # The floor-1 blocks can come off only once the floors above are gone (BO-7, BO-8).
    assert most_removable(stack, "blue", by_owner=False, cap=5) == 5
    assert most_removable(stack, "blue", by_owner=False, cap=3) == 3
    protected = tower_from_floors([["blue"] * 4, ["green", None, None, None]])
    assert most_removable(protected, "blue", by_owner=False, cap=5) == 1  # BO-11, for anyone
    assert most_removable(protected, "blue", by_owner=True, cap=5) == 1
    assert most_removable(tower_from_floors([]), "blue", by_owner=True, cap=5) == 0
