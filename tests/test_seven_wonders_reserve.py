"""Same-turn participation from the reserve: when more players join a Great Project in one
turn than markers remain, the extra ones take a marker from the reserve (SW-9), on the
host's page and on the phones."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.errors import RuleError
from scoring.seven_wonders import engine as sw
from scoring.seven_wonders.engine import SevenWonders
from sessions import services
from tests.conftest import advance, play, seated_phones

ENGINE = SevenWonders()


@pytest.fixture
def table(night, players):
    """Three players, Great Projects only: two markers on the card."""
    session = services.create_session(
        night=night, game="seven-wonders", players=players[:3], options={"tower_tiles": False}, secret="2"
    )
    advance(session, "session.start")
    code = services.create_join_code(session=session).code
    phones = seated_phones(session, code)
    return session, [seat.key for seat in session.seats.all()], code, phones


def markers_section(phone, code):
    return phone.get(f"/j/{code}/").content.decode().split('data-testid="my-markers"')[1].split("</section>")[0]


def test_sw_9_the_host_records_a_same_turn_participation_from_the_reserve(member_client, table):
    session, seats, _code, _phones = table
    advance(session, sw.PARTICIPATE, seat=seats[0])
    advance(session, sw.PARTICIPATE, seat=seats[1])  # the last marker
    page = member_client.get(f"/s/{session.pk}/").content.decode()
    assert f'id="sw-reserve-{seats[2]}"' in page
    form = page.split(f'id="sw-reserve-{seats[2]}"')[1].split("</form>")[0]
    assert 'name="same_turn_reserve"' in form
    assert "Chiara joins in the same turn: a marker from the reserve" in form
    assert play(member_client, session, "participate", seat=seats[2], same_turn_reserve="on").status_code == 302
    session.refresh_from_db()
    game = session.state["game"]
    assert game["markers"] == {seats[0]: 1, seats[1]: 1, seats[2]: 1}
    assert game["markers_left"] == 0


def test_sw_9_a_phone_takes_a_marker_from_the_reserve_in_the_same_turn(table):
    session, seats, code, phones = table
    phones[seats[0]].post(f"/j/{code}/act/", {"move": "participate"})
    phones[seats[1]].post(f"/j/{code}/act/", {"move": "participate"})  # the last marker
    section = markers_section(phones[seats[2]], code)
    assert "I take a marker" not in section
    assert "I join in the same turn: a marker from the reserve" in section
    assert 'name="same_turn_reserve"' in section
    response = phones[seats[2]].post(f"/j/{code}/act/", {"move": "participate", "same_turn_reserve": "on"})
    assert response.status_code == 302
    session.refresh_from_db()
    assert session.state["game"]["markers"] == {seats[0]: 1, seats[1]: 1, seats[2]: 1}


def test_sw_9_the_reserve_is_only_for_the_turn_the_last_marker_was_taken():
    state = ENGINE.initial_state(seats=["a", "b", "c"], options={"great_projects": True}, seed=1)
    state = ENGINE.apply(state, type=sw.NEXT_TURN, payload={})
    for seat in ("a", "b"):
        state = ENGINE.apply(state, type=sw.PARTICIPATE, payload={"seat": seat})
    state = ENGINE.apply(state, type=sw.NEXT_TURN, payload={})
    with pytest.raises(RuleError) as refused:
        ENGINE.apply(state, type=sw.PARTICIPATE, payload={"seat": "c", "same_turn_reserve": True})
    assert (refused.value.field, refused.value.rule) == ("same_turn_reserve", "SW-9")


ACTIONS = st.lists(st.one_of(st.sampled_from(["0", "1", "2"]), st.just("next")), max_size=12)


@settings(max_examples=80, deadline=None)
@given(ACTIONS, st.booleans())
def test_sw_9_what_the_forms_offer_is_what_the_engine_accepts(actions, counts_turns):
    """``sw.participation`` (the host's and the phones' forms) against ``sw.participate``."""
    options = {"tower_tiles": False, "great_projects": True}
    state = ENGINE.initial_state(seats=["0", "1", "2"], options=options, seed=2)
    if counts_turns:
        state = ENGINE.apply(state, type=sw.NEXT_TURN, payload={})
    for action in actions:
        for seat in state["seats"]:
            way = sw.participation(state, seat)
            for reserve in (False, True):
                payload = {"seat": seat, "same_turn_reserve": reserve}
                try:
                    ENGINE.apply(state, type=sw.PARTICIPATE, payload=payload)
                    accepted = True
                except RuleError:
                    accepted = False
                offered = way is not None and (reserve == (way == sw.RESERVE) or way == sw.CARD)
                assert accepted == offered, (seat, reserve, way)
        try:
            if action == "next":
                state = ENGINE.apply(state, type=sw.NEXT_TURN, payload={})
            else:
                way = sw.participation(state, action)
                payload = {"seat": action, "same_turn_reserve": way == sw.RESERVE}
                state = ENGINE.apply(state, type=sw.PARTICIPATE, payload=payload)
        except RuleError:
            continue
