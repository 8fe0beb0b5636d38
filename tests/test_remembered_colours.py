"""A new session's form comes set: the night's last table in its seats, each player in the
colour they last had in that game, and a button that starts the game at once. The API's new
session gives the same colours to the seats it is sent without one."""

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from drf_spectacular.generators import SchemaGenerator

from sessions import selectors, services
from sessions.games import GAMES
from sessions.models import GameSession
from tests.test_api_sessions import api_for


def new_session_form(client, night, game):
    response = client.get(f"/n/{night.pk}/sessions/new/?game={game}")
    assert response.status_code == 200
    return response.context["form"]


def shown_seats(form):
    """(player id, colour) of each filled seat, as the form shows it."""
    rows = [
        (form[f"seat_{i}"].value(), form[f"colour_{i}"].value() if form.game.colours else "")
        for i in range(8)
        if f"seat_{i}" in form.fields
    ]
    return [(int(player), colour or "") for player, colour in rows if player]


def test_the_form_seats_the_nights_last_table_in_its_order(member_client, night, players):
    services.create_session(night=night, game="babel-on", players=[players[2], players[0], players[1]])
    form = new_session_form(member_client, night, "seven-wonders")
    assert shown_seats(form) == [(players[2].pk, ""), (players[0].pk, ""), (players[1].pk, "")]


def test_a_nights_first_game_seats_the_groups_last_table(member_client, group, night, players):
    earlier = services.create_night(group=group, date=datetime.date(2026, 11, 12))
    services.create_session(night=earlier, game="babel-on", players=players[1:])
    form = new_session_form(member_client, night, "seven-wonders")
    assert [player for player, _colour in shown_seats(form)] == [p.pk for p in players[1:]]


def test_a_new_groups_first_game_seats_its_players_in_the_first_free_colours(member_client, night, players):
    seats = shown_seats(new_session_form(member_client, night, "tower-of-babel"))
    colours = GAMES["tower-of-babel"].colours[: len(players)]
    assert seats == list(zip([p.pk for p in players], colours, strict=True))


def test_the_table_is_cut_to_what_the_game_allows(member_client, night, players):
    services.create_session(night=night, game="seven-wonders", players=players)
    assert [p for p, _c in shown_seats(new_session_form(member_client, night, "babel-cubes"))] == [
        players[0].pk,
        players[1].pk,
    ]


def test_eight_players_are_cut_to_seven_without_the_cities_expansion(group, night, players):  # SW-1
    more = players + [services.create_player(group=group, name=name) for name in "EFGH"]
    services.create_session(night=night, game="seven-wonders", players=more, options={"cities": True})
    assert len(selectors.seat_defaults(night, GAMES["seven-wonders"])) == 7


def test_each_player_gets_the_colour_of_their_latest_session_of_that_game(member_client, group, night, players):
    ada, bruno, chiara, _dieter = players
    services.create_session(night=night, game="babel-on", players=[ada, bruno], colours=["green", "red"])
    services.create_session(night=night, game="babel-on", players=[ada, chiara], colours=["purple", "yellow"])
    # Another game's colours do not count.
    services.create_session(night=night, game="tower-of-babel", players=[ada, bruno, chiara], colours=["black"])
    services.create_session(night=night, game="babel-on", players=[bruno, ada, chiara])  # the night's last table
    form = new_session_form(member_client, night, "babel-on")
    assert shown_seats(form) == [(bruno.pk, "red"), (ada.pk, "purple"), (chiara.pk, "yellow")]


def test_two_players_never_get_the_same_colour_by_default(member_client, night, players):
    ada, bruno, chiara, _dieter = players
    services.create_session(night=night, game="tower-of-babel", players=[ada, chiara, bruno], colours=["red"])
    services.create_session(night=night, game="tower-of-babel", players=[bruno, chiara, ada], colours=["red"])
    # Bruno and Ada both last played red: the earlier seat keeps it, the others get free colours in order.
    services.create_session(night=night, game="babel-on", players=[ada, bruno, chiara])
    form = new_session_form(member_client, night, "tower-of-babel")
    assert shown_seats(form) == [(ada.pk, "red"), (bruno.pk, "yellow"), (chiara.pk, "green")]


def test_players_without_a_remembered_colour_get_the_games_colours_in_order(member_client, night, players):
    services.create_session(night=night, game="babel-cubes", players=players[:2])
    form = new_session_form(member_client, night, "babel-cubes")
    assert [colour for _player, colour in shown_seats(form)] == ["light", "dark"]


def test_the_default_colours_follow_the_games_own_list():
    game = GAMES["babel-on"]
    assert game.default_colours(["blue", None, "blue", "pink"]) == ["blue", "red", "green", "yellow"]


def test_the_form_reads_the_same_number_of_queries_however_long_the_history(
    member_client, group, night, players, django_assert_max_num_queries
):
    services.create_session(night=night, game="babel-on", players=players[:2], colours=["red", "blue"])
    with CaptureQueriesContext(connection) as few:
        new_session_form(member_client, night, "babel-on")
    for index in range(30):
        other = services.create_night(group=group, date=datetime.date(2026, 1, 1) + datetime.timedelta(days=index))
        services.create_session(night=other, game="babel-on", players=players[index % 2 :], colours=["orange"])
    services.create_session(night=night, game="babel-on", players=players)  # a larger table, a longer history
    with django_assert_max_num_queries(len(few)):
        form = new_session_form(member_client, night, "babel-on")
    assert len(shown_seats(form)) == 4


def test_the_night_page_starts_each_game_in_one_tap(member_client, night):
    page = member_client.get(f"/n/{night.pk}/").content.decode()
    for slug in GAMES:
        assert f'href="/n/{night.pk}/sessions/new/?game={slug}"' in page


def test_start_the_game_creates_the_session_and_starts_it(member_client, night, players):
    services.create_session(night=night, game="babel-on", players=players[:3], colours=["red", "blue", "green"])
    form = new_session_form(member_client, night, "tower-of-babel")
    data = {
        name: field.value() for name, field in ((n, form[n]) for n in form.fields) if field.value() not in (None, "")
    }
    data |= {"idempotency_key": "go", "start": "1", "option_action_cards": "on"}
    response = member_client.post(f"/n/{night.pk}/sessions/new/?game=tower-of-babel", data)
    session = GameSession.objects.get(game="tower-of-babel")
    assert response["Location"] == f"/s/{session.pk}/"
    assert session.status == "playing"
    # Babel On!'s colours are not Tower of Babel's: its own, in order.
    assert [(s.player_id, s.colour) for s in session.seats.all()] == [
        (players[0].pk, "red"),
        (players[1].pk, "yellow"),
        (players[2].pk, "green"),
    ]
    member_client.post(f"/n/{night.pk}/sessions/new/?game=tower-of-babel", data)  # a double tap
    assert GameSession.objects.filter(game="tower-of-babel").count() == 1


@pytest.mark.parametrize(("count", "refused"), [(2, True), (3, False)])
def test_starting_at_once_still_checks_the_player_count(member_client, night, players, count, refused):  # TB-1
    data = {f"seat_{i}": players[i].pk for i in range(count)} | {"start": "1"}
    response = member_client.post(f"/n/{night.pk}/sessions/new/?game=tower-of-babel", data)
    assert response.status_code == (400 if refused else 302)
    assert GameSession.objects.filter(status="playing").count() == (0 if refused else 1)


def api_new_session(user, night, game, players, **colours):
    response = api_for(user).post(
        f"/api/v1/nights/{night.pk}/sessions/",
        {"game": game, "players": [p.pk for p in players], **colours},
        format="json",
    )
    assert response.status_code == 201, response.json()
    return [(seat["player"], seat["colour"]) for seat in response.json()["seats"]]


def test_the_api_gives_seats_sent_without_colours_the_colours_the_form_offers(member, night, players):
    ada, bruno, chiara, _dieter = players
    services.create_session(night=night, game="babel-on", players=[ada, bruno], colours=["green", "red"])
    services.create_session(night=night, game="babel-on", players=[bruno, ada, chiara])  # the night's last table
    offered = selectors.seat_defaults(night, GAMES["babel-on"])
    assert offered == [(bruno.pk, "red"), (ada.pk, "green"), (chiara.pk, "blue")]
    assert api_new_session(member, night, "babel-on", [bruno, ada, chiara]) == offered


def test_a_colour_given_to_the_api_is_kept_and_the_seats_after_it_get_theirs(member, night, players):
    ada, bruno, chiara, _dieter = players
    services.create_session(night=night, game="tower-of-babel", players=[ada, bruno, chiara], colours=["red", "blue"])
    # Ada is sent blue: she keeps it, Bruno's remembered blue is taken, so he gets the first free colour.
    seats = api_new_session(member, night, "tower-of-babel", [ada, bruno, chiara], colours=["blue"])
    assert seats == [(ada.pk, "blue"), (bruno.pk, "red"), (chiara.pk, "yellow")]


def test_an_empty_colour_sent_to_the_api_is_no_colour(member, night, players):
    ada, bruno, _chiara, _dieter = players
    services.create_session(night=night, game="babel-cubes", players=[ada, bruno], colours=["dark", "light"])
    seats = api_new_session(member, night, "babel-cubes", [ada, bruno], colours=[""])
    assert seats == [(ada.pk, ""), (bruno.pk, "light")]


def test_a_game_without_colours_gets_none_from_the_api(member, night, players):
    assert api_new_session(member, night, "seven-wonders", players[:3]) == [(p.pk, "") for p in players[:3]]


def test_the_api_schema_says_a_seat_without_a_colour_gets_the_remembered_one():
    schema = SchemaGenerator().get_schema(request=None, public=True)
    colours = schema["components"]["schemas"]["SessionIn"]["properties"]["colours"]
    assert "defaults to the remembered one" in colours["description"]
