"""Bad input to the API answers a 400 (or the documented refusal) in the one error shape,
never a 500: JSON nested ~1,100 deep, page sizes that are not numbers, unknown paths."""

import json

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from sessions import services

DEEP = "[" * 1100 + "]" * 1100
DEEP_OBJECT = '{"a":' * 1100 + "1" + "}" * 1100
CALCULATORS = [
    "/api/v1/calculators/tower-of-babel/wonder",
    "/api/v1/calculators/tower-of-babel/discs",
    "/api/v1/calculators/seven-wonders/score",
    "/api/v1/calculators/seven-wonders/great-project",
    "/api/v1/calculators/babel-cubes/position",
    "/api/v1/calculators/babel-on/tower",
]


@pytest.fixture
def api(db):
    user = User.objects.create_user("deep", password="x-long-password-1")
    client = APIClient()
    client.force_authenticate(user)
    group = services.create_group(owner=user, name="Deep")
    players = [services.create_player(group=group, name=name) for name in ("A", "B")]
    night = services.create_night(group=group, date="2026-01-01", place="", notes="")
    session = services.create_session(night=night, game="babel-cubes", players=players)
    return client, session, group


def refused_naming(response, field):
    assert response.status_code == 400, (response.status_code, response.content[:200])
    assert [error["field"] for error in response.json()["errors"]] == [field]


@pytest.mark.parametrize("body", [DEEP, DEEP_OBJECT, '{"type": "x", "payload": ' + DEEP + "}"])
def test_json_nested_1100_deep_to_the_events_api_is_a_400_naming_the_body(api, body):
    client, session, _group = api
    response = client.post(f"/api/v1/sessions/{session.pk}/events/", body, content_type="application/json")
    refused_naming(response, "body")


@pytest.mark.parametrize("path", CALCULATORS)
def test_json_nested_1100_deep_to_every_calculator_is_a_400_naming_the_body(db, path):
    response = APIClient().post(path, DEEP_OBJECT, content_type="application/json")
    refused_naming(response, "body")


def test_json_nested_a_little_deeper_than_the_limit_is_refused_and_at_the_limit_it_is_read(api):
    client, session, _group = api
    url = f"/api/v1/sessions/{session.pk}/events/"
    too_deep = {"type": "x", "expected_version": 0, "payload": {"a": json.loads("[" * 70 + "]" * 70)}}
    refused_naming(client.post(url, too_deep, format="json"), "body")
    shallow = {"type": "x", "expected_version": 0, "payload": {"a": json.loads("[" * 10 + "]" * 10)}}
    response = client.post(url, shallow, format="json")
    assert response.status_code == 400
    assert "body" not in [error["field"] for error in response.json()["errors"]]


def test_malformed_json_answers_the_documented_errors_shape_not_detail(api):
    client, session, _group = api
    response = client.post(f"/api/v1/sessions/{session.pk}/events/", "{nope", content_type="application/json")
    refused_naming(response, "body")
    assert "detail" not in response.json()


@pytest.mark.parametrize("size", ["{}", "x", "²", "٣", "0", "201", "-1", "9" * 5000])
def test_a_page_size_that_is_not_a_whole_number_from_1_to_200_is_a_400_naming_it(api, size):
    client, _session, _group = api
    refused_naming(client.get("/api/v1/sessions/", {"page_size": size}), "page_size")


def test_a_page_size_from_1_to_200_is_taken(api):
    client, _session, group = api
    response = client.get(f"/api/v1/groups/{group.pk}/players/", {"page_size": "1"})
    assert response.status_code == 200
    assert len(response.json()["results"]) == 1


@pytest.mark.parametrize("path", ["/api/v1/groups/null,null/", "/api/v1/sessions/-1/", "/api/v1/nope"])
def test_an_unknown_api_path_is_a_json_404_in_the_errors_shape(api, path):
    client, _session, _group = api
    response = client.get(path)
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json()["errors"][0]["field"] == "non_field_errors"


def test_no_login_is_a_401_in_the_errors_shape_naming_authorization(db):
    response = APIClient().get("/api/v1/groups/")
    assert response.status_code == 401
    assert response.json()["errors"][0]["field"] == "Authorization"


def test_an_event_without_an_author_says_null_and_the_schema_allows_it(api):
    from drf_spectacular.generators import SchemaGenerator

    client, session, _group = api
    services.append_event(session_id=session.pk, expected_version=0, type="session.start")
    events = client.get(f"/api/v1/sessions/{session.pk}/events/").json()["events"]
    assert events[0]["author"] is None
    schemas = SchemaGenerator().get_schema(public=True)["components"]["schemas"]
    assert schemas["SessionStartEventOut"]["properties"]["author"].get("nullable") is True  # EventOut's variant


def test_every_operation_documents_the_refusals_it_can_answer():
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(public=True)
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            codes = set(operation["responses"])
            assert {"400", "401", "403", "404", "429"} <= codes, (method, path, codes)
            if method in ("post", "patch", "put"):
                assert "415" in codes, (method, path)


def test_more_colours_than_players_is_a_400_naming_the_colours(api):
    client, session, _group = api
    players = [seat.player_id for seat in session.seats.all()]
    response = client.post(
        f"/api/v1/nights/{session.night_id}/sessions/",
        {"game": "babel-cubes", "players": players, "colours": ["light", "dark", "light"]},
        format="json",
    )
    refused_naming(response, "colours")
    assert response.json()["errors"][0]["message"] == "Give at most one colour per seat."
