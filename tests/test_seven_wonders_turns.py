"""Turns at the 7 Wonders table: once the table counts turns, a player joins the Great
Project at most once per turn (SW-9), on the host's page, on the phones and in the API."""

import pytest
from django.test import Client
from rest_framework.test import APIClient

from scoring.errors import RuleError
from scoring.seven_wonders import engine as sw
from scoring.seven_wonders.engine import SevenWonders
from sessions import services
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
