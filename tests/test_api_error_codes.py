"""Every error item carries a machine-readable ``code`` (issue 42, G): never translated, one of
the few the schema's ErrorOut documents, beside the field, the rule and the translated message."""

import pytest
from drf_spectacular.generators import SchemaGenerator

from sessions.api.calculators import CalculatorThrottle
from tests.test_api_resources import api_for


def only_error(response, status):
    assert response.status_code == status, (response.status_code, response.content[:300])
    [error] = response.json()["errors"]
    assert set(error) == {"field", "rule", "code", "message"}
    return error


def test_a_rule_of_the_game_is_code_rule_with_its_id(member, night, players):
    response = api_for(member).post(
        f"/api/v1/nights/{night.pk}/sessions/", {"game": "tower-of-babel", "players": [players[0].pk]}, format="json"
    )
    error = only_error(response, 400)
    assert (error["code"], error["rule"]) == ("rule", "TB-1")


@pytest.mark.parametrize(
    ("path", "body", "field", "code"),
    [
        ("players", {}, "name", "required"),
        ("players", {"name": None}, "name", "null"),
        ("players", {"name": ""}, "name", "blank"),
        ("players", {"name": 7}, "name", "invalid"),
        ("nights", {"notes": "x" * 2001}, "notes", "max_length"),
        ("nights", {"date": "someday"}, "date", "invalid"),
    ],
)
def test_a_malformed_field_has_drfs_code_for_it(member, group, path, body, field, code):
    error = only_error(api_for(member).post(f"/api/v1/groups/{group.pk}/{path}/", body, format="json"), 400)
    assert (error["field"], error["rule"], error["code"]) == (field, None, code)


def test_the_code_is_not_translated_where_the_message_is(member, group):
    url = f"/api/v1/groups/{group.pk}/players/"
    english = only_error(api_for(member).post(url, {}, format="json"), 400)
    italian = only_error(api_for(member).post(url, {}, format="json", HTTP_ACCEPT_LANGUAGE="it"), 400)
    assert english["code"] == italian["code"] == "required"
    assert english["message"] != italian["message"]


def test_a_stale_version_is_code_stale(member, session):
    client = api_for(member)
    url = f"/api/v1/sessions/{session.pk}/events/"
    assert client.post(url, {"type": "session.start", "expected_version": 0}, format="json").status_code == 201
    error = only_error(client.post(url, {"type": "session.abandon", "expected_version": 0}, format="json"), 409)
    assert (error["field"], error["code"]) == ("expected_version", "stale")


@pytest.mark.parametrize(
    ("request_kwargs", "status", "field", "code"),
    [
        ({"path": "/api/v1/nope"}, 404, "non_field_errors", "not_found"),
        ({"path": "/api/v1/groups/", "method": "delete"}, 405, "method", "method_not_allowed"),
        ({"path": "/api/v1/groups/", "HTTP_ACCEPT": "image/png"}, 406, "Accept", "not_acceptable"),
        (
            {"path": "/api/v1/groups/", "method": "post", "data": "{", "content_type": "application/json"},
            400,
            "body",
            "parse_error",
        ),
        (
            {"path": "/api/v1/groups/", "method": "post", "data": "a", "content_type": "text/plain"},
            415,
            "Content-Type",
            "unsupported_media_type",
        ),
    ],
)
def test_every_other_refusal_has_its_code(member, request_kwargs, status, field, code):
    kwargs = dict(request_kwargs)
    method = kwargs.pop("method", "get")
    error = only_error(getattr(api_for(member), method)(**kwargs), status)
    assert (error["field"], error["rule"], error["code"]) == (field, None, code)


def test_no_credentials_is_code_not_authenticated(db):
    error = only_error(api_for(None).get("/api/v1/groups/"), 401)
    assert (error["field"], error["code"]) == ("Authorization", "not_authenticated")


def test_a_members_owner_only_refusal_is_code_permission_denied(member, group):
    error = only_error(api_for(member).get(f"/api/v1/groups/{group.pk}/export/"), 403)
    assert error["code"] == "permission_denied"


def test_a_throttled_call_is_code_throttled(db, monkeypatch):
    monkeypatch.setattr(CalculatorThrottle, "THROTTLE_RATES", {"calculator": "1/minute"})
    client, body = api_for(None), {"parts": {"a": 2}, "row": 1}
    assert client.post("/api/v1/calculators/tower-of-babel/wonder", body, format="json").status_code == 200
    error = only_error(client.post("/api/v1/calculators/tower-of-babel/wonder", body, format="json"), 429)
    assert error["code"] == "throttled"


def test_the_schema_documents_the_code_as_required(db):
    error = SchemaGenerator().get_schema(public=True)["components"]["schemas"]["ErrorOut"]
    assert "code" in error["required"]
    for code in ("rule", "invalid", "required", "stale", "not_found", "idempotency_key_reused", "throttled"):
        assert f"`{code}`" in error["properties"]["code"]["description"]
