"""Turns at the 7 Wonders table: the age's turns are counted from the first, so a player joins
the Great Project at most once per turn (SW-9), on the host's page, on the phones and in the
API. A session stored before turns were counted replays as it was played."""

import pytest
from django.test import Client
from rest_framework.test import APIClient

from scoring import session as core
from scoring.errors import RuleError
from scoring.seven_wonders import engine as sw
from scoring.seven_wonders.engine import SevenWonders
from sessions import services
from sessions.games import get_game
from tests.conftest import advance, play, ruled

ENGINE = SevenWonders()


def apply(state, event_type, **payload):
    return ENGINE.apply(state, type=event_type, payload=payload)


@pytest.fixture
def table(night, players):
    """Four players, Great Projects only: three markers on the card."""
    session = services.create_session(
        night=night, game="seven-wonders", players=players[:4], options={"tower_tiles": False}, secret="2"
    )
    advance(session, "session.start")
    return session, [seat.key for seat in session.seats.all()]


def test_sw_9_a_player_joins_at_most_once_per_turn_in_the_engine():
    state = ENGINE.initial_state(seats=["a", "b", "c", "d"], options={"great_projects": True}, seed=1)
    state = apply(state, sw.NEXT_TURN)
    assert state["turn"] == 2
    state = apply(state, sw.PARTICIPATE, seat="a")
    with pytest.raises(RuleError) as refused:
        apply(state, sw.PARTICIPATE, seat="a")
    assert (refused.value.field, refused.value.rule) == ("seat", "SW-9")
    state = apply(state, sw.NEXT_TURN, turn=2)
    state = apply(state, sw.PARTICIPATE, seat="a")  # a new turn: again
    assert state["markers"] == {"a": 2}
    with pytest.raises(RuleError) as twice:
        apply(state, sw.NEXT_TURN, turn=2)  # a second press for a turn already over
    assert (twice.value.field, twice.value.rule) == ("turn", "SW-9")
    state = apply(state, sw.END_AGE)
    assert (state["turn"], state["joined"]) == (1, [])  # a new age starts at its first turn


def test_sw_9_the_host_page_counts_turns_and_refuses_a_second_participation_in_one(member_client, table):
    session, seats = table
    page = member_client.get(f"/s/{session.pk}/").content.decode()
    assert 'id="sw-next-turn"' in page
    assert play(member_client, session, "next-turn", turn="1").status_code == 302
    assert play(member_client, session, "participate", seat=seats[0]).status_code == 302
    page = member_client.get(f"/s/{session.pk}/").content.decode()
    assert "Turn 2" in page
    assert "joined this turn: Ada" in page
    assert f'id="sw-participate-{seats[0]}"' not in page  # nothing to tap for Ada this turn
    response = play(member_client, session, "participate", seat=seats[0])
    assert response.status_code == 400
    assert ruled("(rule SW-9)") in response.content.decode()
    session.refresh_from_db()
    assert session.state["game"]["markers"] == {seats[0]: 1}
    assert play(member_client, session, "next-turn", turn="2").status_code == 302
    assert play(member_client, session, "participate", seat=seats[0]).status_code == 302
    session.refresh_from_db()
    assert session.state["game"]["markers"] == {seats[0]: 2}


def test_sw_9_a_phone_joins_once_per_turn_and_says_the_turn_is_over(table):
    session, seats = table
    code = services.create_join_code(session=session).code
    ada = Client()
    ada.post(f"/j/{code}/seat/", {"seat": seats[0]})
    assert ada.post(f"/j/{code}/act/", {"move": "next-turn", "turn": "1"}).status_code == 302
    assert ada.post(f"/j/{code}/act/", {"move": "participate"}).status_code == 302
    section = ada.get(f"/j/{code}/").content.decode().split('data-testid="my-markers"')[1].split("</section>")[0]
    assert "You joined the project this turn." in section
    assert "I take a marker" not in section
    response = ada.post(f"/j/{code}/act/", {"move": "participate"})
    assert response.status_code == 400
    assert ruled("(rule SW-9)") in response.content.decode()
    assert ada.post(f"/j/{code}/act/", {"move": "next-turn", "turn": "1"}).status_code == 400  # already over
    session.refresh_from_db()
    assert (session.state["game"]["turn"], session.state["game"]["markers"]) == (2, {seats[0]: 1})


def test_sw_9_the_api_refuses_a_second_participation_in_one_turn_naming_the_field_and_rule(member, table):
    session, seats = table
    api = APIClient()
    api.force_authenticate(member)
    url = f"/api/v1/sessions/{session.pk}/events/"
    for event_type, payload in ((sw.NEXT_TURN, {}), (sw.PARTICIPATE, {"seat": seats[1]})):
        session.refresh_from_db()
        body = {"type": event_type, "expected_version": session.version, "payload": payload}
        assert api.post(url, body, format="json").status_code == 201
    session.refresh_from_db()
    body = {"type": sw.PARTICIPATE, "expected_version": session.version, "payload": {"seat": seats[1]}}
    response = api.post(url, body, format="json")
    assert response.status_code == 400
    error = response.json()["errors"][0]
    assert (error["field"], error["rule"]) == ("seat", "SW-9")


def test_sw_9_a_second_marker_tapped_in_the_first_turn_is_refused_on_the_phone(table):
    session, seats = table
    code = services.create_join_code(session=session).code
    luca = Client()
    luca.post(f"/j/{code}/seat/", {"seat": seats[1]})
    assert luca.post(f"/j/{code}/act/", {"move": "participate"}).status_code == 302
    response = luca.post(f"/j/{code}/act/", {"move": "participate"})
    assert response.status_code == 400
    assert ruled("(rule SW-9)") in response.content.decode()
    session.refresh_from_db()
    assert (session.state["game"]["turn"], session.state["game"]["markers"]) == (1, {seats[1]: 1})


def test_sw_9_the_host_cannot_give_a_seat_two_markers_in_a_row_without_a_turn_passing(member_client, table):
    session, seats = table
    assert play(member_client, session, "participate", seat=seats[2]).status_code == 302
    response = play(member_client, session, "participate", seat=seats[2])
    assert response.status_code == 400
    assert ruled("(rule SW-9)") in response.content.decode()
    assert play(member_client, session, "next-turn", turn="1").status_code == 302
    assert play(member_client, session, "participate", seat=seats[2]).status_code == 302
    session.refresh_from_db()
    assert session.state["game"]["markers"] == {seats[2]: 2}


def test_sw_9_the_api_refuses_a_second_marker_in_the_first_turn(member, table):
    session, seats = table
    api = APIClient()
    api.force_authenticate(member)
    url = f"/api/v1/sessions/{session.pk}/events/"
    for expected in (1, 2):
        body = {"type": sw.PARTICIPATE, "expected_version": expected, "payload": {"seat": seats[0]}}
        response = api.post(url, body, format="json")
    assert response.status_code == 400
    assert (response.json()["errors"][0]["field"], response.json()["errors"][0]["rule"]) == ("seat", "SW-9")


def test_sw_9_a_session_stored_before_turns_were_counted_replays_as_it_was_played(table):
    session, seats = table
    assert session.options["turns_counted"] is True  # every new session counts them
    legacy = {key: value for key, value in session.options.items() if key != "turns_counted"}
    events = [
        core.Event(seq=1, type=core.START, payload={}),
        core.Event(seq=2, type=sw.PARTICIPATE, payload={"seat": seats[0]}),
        core.Event(seq=3, type=sw.PARTICIPATE, payload={"seat": seats[0]}),
    ]
    rules = get_game("seven-wonders").rules
    state = core.replay(rules, seats=seats, options=legacy, seed=session.seed, events=events)
    assert (state["game"]["turn"], state["game"]["markers"]) == (None, {seats[0]: 2})
    with pytest.raises(RuleError) as refused:
        core.replay(rules, seats=seats, options=session.options, seed=session.seed, events=events)
    assert refused.value.rule == "SW-9"
