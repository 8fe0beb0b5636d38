"""The live region polls cheaply: an unchanged session answers 304 after one or two queries."""

from django.test import Client

from sessions import services


def test_an_unchanged_session_answers_not_modified(member_client, session, django_assert_max_num_queries):
    first = member_client.get(f"/s/{session.pk}/live/")
    assert first.status_code == 200
    assert first["Cache-Control"] == "private, no-cache"
    with django_assert_max_num_queries(4):  # session + user + membership + version row
        again = member_client.get(f"/s/{session.pk}/live/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    assert again.content == b""


def test_a_change_gives_a_new_etag_and_the_new_state(member_client, session):
    first = member_client.get(f"/s/{session.pk}/live/")
    services.append_event(session_id=session.pk, expected_version=0, type="session.start")
    second = member_client.get(f"/s/{session.pk}/live/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert second.status_code == 200
    assert "playing" in second.content.decode()


def test_the_etag_depends_on_the_language(member_client, session):
    english = member_client.get(f"/s/{session.pk}/live/")["ETag"]
    german = member_client.get(f"/s/{session.pk}/live/", HTTP_ACCEPT_LANGUAGE="de")["ETag"]
    assert english != german


def test_a_guest_poll_of_an_unchanged_session_is_cheap(session, django_assert_max_num_queries):
    code = services.create_join_code(session=session).code
    guest = Client()
    etag = guest.get(f"/j/{code}/live/")["ETag"]
    with django_assert_max_num_queries(2):  # the phone's Django session + its device (code, night, session)
        assert guest.get(f"/j/{code}/live/", HTTP_IF_NONE_MATCH=etag).status_code == 304


def test_the_live_region_polls_while_the_session_is_open_and_stops_after(member_client, session):
    assert 'hx-trigger="every 1s, table-changed"' in member_client.get(f"/s/{session.pk}/live/").content.decode()
    places = {seat.key: i + 1 for i, seat in enumerate(session.seats.all())}
    services.append_event(session_id=session.pk, expected_version=0, type="places.record", payload={"places": places})
    services.append_event(session_id=session.pk, expected_version=1, type="session.finish")
    assert "hx-trigger" not in member_client.get(f"/s/{session.pk}/live/").content.decode()
