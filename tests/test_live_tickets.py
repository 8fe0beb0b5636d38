"""A live fetch's ticket (issue 16, item 3): a device that sends back the ticket of its last
fetch is answered without a query while its night is unchanged (the versions come from the
cache, which every write updates), and only ever with what it was
shown when it was checked in full: never with another browser's cookie, another path, after
TICKET_SECONDS, or after a seat, a code or a game of its night changed."""

from __future__ import annotations

import copy
import datetime
import time
from dataclasses import dataclass
from typing import Any
from unittest import mock

from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client
from django.utils import timezone

from scoring.tower_of_babel import engine as tob
from sessions import caching, selectors, services
from sessions.models import GameNight, GameSession, GuestDevice
from sessions.table import keys
from sessions.table.tickets import TICKET_HEADER, TICKET_SECONDS
from tests.conftest import advance, client_for, started_tower


def _fetch(client: Client, url: str, ticket: str = "", etag: str = "") -> Any:
    headers = {"HX-Request": "true", TICKET_HEADER: ticket}
    if etag:
        headers["If-None-Match"] = etag
    return client.get(url, headers=headers)


@dataclass
class PassedOnce:
    """A table after a pass: the host's screen and Bruno's phone, each holding the ticket of its
    fetch before the pass."""

    session: GameSession
    host: Client
    host_url: str
    host_ticket: str
    phone: Client
    phone_url: str
    phone_ticket: str


def _passed_once(owner: User, session: GameSession) -> PassedOnce:
    session, seats, code = started_tower(session)
    host, host_url = client_for(owner), f"/s/{session.pk}/live/"
    phone, phone_url = _seated(code, seats[1]), f"/j/{code}/live/"
    host_ticket, phone_ticket = _fetch(host, host_url)[TICKET_HEADER], _fetch(phone, phone_url)[TICKET_HEADER]
    advance(session, tob.PASS)
    return PassedOnce(session, host, host_url, host_ticket, phone, phone_url, phone_ticket)


def _seated(code: str, seat: str) -> Client:
    """A phone that joined with ``code`` and took ``seat``."""
    phone = Client()
    phone.post(f"/j/{code}/seat/", {"seat": seat})
    return phone


def test_a_host_fetch_with_its_ticket_is_answered_304_without_a_query(owner, session, django_assert_num_queries):
    started_tower(session)
    host, url = client_for(owner), f"/s/{session.pk}/live/"
    first = _fetch(host, url)
    assert first.status_code == 200
    with django_assert_num_queries(0):  # the session's version and its night's revision: cached
        again = _fetch(host, url, first[TICKET_HEADER], first["ETag"])
    assert again.status_code == 304
    assert again[TICKET_HEADER] == first[TICKET_HEADER]


def test_a_phone_fetch_after_a_change_gets_the_kept_render_without_a_query(session, django_assert_num_queries):
    session, _seats, code = started_tower(session)
    watching, another = Client(), Client()
    url = f"/j/{code}/live/"
    tickets = {}
    for phone in (watching, another):
        phone.get(f"/j/{code}/")
        tickets[phone] = _fetch(phone, url)[TICKET_HEADER]
    advance(session, tob.PASS)
    rendered = _fetch(watching, url, tickets[watching])  # the first of its view renders it
    assert rendered.status_code == 200
    with django_assert_num_queries(0):  # the version the pass wrote to the cache
        kept = _fetch(another, url, tickets[another])
    assert kept.status_code == 200
    assert f'data-version="{session.version}.' in kept.content.decode()


def test_versions_the_cache_lost_are_read_again_in_one_query(owner, session, django_assert_num_queries):
    started_tower(session)
    host, url = client_for(owner), f"/s/{session.pk}/live/"
    first = _fetch(host, url)
    cache.clear()
    with django_assert_num_queries(1):
        assert _fetch(host, url, first[TICKET_HEADER], first["ETag"]).status_code == 304
    with django_assert_num_queries(0):  # read once, kept again
        assert _fetch(host, url, first[TICKET_HEADER], first["ETag"]).status_code == 304
    advance(session, tob.PASS)  # written to the cache: never a 304 on the older version
    again = _fetch(host, url, first[TICKET_HEADER], first["ETag"])
    assert again.status_code == 200
    assert f'data-version="{session.version}.' in again.content.decode()


def test_a_ticket_works_only_with_the_cookie_it_was_given_with(session):
    session, seats, code = started_tower(session)
    ada, bruno = _seated(code, seats[0]), _seated(code, seats[1])
    url = f"/j/{code}/live/"
    adas = _fetch(ada, url)
    assert "You are Ada" in adas.content.decode()
    taken = _fetch(bruno, url, adas[TICKET_HEADER], adas["ETag"])
    assert taken.status_code == 200
    assert "You are Bruno" in taken.content.decode()
    assert "You are Ada" not in taken.content.decode()
    stranger = _fetch(Client(), url, adas[TICKET_HEADER], adas["ETag"])  # no cookie: it joins anew
    assert "You are Ada" not in stranger.content.decode()


def test_a_ticket_works_only_on_its_own_path(owner, session, night, players):
    started_tower(session)
    other = services.create_session(night=night, game="tower-of-babel", players=players[:3])
    host = client_for(owner)
    first = _fetch(host, f"/s/{session.pk}/live/")
    elsewhere = _fetch(host, f"/s/{other.pk}/live/", first[TICKET_HEADER], first["ETag"])
    assert elsewhere.status_code == 200
    assert f'data-session="{other.pk}"' in elsewhere.content.decode()
    assert elsewhere[TICKET_HEADER] != first[TICKET_HEADER]


def test_a_ticket_older_than_its_lifetime_is_checked_in_full(owner, session):
    started_tower(session)
    host, url = client_for(owner), f"/s/{session.pk}/live/"
    first = _fetch(host, url)
    later = time.time() + TICKET_SECONDS + 1
    with mock.patch("django.core.signing.time.time", return_value=later):
        again = _fetch(host, url, first[TICKET_HEADER], first["ETag"])
    assert again.status_code == 304
    assert again[TICKET_HEADER] != first[TICKET_HEADER]  # a new one, from the full check


def test_a_tampered_ticket_is_checked_in_full(owner, outsider, session):
    started_tower(session)
    url = f"/s/{session.pk}/live/"
    first = _fetch(client_for(owner), url)
    forged = first[TICKET_HEADER][:-3] + "abc"
    assert _fetch(client_for(owner), url, forged, first["ETag"])[TICKET_HEADER] != forged
    outsider_answer = _fetch(client_for(outsider), url, first[TICKET_HEADER], first["ETag"])
    assert outsider_answer.status_code == 404


def test_a_freed_seat_ends_what_the_phones_ticket_shows(session):
    session, seats, code = started_tower(session)
    ada = _seated(code, seats[0])
    url = f"/j/{code}/live/"
    first = _fetch(ada, url)
    assert "You are Ada" in first.content.decode()
    services.free_seat(night=session.night, player_id=int(seats[0]))  # the host gives it to another phone
    after = _fetch(ada, url, first[TICKET_HEADER], first["ETag"])
    assert after.status_code == 200
    assert "You are Ada" not in after.content.decode()


def test_a_new_game_and_a_finished_one_change_the_night_for_its_phones(session, night, players):
    session, _seats, _code = started_tower(session)
    revision = GameNight.objects.get(pk=night.pk).live_revision
    other = services.create_session(night=night, game="tower-of-babel", players=players[:3])
    assert GameNight.objects.get(pk=night.pk).live_revision == revision + 1
    advance(session, tob.PASS)  # a move within a game: the night is unchanged
    assert GameNight.objects.get(pk=night.pk).live_revision == revision + 1
    advance(other, "session.abandon")
    assert GameSession.objects.get(pk=other.pk).status == "abandoned"
    assert GameNight.objects.get(pk=night.pk).live_revision == revision + 2


def test_a_seated_phone_with_its_ticket_gets_a_new_version_rendered_for_its_own_seat(
    session, django_assert_max_num_queries
):
    session, seats, code = started_tower(session)
    ada, bruno = _seated(code, seats[0]), _seated(code, seats[1])
    url = f"/j/{code}/live/"
    tickets = {phone: _fetch(phone, url)[TICKET_HEADER] for phone in (ada, bruno)}
    advance(session, tob.PASS)
    in_full = _fetch(ada, url)  # without its ticket: the night's devices searched
    with django_assert_max_num_queries(1):  # the device its ticket names (the rest the night read)
        rendered = _fetch(bruno, url, tickets[bruno])
    assert rendered.status_code == 200
    assert "You are Bruno" in rendered.content.decode()
    assert "You are Ada" in in_full.content.decode()
    assert f'data-version="{session.version}.' in rendered.content.decode()


def test_a_ticket_naming_a_device_the_host_removed_is_checked_in_full(session):
    session, seats, code = started_tower(session)
    ada = _seated(code, seats[0])
    url = f"/j/{code}/live/"
    first = _fetch(ada, url)
    GuestDevice.objects.filter(night=session.night).delete()  # gone without the night changing
    advance(session, tob.PASS)
    after = _fetch(ada, url, first[TICKET_HEADER])
    assert "You are Ada" not in after.content.decode()


def test_a_phone_is_marked_seen_when_checked_in_full_at_most_once_a_minute(session):
    session, seats, code = started_tower(session)
    ada = _seated(code, seats[0])
    long_ago = timezone.now() - datetime.timedelta(minutes=5)
    GuestDevice.objects.update(last_seen=long_ago)
    url = f"/j/{code}/live/"
    first = _fetch(ada, url)  # checked in full: seen now
    seen = GuestDevice.objects.get().last_seen
    assert seen > long_ago
    advance(session, tob.PASS)
    _fetch(ada, url, first[TICKET_HEADER])  # on its ticket: nothing written
    _fetch(ada, url)  # in full again within the minute: nothing written either
    assert GuestDevice.objects.get().last_seen == seen


def test_a_members_ticket_gets_a_new_version_rendered_without_checking_the_member_again(
    owner, session, django_assert_max_num_queries
):
    started_tower(session)
    host, url = client_for(owner), f"/s/{session.pk}/live/"
    first = _fetch(host, url)  # checked in full: 9 queries
    advance(session, tob.PASS)
    # The session, its seats and its latest events: no account, membership, version or Django
    # session read, and the phones panel is read once a night revision, not after every move.
    with django_assert_max_num_queries(3):
        again = _fetch(host, url, first[TICKET_HEADER], first["ETag"])
    assert again.status_code == 200
    assert f'data-version="{session.version}.' in again.content.decode()


def test_the_host_and_the_phones_read_a_new_version_of_the_session_once_for_all(
    owner, session, django_assert_max_num_queries
):
    table = _passed_once(owner, session)
    assert _fetch(table.phone, table.phone_url, table.phone_ticket).status_code == 200  # reads the new version
    with django_assert_max_num_queries(1):  # its latest events: the session and its seats are the phone's copy
        again = _fetch(table.host, table.host_url, table.host_ticket)
    assert f'data-version="{table.session.version}.' in again.content.decode()
    assert "Ada passed" in again.content.decode()


def test_the_first_screen_of_a_version_a_move_made_reads_nothing_of_it_from_the_database(
    owner, session, django_assert_num_queries, django_capture_on_commit_callbacks
):
    """The move keeps what it changed and its event once committed; the screen builds the new
    version from the version before's copy (its seats and night read a moment ago)."""
    session, seats, code = started_tower(session)
    host, url = client_for(owner), f"/s/{session.pk}/live/"
    ticket = _fetch(host, url)[TICKET_HEADER]
    advance(session, tob.PASS)
    _fetch(host, url, ticket)  # this version read from the database, with its seats and night
    with django_capture_on_commit_callbacks(execute=True):
        advance(session, tob.PASS)
    with django_assert_num_queries(0):
        again = _fetch(host, url, ticket)
    page = again.content.decode()
    assert f'data-version="{session.version}.' in page
    assert "Bruno passed" in page
    phone = _seated(code, seats[1])  # its own render of the same version: the session kept
    assert "Bruno passed" in _fetch(phone, f"/j/{code}/live/").content.decode()


def test_a_version_is_built_from_the_one_before_only_while_that_one_was_read_lately(
    owner, session, django_capture_on_commit_callbacks
):
    """A player renamed meanwhile shows within SHOWN_SESSION_SECONDS, as when each version was
    read anew: a copy read longer ago is not carried on."""
    session, _seats, _code = started_tower(session)
    host, url = client_for(owner), f"/s/{session.pk}/live/"
    ticket = _fetch(host, url)[TICKET_HEADER]
    advance(session, tob.PASS)
    _fetch(host, url, ticket)  # this version read from the database
    services.rename_player(player=session.seats.first().player, name="Adelina")
    later = time.time() + keys.SHOWN_SESSION_SECONDS + 1
    with django_capture_on_commit_callbacks(execute=True):
        advance(session, tob.PASS)
    assert "Adelina" not in _fetch(host, url, ticket).content.decode()  # built from the copy
    with django_capture_on_commit_callbacks(execute=True):
        advance(session, tob.PASS)
    with mock.patch("sessions.selectors.time.time", return_value=later):
        again = _fetch(host, url, ticket).content.decode()
    assert "Adelina" in again  # read again


def test_a_members_ticket_ends_with_the_log_out(owner, session):
    started_tower(session)
    host, url = client_for(owner), f"/s/{session.pk}/live/"
    first = _fetch(host, url)
    host.post("/logout/")
    advance(session, tob.PASS)
    after = _fetch(host, url, first[TICKET_HEADER])
    assert after.status_code == 302
    assert "/login/" in after["Location"]


def test_the_other_screens_of_a_version_in_the_same_process_read_no_session_from_the_cache(owner, session):
    """Each process keeps the newest version it showed of a session: its other screens of that
    version copy it (unpickling it from the cache took 0.2 ms of each fetch)."""
    table = _passed_once(owner, session)
    assert _fetch(table.host, table.host_url, table.host_ticket).status_code == 200  # the first screen of the version
    with mock.patch.object(caching, "get_many", wraps=caching.get_many) as asked:
        page = _fetch(table.phone, table.phone_url, table.phone_ticket).content.decode()
    assert not [keys for (keys,), _ in asked.call_args_list if any("shown-session" in key for key in keys)]
    assert f'data-version="{table.session.version}.' in page
    assert "You are Bruno" in page


def test_a_screen_that_changes_its_copy_of_a_kept_session_changes_no_other_screens_copy(session):
    session, _seats, _code = started_tower(session)
    first = selectors.kept_session(session.pk, session.version)
    assert first is not None
    as_read = copy.deepcopy(first.state)
    first.state["game"]["to_move"] = "nobody"
    first.state.clear()
    first.status = "changed"
    again = selectors.kept_session(session.pk, session.version)
    assert again is not None
    assert again.state == as_read
    assert again.status == session.status


def test_a_screen_of_an_older_version_does_not_push_out_the_newer_one(session):
    session, _seats, _code = started_tower(session)
    older = session.version
    assert selectors.kept_session(session.pk, older) is not None
    advance(session, tob.PASS)
    newer = selectors.kept_session(session.pk, session.version)
    assert newer is not None
    assert selectors.kept_session(session.pk, older) is not None  # read from the cache
    with mock.patch.object(caching, "get_many") as asked:
        again = selectors.kept_session(session.pk, session.version)
    asked.assert_not_called()
    assert again is not None
    assert again.version == session.version
    assert again.state == newer.state


def test_a_phone_rendering_a_new_version_on_its_ticket_asks_the_cache_once_for_the_night_and_never_for_its_render(
    session,
):
    session, seats, code = started_tower(session)
    phone = _seated(code, seats[1])
    ticket = _fetch(phone, f"/j/{code}/live/")[TICKET_HEADER]
    advance(session, tob.PASS)
    with (
        mock.patch.object(caching, "get", wraps=caching.get) as got,
        mock.patch.object(caching, "get_many", wraps=caching.get_many) as got_many,
    ):
        page = _fetch(phone, f"/j/{code}/live/", ticket).content.decode()
    asked = [key for (key,), _ in got.call_args_list]
    asked += [key for (keys,), _ in got_many.call_args_list for key in keys]
    assert not [key for key in asked if key.startswith("live-render:")]  # a seated phone's: never kept
    assert len([key for key in asked if key.startswith("night-revision-of-session:")]) == 1  # the ticket's check
    assert f'data-version="{session.version}.' in page
