"""A ``game`` filter naming no game of this app is a 400 naming the field and the games there
are (issue 42, B), not a 200 with an empty list that looks like "no plays yet"."""

import pytest
from drf_spectacular.generators import SchemaGenerator

from sessions import services
from sessions.games import GAMES
from tests.test_api_resources import api_for, finish

LISTS = ["/api/v1/sessions/", "/api/v1/results/"]


@pytest.fixture
def played(night, players):
    return finish(services.create_session(night=night, game="babel-on", players=players[:2], secret="1"), [3, 5])


@pytest.mark.parametrize("url", LISTS)
@pytest.mark.parametrize("game", ["chess", "Tower-of-Babel", "tower_of_babel", " babel-on"])
def test_an_unknown_game_is_a_400_naming_the_field_and_every_game(member, played, url, game):
    response = api_for(member).get(url, {"game": game})
    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert (error["field"], error["rule"]) == ("game", None)
    for slug in GAMES:
        assert slug in error["message"]


@pytest.mark.parametrize("url", LISTS)
def test_an_empty_game_is_refused_rather_than_read_as_no_filter(member, played, url):
    response = api_for(member).get(url, {"game": ""})
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "game"


@pytest.mark.parametrize("url", LISTS)
def test_a_known_game_still_filters(member, played, url):
    client = api_for(member)
    assert client.get(url, {"game": "babel-on"}).json()["results"]
    assert client.get(url, {"game": "seven-wonders"}).json()["results"] == []


def test_the_message_is_translated(member, played):
    response = api_for(member).get("/api/v1/sessions/", {"game": "chess"}, HTTP_ACCEPT_LANGUAGE="it")
    message = response.json()["errors"][0]["message"]
    assert "tower-of-babel" in message
    assert "There is no such game" not in message


@pytest.mark.parametrize("path", LISTS)
def test_the_schema_lists_the_games_the_filter_takes(db, path):
    schema = SchemaGenerator().get_schema(public=True)
    [game] = [p for p in schema["paths"][path]["get"]["parameters"] if p["name"] == "game"]
    assert sorted(game["schema"]["enum"]) == sorted(GAMES)
