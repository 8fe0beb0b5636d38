import pytest

from sessions.models import GameNight, GameSession
from tests.conftest import ruled


@pytest.mark.parametrize(("who", "status"), [("owner", 302), ("member", 302), ("outsider", 404)])
def test_members_start_game_nights(request, group, who, status):
    client = request.getfixturevalue(f"{who}_client")
    response = client.post(f"/g/{group.pk}/nights/", {"date": "2026-11-20", "place": "Bruno's", "idempotency_key": who})
    assert response.status_code == status
    assert GameNight.objects.filter(group=group, place="Bruno's").exists() == (status == 302)


def test_a_double_tap_on_start_night_starts_one_night(member_client, group):
    for _ in range(2):
        member_client.post(f"/g/{group.pk}/nights/", {"date": "2026-11-20", "idempotency_key": "twice"})
    assert GameNight.objects.filter(group=group).count() == 1


def test_a_night_without_a_valid_date_is_refused_naming_the_field(member_client, group):
    response = member_client.post(f"/g/{group.pk}/nights/", {"date": "next thursday"})
    assert response.status_code == 400
    assert "date" in response.context["form"].errors


@pytest.mark.parametrize(("who", "status"), [("owner", 200), ("member", 200), ("outsider", 404)])
def test_only_members_see_a_night_and_its_new_session_form(request, night, who, status):
    client = request.getfixturevalue(f"{who}_client")
    assert client.get(f"/n/{night.pk}/").status_code == status
    assert client.get(f"/n/{night.pk}/sessions/new/?game=babel-on").status_code == status


def test_the_new_session_page_first_offers_the_four_games(member_client, night):
    page = member_client.get(f"/n/{night.pk}/sessions/new/").content.decode()
    for name in ["Tower of Babel", "Babel On!", "7 Wonders: Babel", "babel"]:
        assert name in page


def test_a_session_is_created_with_seats_in_order_colours_and_options(member_client, night, players):
    data = {
        "idempotency_key": "s1",
        "seat_0": players[2].pk,
        "colour_0": "red",
        "seat_1": players[0].pk,
        "colour_1": "blue",
        "seat_2": players[1].pk,
        "option_two_kind_discs": "on",
    }
    response = member_client.post(f"/n/{night.pk}/sessions/new/?game=tower-of-babel", data)
    session = GameSession.objects.get(night=night)
    assert response["Location"] == f"/s/{session.pk}/"
    assert [(s.player.name, s.colour) for s in session.seats.all()] == [
        ("Chiara", "red"),
        ("Ada", "blue"),
        ("Bruno", ""),
    ]
    assert session.options == {"two_kind_discs": True, "action_cards": False, "table": None}
    assert session.status == "setup"


def test_too_few_players_is_refused_citing_the_rule(member_client, night, players):
    data = {"seat_0": players[0].pk, "seat_1": players[1].pk}
    response = member_client.post(f"/n/{night.pk}/sessions/new/?game=tower-of-babel", data)
    assert response.status_code == 400
    assert ruled("3 to 5 players. (rule TB-1)") in response.content.decode()
    assert not GameSession.objects.exists()


def test_one_player_in_two_seats_is_refused(member_client, night, players):
    data = {"seat_0": players[0].pk, "seat_1": players[0].pk}
    response = member_client.post(f"/n/{night.pk}/sessions/new/?game=babel-cubes", data)
    assert response.status_code == 400
    assert "only one seat" in response.content.decode()


def test_a_player_of_another_group_cannot_be_seated(member_client, night, players, outsider):
    from sessions import services

    other = services.create_group(owner=outsider, name="Elsewhere")
    stranger = services.create_player(group=other, name="Stranger")
    data = {"seat_0": players[0].pk, "seat_1": stranger.pk}
    response = member_client.post(f"/n/{night.pk}/sessions/new/?game=babel-cubes", data)
    assert response.status_code == 400
    assert not GameSession.objects.exists()
