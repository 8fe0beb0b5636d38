"""Every phone form that must fit the table as shown (it carries the version it was shown
at), sent after the table moved on, answers 409 with what was typed kept in that form, never
a 500, and changes nothing."""

from __future__ import annotations

from django.test import Client

from scoring.babel_on import engine as bo
from scoring.tower_of_babel import engine as tob
from sessions import services
from sessions.models import GameSession
from tests.conftest import advance
from tests.test_stale_board_forms import assert_sent_form_comes_back_as_typed, forms_on


def phone(code: str, seat: str) -> Client:
    client = Client()
    client.get(f"/j/{code}/")
    client.post(f"/j/{code}/seat/", {"seat": seat})
    return client


def assert_every_versioned_phone_form_survives_a_stale_send(client: Client, code: str, session: GameSession) -> int:
    page = client.get(f"/j/{code}/").content.decode()
    # A Babel On! roll applies to the table as it is: only whose turn it is matters (BO-5).
    forms = [
        f
        for f in forms_on(page)
        if f.action == f"/j/{code}/act/" and "expected_version" in f.data and f.data["move"] != ["roll"]
    ]
    assert forms, "no versioned form on this phone"
    for form in forms:
        assert_sent_form_comes_back_as_typed(client, form, session)
    return len(forms)


def test_every_versioned_babel_on_phone_form_survives_a_stale_send(night, players):
    session = services.create_session(night=night, game="babel-on", players=players[:2], secret="b")
    a, b = [seat.key for seat in session.seats.all()]
    advance(session, "session.start")
    advance(session, bo.SETUP, colours={a: "blue", b: "red"}, extra="green")
    advance(session, bo.ROLLOFF, rolls={a: 5, b: 2})
    code = services.create_join_code(session=session).code
    ada = phone(code, a)
    advance(session, bo.ROLL, call="even", roll=2)
    count = assert_every_versioned_phone_form_survives_a_stale_send(ada, code, session)  # draw, bonus
    advance(session, bo.DRAW, blocks=[{"colour": "blue", "floor": 1, "cell": c} for c in ("nw", "ne")])
    advance(session, bo.ROLL, call="even", roll=1)  # Bruno misses: Ada again
    advance(session, bo.ROLL, call="odd", roll=1)
    count += assert_every_versioned_phone_form_survives_a_stale_send(ada, code, session)  # move, bonus
    assert count >= 4


def test_every_versioned_tower_of_babel_phone_form_survives_a_stale_send(session):
    seats = [seat.key for seat in session.seats.all()]
    advance(session, "session.start")
    advance(session, tob.FIRST_PLAYER, seat=seats[0])
    code = services.create_join_code(session=session).code
    ada = phone(code, seats[0])
    count = assert_every_versioned_phone_form_survives_a_stale_send(ada, code, session)  # pass, a choice per disc
    disc, spec = next(iter(session.state["game"]["discs"].items()))
    advance(session, tob.CHOOSE, wonder=spec["wonder"], disc=disc)
    for seat in seats[1:]:
        advance(session, tob.OFFER, seat=seat, cards={}, trading=False, triple=False)
    count += assert_every_versioned_phone_form_survives_a_stale_send(ada, code, session)  # accept and complete
    assert count >= 3
