"""A seat belongs to one phone at a time: its secrets and its moves are that phone's alone."""

import re
from unittest import mock

import pytest
from django.db import IntegrityError, transaction
from django.test import Client

from scoring.errors import RuleError
from scoring.tower_of_babel import engine as tob
from sessions import selectors, services
from sessions.models import GameNight, GuestDevice
from tests.conftest import started_tower


@pytest.fixture
def table(session):
    """A started game, the first seat to play, and the night's code for the phones."""
    return started_tower(session)


def phone(code, seat=None):
    client = Client()
    client.get(f"/j/{code}/")
    if seat is not None:
        client.post(f"/j/{code}/seat/", {"seat": seat})
    return client


def device_of(client):
    (pk,) = client.session["guest_devices"].values()
    return GuestDevice.objects.get(pk=pk)


def ask_for_offers(member_client, session):
    session.refresh_from_db()
    game = session.state["game"]
    disc = next(d for d, disc in game["discs"].items() if max(disc["demand"].values()) < 7)
    wonder = game["discs"][disc]["wonder"]
    member_client.post(
        f"/s/{session.pk}/play/choose/", {"expected_version": session.version, "wonder": wonder, "disc": disc}
    )
    return disc, next(iter(game["discs"][disc]["demand"]))


def test_a_phone_cannot_take_a_seat_another_phone_holds(table):
    _session, seats, code = table
    bruno = phone(code, seats[1])
    thief = phone(code, seats[1])
    assert device_of(bruno).player_id == int(seats[1])
    assert device_of(thief).player_id is None
    assert device_of(thief).requested_id == int(seats[1])
    page = thief.get(f"/j/{code}/").content.decode()
    assert "on another phone" in page
    assert "on another phone: ask for this seat" in page
    assert "You are Bruno" not in page


def test_a_phone_cannot_read_or_act_for_a_seat_it_does_not_hold(member_client, table):
    session, seats, code = table
    disc, kind = ask_for_offers(member_client, session)
    bruno = phone(code, seats[1])
    thief = phone(code, seats[1])
    assert 'data-testid="my-offer-form"' in bruno.get(f"/j/{code}/").content.decode()
    assert 'data-testid="my-offer-form"' not in thief.get(f"/j/{code}/").content.decode()
    response = thief.post(
        f"/j/{code}/act/", {"move": "offer", "session": session.pk, "disc": disc, f"offer_{kind}": "1"}
    )
    assert "Say which player you are first" in response.content.decode()
    assert not session.events.filter(type=tob.OFFER).exists()


def test_two_phones_can_never_hold_one_player_in_the_database(table):
    session, seats, _code = table
    join_code = selectors.current_join_code(session)
    first, second = (services.join_night(join_code=join_code) for _ in range(2))
    GuestDevice.objects.filter(pk=first.pk).update(player_id=int(seats[1]))
    with pytest.raises(IntegrityError), transaction.atomic():
        GuestDevice.objects.filter(pk=second.pk).update(player_id=int(seats[1]))


def test_two_phones_claiming_one_seat_at_once_get_it_once(table):
    session, seats, _code = table
    join_code = selectors.current_join_code(session)
    first, second = (services.join_night(join_code=join_code) for _ in range(2))
    services.claim_seat(device=first, player_id=int(seats[1]))
    # The second claim read "free" before the first was written (the race the lock and the
    # constraint guard): its write must fail, not give the seat to two phones.
    empty = GuestDevice.objects.none()
    race = mock.patch.object(GuestDevice.objects, "select_related", return_value=mock.Mock(filter=lambda **k: empty))
    with race, pytest.raises(RuleError):
        services.claim_seat(device=second, player_id=int(seats[1]))
    assert GuestDevice.objects.filter(player_id=int(seats[1])).count() == 1


def test_the_picker_preselects_nobody_and_the_phone_says_whom_it_plays(table):
    _session, seats, code = table
    fresh = phone(code).get(f"/j/{code}/").content.decode()
    picker = fresh.split('id="seat"')[1].split("</form>")[0]
    assert "selected" not in re.sub(r'<option value="" selected disabled>', "", picker)
    bruno = phone(code, seats[1]).get(f"/j/{code}/").content.decode()
    assert "You are Bruno" in bruno


def test_the_host_frees_a_seat_and_the_old_phone_loses_it_at_once(member_client, table):
    session, seats, code = table
    disc, kind = ask_for_offers(member_client, session)
    bruno = phone(code, seats[1])
    host_page = member_client.get(f"/s/{session.pk}/").content.decode()
    assert "Free Bruno's seat" in host_page
    assert member_client.post(f"/s/{session.pk}/phones/{seats[1]}/free/").status_code == 302
    page = bruno.get(f"/j/{code}/").content.decode()
    assert "You are Bruno" not in page
    assert 'data-testid="my-offer-form"' not in page
    response = bruno.post(
        f"/j/{code}/act/", {"move": "offer", "session": session.pk, "disc": disc, f"offer_{kind}": "1"}
    )
    assert "Say which player you are first" in response.content.decode()


def test_the_host_lets_a_phone_take_a_held_seat_or_refuses(member_client, table):
    session, seats, code = table
    old, new = phone(code, seats[1]), phone(code, seats[1])
    asking = device_of(new)
    host_page = member_client.get(f"/s/{session.pk}/").content.decode()
    assert "Let this phone take it" in host_page
    member_client.post(f"/s/{session.pk}/phones/requests/{asking.pk}/refuse/")
    assert device_of(new).requested_id is None
    assert device_of(old).player_id == int(seats[1])
    new.post(f"/j/{code}/seat/", {"seat": seats[1]})
    member_client.post(f"/s/{session.pk}/phones/requests/{asking.pk}/allow/")
    assert device_of(new).player_id == int(seats[1])
    assert device_of(old).player_id is None
    assert "You are Bruno" not in old.get(f"/j/{code}/").content.decode()


def test_the_holding_phone_sees_the_request_and_hands_over(table):
    _session, seats, code = table
    old, new = phone(code, seats[1]), phone(code, seats[1])
    page = old.get(f"/j/{code}/").content.decode()
    assert "Another phone asks to play Bruno" in page
    assert f'name="device" value="{device_of(new).pk}"' in page  # the answer's form names the asking phone
    assert old.post(f"/j/{code}/seat/", {"action": "allow", "device": device_of(new).pk}).status_code == 302
    assert "You are Bruno" in new.get(f"/j/{code}/").content.decode()
    assert "You are Bruno" not in old.get(f"/j/{code}/").content.decode()


def test_a_phone_cannot_hand_over_a_seat_it_does_not_hold(table):
    _session, seats, code = table
    phone(code, seats[1])
    asking = phone(code, seats[1])
    bystander = phone(code, seats[2])
    response = bystander.post(f"/j/{code}/seat/", {"action": "allow", "device": device_of(asking).pk})
    assert response.status_code == 400
    assert device_of(asking).player_id is None


def test_a_seat_change_changes_the_etag_of_every_phone_and_the_host(member_client, table):
    session, seats, code = table
    watcher = phone(code)
    etag = watcher.get(f"/j/{code}/live/")["ETag"]
    host_etag = member_client.get(f"/s/{session.pk}/live/")["ETag"]
    revision = GameNight.objects.get(pk=session.night_id).live_revision
    phone(code, seats[1])
    assert GameNight.objects.get(pk=session.night_id).live_revision > revision
    assert watcher.get(f"/j/{code}/live/", HTTP_IF_NONE_MATCH=etag).status_code == 200
    assert member_client.get(f"/s/{session.pk}/live/", HTTP_IF_NONE_MATCH=host_etag).status_code == 200


def test_the_region_version_starts_with_the_session_version(table):
    session, _seats, code = table
    page = phone(code).get(f"/j/{code}/").content.decode()
    version = re.search(r'data-version="([^"]*)"', page).group(1)
    assert version.split(".")[0] == str(session.version)


def test_a_move_for_another_session_than_the_phones_is_refused_with_409(member_client, table, night, players):
    session, seats, code = table
    disc, kind = ask_for_offers(member_client, session)
    bruno = phone(code, seats[1])
    response = bruno.post(f"/j/{code}/act/", {"move": "offer", "session": "999999", "disc": disc, f"offer_{kind}": "1"})
    assert response.status_code == 409
    assert "This move was for a game that is no longer the table" in response.content.decode()
    assert not session.events.filter(type=tob.OFFER).exists()


def test_a_phone_with_a_bad_seat_gets_400_not_500(table):
    _session, _seats, code = table
    for value in ["", "abc", "999999", "9" * 30]:
        assert phone(code).post(f"/j/{code}/seat/", {"seat": value}).status_code == 400
    assert phone(code).post(f"/j/{code}/seat/", {"action": "nonsense"}).status_code == 400


def test_a_phone_previews_only_with_a_seat(table):
    _session, _seats, code = table
    assert phone(code).post(f"/j/{code}/preview/", {}).status_code in (404, 409)


def test_the_hosts_phones_panel_follows_every_seat_and_code_change_once_kept(member_client, table):
    session, seats, code = table
    panel = lambda: member_client.get(f"/s/{session.pk}/").content.decode()  # noqa: E731
    assert "Free Bruno's seat" not in panel()  # kept for this night revision
    phone(code, seats[1])
    assert "Free Bruno's seat" in panel()
    phone(code, seats[1])
    assert "Let this phone take it" in panel()
    member_client.post(f"/s/{session.pk}/phones/{seats[1]}/free/")
    assert "Free Bruno's seat" not in panel()
    member_client.post(f"/s/{session.pk}/code/", {"idempotency_key": "a" * 32})
    new_code = selectors.current_join_code(session)
    assert new_code is not None
    assert new_code.code != code
    assert new_code.code in panel()
