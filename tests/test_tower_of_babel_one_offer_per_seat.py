"""One offer per seat and build (TB-12): the offers are made in secret and revealed together,
so nobody can offer again, or change an offer, once it is in; least of all after the reveal.
The engine refuses it, so the phones, the host's page and the REST events API agree."""

import pytest
from rest_framework.test import APIClient

from scoring.tower_of_babel import engine as tob
from sessions.api.tokens import create_api_token
from tests.conftest import advance, ruled, started_tower
from tests.test_tower_of_babel_engine import SHIP5, apply, game, refused
from tests.test_tower_of_babel_secret_offers import choose, phone


@pytest.fixture
def table(session):
    return started_tower(session)


def revealed_engine_build(seats=("red", "yellow", "green")):
    state = apply(game(SHIP5, seats=list(seats)), tob.CHOOSE, wonder="pyramids", disc="pyramids-0")
    state = apply(state, tob.OFFER, seat="yellow", cards={"ship": 2})
    return apply(state, tob.OFFER, seat="green", cards={})


def test_tb_12_an_offer_after_the_reveal_is_refused():
    state = revealed_engine_build()
    assert tob.offers_revealed(state)
    error = refused(state, tob.OFFER, "TB-12", seat="green", cards={"ship": 5})
    assert error.field == "offers.green"
    assert "revealed" in error.message


def test_tb_12_a_second_offer_from_the_same_seat_is_refused_before_the_reveal_too():
    seats = ["red", "yellow", "green", "blue"]
    state = apply(game(SHIP5, seats=seats), tob.CHOOSE, wonder="pyramids", disc="pyramids-0")
    state = apply(state, tob.OFFER, seat="yellow", cards={"ship": 1})
    assert not tob.offers_revealed(state)
    error = refused(state, tob.OFFER, "TB-12", seat="yellow", cards={"ship": 4})
    assert error.field == "offers.yellow"


def test_tb_12_a_phone_cannot_replace_its_offer_once_offers_are_revealed(member_client, table):
    session, seats, code = table
    disc, demand = choose(member_client, session)
    kind = next(iter(demand))
    bruno, chiara = phone(code, seats[1]), phone(code, seats[2])
    assert bruno.post(f"/j/{code}/act/", {"move": "offer", "disc": disc, f"offer_{kind}": "1"}).status_code == 302
    assert chiara.post(f"/j/{code}/act/", {"move": "offer", "disc": disc}).status_code == 302
    session.refresh_from_db()
    version, offers = session.version, session.state["game"]["build"]["offers"]
    response = bruno.post(f"/j/{code}/act/", {"move": "offer", "disc": disc, f"offer_{kind}": "2"})
    assert response.status_code == 400
    assert ruled("(rule TB-12)") in response.content.decode()
    session.refresh_from_db()
    assert (session.version, session.state["game"]["build"]["offers"]) == (version, offers)


def test_tb_12_the_host_cannot_record_a_second_offer_for_a_player(member_client, table):
    session, seats, _code = table
    disc, demand = choose(member_client, session)
    kind = next(iter(demand))
    advance(session, tob.OFFER, seat=seats[2], cards={kind: 1})
    data = {"expected_version": session.version, "seat": seats[2], "disc": disc, f"offer_{kind}": "2"}
    response = member_client.post(f"/s/{session.pk}/play/offer/", data)
    assert response.status_code == 400
    assert ruled("(rule TB-12)") in response.content.decode()
    session.refresh_from_db()
    assert session.state["game"]["build"]["offers"][seats[2]]["cards"] == {kind: 1}


def test_tb_12_the_events_api_refuses_an_offer_after_the_reveal(member, member_client, table):
    session, seats, _code = table
    _disc, demand = choose(member_client, session)
    kind = next(iter(demand))
    advance(session, tob.OFFER, seat=seats[1], cards={kind: 1})
    advance(session, tob.OFFER, seat=seats[2], cards={})
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {create_api_token(user=member, name='tests')[1]}")
    response = client.post(
        f"/api/v1/sessions/{session.pk}/events/",
        {"type": tob.OFFER, "expected_version": session.version, "payload": {"seat": seats[2], "cards": {kind: 3}}},
        format="json",
    )
    assert response.status_code == 400
    error = response.json()["errors"][0]
    assert (error["field"], error["rule"]) == (f"offers.{seats[2]}", "TB-12")
    session.refresh_from_db()
    assert session.state["game"]["build"]["offers"][seats[2]]["cards"] == {}
