"""A refused form comes back with every value as typed and the message on the field it
concerns: the 7 Wonders score sheet, Babel On!'s colours, Tower of Babel's accept form."""

from __future__ import annotations

import re

import pytest

from scoring.tower_of_babel import engine as tob
from sessions import services
from tests.conftest import advance, offers_in, play, ruled


def form_in(body: str, form_id: str) -> str:
    start = body.index(f' id="{form_id}"')
    return body[body.rindex("<form", 0, start) : body.index("</form>", start)]


@pytest.fixture
def seven_wonders(night, players):
    session = services.create_session(night=night, game="seven-wonders", players=players[:3], secret="2")
    advance(session, "session.start")
    return session


def test_a_typo_on_the_score_sheet_keeps_every_other_value_and_is_named_at_its_column(member_client, seven_wonders):
    seat = seven_wonders.seats.first().key
    typed = {"coins": "10", "military": "3+4", "civilian": "lots", "science_gear": "2", "form": f"sheet-{seat}"}
    response = play(member_client, seven_wonders, "sheet", seat=seat, **typed)
    assert response.status_code == 400
    sheet = form_in(response.content.decode(), f"sheet-{seat}")
    assert 'name="coins" value="10"' in sheet
    assert 'name="military" value="3+4"' in sheet
    assert 'name="science_gear" value="2"' in sheet
    civilian = re.search(
        r'<input name="civilian" value="lots"[^>]*aria-invalid="true"[^>]*>(<span[^>]*>[^<]*</span>)', sheet
    )
    assert civilian is not None, sheet
    assert "Enter a whole number." in civilian.group(1)
    seven_wonders.refresh_from_db()
    assert seat not in seven_wonders.state["game"]["sheets"]


def test_a_refused_colour_choice_keeps_every_colour_chosen_and_names_the_rule(member_client, night, players):
    session = services.create_session(night=night, game="babel-on", players=players[:3], secret="b")
    advance(session, "session.start")
    a, b, c = [seat.key for seat in session.seats.all()]
    typed = {f"colour_{a}": "green", f"colour_{b}": "yellow", f"colour_{c}": "green", "extra": "purple"}
    response = play(member_client, session, "setup", form="bo-setup", **typed)
    assert response.status_code == 400
    setup = form_in(response.content.decode(), "bo-setup")
    for name, colour in typed.items():
        select = setup[setup.index(f'name="{name}"') :]
        select = select[: select.index("</select>")]
        assert f'<option value="{colour}" selected>' in select, name
    assert ruled("Two players cannot share a colour. (rule BO-1)") in setup
    assert re.search(r'name="colour_\w+"[^>]*aria-invalid="true"', setup)


def test_a_refused_acceptance_keeps_the_ticks_and_counts(member_client, session):
    seats = [seat.key for seat in session.seats.all()]
    advance(session, "session.start")
    advance(session, tob.FIRST_PLAYER, seat=seats[0])
    _wonder, kind, _number = offers_in(session, seats)
    typed = {f"accept_{seats[1]}": "on", f"accept_{seats[2]}": "on", f"own_{kind}": "1", "form": "tob-resolve"}
    response = play(member_client, session, "resolve", **typed)
    assert response.status_code == 400
    resolve = form_in(response.content.decode(), "tob-resolve")
    assert re.search(rf'name="accept_{seats[1]}"[^>]* checked', resolve)
    assert re.search(rf'name="accept_{seats[2]}"[^>]* checked', resolve)
    assert re.search(rf'name="own_{kind}"[^>]*value="1"', resolve)
    assert ruled("(rule TB-13)") in resolve
