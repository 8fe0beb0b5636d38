"""The active player's turn on their own phone: choose the disc to build, which starts the
secret offers on the phones (TB-12), or pass (TB-11), with the Double turn card when the
session plays with action cards (TB-16). The other phones wait, and a move sent from them
is refused with the rule."""

import re

import pytest

from scoring.session import UNDO
from scoring.tower_of_babel import engine as tob
from sessions import services
from tests.conftest import ruled
from tests.test_tower_of_babel_secret_offers import phone

HIDDEN = re.compile(r'<input type="hidden" name="([^"]+)" value="([^"]*)"')


@pytest.fixture
def start(night, players):
    """A started game of Ada, Bruno and Chiara, Ada to play, and a join code for the phones."""

    def started(**options):
        session = services.create_session(
            night=night, game="tower-of-babel", players=players[:3], options=options, secret="7"
        )
        seats = [seat.key for seat in session.seats.all()]
        services.append_event(session_id=session.pk, expected_version=0, type="session.start")
        services.append_event(
            session_id=session.pk, expected_version=1, type=tob.FIRST_PLAYER, payload={"seat": seats[0]}
        )
        session.refresh_from_db()
        return session, seats, services.create_join_code(session=session).code

    return started


@pytest.fixture
def table(start):
    return start()


def turn_section(client, code):
    """The phone's "Your turn" section, or None when it has none."""
    page = client.get(f"/j/{code}/").content.decode()
    if 'data-testid="my-turn"' not in page:
        return None
    start = page.index('data-testid="my-turn"')
    return page[start : page.index("</section>", start)]


def form_fields(section, form_id):
    """The hidden fields of one form of the section, as rendered: what a tap sends."""
    start = section.index(f'id="{form_id}"')
    return dict(HIDDEN.findall(section[start : section.index("</form>", start)]))


def a_disc(session):
    """A disc still on the board, and its wonder."""
    game = session.state["game"]
    disc = next(d for d, v in game["discs"].items() if v["owner"] is None)
    return disc, game["discs"][disc]["wonder"]


def adas_form(table, move):
    """Ada's phone and the fields its tap on ``move`` sends (the first disc left, to choose:
    its button carries it)."""
    session, seats, code = table
    ada = phone(code, seats[0])
    if move == "pass":
        return ada, form_fields(turn_section(ada, code), "phone-pass")
    disc, _wonder = a_disc(session)
    return ada, {**form_fields(turn_section(ada, code), "phone-choose"), "disc": disc}


def assert_unchanged(session, seats):
    """Nothing was recorded: still Ada to play, no build under way."""
    version = session.version
    session.refresh_from_db()
    assert session.version == version
    assert session.state["game"]["active"] == seats[0]
    assert session.state["game"]["build"] is None


def test_the_active_phone_shows_the_discs_of_the_board_by_wonder_and_the_pass_form(table):
    session, seats, code = table
    section = turn_section(phone(code, seats[0]), code)
    assert "Your turn" in section
    game = session.state["game"]
    # One form for the choice, a button per disc that carries it (its wonder is the one it lies on).
    assert section.count('id="phone-choose"') == 1
    assert sorted(re.findall(r'name="disc" value="(\w+)"', section), key=int) == sorted(game["discs"], key=int)
    assert "Pyramids of Giza" in section
    assert form_fields(section, "phone-choose")["move"] == "choose"
    assert form_fields(section, "phone-pass")["move"] == "pass"
    assert 'name="double_turn"' in section  # action cards are on by default
    assert 'name="form" value="phone-pass"' in section


def test_the_other_phones_wait_for_the_active_player(table):
    _session, seats, code = table
    bruno = phone(code, seats[1])
    assert turn_section(bruno, code) is None
    assert "Waiting for Ada" in bruno.get(f"/j/{code}/").content.decode()


def test_the_active_phone_chooses_a_disc_and_the_offers_start_on_the_phones(table):  # TB-12
    session, seats, code = table
    ada = phone(code, seats[0])
    disc, wonder = a_disc(session)
    fields = form_fields(turn_section(ada, code), "phone-choose")
    assert fields["move"] == "choose"
    assert "wonder" not in fields
    response = ada.post(f"/j/{code}/act/", {**fields, "disc": disc})
    assert response.status_code == 302
    session.refresh_from_db()
    assert session.state["game"]["build"] == {"wonder": wonder, "disc": disc, "offers": {}}
    assert session.events.get(type=tob.CHOOSE).author_label == "Ada"
    assert turn_section(ada, code) is None
    assert 'data-testid="my-offer-form"' in phone(code, seats[1]).get(f"/j/{code}/").content.decode()


def test_the_active_phone_passes_and_the_next_player_is_to_play(table):  # TB-11
    session, seats, code = table
    ada = phone(code, seats[0])
    assert ada.post(f"/j/{code}/act/", form_fields(turn_section(ada, code), "phone-pass")).status_code == 302
    session.refresh_from_db()
    game = session.state["game"]
    assert game["active"] == seats[1]
    assert game["cards"][seats[0]]["played"] == {}
    assert turn_section(phone(code, seats[1]), code) is not None
    assert "Waiting for Bruno" in ada.get(f"/j/{code}/").content.decode()


def ada_draws_an_action_card(session, seats):
    """Ada completes a wonder alone (the others pass) and draws an action card (TB-17); her turn again."""
    game = session.state["game"]
    while not (game["active"] == seats[0] and game["cards"][seats[0]]["drawn"]):
        if game["active"] == seats[0]:
            wonder = next(w for w, v in game["wonders"].items() if v["discs"])
            disc = game["wonders"][wonder]["discs"][0]
            event_type, payload = tob.BUILD, {"wonder": wonder, "disc": disc, "own": game["discs"][disc]["demand"]}
        else:
            event_type, payload = tob.PASS, {}
        services.append_event(session_id=session.pk, expected_version=session.version, type=event_type, payload=payload)
        session.refresh_from_db()
        game = session.state["game"]


def test_a_pass_with_the_double_turn_card_ticked_keeps_the_turn_and_uses_the_card(table):  # TB-16
    session, seats, code = table
    ada_draws_an_action_card(session, seats)
    ada = phone(code, seats[0])
    fields = form_fields(turn_section(ada, code), "phone-pass")
    assert ada.post(f"/j/{code}/act/", {**fields, "double_turn": "on"}).status_code == 302
    session.refresh_from_db()
    game = session.state["game"]
    assert game["active"] == seats[0]
    assert game["extra_turn"] is True
    assert game["cards"][seats[0]]["played"] == {"double_turn": 1}
    assert "second turn" in turn_section(ada, code)


def test_the_double_turn_card_without_an_action_card_in_hand_is_refused_on_the_pass_form(table):  # TB-16
    session, seats, code = table
    ada, fields = adas_form(table, "pass")
    response = ada.post(f"/j/{code}/act/", {**fields, "double_turn": "on"})
    assert response.status_code == 400
    section = response.content.decode().split('data-testid="my-turn"')[1]
    assert ruled("This player has no action card in hand. (rule TB-16)") in section
    assert 'name="double_turn" checked' in section  # the switch comes back as it was ticked
    assert_unchanged(session, seats)


def test_without_action_cards_the_pass_form_has_no_double_turn_switch(start):  # TB-10
    _session, seats, code = start(action_cards=False)
    section = turn_section(phone(code, seats[0]), code)
    assert form_fields(section, "phone-pass")["move"] == "pass"
    assert 'name="double_turn"' not in section


@pytest.mark.parametrize("move", ["choose", "pass"])
def test_a_move_from_another_seats_phone_is_refused_with_the_rule_and_changes_nothing(table, move):
    session, seats, code = table
    disc, wonder = a_disc(session)
    fields = {"move": move, "expected_version": session.version, "wonder": wonder, "disc": disc}
    response = phone(code, seats[1]).post(f"/j/{code}/act/", fields)
    assert response.status_code == 400
    rule = {"choose": "TB-12", "pass": "TB-11"}[move]
    assert ruled(f"It is Ada&#x27;s turn. (rule {rule})") in response.content.decode()
    assert_unchanged(session, seats)


@pytest.mark.parametrize("move", ["choose", "pass"])
def test_a_form_shown_before_the_table_moved_on_is_refused_and_changes_nothing(table, move):
    session, seats, code = table
    ada, fields = adas_form(table, move)
    disc, wonder = a_disc(session)
    # Meanwhile the host taps a disc and takes it back: the table moved on, Ada still plays.
    for event_type, payload in [(tob.CHOOSE, {"wonder": wonder, "disc": disc}), (UNDO, {})]:
        session.refresh_from_db()
        services.append_event(session_id=session.pk, expected_version=session.version, type=event_type, payload=payload)
    session.refresh_from_db()
    response = ada.post(f"/j/{code}/act/", fields)
    assert response.status_code == 409
    assert "Someone else changed this session a moment ago." in response.content.decode()
    assert_unchanged(session, seats)


@pytest.mark.parametrize("move", ["choose", "pass"])
def test_a_double_tap_records_the_move_once(table, move):
    session, seats, code = table
    ada, fields = adas_form(table, move)
    assert ada.post(f"/j/{code}/act/", fields).status_code == 302
    assert ada.post(f"/j/{code}/act/", fields).status_code == 302
    session.refresh_from_db()
    event_type = {"choose": tob.CHOOSE, "pass": tob.PASS}[move]
    assert session.events.filter(type=event_type).count() == 1
    assert session.state["game"]["active"] == (seats[0] if move == "choose" else seats[1])
