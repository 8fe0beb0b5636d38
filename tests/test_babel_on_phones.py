"""Babel On! on the phones at the table: the player whose turn it is calls, rolls, records the
blocks and adds bonus blocks from their own phone (BO-5, BO-6, BO-9); the other phones wait,
and a move sent from them is refused with the rule."""

import re

import pytest
from django.test import Client

from scoring.babel_on import engine as bo
from sessions import services
from sessions.models import SessionEvent
from tests.conftest import ruled
from tests.test_babel_on_pages import game, set_up_and_roll_off


@pytest.fixture
def table(member_client, night, players):
    """Ada (blue) won the roll-off against Bruno (red); green is the extra colour."""
    session = services.create_session(
        night=night, game="babel-on", players=players[:2], colours=["blue", ""], secret="b"
    )
    services.append_event(session_id=session.pk, expected_version=0, type="session.start")
    session.refresh_from_db()
    ada, bruno = set_up_and_roll_off(member_client, session)
    code = services.create_join_code(session=session).code
    return session, code, ada, bruno


def phone(code, seat):
    client = Client()
    assert client.post(f"/j/{code}/seat/", {"seat": seat}).status_code == 302
    return client


def csrf_token(html):
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)[1]


def my_turn(client, code):
    """The phone's turn section (it fails when the phone has none)."""
    page = client.get(f"/j/{code}/").content.decode()
    start = page.index('data-testid="bo-my-turn"')
    return page[start : page.index("</section>", start)]


HIDDEN = re.compile(r'<input type="hidden" name="(move|idempotency_key|expected_version)" value="([^"]*)"')
TWO_BLUE = {"colour_0": "blue", "spot_0": "1-nw", "colour_1": "blue", "spot_1": "1-ne"}


def keys(section):
    """The hidden fields a fresh rendering of the turn gives: the move, its key, the version."""
    return dict(HIDDEN.findall(section))


def send(client, code, **data):
    """What a tap on the phone sends: the fields of the form as rendered, and the player's entries."""
    return client.post(f"/j/{code}/act/", {**keys(my_turn(client, code)), **data})


def test_the_active_phone_calls_rolls_and_places_the_drawn_blocks(table):  # BO-5
    session, code, ada, _bruno = table
    ada_phone = phone(code, ada)
    section = my_turn(ada_phone, code)
    assert f'action="/j/{code}/act/"' in section
    assert keys(section)["move"] == "roll"
    assert "Roll the app's die" in section
    assert send(ada_phone, code, call="even", die="typed", roll="2").status_code == 302
    state = game(session)
    assert state["pending"] == {"kind": "draw", "count": 2}
    assert state["last_roll"]["digital"] is False
    section = my_turn(ada_phone, code)
    assert keys(section)["move"] == "draw"
    assert 'name="spot_1"' in section
    assert 'name="spot_0" value="1-nw" checked' in section  # the app suggests the places in order
    assert 'name="spot_1" value="1-ne" checked' in section
    assert "<select" not in section  # a place is a tap on a cell of the tower
    response = send(ada_phone, code, colour_0="blue", spot_0="1-nw", colour_1="green", spot_1="1-ne")
    assert response.status_code == 302
    state = game(session)
    assert state["towers"][ada][0] == ["blue", "green", None, None]
    assert state["bag"]["blue"] == 21
    assert SessionEvent.objects.filter(session=session).last().author_label == "Ada"


def test_the_active_phone_can_roll_the_apps_die(table):  # BO-4
    session, code, ada, _bruno = table
    ada_phone = phone(code, ada)
    assert send(ada_phone, code, call="odd", die="app").status_code == 302
    last = game(session)["last_roll"]
    assert last["digital"] is True
    assert 1 <= last["roll"] <= 6


def test_after_a_right_odd_call_the_phone_takes_blocks_off_then_adds_them(table):  # BO-9, BO-10
    session, code, ada, bruno = table
    ada_phone, bruno_phone = phone(code, ada), phone(code, bruno)
    send(ada_phone, code, call="even", die="typed", roll="2")
    send(ada_phone, code, colour_0="blue", spot_0="1-nw", colour_1="green", spot_1="1-ne")
    assert send(bruno_phone, code, call="odd", die="typed", roll="1").status_code == 302
    section = my_turn(bruno_phone, code)
    assert keys(section)["move"] == "move"
    assert "Move 1 block" in section
    assert f'name="from_0" value="{ada}:1:ne"' in section  # the blocks on the towers, to tap
    assert f'name="to_0" value="{bruno}:1:nw"' in section  # and the cells they can go to
    # Ada's blue is not on a floor of her colour alone: it stays (BO-10); the green may go.
    response = send(bruno_phone, code, from_0=f"{ada}:1:nw", to_0=f"{bruno}:1:nw")
    assert response.status_code == 400
    assert ruled("(rule BO-10)") in response.content.decode()
    assert game(session)["towers"][ada][0] == ["blue", "green", None, None]
    response = send(bruno_phone, code, from_0=f"{ada}:1:ne", to_0=f"{bruno}:1:nw")
    assert response.status_code == 302
    state = game(session)
    assert state["towers"][ada][0] == ["blue", None, None, None]
    assert state["towers"][bruno][0] == ["green", None, None, None]
    assert state["active"] == ada


def test_the_other_phone_is_refused_with_the_rule_and_nothing_changes(table):  # BO-5
    session, code, ada, bruno = table
    bruno_phone = phone(code, bruno)
    session.refresh_from_db()
    version = session.version
    response = bruno_phone.post(f"/j/{code}/act/", {"move": "roll", "call": "even", "die": "typed", "roll": "2"})
    assert response.status_code == 400
    assert ruled("It is Ada&#x27;s turn. (rule BO-5)") in response.content.decode()
    session.refresh_from_db()
    assert session.version == version
    assert game(session)["last_roll"] is None
    # Nor can it place the blocks of Ada's right call.
    send(phone(code, ada), code, call="even", die="typed", roll="2")
    session.refresh_from_db()
    version = session.version
    response = bruno_phone.post(
        f"/j/{code}/act/",
        {
            "move": "draw",
            "expected_version": version,
            "colour_0": "red",
            "spot_0": "1-nw",
            "colour_1": "red",
            "spot_1": "1-ne",
        },
    )
    assert response.status_code == 400
    assert ruled("(rule BO-5)") in response.content.decode()
    session.refresh_from_db()
    assert session.version == version
    assert game(session)["towers"][ada][0] == [None] * 4
    assert game(session)["bag"]["red"] == 22


def test_a_phone_that_has_not_said_who_it_is_cannot_move(table):
    session, code, _ada, _bruno = table
    response = Client().post(f"/j/{code}/act/", {"move": "roll", "call": "even", "die": "app"})
    assert response.status_code == 400
    assert "Say which player you are first." in response.content.decode()
    assert game(session)["last_roll"] is None


def test_a_double_tap_with_the_same_key_records_once(table):
    session, code, ada, _bruno = table
    ada_phone = phone(code, ada)
    roll = {**keys(my_turn(ada_phone, code)), "call": "even", "die": "typed", "roll": "2"}
    assert ada_phone.post(f"/j/{code}/act/", roll).status_code == 302
    assert ada_phone.post(f"/j/{code}/act/", roll).status_code == 302
    session.refresh_from_db()
    version = session.version
    draw = {**keys(my_turn(ada_phone, code)), **TWO_BLUE}
    assert draw["idempotency_key"] != roll["idempotency_key"]  # each rendering has its own key
    assert ada_phone.post(f"/j/{code}/act/", draw).status_code == 302
    # The second tap comes after the turn has passed to Bruno: still the same one move.
    assert ada_phone.post(f"/j/{code}/act/", draw).status_code == 302
    session.refresh_from_db()
    assert session.version == version + 1
    state = game(session)
    assert state["towers"][ada][0] == ["blue", "blue", None, None]
    assert state["bag"]["blue"] == 20
    assert SessionEvent.objects.filter(session=session, type=bo.ROLL).count() == 1


def test_a_form_shown_before_the_table_moved_on_is_refused(member_client, table):
    session, code, ada, _bruno = table
    ada_phone = phone(code, ada)
    send(ada_phone, code, call="even", die="typed", roll="2")
    draw = {**keys(my_turn(ada_phone, code)), **TWO_BLUE}
    session.refresh_from_db()
    # The host logs a manual adjustment meanwhile: the phone's form no longer fits the table.
    adjusted = member_client.post(
        f"/s/{session.pk}/play/adjust/",
        {"expected_version": session.version, "note": "a block fell off the table", "add_floor": ""},
    )
    assert adjusted.status_code == 302
    response = ada_phone.post(f"/j/{code}/act/", draw)
    assert response.status_code == 409
    assert "Someone else changed this session a moment ago." in response.content.decode()
    assert game(session)["towers"][ada][0] == [None] * 4
    # The page it gets back has a fresh form, which goes through.
    assert send(ada_phone, code, **TWO_BLUE).status_code == 302
    assert game(session)["towers"][ada][0] == ["blue", "blue", None, None]


def test_a_refused_placement_on_the_phone_names_the_rule_and_changes_nothing(table):  # BO-7
    session, code, ada, _bruno = table
    ada_phone = phone(code, ada)
    send(ada_phone, code, call="even", die="typed", roll="2")
    session.refresh_from_db()
    version = session.version
    response = send(ada_phone, code, colour_0="blue", spot_0="1-nw", colour_1="red", spot_1="2-se")
    assert response.status_code == 400
    page = response.content.decode()
    assert 'data-testid="guest-error"' in page
    assert ruled("(rule BO-7)") in page
    session.refresh_from_db()
    assert session.version == version
    assert 'data-testid="bo-my-turn"' in page  # the form is there to send again


def test_the_waiting_phone_sees_who_is_to_play(table):
    _session, code, ada, bruno = table
    ada_phone, bruno_phone = phone(code, ada), phone(code, bruno)
    page = bruno_phone.get(f"/j/{code}/").content.decode()
    assert 'data-testid="bo-waiting"' in page
    assert "Waiting for Ada to play." in page
    assert 'data-testid="bo-my-turn"' not in page
    assert f'action="/j/{code}/act/"' not in page
    assert "Your chances to draw red" in page
    # A miss: the die goes on at once, and now Ada's phone waits for Bruno.
    send(ada_phone, code, call="odd", die="typed", roll="4")
    assert "Waiting for Bruno to play." in ada_phone.get(f"/j/{code}/").content.decode()
    assert 'data-testid="bo-my-turn"' in bruno_phone.get(f"/j/{code}/live/").content.decode()


def test_a_phone_that_only_watches_sees_no_turn(table):
    _session, code, _ada, _bruno = table
    page = Client().get(f"/j/{code}/").content.decode()
    assert 'data-testid="bo-my-turn"' not in page
    assert 'data-testid="bo-waiting"' not in page


def test_the_phone_forms_carry_the_csrf_token_and_work_with_checks_on(table):
    session, code, ada, _bruno = table
    ada_phone = Client(enforce_csrf_checks=True)
    token = csrf_token(ada_phone.get(f"/j/{code}/").content.decode())
    assert ada_phone.post(f"/j/{code}/seat/", {"seat": ada, "csrfmiddlewaretoken": token}).status_code == 302
    section = my_turn(ada_phone, code)
    assert section.count("<form ") == section.count('name="csrfmiddlewaretoken"') == 1
    token = csrf_token(section)
    data = {**keys(section), "call": "even", "die": "typed", "roll": "2"}
    assert ada_phone.post(f"/j/{code}/act/", data).status_code == 403
    assert ada_phone.post(f"/j/{code}/act/", {**data, "csrfmiddlewaretoken": token}).status_code == 302
    assert game(session)["pending"] == {"kind": "draw", "count": 2}


def bonus_form(client, code):
    """The bonus section of the phone: its form's hidden fields, and the whole section."""
    page = client.get(f"/j/{code}/").content.decode()
    if 'data-testid="bo-bonus"' not in page:
        return None, ""
    start = page.index('data-testid="bo-bonus"')
    section = page[start : page.index("</details>", start)]
    return keys(section), section


def test_the_active_phone_adds_its_bonus_blocks_and_the_form_goes_when_none_are_left(table):  # BO-6
    session, code, ada, bruno = table
    ada_phone = phone(code, ada)
    fields, section = bonus_form(ada_phone, code)
    assert fields["move"] == "bonus"
    assert "Bonus block 2" in section
    assert ada_phone.post(f"/j/{code}/act/", {**fields, "bonus_0": "1-nw"}).status_code == 302
    state = game(session)
    assert (state["bonus"][ada], state["towers"][ada][0], state["active"]) == (1, ["blue", None, None, None], ada)
    fields, section = bonus_form(ada_phone, code)
    assert "Bonus block 2" not in section  # one left: one row
    assert ada_phone.post(f"/j/{code}/act/", {**fields, "bonus_0": "1-ne"}).status_code == 302
    assert game(session)["bonus"][ada] == 0
    assert bonus_form(ada_phone, code) == (None, "")
    assert bonus_form(phone(code, bruno), code) == (None, "")  # not Bruno's turn


def test_a_bonus_block_sent_from_the_other_phone_is_refused_with_the_rule(table):  # BO-5, BO-6
    session, code, ada, bruno = table
    session.refresh_from_db()
    response = phone(code, bruno).post(
        f"/j/{code}/act/", {"move": "bonus", "expected_version": session.version, "bonus_0": "1-nw"}
    )
    assert response.status_code == 400
    assert ruled("(rule BO-5)") in response.content.decode()
    assert game(session)["bonus"] == {ada: 2, bruno: 2}
