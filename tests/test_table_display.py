"""The table display: a tablet or a TV in the middle of the table shows the night's game in big
type, read-only, as every player may see it, and follows the table by itself."""

import re

import pytest
from django.test import Client

from sessions import services
from tests.conftest import advance, started_tower
from tests.test_phone_seats import ask_for_offers, phone


@pytest.fixture
def table(session):
    return started_tower(session)


def region_of(page: str) -> str:
    return page.split('<div id="table"')[1].split("data-wake-lock")[0]


def test_it_shows_the_game_whose_turn_and_the_standings_without_any_form(table):
    _session, _seats, code = table
    answer = Client().get(f"/j/{code}/table/")
    assert answer.status_code == 200
    page = answer.content.decode()
    region = region_of(page)
    assert "Tower of Babel" in region
    assert 'data-testid="tob-board"' in region
    assert 'data-testid="standings"' in region
    assert "to play" in region  # whose turn
    assert "<form" not in region
    assert "Which player are you?" not in page
    assert "data-wake-lock" in page


def test_a_phone_holding_a_seat_shows_none_of_its_secrets_on_the_display(member_client, table):
    session, seats, code = table
    disc, kind = ask_for_offers(member_client, session)
    bruno = phone(code, seats[1])
    assert bruno.post(f"/j/{code}/act/", {"move": "offer", "disc": disc, f"offer_{kind}": "2"}).status_code == 302
    assert "Your offer is in" in bruno.get(f"/j/{code}/").content.decode()
    region = region_of(bruno.get(f"/j/{code}/table/").content.decode())
    assert "has offered" in region
    assert f"{kind} 2" not in region.split('data-testid="tob-pending"')[1].split("</div>")[0]
    assert "Your offer" not in region
    assert "my-offer-form" not in region


def test_it_follows_the_table_and_answers_304_when_nothing_changed(table):
    session, _seats, code = table
    display = Client()
    display.get(f"/j/{code}/table/")
    first = display.get(f"/j/{code}/table/live/", headers={"HX-Request": "true"})
    assert first.status_code == 200
    etag = first["ETag"]
    assert display.get(f"/j/{code}/table/live/", headers={"If-None-Match": etag}).status_code == 304
    advance(session, "tob.pass")
    moved = display.get(f"/j/{code}/table/live/", headers={"HX-Request": "true", "If-None-Match": etag})
    assert moved.status_code == 200
    version = re.search(r'data-version="(\d+)\.', moved.content.decode())
    assert version is not None
    assert int(version[1]) == session.version


def test_it_waits_for_a_game_and_refuses_a_wrong_code(night):
    code = services.create_join_code(night=night).code
    page = Client().get(f"/j/{code}/table/").content.decode()
    assert 'data-testid="table-waiting"' in page
    assert Client().get("/j/NOSUCHCODE/table/").status_code == 404


def test_a_display_fetch_on_its_ticket_costs_no_query(table, django_assert_max_num_queries):
    _session, _seats, code = table
    display = Client()
    display.get(f"/j/{code}/table/")
    first = display.get(f"/j/{code}/table/live/", headers={"HX-Request": "true"})
    ticket = first["Babel-Live-Ticket"]
    with django_assert_max_num_queries(0):
        again = display.get(
            f"/j/{code}/table/live/", headers={"If-None-Match": first["ETag"], "Babel-Live-Ticket": ticket}
        )
    assert again.status_code == 304
