"""A phone without an account follows a session through a short code."""

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.test import Client
from django.utils import timezone

from sessions import services
from sessions.models import GameSession, JoinCode


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    cache.clear()


def test_a_join_code_is_eight_unambiguous_characters(session):
    codes = {services.create_join_code(session=session).code for _ in range(50)}
    assert len(codes) == 50
    for code in codes:
        assert len(code) >= 8
        assert not set(code) & set("01OIL")


def test_members_show_a_join_code_and_outsiders_cannot(member_client, outsider_client, session):
    assert outsider_client.post(f"/s/{session.pk}/code/").status_code == 404
    member_client.post(f"/s/{session.pk}/code/")
    code = JoinCode.objects.get(session=session)
    page = member_client.get(f"/s/{session.pk}/").content.decode()
    assert code.code in page
    assert member_client.get(f"/s/{session.pk}/code/qr.svg")["Content-Type"] == "image/svg+xml"
    assert outsider_client.get(f"/s/{session.pk}/code/qr.svg").status_code == 404


def test_a_friend_joins_by_code_without_an_account_and_sees_the_players(session):
    code = services.create_join_code(session=session).code
    guest = Client()
    response = guest.post("/join/", {"code": code.lower()[:4] + "-" + code.lower()[4:]})
    assert response["Location"] == f"/j/{code}/"
    page = guest.get(f"/j/{code}/").content.decode()
    for name in ["Ada", "Bruno", "Chiara"]:
        assert name in page


def test_the_guest_view_follows_every_change(session):
    code = services.create_join_code(session=session).code
    guest = Client()
    first = guest.get(f"/j/{code}/live/")
    services.append_event(
        session_id=session.pk,
        expected_version=0,
        type="scores.record",
        payload={"scores": {seat.key: 10 * (i + 1) for i, seat in enumerate(session.seats.all())}},
    )
    second = guest.get(f"/j/{code}/live/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert second.status_code == 200
    assert second["ETag"] != first["ETag"]
    assert "30" in second.content.decode()


def test_a_revoked_code_stops_working(member_client, session):
    join_code = services.create_join_code(session=session)
    member_client.post(f"/s/{session.pk}/code/{join_code.pk}/revoke/")
    assert Client().get(f"/j/{join_code.code}/").status_code == 404


def test_a_new_code_replaces_the_old_one(member_client, session):
    old = services.create_join_code(session=session)
    member_client.post(f"/s/{session.pk}/code/")
    assert Client().get(f"/j/{old.code}/").status_code == 404
    assert JoinCode.objects.filter(session=session, revoked_at__isnull=True).count() == 1


def test_a_code_stops_working_when_the_session_finishes(session):
    code = services.create_join_code(session=session).code
    places = {seat.key: i + 1 for i, seat in enumerate(session.seats.all())}
    services.append_event(session_id=session.pk, expected_version=0, type="places.record", payload={"places": places})
    services.append_event(session_id=session.pk, expected_version=1, type="session.finish")
    response = Client().get(f"/j/{code}/")
    assert response.status_code == 404
    assert "its session has ended" in response.content.decode()


def test_a_phone_already_watching_sees_the_end_and_then_stops_polling(session):
    code = services.create_join_code(session=session).code
    places = {seat.key: i + 1 for i, seat in enumerate(session.seats.all())}
    services.append_event(session_id=session.pk, expected_version=0, type="places.record", payload={"places": places})
    services.append_event(session_id=session.pk, expected_version=1, type="session.finish")
    final = Client().get(f"/j/{code}/live/")
    assert final.status_code == 200
    assert "finished" in final.content.decode()
    assert "hx-get" not in final.content.decode()


def test_a_finished_session_is_not_followed_forever(session):
    code = services.create_join_code(session=session).code
    services.append_event(session_id=session.pk, expected_version=0, type="session.abandon")
    GameSession.objects.filter(pk=session.pk).update(updated_at=timezone.now() - timedelta(hours=1))
    assert Client().get(f"/j/{code}/live/").status_code == 404


def test_a_revoked_code_is_not_followed(session):
    join_code = services.create_join_code(session=session)
    services.revoke_join_code(join_code=join_code)
    assert Client().get(f"/j/{join_code.code}/live/").status_code == 404


def test_a_code_is_scoped_to_its_own_session(session, night, players):
    other = services.create_session(night=night, game="babel-cubes", players=players[2:4], seed=3)
    code = services.create_join_code(session=session).code
    page = Client().get(f"/j/{code}/").content.decode()
    assert "Tower of Babel" in page
    assert other.game_name not in page


def test_wrong_codes_are_rate_limited_per_address(session, settings):
    settings.JOIN_ATTEMPTS_PER_WINDOW = 3
    good = services.create_join_code(session=session).code
    guesser = Client()
    for guess in ["AAAAAAAA", "BBBBBBBB", "CCCCCCCC"]:
        assert guesser.get(f"/j/{guess}/").status_code == 404
    blocked = guesser.get(f"/j/{good}/")
    assert blocked.status_code == 429
    assert "Too many wrong codes" in blocked.content.decode()
    assert Client(REMOTE_ADDR="10.0.0.9").get(f"/j/{good}/").status_code == 200


def test_a_guest_cannot_write(session):
    code = services.create_join_code(session=session).code
    guest = Client()
    guest.get(f"/j/{code}/")
    response = guest.post(f"/s/{session.pk}/do/start/", {"expected_version": 0})
    assert response.status_code == 302
    assert response["Location"].startswith("/login/")
    session.refresh_from_db()
    assert session.version == 0
