"""The session API: tokens, per-group isolation, idempotency keys, stale writes, 400s."""

import pytest
from rest_framework.test import APIClient

from sessions.api.tokens import create_api_token
from sessions.models import SessionEvent


def api_for(user):
    client = APIClient()
    if user is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Token {create_api_token(user=user, name='tests')[1]}")
    return client


@pytest.mark.parametrize(("who", "status"), [("owner", 200), ("member", 200), ("outsider", 404), ("nobody", 401)])
def test_a_session_is_readable_by_its_group_only(request, session, who, status):
    user = None if who == "nobody" else request.getfixturevalue(who)
    client = api_for(user)
    assert client.get(f"/api/v1/sessions/{session.pk}/").status_code == status
    assert client.get(f"/api/v1/sessions/{session.pk}/events/").status_code == status


def test_the_session_answers_not_modified_to_a_matching_etag(member, session):
    client = api_for(member)
    first = client.get(f"/api/v1/sessions/{session.pk}/")
    assert first.json()["version"] == 0
    assert client.get(f"/api/v1/sessions/{session.pk}/", HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304


def test_an_event_is_appended_with_the_expected_version(member, session):
    response = api_for(member).post(
        f"/api/v1/sessions/{session.pk}/events/", {"type": "session.start", "expected_version": 0}, format="json"
    )
    assert response.status_code == 201
    assert response.json()["session"]["status"] == "playing"
    assert response.json()["event"]["author"] == "milo"


def test_an_outsider_cannot_append_events(outsider, session):
    response = api_for(outsider).post(
        f"/api/v1/sessions/{session.pk}/events/", {"type": "session.start", "expected_version": 0}, format="json"
    )
    assert response.status_code == 404
    assert not SessionEvent.objects.exists()


def test_a_repeated_key_answers_200_even_when_its_version_is_stale_by_then(member, session):
    client = api_for(member)
    url = f"/api/v1/sessions/{session.pk}/events/"
    body = {"type": "session.start", "expected_version": 0}
    assert client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="tap-1").status_code == 201
    assert client.post(url, {**body, "idempotency_key": "tap-2"}, format="json").status_code == 409
    repeat = client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="tap-1")
    assert (repeat.status_code, repeat.json()["created"]) == (200, False)
    assert SessionEvent.objects.count() == 1


def test_the_same_idempotency_key_records_once(member, session):
    client = api_for(member)
    body = {"type": "session.start", "expected_version": 0}
    first = client.post(f"/api/v1/sessions/{session.pk}/events/", body, format="json", HTTP_IDEMPOTENCY_KEY="abc")
    second = client.post(f"/api/v1/sessions/{session.pk}/events/", body, format="json", HTTP_IDEMPOTENCY_KEY="abc")
    assert (first.status_code, second.status_code) == (201, 200)
    assert second.json()["created"] is False
    assert SessionEvent.objects.count() == 1


def test_a_stale_write_answers_a_small_409_with_the_version_and_where_to_catch_up(member, session):
    client = api_for(member)
    url = f"/api/v1/sessions/{session.pk}/events/"
    client.post(url, {"type": "session.start", "expected_version": 0}, format="json")
    response = client.post(url, {"type": "session.abandon", "expected_version": 0}, format="json")
    assert response.status_code == 409
    body = response.json()
    assert body["errors"][0]["field"] == "expected_version"
    assert body["version"] == 1
    assert body["session"] == f"http://testserver/api/v1/sessions/{session.pk}/"
    missed = client.get(body["events"]).json()
    assert [event["type"] for event in missed["events"]] == ["session.start"]
    # The audit's 409 carried the whole session (a Tower of Babel state is about 5 kB).
    whole = len(client.get(body["session"]).content)
    assert len(response.content) < 400 < whole


def test_a_stale_write_is_refused_before_any_lock_in_two_queries(member, session, django_assert_max_num_queries):
    client = api_for(member)
    url = f"/api/v1/sessions/{session.pk}/events/"
    client.post(url, {"type": "session.start", "expected_version": 0}, format="json")
    fresh = client.post(url, {"type": "session.abandon", "expected_version": 1}, format="json")
    assert fresh.status_code == 201
    # the token, then the access check that reads the version: no lock is waited for and
    # nothing more is read to answer the 409.
    with django_assert_max_num_queries(2):
        assert client.post(url, {"type": "undo", "expected_version": 0}, format="json").status_code == 409


def test_a_rule_breaking_event_answers_400_naming_the_field(member, session):
    seat = session.seats.first().key
    response = api_for(member).post(
        f"/api/v1/sessions/{session.pk}/events/",
        {"type": "scores.record", "expected_version": 0, "payload": {"scores": {seat: "ten"}}},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == f"scores.{seat}"


def test_malformed_input_answers_400_naming_the_field(member, session):
    response = api_for(member).post(f"/api/v1/sessions/{session.pk}/events/", {"type": "undo"}, format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "expected_version"


def test_an_unknown_event_type_answers_400(member, session):
    response = api_for(member).post(
        f"/api/v1/sessions/{session.pk}/events/", {"type": "drop_table", "expected_version": 0}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "type"


def test_the_event_log_gives_only_the_later_events_since_a_sequence_number(member, session):
    client = api_for(member)
    url = f"/api/v1/sessions/{session.pk}/events/"
    client.post(url, {"type": "session.start", "expected_version": 0}, format="json")
    client.post(url, {"type": "session.abandon", "expected_version": 1}, format="json")
    assert [e["seq"] for e in client.get(url).json()["events"]] == [1, 2]
    later = client.get(url, {"since": 1}).json()
    assert later["version"] == 2
    assert [e["type"] for e in later["events"]] == ["session.abandon"]
    assert client.get(url, {"since": 2}).json()["events"] == []
    assert client.get(url, {"since": -1}).json()["errors"][0]["field"] == "since"


def test_the_event_log_answers_not_modified_until_a_new_event(member, session):
    client = api_for(member)
    url = f"/api/v1/sessions/{session.pk}/events/"
    first = client.get(url)
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    client.post(url, {"type": "session.start", "expected_version": 0}, format="json")
    changed = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200
    assert changed["ETag"] != first["ETag"]


def test_the_session_detail_etag_changes_with_each_event(member, session):
    client = api_for(member)
    first = client.get(f"/api/v1/sessions/{session.pk}/")
    client.post(
        f"/api/v1/sessions/{session.pk}/events/", {"type": "session.start", "expected_version": 0}, format="json"
    )
    again = client.get(f"/api/v1/sessions/{session.pk}/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200
    assert again.json()["version"] == 1


def test_a_secret_offer_stays_hidden_in_the_later_events_too(member, session):  # TB-12
    from scoring.tower_of_babel import engine as tob
    from sessions import services

    seats = [seat.key for seat in session.seats.all()]
    for event_type, payload in [("session.start", {}), (tob.FIRST_PLAYER, {"seat": seats[0]})]:
        session.refresh_from_db()
        services.append_event(session_id=session.pk, expected_version=session.version, type=event_type, payload=payload)
    session.refresh_from_db()
    game = session.state["game"]
    disc = next(d for d, found in game["discs"].items() if max(found["demand"].values()) < 7)
    services.append_event(
        session_id=session.pk,
        expected_version=session.version,
        type=tob.CHOOSE,
        payload={"wonder": game["discs"][disc]["wonder"], "disc": disc},
    )
    session.refresh_from_db()
    kind = next(iter(game["discs"][disc]["demand"]))
    services.append_event(
        session_id=session.pk,
        expected_version=session.version,
        type=tob.OFFER,
        payload={"seat": seats[1], "cards": {kind: 2}},
    )
    session.refresh_from_db()
    url = f"/api/v1/sessions/{session.pk}/events/"
    client = api_for(member)
    for since in [0, session.version - 1]:
        events = client.get(url, {"since": since}).json()["events"]
        offers = [e for e in events if e["type"] == tob.OFFER]
        assert offers == [{**offers[0], "payload": {"seat": seats[1]}}]
