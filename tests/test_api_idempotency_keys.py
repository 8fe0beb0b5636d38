"""An Idempotency-Key stands for one request (issue 42, D): sent again with the same request
it answers the first object, marked ``Idempotent-Replayed: true``; sent with another body (or
to another path) it is a 422 naming the key, where it used to answer the first object and drop
the new body without a word."""

import pytest
from drf_spectacular.generators import SchemaGenerator

from sessions import services
from sessions.models import GameNight, GameSession, Group, Player, SessionEvent, WriteReceipt
from tests.test_api_resources import api_for, finish

REPLAYED = "Idempotent-Replayed"


def refused_naming_the_key(response, field="Idempotency-Key"):
    assert response.status_code == 422, (response.status_code, response.content[:300])
    [error] = response.json()["errors"]
    assert (error["field"], error["rule"], error["code"]) == (field, None, "idempotency_key_reused")
    assert error["message"]


def test_the_same_key_with_another_body_is_a_422_naming_the_header(member, group):
    client = api_for(member)
    url = f"/api/v1/groups/{group.pk}/players/"
    first = client.post(url, {"name": "Eve"}, format="json", HTTP_IDEMPOTENCY_KEY="add-1")
    assert first.status_code == 201
    refused_naming_the_key(client.post(url, {"name": "Finn"}, format="json", HTTP_IDEMPOTENCY_KEY="add-1"))
    assert list(Player.objects.filter(name__in=["Eve", "Finn"]).values_list("name", flat=True)) == ["Eve"]


def test_the_same_key_with_the_same_body_answers_the_first_object_marked_as_a_replay(member, group):
    client = api_for(member)
    url = f"/api/v1/groups/{group.pk}/players/"
    first = client.post(url, {"name": "Eve"}, format="json", HTTP_IDEMPOTENCY_KEY="add-1")
    again = client.post(url, {"name": "Eve"}, format="json", HTTP_IDEMPOTENCY_KEY="add-1")
    assert (again.status_code, again.json()) == (201, first.json())
    assert again[REPLAYED] == "true"
    assert REPLAYED not in first
    assert Player.objects.filter(name="Eve").count() == 1


def test_a_write_without_a_key_is_no_replay(member, group):
    response = api_for(member).post(f"/api/v1/groups/{group.pk}/players/", {"name": "Eve"}, format="json")
    assert response.status_code == 201
    assert REPLAYED not in response


def test_a_body_that_means_the_same_is_the_same_request(member, group):
    client = api_for(member)
    url = f"/api/v1/groups/{group.pk}/nights/"
    first = client.post(url, {"date": "2026-12-01", "place": "", "notes": ""}, format="json", HTTP_IDEMPOTENCY_KEY="n")
    again = client.post(url, {"notes": "", "date": "2026-12-01"}, format="json", HTTP_IDEMPOTENCY_KEY="n")
    assert (again.status_code, again[REPLAYED], again.json()["id"]) == (201, "true", first.json()["id"])
    assert GameNight.objects.filter(group=group).count() == 1


def test_the_same_key_on_another_groups_path_is_a_422(member, group):
    client = api_for(member)
    other = services.create_group(owner=member, name="Sunday table")
    assert client.post(f"/api/v1/groups/{group.pk}/players/", {"name": "Eve"}, format="json", HTTP_IDEMPOTENCY_KEY="k")
    refused_naming_the_key(
        client.post(f"/api/v1/groups/{other.pk}/players/", {"name": "Eve"}, format="json", HTTP_IDEMPOTENCY_KEY="k")
    )
    assert not other.players.exists()


@pytest.mark.parametrize(
    ("path", "first", "second"),
    [
        ("/api/v1/groups/", {"name": "Friday"}, {"name": "Saturday"}),
        ("/api/v1/groups/{group}/nights/", {"place": "Ada's"}, {"place": "Bruno's"}),
        (
            "/api/v1/nights/{night}/sessions/",
            {"game": "babel-on", "players": [0, 1]},
            {"game": "babel-on", "players": [1, 0]},
        ),
    ],
)
def test_every_create_refuses_its_key_with_another_body(member, group, night, players, path, first, second):
    def ids(body):
        return {**body, "players": [players[i].pk for i in body["players"]]} if "players" in body else body

    client = api_for(member)
    url = path.format(group=group.pk, night=night.pk)
    counts = (Group.objects.count(), GameNight.objects.count(), GameSession.objects.count())
    assert client.post(url, ids(first), format="json", HTTP_IDEMPOTENCY_KEY="one").status_code == 201
    refused_naming_the_key(client.post(url, ids(second), format="json", HTTP_IDEMPOTENCY_KEY="one"))
    after = (Group.objects.count(), GameNight.objects.count(), GameSession.objects.count())
    assert sum(after) == sum(counts) + 1


def test_a_receipt_kept_before_fingerprints_still_answers_its_object(member, group):
    player = services.create_player(group=group, name="Eve")
    WriteReceipt.objects.create(user=member, key="api-player:old", result={"id": player.pk})
    response = api_for(member).post(
        f"/api/v1/groups/{group.pk}/players/", {"name": "Whatever"}, format="json", HTTP_IDEMPOTENCY_KEY="old"
    )
    assert (response.status_code, response.json()["id"], response[REPLAYED]) == (201, player.pk, "true")


def test_an_event_sent_again_with_its_key_is_a_marked_replay(member, session):
    client = api_for(member)
    url = f"/api/v1/sessions/{session.pk}/events/"
    body = {"type": "session.start", "expected_version": 0}
    first = client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="tap")
    again = client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="tap")
    assert (first.status_code, again.status_code, again.json()["created"]) == (201, 200, False)
    assert again[REPLAYED] == "true"
    assert REPLAYED not in first


@pytest.mark.parametrize(
    "other",
    [
        {"type": "session.abandon", "expected_version": 0},
        {"type": "session.start", "expected_version": 0, "payload": {"x": 1}},
        {"type": "session.start", "expected_version": 1},
    ],
)
def test_an_events_key_with_another_event_is_a_422_naming_the_header(member, session, other):
    client = api_for(member)
    url = f"/api/v1/sessions/{session.pk}/events/"
    assert client.post(url, {"type": "session.start", "expected_version": 0}, format="json", HTTP_IDEMPOTENCY_KEY="t")
    refused_naming_the_key(client.post(url, other, format="json", HTTP_IDEMPOTENCY_KEY="t"))
    assert SessionEvent.objects.filter(session=session).count() == 1


def test_an_events_key_sent_in_the_body_is_named_as_it_came(member, session):
    client = api_for(member)
    url = f"/api/v1/sessions/{session.pk}/events/"
    start = {"type": "session.start", "expected_version": 0, "idempotency_key": "b"}
    assert client.post(url, start, format="json").status_code == 201
    refused_naming_the_key(client.post(url, {**start, "type": "session.abandon"}, format="json"), "idempotency_key")


def test_a_rematch_asked_again_with_its_key_is_a_replay_and_for_another_session_a_422(member, night, players):
    client = api_for(member)
    first_game = finish(services.create_session(night=night, game="babel-on", players=players[:2]), [3, 5])
    second_game = finish(services.create_session(night=night, game="babel-on", players=players[:2]), [5, 3])
    url = f"/api/v1/sessions/{first_game.pk}/rematch/"
    first = client.post(url, {}, format="json", HTTP_IDEMPOTENCY_KEY="again")
    again = client.post(url, {}, format="json", HTTP_IDEMPOTENCY_KEY="again")
    assert (first.status_code, again.status_code, again.json()["id"]) == (201, 200, first.json()["id"])
    assert again[REPLAYED] == "true"
    refused_naming_the_key(
        client.post(f"/api/v1/sessions/{second_game.pk}/rematch/", {}, format="json", HTTP_IDEMPOTENCY_KEY="again")
    )


@pytest.mark.parametrize(
    ("path", "method"),
    [
        ("/api/v1/groups/", "post"),
        ("/api/v1/groups/{group_id}/players/", "post"),
        ("/api/v1/groups/{group_id}/nights/", "post"),
        ("/api/v1/nights/{night_id}/sessions/", "post"),
        ("/api/v1/sessions/{session_id}/events/", "post"),
        ("/api/v1/sessions/{session_id}/rematch/", "post"),
    ],
)
def test_the_schema_documents_the_422_and_the_replay_header(db, path, method):
    operation = SchemaGenerator().get_schema(public=True)["paths"][path][method]
    assert "Idempotency-Key" in {p["name"] for p in operation["parameters"]}
    assert "422" in operation["responses"]
    assert any(REPLAYED in answer.get("headers", {}) for answer in operation["responses"].values())
