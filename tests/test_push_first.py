"""A move renders what the table's screens fetch next, once it is committed and before they
hear of it (issue 16, items 2 and 3): the members' region and the boards of the phones and
table displays of the version it made, in each view the screens showed lately (a language,
hints on or off) and the mover's own. The host's screen then gets a kept render, each seated
phone renders only its own part, and a display nothing; a screen in a view nobody showed yet
renders its own once. A render that fails costs the devices a render of their own, never the
move."""

from __future__ import annotations

import re
import time
from types import SimpleNamespace
from typing import Any
from unittest import mock

from django.test import Client
from rest_framework.test import APIClient

from sessions import live, push, regions
from sessions.api.tokens import create_api_token
from sessions.models import GameSession
from tests.conftest import client_for, started_tower

HTMX = {"HX-Request": "true", "HX-Target": "session"}
REGION = "sessions/_session.html"
BOARD = "boards/tower_of_babel/_board.html"


def _templates(answer: Any) -> list[str]:
    return [str(template.name) for template in answer.templates]


def _without_tokens(body: str) -> str:
    """A render without what each device gets of its own (its CSRF token, its forms' keys)."""
    return re.sub(r'(name="(csrfmiddlewaretoken|idempotency_key)" value=")[^"]*"', r"\1", body)


def _host_pass(client: Client, session: GameSession, captured: Any, **headers: str) -> None:
    """The host's pass from htmx, with what is done once it is committed (the test's
    transaction is never committed)."""
    session.refresh_from_db()
    with captured(execute=True):
        answer = client.post(
            f"/s/{session.pk}/play/pass/", {"expected_version": session.version}, headers={**HTMX, **headers}
        )
    assert answer.status_code == 204


def _seated(code: str, seat: str, **headers: str) -> Client:
    phone = Client(headers=headers)
    phone.post(f"/j/{code}/seat/", {"seat": seat})
    return phone


def test_the_hosts_fetch_after_its_move_gets_the_render_the_move_kept(
    owner, member, session, django_capture_on_commit_callbacks
):
    started_tower(session)
    host, url = client_for(owner), f"/s/{session.pk}/live/"
    _host_pass(host, session, django_capture_on_commit_callbacks)
    fetched = host.get(url, headers=HTMX)
    assert fetched.status_code == 200
    assert REGION not in _templates(fetched)  # rendered by the move, not by this fetch
    session.refresh_from_db()
    assert f'data-version="{session.version}.' in fetched.content.decode()
    second = client_for(member).get(url, headers=HTMX)
    assert REGION not in _templates(second)


def test_the_kept_region_is_the_one_a_fetch_would_render(owner, session, django_capture_on_commit_callbacks):
    started_tower(session)
    host, url = client_for(owner), f"/s/{session.pk}/live/"
    _host_pass(host, session, django_capture_on_commit_callbacks)
    kept = host.get(url, headers=HTMX)
    assert REGION not in _templates(kept)
    with mock.patch("sessions.live._kept_render", return_value=None):  # as if nothing were kept
        rendered = host.get(url, headers=HTMX)
    assert REGION in _templates(rendered)
    assert _without_tokens(kept.content.decode()) == _without_tokens(rendered.content.decode())


def test_a_seated_phone_renders_only_its_own_part_after_a_move(owner, session, django_capture_on_commit_callbacks):
    session, seats, code = started_tower(session)
    bruno = _seated(code, seats[1])
    _host_pass(client_for(owner), session, django_capture_on_commit_callbacks)
    fetched = bruno.get(f"/j/{code}/live/", HTTP_HX_REQUEST="true")
    assert fetched.status_code == 200
    assert BOARD not in _templates(fetched)  # the move rendered the board for every phone
    assert "boards/tower_of_babel/_phone.html" in _templates(fetched)  # Bruno's own part
    body = fetched.content.decode()
    assert "You are Bruno" in body
    assert 'data-testid="tob-board"' in body


def test_a_phones_move_keeps_the_hosts_region_and_the_other_phones_board(
    owner, session, django_capture_on_commit_callbacks
):
    session, seats, code = started_tower(session)
    ada, bruno = _seated(code, seats[0]), _seated(code, seats[1])
    with django_capture_on_commit_callbacks(execute=True):
        moved = ada.post(
            f"/j/{code}/act/", {"move": "pass", "session": session.pk, "expected_version": session.version}
        )
    assert moved.status_code == 302, moved.content.decode()[-3000:]
    session.refresh_from_db()
    assert session.events.last().type == "tob.pass"
    host = client_for(owner).get(f"/s/{session.pk}/live/", headers=HTMX)
    assert REGION not in _templates(host)
    assert f'data-version="{session.version}.' in host.content.decode()
    assert BOARD not in _templates(bruno.get(f"/j/{code}/live/", HTTP_HX_REQUEST="true"))


def test_a_screen_in_a_view_nobody_showed_yet_renders_its_own_once(owner, session, django_capture_on_commit_callbacks):
    started_tower(session)
    host, url = client_for(owner), f"/s/{session.pk}/live/"
    _host_pass(host, session, django_capture_on_commit_callbacks, **{"Accept-Language": "it"})
    fetched = host.get(url, headers=HTMX)  # in English: the move kept Italian alone
    assert REGION in _templates(fetched)
    assert "Points so far" in fetched.content.decode()
    # The next move, in Italian again, keeps the English region that this screen showed too.
    _host_pass(host, session, django_capture_on_commit_callbacks, **{"Accept-Language": "it"})
    fetched = host.get(url, headers=HTMX)
    assert REGION not in _templates(fetched)
    assert "Points so far" in fetched.content.decode()
    italian = host.get(url, headers={**HTMX, "Accept-Language": "it"})
    assert REGION not in _templates(italian)
    assert "Punti finora" in italian.content.decode()


def test_a_phone_in_its_own_language_gets_its_board_kept_by_the_hosts_move(
    owner, session, django_capture_on_commit_callbacks
):
    session, seats, code = started_tower(session)
    host = client_for(owner)
    bruno = _seated(code, seats[1], **{"Accept-Language": "it"})
    assert "Tocca a" in bruno.get(f"/j/{code}/live/", HTTP_HX_REQUEST="true").content.decode()
    _host_pass(host, session, django_capture_on_commit_callbacks)  # in English
    fetched = bruno.get(f"/j/{code}/live/", HTTP_HX_REQUEST="true")
    assert BOARD not in _templates(fetched)  # kept in Italian by the English move
    assert "Tocca a" in fetched.content.decode()


def test_a_phones_move_keeps_the_board_in_its_own_language_and_the_hosts_region_in_english(
    owner, session, django_capture_on_commit_callbacks
):
    session, seats, code = started_tower(session)
    host, url = client_for(owner), f"/s/{session.pk}/live/"
    ada = _seated(code, seats[0], **{"Accept-Language": "it"})
    chiara = _seated(code, seats[2], **{"Accept-Language": "it"})
    host.get(url, headers=HTMX)  # the host's screen showed English
    with django_capture_on_commit_callbacks(execute=True):
        moved = ada.post(
            f"/j/{code}/act/", {"move": "pass", "session": session.pk, "expected_version": session.version}
        )
    assert moved.status_code == 302
    fetched = chiara.get(f"/j/{code}/live/", HTTP_HX_REQUEST="true")
    assert BOARD not in _templates(fetched)
    assert "Tocca a" in fetched.content.decode()
    region = host.get(url, headers=HTMX)
    assert REGION not in _templates(region)
    assert "Points so far" in region.content.decode()


def test_a_table_display_gets_its_board_kept_once_it_showed_one(owner, session, django_capture_on_commit_callbacks):
    session, _seats, code = started_tower(session)
    display, url = Client(), f"/j/{code}/table/live/"
    assert BOARD in _templates(display.get(url, HTTP_HX_REQUEST="true"))
    _host_pass(client_for(owner), session, django_capture_on_commit_callbacks)
    fetched = display.get(url, HTTP_HX_REQUEST="true")
    assert fetched.status_code == 200
    assert BOARD not in _templates(fetched)
    session.refresh_from_db()
    assert f'data-version="{session.version}.' in fetched.content.decode()


def test_a_move_sent_through_the_api_keeps_what_the_tables_screens_show(
    owner, session, django_capture_on_commit_callbacks
):
    session, seats, code = started_tower(session)
    host, url = client_for(owner), f"/s/{session.pk}/live/"
    bruno = _seated(code, seats[1], **{"Accept-Language": "it"})
    host.get(url, headers=HTMX)
    bruno.get(f"/j/{code}/live/", HTTP_HX_REQUEST="true")
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {create_api_token(user=owner, name='tests')[1]}")
    with django_capture_on_commit_callbacks(execute=True):
        moved = api.post(
            f"/api/v1/sessions/{session.pk}/events/",
            {"type": "tob.pass", "expected_version": session.version, "payload": {}},
            format="json",
        )
    assert moved.status_code == 201, moved.content
    assert not moved.cookies  # the renders' CSRF token gave the API's answer no cookie
    assert REGION not in _templates(host.get(url, headers=HTMX))
    fetched = bruno.get(f"/j/{code}/live/", HTTP_HX_REQUEST="true")
    assert BOARD not in _templates(fetched)
    assert "Tocca a" in fetched.content.decode()


def test_a_view_nobody_rendered_for_ten_minutes_is_no_longer_kept(owner, session, django_capture_on_commit_callbacks):
    started_tower(session)
    host, url = client_for(owner), f"/s/{session.pk}/live/"
    host.get(url, headers={**HTMX, "Accept-Language": "it"})  # an Italian screen, once
    _host_pass(host, session, django_capture_on_commit_callbacks)
    assert REGION not in _templates(host.get(url, headers={**HTMX, "Accept-Language": "it"}))  # kept
    later = SimpleNamespace(time=lambda: time.time() + live.SEEN_SECONDS + 1)
    with mock.patch.object(live, "time", later):
        _host_pass(host, session, django_capture_on_commit_callbacks)
        italian = host.get(url, headers={**HTMX, "Accept-Language": "it"})
    assert REGION in _templates(italian)


def test_the_renders_are_kept_before_the_table_hears_of_the_move(owner, session, django_capture_on_commit_callbacks):
    started_tower(session)
    host = client_for(owner)
    heard: list[list[str]] = []

    def announce(**news: Any) -> None:  # what a device fetching on this news would get
        heard.append(_templates(host.get(f"/s/{session.pk}/live/", headers=HTMX)))

    with mock.patch.object(push, "announce", side_effect=announce):
        _host_pass(host, session, django_capture_on_commit_callbacks)
    assert heard == [[]]  # the kept render: no template rendered by the fetch


def test_a_render_that_fails_leaves_the_move_standing_and_announced(
    owner, session, django_capture_on_commit_callbacks, caplog
):
    started_tower(session)
    host, version = client_for(owner), session.version
    with (
        mock.patch.object(regions, "session_context", side_effect=RuntimeError("a broken template")),
        mock.patch.object(push, "announce") as announced,
    ):
        _host_pass(host, session, django_capture_on_commit_callbacks)
    session.refresh_from_db()
    assert session.version == version + 1
    announced.assert_called_once_with(night_id=session.night_id, session_id=session.pk, version=session.version)
    assert "ahead of its devices failed" in caplog.text
    fetched = host.get(f"/s/{session.pk}/live/", headers=HTMX)  # the screen renders it itself
    assert fetched.status_code == 200
    assert REGION in _templates(fetched)


def test_a_move_with_its_renders_costs_at_most_8_queries_on_a_table_in_play(
    owner, session, django_capture_on_commit_callbacks, django_assert_max_num_queries
):
    session, seats, code = started_tower(session)
    host, bruno = client_for(owner), _seated(code, seats[1])
    chiara = _seated(code, seats[2], **{"Accept-Language": "it"})  # the board is kept in two languages
    _host_pass(host, session, django_capture_on_commit_callbacks)  # the table's screens fetch: all is kept
    host.get(f"/s/{session.pk}/live/", headers=HTMX)
    bruno.get(f"/j/{code}/live/", HTTP_HX_REQUEST="true")
    chiara.get(f"/j/{code}/live/", HTTP_HX_REQUEST="true")
    # The move's own 8 (login 2, the session 1, the write 5): the renders read all they need
    # from the version before's, kept by the screens that showed it.
    session.refresh_from_db()
    with django_assert_max_num_queries(8), django_capture_on_commit_callbacks(execute=True):
        answer = host.post(f"/s/{session.pk}/play/pass/", {"expected_version": session.version}, headers=HTMX)
    assert answer.status_code == 204
