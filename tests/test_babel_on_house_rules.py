"""A group's house rule for Babel On!'s wrong call (BO-5), set once on its page: the rule text
is cut off there, so the app counts a miss unless the group chose to draw one block or take
one off the player's own tower. Only the owner sets it; a game keeps the rule it started with."""

import pytest

from sessions import services
from tests.conftest import advance

URL = "/g/{}/tables/babel-on/"


@pytest.mark.parametrize(("who", "status"), [("owner", 200), ("member", 200), ("outsider", 404)])
def test_bo_5_members_see_the_house_rule_for_a_wrong_call(request, group, who, status):
    response = request.getfixturevalue(f"{who}_client").get(URL.format(group.pk))
    assert response.status_code == status
    if status == 200:
        page = response.content.decode()
        assert "Babel On!: our house rules" in page
        assert 'name="wrong_call" value="miss" checked' in page
        assert "unverified" not in page
        assert ("disabled" in page.split('value="miss" checked')[1][:12]) is (who != "owner")


def test_bo_5_the_owner_chooses_a_house_rule_and_back_to_the_apps_decision(owner_client, group):
    assert owner_client.post(URL.format(group.pk), {"wrong_call": "take_off"}).status_code == 302
    group.refresh_from_db()
    assert group.edition_tables["babel-on"] == {"wrong_call": "take_off"}
    assert 'name="wrong_call" value="take_off" checked' in owner_client.get(URL.format(group.pk)).content.decode()
    assert owner_client.post(URL.format(group.pk), {"wrong_call": "miss"}).status_code == 302
    group.refresh_from_db()
    assert group.edition_tables["babel-on"] == {}


def test_bo_5_a_house_rule_the_app_does_not_know_is_refused(owner_client, group):
    response = owner_client.post(URL.format(group.pk), {"wrong_call": "roll again"})
    assert response.status_code == 400
    assert "Choose what a wrong call gives." in response.content.decode()
    group.refresh_from_db()
    assert group.edition_tables == {}


def test_bo_5_a_member_cannot_set_the_house_rule(member_client, group):
    assert member_client.post(URL.format(group.pk), {"wrong_call": "draw"}).status_code == 403
    group.refresh_from_db()
    assert group.edition_tables == {}


def test_bo_5_a_game_keeps_the_house_rule_it_started_with(group, night, players):
    services.set_edition_table(group=group, game="babel-on", overrides={"wrong_call": "draw"})
    session = services.create_session(night=night, game="babel-on", players=players[:2])
    services.set_edition_table(group=group, game="babel-on", overrides={})  # changed mid-game
    advance(session, "session.start")
    session.refresh_from_db()
    assert session.state["game"]["wrong_call"] == "draw"
    later = services.create_session(night=night, game="babel-on", players=players[:2])
    assert later.state["game"]["wrong_call"] == "miss"
