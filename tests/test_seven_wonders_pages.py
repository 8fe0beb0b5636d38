"""The 7 Wonders score sheet on the session page and on each player's phone (SW-12..SW-14)."""

import pytest
from django.test import Client

from sessions import services
from tests.conftest import ruled

ADA = {"coins": "10", "military": "9", "wonder": "10", "civilian": "5+7", "commercial": "4", "guilds": "6",
       "great_projects": "-2", "science_tablet": "3", "science_compass": "2", "science_gear": "1",
       "science_wild": "1", "babel_tiles": "2"}  # fmt: skip


@pytest.fixture
def table(night, players):
    session = services.create_session(
        night=night, game="seven-wonders", players=players[:3], options={"leaders": False, "cities": True}, secret="2"
    )
    services.append_event(session_id=session.pk, expected_version=0, type="session.start")
    session.refresh_from_db()
    return session


def sheet(client, session, seat, data):
    session.refresh_from_db()
    return client.post(f"/s/{session.pk}/play/sheet/", {"expected_version": session.version, "seat": seat, **data})


def test_the_sheet_shows_the_columns_of_the_chosen_expansions(member_client, table):  # SW-12
    page = member_client.get(f"/s/{table.pk}/").content.decode()
    sheet_table = page.split('data-testid="sw-sheet"')[1].split("</table>")[0]
    for column in ["Military", "Treasury", "Science", "Cities", "Babel tiles", "Great Projects"]:
        assert column in sheet_table
    assert "Leaders" not in sheet_table


def test_the_preview_adds_up_the_contract_example_while_typing(member_client, table):  # SW-12, SW-13
    response = member_client.post(f"/s/{table.pk}/preview/", ADA)
    assert response.status_code == 200
    preview = response.content.decode()
    assert "Science 31" in preview
    assert "Total 78" in preview
    assert table.events.count() == 1  # nothing saved


def test_sheets_for_every_player_rank_with_the_coin_tiebreak_and_finish(member_client, table):  # SW-14
    seats = [seat.key for seat in table.seats.all()]
    assert sheet(member_client, table, seats[0], ADA).status_code == 302
    assert sheet(member_client, table, seats[1], {"coins": "13", "civilian": "73"}).status_code == 302
    table.refresh_from_db()
    assert table.status == "playing"  # a sheet is missing
    sheet(member_client, table, seats[2], {"coins": "1", "civilian": "78"})
    table.refresh_from_db()
    assert table.status == "scoring"
    member_client.post(f"/s/{table.pk}/do/finish/", {"expected_version": table.version})
    results = {str(r.player_id): r for r in table.results.all()}
    # 78 with 10 coins beats 78 with 1 coin; 73 civilian + 4 treasury is 77.
    assert [(results[s].score, results[s].rank) for s in seats] == [(78, 1), (77, 3), (78, 2)]
    assert results[seats[0]].breakdown["science"] == 31
    assert results[seats[0]].breakdown["coins"] == 10


def test_a_bad_count_is_refused_naming_the_column(member_client, table):
    seat = table.seats.first().key
    response = sheet(member_client, table, seat, {"coins": "10", "military": "lots"})
    assert response.status_code == 400
    assert "Enter a whole number." in response.content.decode()
    fourth_tile = sheet(member_client, table, seat, {"coins": "10", "babel_tiles": "4"})
    assert ruled("(rule SW-8)") in fourth_tile.content.decode()


def test_each_player_can_fill_in_their_own_sheet_on_their_phone(table):
    seat = table.seats.first().key
    code = services.create_join_code(session=table).code
    phone = Client()
    phone.post(f"/j/{code}/seat/", {"seat": seat})
    assert 'data-testid="my-sheet"' in phone.get(f"/j/{code}/").content.decode()
    assert "Total 78" in phone.post(f"/j/{code}/preview/", ADA).content.decode()
    assert phone.post(f"/j/{code}/act/", {**ADA, "move": "sheet"}).status_code == 302
    table.refresh_from_db()
    assert table.state["game"]["sheets"][seat]["civilian"] == 12
    assert table.events.last().author_label == "Ada"


def test_outsiders_cannot_preview_or_fill_sheets(outsider_client, table):
    assert outsider_client.post(f"/s/{table.pk}/preview/", ADA).status_code == 404
    assert sheet(outsider_client, table, table.seats.first().key, ADA).status_code == 404
