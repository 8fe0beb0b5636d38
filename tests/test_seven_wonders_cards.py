"""A group corrects a 7 Wonders: Babel card: the card data is single-source (SW-7, SW-11)."""

import datetime

import pytest

from scoring.errors import RuleError
from scoring.seven_wonders import engine as sw
from scoring.seven_wonders.data import check_corrections, data, project, tile_effects
from scoring.seven_wonders.projects import Participant, resolve
from sessions import services
from tests.conftest import ruled

URL = "/g/{}/tables/seven-wonders/"


def test_the_card_data_is_marked_single_source():  # SW-7, SW-11
    assert data()["projects"]["single_source"] is True
    assert data()["tiles"]["single_source"]


@pytest.mark.parametrize(("who", "status"), [("owner", 200), ("member", 200), ("outsider", 404)])
def test_members_see_every_card_text_marked_unverified(request, group, who, status):
    response = request.getfixturevalue(f"{who}_client").get(URL.format(group.pk))
    assert response.status_code == status
    if status == 200:
        page = response.content.decode()
        assert "single fan source" in page
        assert data()["tiles"]["value"]["9"] in page
        assert "Double Walls (age 1)" in page
        assert ruled("(SW-11)") in page


def test_the_owner_corrects_a_tile_and_a_project(owner_client, group):
    response = owner_client.post(
        URL.format(group.pk),
        {
            "tile.9": "our tile nine",
            "project.double-walls.cost": "2 coins",
            "project.double-walls.reward_vp": "2",
            "project.cranes.penalty": data()["projects"]["value"][1]["penalty"],  # unchanged: not stored
        },
    )
    assert response.status_code == 302
    group.refresh_from_db()
    assert group.edition_tables["seven-wonders"] == {
        "tiles": {"9": "our tile nine"},
        "projects": {"double-walls": {"cost": "2 coins", "reward_vp": 2}},
    }
    page = owner_client.get(URL.format(group.pk)).content.decode()
    assert 'value="our tile nine"' in page


def test_a_member_cannot_correct_a_card(member_client, group):
    assert member_client.post(URL.format(group.pk), {"tile.9": "x"}).status_code == 403
    group.refresh_from_db()
    assert group.edition_tables == {}


def test_an_empty_text_is_refused_naming_the_card(owner_client, group):
    response = owner_client.post(URL.format(group.pk), {"project.cranes.cost": "  "})
    assert response.status_code == 400
    assert "SW-11" in response.content.decode()
    group.refresh_from_db()
    assert group.edition_tables == {}


@pytest.mark.parametrize(
    ("corrections", "field", "rule"),
    [
        ({"tiles": {"25": "x"}}, "tiles.25", "SW-7"),
        ({"projects": {"cranes": {"reward_vp": 3}}}, "projects.cranes.reward_vp", "SW-10"),
        ({"projects": {"double-walls": {"reward_vp": 11}}}, "projects.double-walls.reward_vp", "SW-10"),
        ({"projects": {"cranes": {"colour": "red"}}}, "projects.cranes", "SW-11"),
        ({"projects": {"nowhere": {"cost": "1 coin"}}}, "project", "SW-11"),
    ],
)
def test_impossible_corrections_are_refused(corrections, field, rule):
    with pytest.raises(RuleError) as refused:
        check_corrections(corrections)
    assert (refused.value.field, refused.value.rule) == (field, rule)


def test_a_corrected_military_reward_changes_the_resolution():  # SW-10
    corrections = {"projects": {"double-walls": {"reward_vp": 2}}}
    success, outcomes = resolve(
        "double-walls", [Participant("a", 1), Participant("b", 1)], markers_left=0, age=1, corrections=corrections
    )
    assert success
    assert [o.vp for o in outcomes] == [2, 2]
    assert project("double-walls", corrections)["reward"]["vp"] == 2
    assert project("double-walls")["reward"]["vp"] == 1


def test_sessions_keep_the_cards_they_started_with(owner_client, group, players):
    night = services.create_night(group=group, date=datetime.date(2026, 11, 22))
    options = {"tower_tiles": True, "great_projects": True}
    before = services.create_session(night=night, game="seven-wonders", players=players[:3], options=options)
    services.set_edition_table(group=group, game="seven-wonders", overrides={"tiles": {"9": "our tile nine"}})
    after = services.create_session(night=night, game="seven-wonders", players=players[:3], options=options)
    assert tile_effects(after.state["game"]["corrections"])["9"] == "our tile nine"
    assert tile_effects(before.state["game"]["corrections"])["9"] == data()["tiles"]["value"]["9"]
    # The session's own copy survives a later change by the group.
    services.set_edition_table(group=group, game="seven-wonders", overrides={})
    after.refresh_from_db()
    assert after.state["game"]["corrections"] == {"tiles": {"9": "our tile nine"}, "projects": {}}


def test_the_engine_refuses_bad_corrections_at_the_start():
    with pytest.raises(RuleError):
        sw.SevenWonders().initial_state(seats=["a", "b"], options={"table": {"tiles": {"0": "x"}}}, seed=1)


def test_the_board_shows_the_corrected_card_without_a_note_on_its_source(member_client, group, players):
    services.set_edition_table(
        group=group, game="seven-wonders", overrides={"projects": {"belvedere": {"cost": "7 coins"}}}
    )
    night = services.create_night(group=group, date=datetime.date(2026, 11, 22))
    session = services.create_session(
        night=night, game="seven-wonders", players=players[:3], options={"great_projects": True}, secret="1"
    )
    services.append_event(session_id=session.pk, expected_version=0, type="session.start")
    session.refresh_from_db()
    page = member_client.get(f"/s/{session.pk}/").content.decode()
    assert "single fan source" not in page  # said on the rules and edition pages, not at the table
    assert "unverified" not in page
    drawn = session.state["game"]["projects"][0]
    assert (drawn == "belvedere") == ("7 coins" in page)
