"""``Authorization: Bearer <key>`` works as ``Token <key>`` does (issue 42, E): the schema's
security scheme is HTTP bearer, which is what client generators send, and the server used to
answer it "no credentials were provided"."""

import pytest
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from sessions.api.tokens import create_api_token, revoke_api_token


def client_with(header):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=header)
    return client


@pytest.mark.parametrize("prefix", ["Bearer", "bearer", "BEARER", "Token", "token"])
def test_a_token_is_taken_with_either_prefix_in_any_case(member, group, prefix):
    _token, key = create_api_token(user=member, name="phone")
    response = client_with(f"{prefix} {key}").get("/api/v1/groups/")
    assert response.status_code == 200
    assert [row["id"] for row in response.json()["results"]] == [group.pk]


def test_a_bearer_token_can_write(member, group):
    _token, key = create_api_token(user=member, name="phone")
    response = client_with(f"Bearer {key}").post(f"/api/v1/groups/{group.pk}/players/", {"name": "Eve"}, format="json")
    assert response.status_code == 201


@pytest.mark.parametrize(
    "header", ["Bearer 0123456789abcdef", "Bearer", "Bearer two words", "Bearer caf\u00e9", "Token 0123456789abcdef"]
)
def test_a_wrong_token_with_either_prefix_is_a_401_saying_so(db, header):
    response = client_with(header).get("/api/v1/groups/")
    assert response.status_code == 401
    [error] = response.json()["errors"]
    assert (error["field"], error["code"]) == ("Authorization", "authentication_failed")


def test_a_revoked_token_is_refused_as_bearer_too(member):
    token, key = create_api_token(user=member, name="phone")
    revoke_api_token(user=member, digest=token.digest)
    assert client_with(f"Bearer {key}").get("/api/v1/groups/").status_code == 401


def test_another_scheme_is_not_taken_for_a_token(member):
    _token, key = create_api_token(user=member, name="phone")
    response = client_with(f"Basic {key}").get("/api/v1/groups/")
    assert response.status_code == 401
    assert response.json()["errors"][0]["code"] == "not_authenticated"


def test_the_calculators_take_a_bearer_token_too(member):
    _token, key = create_api_token(user=member, name="phone")
    body = {"parts": {"a": 2}, "row": 1}
    assert (
        client_with(f"Bearer {key}").post("/api/v1/calculators/tower-of-babel/wonder", body, format="json").status_code
        == 200
    )
    assert (
        client_with("Bearer nope").post("/api/v1/calculators/tower-of-babel/wonder", body, format="json").status_code
        == 401
    )


def test_the_schema_describes_the_token_as_http_bearer(db):
    scheme = SchemaGenerator().get_schema(public=True)["components"]["securitySchemes"]["knoxApiToken"]
    assert (scheme["type"], scheme["scheme"]) == ("http", "bearer")
    assert "Token <key>" in scheme["description"]
