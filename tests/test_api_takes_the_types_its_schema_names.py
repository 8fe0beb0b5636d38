"""The API takes the JSON types its schema names and refuses the rest (issue 42, H): the
contract run's negative-data check found bodies and query strings the schema refuses but the
code took ({"name": 0} as the name "0", "solve": 0 as false, ?date_to= as no filter ...)."""

import pytest
from drf_spectacular.generators import SchemaGenerator

from tests.test_api_resources import api_for


def refused_naming(response, field):
    assert response.status_code == 400, (response.status_code, response.content[:300])
    assert field in [error["field"] for error in response.json()["errors"]]


@pytest.fixture
def client(member):
    return api_for(member)


@pytest.mark.parametrize("name", [0, 12.5, True, ["Eve"], {"name": "Eve"}])
def test_a_name_that_is_not_a_string_is_refused_everywhere(client, group, players, name):
    refused_naming(client.post("/api/v1/groups/", {"name": name}, format="json"), "name")
    refused_naming(client.post(f"/api/v1/groups/{group.pk}/players/", {"name": name}, format="json"), "name")
    refused_naming(client.patch(f"/api/v1/players/{players[0].pk}/", {"name": name}, format="json"), "name")


def test_a_nights_notes_and_place_must_be_strings(client, group):
    refused_naming(client.post(f"/api/v1/groups/{group.pk}/nights/", {"notes": 0}, format="json"), "notes")
    refused_naming(client.post(f"/api/v1/groups/{group.pk}/nights/", {"place": 0}, format="json"), "place")


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"type": "session.start", "expected_version": "0"}, "expected_version"),
        ({"type": "session.start", "expected_version": 0.0}, "expected_version"),
        ({"type": "session.start", "expected_version": False}, "expected_version"),
        ({"type": 1, "expected_version": 0}, "type"),
        ({"type": "session.start", "expected_version": 0, "idempotency_key": 5}, "idempotency_key"),
    ],
)
def test_an_events_fields_take_their_types_only(client, session, body, field):
    refused_naming(client.post(f"/api/v1/sessions/{session.pk}/events/", body, format="json"), field)


def test_a_sessions_players_and_colours_take_their_types_only(client, night, players):
    url = f"/api/v1/nights/{night.pk}/sessions/"
    refused_naming(
        client.post(url, {"game": "babel-on", "players": [str(p.pk) for p in players[:2]]}, format="json"), "players[0]"
    )
    body = {"game": "babel-on", "players": [p.pk for p in players[:2]], "colours": [1, 2]}
    refused_naming(client.post(url, body, format="json"), "colours[0]")


@pytest.mark.parametrize("solve", [0, 1, "true", "yes", None])
def test_the_cube_calculators_solve_is_a_boolean_only(db, solve):
    response = api_for(None).post(
        "/api/v1/calculators/babel-cubes/position", {"moves": [], "solve": solve}, format="json"
    )
    refused_naming(response, "solve")


def test_a_cube_move_may_leave_its_bulges_out_as_the_schema_says(db):
    response = api_for(None).post(
        "/api/v1/calculators/babel-cubes/position", {"moves": [{"cell": "nw", "type": 0}]}, format="json"
    )
    assert response.status_code == 200
    move = SchemaGenerator().get_schema(public=True)["components"]["schemas"]["CubeMoveDoc"]
    assert set(move["required"]) == {"cell", "type"}


SHEET = {"name": "Ada", "coins": 4}


@pytest.mark.parametrize(
    ("sheet", "field"),
    [
        ({**SHEET, "name": 0}, "players[0].name"),
        ({**SHEET, "coins": "4"}, "players[0].coins"),
        ({**SHEET, "military": "3"}, "players[0].military"),
        ({**SHEET, "guilds_around": True}, "players[0].guilds_around"),
        ({**SHEET, "science": 0}, "players[0].science"),
        ({**SHEET, "science": []}, "players[0].science"),
        ({**SHEET, "science": {"gear": "2"}}, "players[0].science.gear"),
    ],
)
def test_a_seven_wonders_sheet_takes_the_types_of_its_schema(db, sheet, field):
    response = api_for(None).post("/api/v1/calculators/seven-wonders/score", {"players": [sheet]}, format="json")
    refused_naming(response, field)


def test_a_sheets_count_may_be_null_as_its_schema_says(db):
    sheet = {**SHEET, "guilds_around": None, "military": None, "science": None}
    response = api_for(None).post("/api/v1/calculators/seven-wonders/score", {"players": [sheet]}, format="json")
    assert response.status_code == 200
    schema = SchemaGenerator().get_schema(public=True)["components"]["schemas"]["SheetDoc"]["properties"]
    assert schema["guilds_around"]["nullable"] is True
    assert schema["military"]["maximum"] == 999


def test_a_great_projects_flags_and_counts_take_their_types_only(db):
    body = {
        "project": "x",
        "players": [{"name": "Ada", "markers": 1, "can_suffer_penalty": 1}],
        "markers_left": 0,
        "age": 1,
    }
    refused_naming(
        api_for(None).post("/api/v1/calculators/seven-wonders/great-project", body, format="json"),
        "players[0].can_suffer_penalty",
    )


@pytest.mark.parametrize(
    ("path", "name"),
    [
        ("/api/v1/groups/{group}/nights/", "date_to"),
        ("/api/v1/groups/{group}/nights/", "date_from"),
        ("/api/v1/sessions/", "status"),
        ("/api/v1/sessions/", "group"),
        ("/api/v1/results/", "rank"),
        ("/api/v1/results/", "date_from"),
        ("/api/v1/sessions/{session}/events/", "since"),
        ("/api/v1/groups/{group}/leaderboard/", "min_plays"),
        ("/api/v1/groups/{group}/leaderboard/", "limit"),
    ],
)
def test_an_empty_query_parameter_is_refused_rather_than_ignored(client, session, path, name):
    url = path.format(group=session.group_id, session=session.pk)
    refused_naming(client.get(url, {name: ""}), name)


def test_an_empty_format_for_the_results_csv_is_a_404_as_an_unknown_one_is(client, group):
    url = f"/api/v1/groups/{group.pk}/results.csv"
    assert client.get(url).status_code == 200
    assert client.get(url, {"format": "xml"}).status_code == 404
    response = client.get(url, {"format": ""})
    assert response.status_code == 404
    assert response.json()["errors"][0]["code"] == "not_found"
