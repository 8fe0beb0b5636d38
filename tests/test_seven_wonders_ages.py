"""Every 7 Wonders table ends its ages, whatever the modules: the tiles' tax and bonus amounts
follow the age (SW-4, SW-7)."""

import pytest
from rest_framework.test import APIClient

from scoring.seven_wonders import engine as sw
from scoring.seven_wonders.engine import SevenWonders
from sessions import services
from tests.conftest import advance, play

ENGINE = SevenWonders()
HELD = {0: [1, 5, 9], 1: [2, 19, 24], 2: [3, 7, 11]}


def tower_board(client, session):
    page = client.get(f"/s/{session.pk}/").content.decode()
    return page.split('data-testid="sw-tiles"')[1].split("</div>")[0]


@pytest.fixture
def tiles_only(night, players):
    session = services.create_session(
        night=night,
        game="seven-wonders",
        players=players[:3],
        options={"tower_tiles": True, "great_projects": False},
        secret="3",
    )
    advance(session, "session.start")
    seats = [seat.key for seat in session.seats.all()]
    advance(session, sw.DRAFT_RECORD, tiles={seats[i]: tiles for i, tiles in HELD.items()})
    advance(session, sw.BUILD_TILES, tiles={seats[0]: 5, seats[1]: 2})
    return session


def test_sw_7_the_engine_ends_each_age_without_great_projects():
    state = ENGINE.initial_state(seats=["a", "b"], options={"tower_tiles": True}, seed=1)
    for age in (2, 3, 4):
        state = ENGINE.apply(state, type=sw.END_AGE, payload={})
        assert state["age"] == age
    with pytest.raises(Exception, match="All three ages are over"):
        ENGINE.apply(state, type=sw.END_AGE, payload={})


def test_sw_7_the_host_ends_the_ages_of_a_table_with_tiles_and_no_projects_and_the_amounts_follow(
    member_client, tiles_only
):
    session = tiles_only
    assert "(1 now)" in tower_board(member_client, session)
    page = member_client.get(f"/s/{session.pk}/").content.decode()
    assert 'id="sw-end-age"' in page
    assert "End of age 1" in page
    assert play(member_client, session, "end-age").status_code == 302
    board = tower_board(member_client, session)
    assert "(2 now)" in board  # tile 5, the bonus on blue cards
    assert "Age 2" in board
    assert play(member_client, session, "end-age").status_code == 302
    assert "(3 now)" in tower_board(member_client, session)
    assert play(member_client, session, "end-age").status_code == 302
    session.refresh_from_db()
    assert session.state["game"]["age"] == 4
    assert 'id="sw-end-age"' not in member_client.get(f"/s/{session.pk}/").content.decode()


def test_sw_7_the_api_ends_an_age_of_a_table_without_great_projects(member, tiles_only):
    session = tiles_only
    session.refresh_from_db()
    api = APIClient()
    api.force_authenticate(member)
    response = api.post(
        f"/api/v1/sessions/{session.pk}/events/",
        {"type": sw.END_AGE, "expected_version": session.version, "payload": {}},
        format="json",
    )
    assert response.status_code == 201
    assert response.json()["session"]["state"]["game"]["age"] == 2


def test_sw_7_a_tile_the_group_corrected_shows_its_own_text_without_another_effects_amount(
    member_client, group, night, players
):
    # The group's box says tile 5 is a tax on chain builds: the bonus's "(1 now)" must not follow it.
    services.set_edition_table(group=group, game="seven-wonders", overrides={"tiles": {"5": "tax on chain builds"}})
    session = services.create_session(
        night=night, game="seven-wonders", players=players[:3], options={"great_projects": False}, secret="3"
    )
    advance(session, "session.start")
    seats = [seat.key for seat in session.seats.all()]
    advance(session, sw.DRAFT_RECORD, tiles={seats[i]: tiles for i, tiles in HELD.items()})
    advance(session, sw.BUILD_TILES, tiles={seats[0]: 5, seats[2]: 3})
    board = tower_board(member_client, session)
    assert "tax on chain builds" in board
    assert "(1 now)" not in board
