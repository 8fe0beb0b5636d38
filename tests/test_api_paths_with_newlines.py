"""A path under /api/v1/ with a newline in it gets the API's JSON 404 like any other unknown
path (issue 42, A): the catch-all's ``.`` did not match a newline, so such a path fell through
to the pages' HTML 404."""

import pytest

from tests.test_api_resources import api_for


@pytest.mark.parametrize(
    "path",
    ["/api/v1/groups/%0A", "/api/v1/groups/1/%0A", "/api/v1/nope%0A", "/api/v1/%0Agroups/", "/api/v1/a%0Ab%0Dc/"],
)
def test_a_path_with_a_newline_in_it_gets_the_apis_json_404(member, path):
    response = api_for(member).get(path)
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json()["errors"][0]["field"] == "non_field_errors"


def test_a_path_with_a_newline_gets_the_json_404_without_credentials_too(db):
    response = api_for(None).get("/api/v1/sessions/%0A")
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
