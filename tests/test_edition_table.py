"""A group sets its own values for Tower of Babel's unverified components."""

import pytest

from sessions import services
from sessions.models import GameSession
from tests.conftest import ruled

URL = "/g/{}/tables/tower-of-babel/"


@pytest.mark.parametrize(("who", "status"), [("owner", 200), ("member", 200), ("outsider", 404)])
def test_members_see_the_edition_table_with_unverified_values_marked(request, group, who, status):
    response = request.getfixturevalue(f"{who}_client").get(URL.format(group.pk))
    assert response.status_code == status
    if status == 200:
        page = response.content.decode()
        assert "unverified" in page
        assert "verified" in page
        assert ruled("(TB-7)") in page


def test_the_owner_overrides_an_unverified_value(owner_client, group):  # TB-7
    response = owner_client.post(URL.format(group.pk), {"set_bonus.3": "12"})
    assert response.status_code == 302
    group.refresh_from_db()
    assert group.edition_tables["tower-of-babel"] == {"set_bonus": [0, 0, 5, 12, 20, 30, 40, 50]}


def test_a_member_cannot_change_the_table(member_client, group):
    assert member_client.post(URL.format(group.pk), {"set_bonus.3": "12"}).status_code == 403
    group.refresh_from_db()
    assert group.edition_tables == {}


def test_verified_values_cannot_be_changed(owner_client, group):  # TB-6
    response = owner_client.post(URL.format(group.pk), {"rows.0.0": "9"})
    assert response.status_code == 400
    assert "verified and cannot be changed" in response.content.decode()
    group.refresh_from_db()
    assert group.edition_tables == {}


def test_a_value_that_is_not_a_number_is_refused_naming_it(owner_client, group):
    response = owner_client.post(URL.format(group.pk), {"rows.2.0": "twelve"})
    assert response.status_code == 400
    assert "Enter a whole number from 0 to 100." in response.content.decode()


def test_a_session_keeps_the_table_it_started_with(owner, group, night, players):  # TB-6
    services.set_edition_table(
        group=group,
        game="tower-of-babel",
        overrides={"rows": [[8, 4], [11, 5], [12, 6], [14, 7], [16, 8], [18, 9], [20, 10]]},
    )
    before = services.create_session(night=night, game="tower-of-babel", players=players[:3], secret="1")
    services.set_edition_table(group=group, game="tower-of-babel", overrides={})
    after = services.create_session(night=night, game="tower-of-babel", players=players[:3], secret="1")
    assert GameSession.objects.get(pk=before.pk).state["game"]["table"]["rows"][1] == [11, 5]
    assert GameSession.objects.get(pk=after.pk).state["game"]["table"]["rows"][1] == [10, 5]


def test_games_without_an_edition_table_have_no_page(owner_client, group):
    assert owner_client.get(f"/g/{group.pk}/tables/babel-cubes/").status_code == 404
