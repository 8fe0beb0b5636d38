"""Phones without an account follow a game night through a short code."""

from datetime import timedelta

from django.test import Client
from django.utils import timezone

from sessions import services
from sessions.models import GameSession, JoinCode


def finish(session):
    places = {seat.key: i + 1 for i, seat in enumerate(session.seats.all())}
    services.append_event(
        session_id=session.pk, expected_version=session.version, type="places.record", payload={"places": places}
    )
    services.append_event(session_id=session.pk, expected_version=session.version + 1, type="session.finish")
    session.refresh_from_db()


def test_a_join_code_is_eight_unambiguous_characters(session):
    codes = {services.create_join_code(session=session).code for _ in range(50)}
    assert len(codes) == 50
    for code in codes:
        assert len(code) >= 8
        assert not set(code) & set("01OIL")


def test_members_show_a_join_code_and_outsiders_cannot(member_client, outsider_client, session):
    assert outsider_client.post(f"/s/{session.pk}/code/").status_code == 404
    member_client.post(f"/s/{session.pk}/code/")
    code = JoinCode.objects.get(night=session.night)
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
    response = Client().get(f"/j/{join_code.code}/")
    assert response.status_code == 410
    assert "The host revoked this code" in response.content.decode()


def test_a_revoked_code_stops_every_phone_that_joined_through_it_at_once(session):
    join_code = services.create_join_code(session=session)
    phone = Client()
    assert phone.get(f"/j/{join_code.code}/").status_code == 200
    services.revoke_join_code(join_code=join_code)
    for url in ["", "live/"]:
        assert phone.get(f"/j/{join_code.code}/{url}").status_code == 410
    assert phone.post(f"/j/{join_code.code}/seat/", {"seat": session.seats.first().key}).status_code == 410


def test_a_new_code_replaces_the_old_one(member_client, session):
    old = services.create_join_code(session=session)
    member_client.post(f"/s/{session.pk}/code/")
    response = Client().get(f"/j/{old.code}/")
    assert response.status_code == 410
    assert "The host replaced this code: ask for the new one" in response.content.decode()
    assert JoinCode.objects.filter(night=session.night, revoked_at__isnull=True).count() == 1


def test_a_phone_polling_a_replaced_code_is_told_to_ask_for_the_new_one(member_client, session):
    old = services.create_join_code(session=session)
    phone = Client()
    phone.get(f"/j/{old.code}/")
    member_client.post(f"/s/{session.pk}/code/")
    poll = phone.get(f"/j/{old.code}/live/", HTTP_HX_REQUEST="true", HTTP_HX_TARGET="guest")
    assert poll.status_code == 410
    assert poll["HX-Refresh"] == "true"  # the phone reloads, and the page says it whole
    assert "The host replaced this code: ask for the new one" in phone.get(f"/j/{old.code}/").content.decode()


def test_the_code_belongs_to_the_night_and_the_phone_follows_the_next_game(session, night, players):
    code = services.create_join_code(session=session).code
    phone = Client()
    phone.get(f"/j/{code}/")
    phone.post(f"/j/{code}/seat/", {"seat": str(players[0].pk)})
    finish(session)
    nxt = services.create_session(night=night, game="babel-cubes", players=players[:2], secret="3")
    page = phone.get(f"/j/{code}/").content.decode()
    assert nxt.game_name in page
    assert "You are Ada" in page


def test_after_finish_a_guest_who_reloads_sees_the_result_not_an_error(session):
    code = services.create_join_code(session=session).code
    phone = Client()
    phone.get(f"/j/{code}/")
    finish(session)
    response = phone.get(f"/j/{code}/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "finished" in page
    assert "This code does not work" not in page
    assert Client().get(f"/j/{code}/").status_code == 200  # and a phone that joins late sees it too


def test_the_guest_region_keeps_polling_after_the_game_ends(session):
    code = services.create_join_code(session=session).code
    finish(session)
    final = Client().get(f"/j/{code}/live/")
    assert final.status_code == 200
    assert "finished" in final.content.decode()
    assert 'hx-trigger="every 1s, table-changed"' in final.content.decode()


def test_a_night_without_a_game_yet_says_the_phone_is_waiting(night, players):
    code = services.create_join_code(night=night).code
    page = Client().get(f"/j/{code}/").content.decode()
    assert "Waiting for the host to start a game" in page


def test_a_code_expires_some_hours_after_the_nights_last_game(session, settings):
    settings.JOIN_CODE_HOURS_AFTER_LAST_GAME = 6
    code = services.create_join_code(session=session).code
    phone = Client()
    phone.get(f"/j/{code}/")
    services.append_event(session_id=session.pk, expected_version=0, type="session.abandon")
    old = timezone.now() - timedelta(hours=7)
    GameSession.objects.filter(pk=session.pk).update(updated_at=old)
    JoinCode.objects.filter(code=code).update(created_at=old)
    assert phone.get(f"/j/{code}/live/").status_code == 410
    assert Client().get(f"/j/{code}/").status_code == 410


def test_the_phone_shows_the_newest_open_game_where_its_player_has_a_seat(session, night, players):
    code = services.create_join_code(session=session).code
    phone = Client()
    phone.get(f"/j/{code}/")
    phone.post(f"/j/{code}/seat/", {"seat": str(players[0].pk)})  # Ada plays Tower of Babel
    services.create_session(night=night, game="babel-cubes", players=players[2:4], secret="3")  # without Ada
    page = phone.get(f"/j/{code}/").content.decode()
    assert "Tower of Babel" in page


def test_a_phone_shows_the_newest_open_game_when_its_player_has_no_seat(session, night, players):
    code = services.create_join_code(session=session).code
    other = services.create_session(night=night, game="babel-cubes", players=players[2:4], secret="3")
    page = Client().get(f"/j/{code}/").content.decode()
    assert other.game_name in page


def test_a_guest_cannot_write(session):
    code = services.create_join_code(session=session).code
    guest = Client()
    guest.get(f"/j/{code}/")
    response = guest.post(f"/s/{session.pk}/do/start/", {"expected_version": 0})
    assert response.status_code == 302
    assert response["Location"].startswith("/login/")
    session.refresh_from_db()
    assert session.version == 0
