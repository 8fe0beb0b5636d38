import pytest

from sessions import services
from sessions.models import Group, Membership, Player, Result


def test_creating_a_group_makes_the_creator_its_owner(owner_client, owner):
    response = owner_client.post("/groups/new/", {"name": "Thursday table", "idempotency_key": "k1"})
    group = Group.objects.get(name="Thursday table")
    assert response["Location"] == f"/g/{group.pk}/"
    assert Membership.objects.get(group=group, user=owner).role == Membership.OWNER


def test_a_double_tap_on_create_group_creates_one_group(owner_client):
    first = owner_client.post("/groups/new/", {"name": "Thursday table", "idempotency_key": "same"})
    second = owner_client.post("/groups/new/", {"name": "Thursday table", "idempotency_key": "same"})
    assert Group.objects.filter(name="Thursday table").count() == 1
    assert first["Location"] == second["Location"]


@pytest.mark.parametrize(("who", "status"), [("owner", 200), ("member", 200), ("outsider", 404)])
def test_only_members_see_a_group(request, group, who, status):
    client = request.getfixturevalue(f"{who}_client")
    assert client.get(f"/g/{group.pk}/").status_code == status
    assert client.get(f"/g/{group.pk}/log/").status_code == status
    assert client.get(f"/g/{group.pk}/members/").status_code == status


def test_the_home_page_lists_only_my_groups(owner_client, outsider_client, group):
    assert "Thursday table" in owner_client.get("/").content.decode()
    assert "Thursday table" not in outsider_client.get("/").content.decode()


@pytest.mark.parametrize(("who", "status"), [("owner", 302), ("member", 302), ("outsider", 404)])
def test_members_can_add_players_and_outsiders_cannot(request, group, who, status):
    client = request.getfixturevalue(f"{who}_client")
    response = client.post(f"/g/{group.pk}/players/", {"name": "Zoe", "idempotency_key": who})
    assert response.status_code == status
    assert Player.objects.filter(group=group, name="Zoe").exists() == (status == 302)


def test_a_double_tap_on_add_player_adds_one_player(member_client, group):
    for _ in range(2):
        member_client.post(f"/g/{group.pk}/players/", {"name": "Zoe", "idempotency_key": "tap"})
    assert Player.objects.filter(group=group, name="Zoe").count() == 1


def test_a_second_player_with_the_same_name_is_refused_with_a_message(member_client, group, players):
    response = member_client.post(f"/g/{group.pk}/players/", {"name": "ada"}, follow=True)
    assert "already has a player called Ada" in response.content.decode()
    assert Player.objects.filter(group=group).count() == 4


def test_renaming_a_player_keeps_their_history(member_client, session, players):
    for event_type, payload in [
        ("places.record", {"places": {str(p.pk): i + 1 for i, p in enumerate(players[:3])}}),
        ("session.finish", {}),
    ]:
        session.refresh_from_db()
        services.append_event(session_id=session.pk, expected_version=session.version, type=event_type, payload=payload)
    ada = players[0]
    response = member_client.post(f"/p/{ada.pk}/rename/", {"name": "Ada L."})
    assert response.status_code == 302
    result = Result.objects.get(session=session, player=ada)
    assert (result.player.name, result.rank) == ("Ada L.", 1)
    assert "Ada L." in member_client.get(f"/g/{session.group_id}/log/").content.decode()


def test_an_outsider_cannot_rename_a_player(outsider_client, players):
    assert outsider_client.post(f"/p/{players[0].pk}/rename/", {"name": "Hacked"}).status_code == 404
    players[0].refresh_from_db()
    assert players[0].name == "Ada"


def test_the_owner_adds_and_removes_members(owner_client, group, outsider):
    owner_client.post(f"/g/{group.pk}/members/", {"username": "otto"})
    membership = Membership.objects.get(group=group, user=outsider)
    owner_client.post(f"/g/{group.pk}/members/{membership.pk}/remove/")
    assert not Membership.objects.filter(group=group, user=outsider).exists()


def test_a_member_cannot_add_or_remove_members(member_client, group, outsider, owner):
    assert member_client.post(f"/g/{group.pk}/members/", {"username": "otto"}).status_code == 403
    owner_membership = Membership.objects.get(group=group, user=owner)
    assert member_client.post(f"/g/{group.pk}/members/{owner_membership.pk}/remove/").status_code == 403
    assert not Membership.objects.filter(group=group, user=outsider).exists()


def test_the_owner_cannot_be_removed(owner_client, group, owner):
    owner_membership = Membership.objects.get(group=group, user=owner)
    response = owner_client.post(f"/g/{group.pk}/members/{owner_membership.pk}/remove/", follow=True)
    assert "owner cannot be removed" in response.content.decode()
    assert Membership.objects.filter(pk=owner_membership.pk).exists()


def test_the_group_page_uses_a_bounded_number_of_queries(
    member_client, group, players, session, django_assert_max_num_queries
):
    with django_assert_max_num_queries(12):
        assert member_client.get(f"/g/{group.pk}/").status_code == 200
