"""A cursor is bound to the filters of the list that gave it (issue 42, C): sent with other
filters, or alone, it is a 400 naming ``cursor`` instead of walking every game from the
middle. The ``next`` link still works as given, and each page names its bare cursors
(``next_cursor``, ``previous_cursor``) for clients that send the filters themselves."""

from base64 import b64encode
from urllib.parse import parse_qs, urlsplit

import pytest
from drf_spectacular.generators import SchemaGenerator

from sessions import services
from tests.test_api_resources import api_for, finish


@pytest.fixture
def played(night, players):
    """Three finished sessions of each of two games, interleaved, oldest first."""
    sessions = []
    for n in range(3):
        sessions.append(finish(services.create_session(night=night, game="babel-on", players=players[:2]), [n, 5]))
        tower = services.create_session(night=night, game="tower-of-babel", players=players[:3], secret=f"{n:x}")
        sessions.append(tower)
    return sessions


def cursor_in(link):
    return parse_qs(urlsplit(link).query)["cursor"][0]


def test_page_one_filtered_by_game_then_its_cursor_alone_is_a_400_naming_cursor(member, played):
    client = api_for(member)
    first = client.get("/api/v1/sessions/", {"game": "tower-of-babel", "page_size": 2}).json()
    response = client.get("/api/v1/sessions/", {"cursor": cursor_in(first["next"]), "page_size": 2})
    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert (error["field"], error["rule"]) == ("cursor", None)


def test_a_cursor_sent_with_other_filters_is_a_400_naming_cursor(member, played):
    client = api_for(member)
    first = client.get("/api/v1/sessions/", {"game": "tower-of-babel", "page_size": 2}).json()
    response = client.get("/api/v1/sessions/", {"game": "babel-on", "cursor": cursor_in(first["next"])})
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "cursor"


def test_a_cursor_of_the_whole_list_sent_with_a_filter_is_a_400_naming_cursor(member, played):
    client = api_for(member)
    first = client.get("/api/v1/sessions/", {"page_size": 2}).json()
    response = client.get("/api/v1/sessions/", {"status": "finished", "cursor": first["next_cursor"]})
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "cursor"


def test_the_next_links_walk_only_the_filtered_sessions(member, played):
    client = api_for(member)
    url, seen = "/api/v1/sessions/?game=tower-of-babel&page_size=2", []
    while url:
        page = client.get(url).json()
        seen.extend((row["id"], row["game"]) for row in page["results"])
        url = page["next"]
    towers = [session.pk for session in reversed(played) if session.game == "tower-of-babel"]
    assert seen == [(pk, "tower-of-babel") for pk in towers]


def test_next_cursor_sent_with_the_same_filters_gives_the_next_page(member, played):
    client = api_for(member)
    wanted = {"game": "babel-on", "page_size": 2}
    first = client.get("/api/v1/sessions/", wanted).json()
    second = client.get("/api/v1/sessions/", {**wanted, "cursor": first["next_cursor"]})
    assert second.status_code == 200
    assert second.json() == client.get(first["next"]).json()
    assert [row["game"] for row in second.json()["results"]] == ["babel-on"]
    assert second.json()["next_cursor"] is None
    assert (
        client.get("/api/v1/sessions/", {**wanted, "cursor": second.json()["previous_cursor"]}).json()["results"]
        == first["results"]
    )


def test_the_same_filters_in_another_order_or_spelling_keep_the_cursor(member, played, group):
    client = api_for(member)
    first = client.get("/api/v1/sessions/", {"game": "babel-on", "group": group.pk, "page_size": 2}).json()
    again = client.get(
        "/api/v1/sessions/",
        {"page_size": 2, "group": f"0{group.pk}", "game": "babel-on", "cursor": first["next_cursor"]},
    )
    assert again.status_code == 200


def test_results_cursors_carry_their_filters_too(member, played):
    client = api_for(member)
    first = client.get("/api/v1/results/", {"rank": 1, "page_size": 1}).json()
    assert client.get("/api/v1/results/", {"cursor": first["next_cursor"]}).status_code == 400
    assert client.get("/api/v1/results/", {"rank": 1, "cursor": first["next_cursor"]}).status_code == 200


def test_a_cursor_of_the_unfiltered_list_keeps_working_as_before(member, played):
    client = api_for(member)
    first = client.get("/api/v1/sessions/", {"page_size": 4}).json()
    assert first["next_cursor"] == cursor_in(first["next"])
    assert first["previous_cursor"] is None
    assert client.get("/api/v1/sessions/", {"page_size": 4, "cursor": first["next_cursor"]}).status_code == 200


def test_a_cursor_whose_position_is_not_an_id_is_a_400_not_a_500(member, played):
    forged = b64encode(b"p=abc").decode()
    response = api_for(member).get("/api/v1/sessions/", {"cursor": forged})
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "cursor"


@pytest.mark.parametrize("path", ["/api/v1/sessions/", "/api/v1/results/"])
def test_the_schema_gives_the_cursors_beside_the_links(db, path):
    schema = SchemaGenerator().get_schema(public=True)
    page = schema["paths"][path]["get"]["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
    properties = schema["components"]["schemas"][page.rsplit("/", 1)[-1]]["properties"]
    assert {"next", "previous", "next_cursor", "previous_cursor", "results"} <= set(properties)
    assert properties["next_cursor"]["nullable"] is True
