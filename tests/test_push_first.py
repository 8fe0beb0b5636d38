"""A move's news leaves as soon as it is committed, with nothing rendered for it (issue 41,
point 2): each view is rendered by its first device to fetch the version and kept for the
others. The host's second screen then gets a kept render, a seated phone whose board another
phone rendered renders only its own part, and a move through the API renders no HTML at all."""

from __future__ import annotations

import re
from typing import Any
from unittest import mock

from django.test import Client
from rest_framework.test import APIClient

from sessions.api.tokens import create_api_token
from sessions.models import GameSession
from sessions.table import push
from tests.conftest import client_for, started_tower

HTMX = {"HX-Request": "true", "HX-Target": "session"}
REGION = "sessions/_session.html"
BOARD = "boards/tower_of_babel/_board.html"


def _templates(answer: Any) -> list[str]:
    return [str(template.name) for template in answer.templates]


def _host_pass(client: Client, session: GameSession, captured: Any, **headers: str) -> Any:
    """The host's pass from htmx, with what is done once it is committed (the test's
    transaction is never committed)."""
    session.refresh_from_db()
    with captured(execute=True):
        answer = client.post(
            f"/s/{session.pk}/play/pass/", {"expected_version": session.version}, headers={**HTMX, **headers}
        )
    assert answer.status_code == 204
    return answer


def _seated(code: str, seat: str, **headers: str) -> Client:
    phone = Client(headers=headers)
    phone.post(f"/j/{code}/seat/", {"seat": seat})
    return phone


def test_a_moves_news_leaves_once_committed_with_nothing_rendered_for_it(
    owner, session, django_capture_on_commit_callbacks
):
    started_tower(session)
    host = client_for(owner)
    with mock.patch.object(push, "announce") as announced:
        answer = _host_pass(host, session, django_capture_on_commit_callbacks)
    session.refresh_from_db()
    announced.assert_called_once_with(night_id=session.night_id, session_id=session.pk, version=session.version)
    assert _templates(answer) == []  # the move's answer (204) and its commit rendered nothing


def test_the_first_screen_renders_a_version_and_the_next_gets_it_kept(
    owner, member, session, django_capture_on_commit_callbacks
):
    started_tower(session)
    host, url = client_for(owner), f"/s/{session.pk}/live/"
    _host_pass(host, session, django_capture_on_commit_callbacks)
    first = host.get(url, headers=HTMX)
    assert REGION in _templates(first)
    second = client_for(member).get(url, headers=HTMX)
    assert _templates(second) == []  # kept by the first screen
    session.refresh_from_db()
    assert f'data-version="{session.version}.' in second.content.decode()


def test_a_seated_phone_renders_only_its_own_part_once_another_phone_rendered_the_board(
    owner, session, django_capture_on_commit_callbacks
):
    session, seats, code = started_tower(session)
    ada, bruno = _seated(code, seats[0]), _seated(code, seats[1])
    _host_pass(client_for(owner), session, django_capture_on_commit_callbacks)
    rendered = ada.get(f"/j/{code}/live/", HTTP_HX_REQUEST="true")
    assert BOARD in _templates(rendered)
    fetched = bruno.get(f"/j/{code}/live/", HTTP_HX_REQUEST="true")
    assert fetched.status_code == 200
    assert BOARD not in _templates(fetched)  # Ada's phone rendered the board for every phone
    assert "boards/tower_of_babel/_phone.html" in _templates(fetched)  # Bruno's own part
    body = fetched.content.decode()
    assert "You are Bruno" in body
    assert 'data-testid="tob-board"' in body
    tokens = set(re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', body))
    adas = set(re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', rendered.content.decode()))
    assert len(tokens) == 1  # its own token in every form
    assert tokens.isdisjoint(adas)  # not Ada's


def test_a_move_sent_through_the_api_renders_no_html(owner, session, django_capture_on_commit_callbacks):
    session, _seats, _code = started_tower(session)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {create_api_token(user=owner, name='test')[1]}")
    session.refresh_from_db()
    with mock.patch.object(push, "announce") as announced, django_capture_on_commit_callbacks(execute=True):
        answer = api.post(
            f"/api/v1/sessions/{session.pk}/events/",
            {"type": "tob.pass", "expected_version": session.version, "payload": {}},
            format="json",
        )
    assert answer.status_code == 201, answer.content
    assert _templates(answer) == []
    announced.assert_called_once()


def test_a_move_costs_at_most_8_queries_on_a_table_in_play(
    owner, session, django_capture_on_commit_callbacks, django_assert_max_num_queries
):
    session, seats, code = started_tower(session)
    host, bruno = client_for(owner), _seated(code, seats[1])
    _host_pass(host, session, django_capture_on_commit_callbacks)
    host.get(f"/s/{session.pk}/live/", headers=HTMX)
    bruno.get(f"/j/{code}/live/", HTTP_HX_REQUEST="true")
    # Login 2, the session 1, the write 5; nothing after the commit.
    session.refresh_from_db()
    with django_assert_max_num_queries(8), django_capture_on_commit_callbacks(execute=True):
        answer = host.post(f"/s/{session.pk}/play/pass/", {"expected_version": session.version}, headers=HTMX)
    assert answer.status_code == 204
