"""After a change, a view is rendered once and kept for every device that shows the same thing
(issue 16, items 2 and 3): the other devices get it from the cache, each with its own CSRF
token and its own idempotency keys, and a seated phone's render (its seat's secrets) is never
another device's."""

from __future__ import annotations

import re
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from unittest import mock

import pytest
from django.test import Client

from sessions import caching
from sessions.table.tickets import TICKET_HEADER
from sessions.views import play
from tests.conftest import advance, client_for, started_tower

KEYS = re.compile(r'name="idempotency_key" value="([0-9a-f]{32})"')


def _region(client: Client, url: str) -> str:
    answer = client.get(url, HTTP_HX_REQUEST="true")
    assert answer.status_code == 200
    return answer.content.decode()


def test_a_second_member_gets_the_kept_render_and_can_send_its_forms(
    owner, member, session, django_assert_max_num_queries
):
    started_tower(session)
    url = f"/s/{session.pk}/live/"
    host = client_for(owner)
    rendered = _region(host, url)
    second = Client(enforce_csrf_checks=True)
    second.force_login(member)
    second.get(f"/s/{session.pk}/")  # its CSRF cookie, as a browser has it from the page
    with django_assert_max_num_queries(4):  # its Django session, account, the version row, membership
        kept = _region(second, url)
    assert re.sub(r'value="[^"]*"', "", kept) == re.sub(r'value="[^"]*"', "", rendered)
    assert set(KEYS.findall(kept)).isdisjoint(KEYS.findall(rendered))
    assert len(set(KEYS.findall(kept))) == len(KEYS.findall(kept))  # a key of its own in each form
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', kept)
    assert token is not None
    session.refresh_from_db()
    sent = second.post(
        f"/s/{session.pk}/play/pass/", {"expected_version": session.version, "csrfmiddlewaretoken": token[1]}
    )
    assert sent.status_code == 302  # accepted: the token put in is this device's


def test_a_change_is_rendered_anew_never_served_from_the_older_render(owner, member, session):
    started_tower(session)
    url = f"/s/{session.pk}/live/"
    before = _region(client_for(owner), url)
    advance(session, "tob.pass")
    after = _region(client_for(member), url)
    assert f'data-version="{session.version}.' in after
    assert f'data-version="{session.version}.' not in before


def test_a_seated_phone_never_gets_another_phones_render(session):
    session, seats, code = started_tower(session)
    ada, bruno = Client(), Client()
    ada.post(f"/j/{code}/seat/", {"seat": seats[0]})
    bruno.post(f"/j/{code}/seat/", {"seat": seats[1]})
    assert "You are Ada" in _region(ada, f"/j/{code}/live/")
    page = _region(bruno, f"/j/{code}/live/")
    assert "You are Bruno" in page
    assert "You are Ada" not in page


def test_a_seated_phones_region_is_neither_looked_for_nor_kept_in_the_cache(session):
    """Its ETag names its device (its seat's secrets): no other device could use it, so the
    cache is not asked for it nor given it (issue 41, point 3: two round trips a fetch)."""
    session, seats, code = started_tower(session)
    ada = Client()
    ada.post(f"/j/{code}/seat/", {"seat": seats[0]})
    asked: list[str] = []
    get, add = caching.get, caching.add

    def noted_get(key: str) -> Any:
        asked.append(key)
        return get(key)

    def noted_add(key: str, value: Any, *, timeout: int) -> None:
        asked.append(key)
        add(key, value, timeout=timeout)

    with mock.patch.object(caching, "get", noted_get), mock.patch.object(caching, "add", noted_add):
        first = ada.get(f"/j/{code}/live/", HTTP_HX_REQUEST="true")
        again = ada.get(f"/j/{code}/live/", headers={"HX-Request": "true", TICKET_HEADER: first[TICKET_HEADER]})
    assert first.status_code == again.status_code == 200
    assert asked  # the board, the phones of the seats, ...
    assert not [key for key in asked if key.startswith("live-render:")]


def test_a_watching_phone_gets_another_watchers_render(session, django_assert_max_num_queries):
    session, _seats, code = started_tower(session)
    first, second = Client(), Client()
    for phone in (first, second):
        phone.get(f"/j/{code}/")
    rendered = _region(first, f"/j/{code}/live/")
    with django_assert_max_num_queries(2):  # its Django session, its device and the night's sessions
        kept = _region(second, f"/j/{code}/live/")
    assert 'data-testid="standings"' in kept
    assert re.sub(r'value="[^"]*"', "", kept) == re.sub(r'value="[^"]*"', "", rendered)


def test_seated_phones_share_one_render_of_the_board_and_keep_their_own_seat(session):
    session, seats, code = started_tower(session)
    ada, bruno = Client(), Client()
    ada.post(f"/j/{code}/seat/", {"seat": seats[0]})
    bruno.post(f"/j/{code}/seat/", {"seat": seats[1]})
    board = "boards/tower_of_babel/_board.html"
    first = ada.get(f"/j/{code}/live/", HTTP_HX_REQUEST="true")
    second = bruno.get(f"/j/{code}/live/", HTTP_HX_REQUEST="true")
    assert board in [template.name for template in first.templates]
    assert board not in [template.name for template in second.templates]  # Ada's render of it
    adas, brunos = first.content.decode(), second.content.decode()
    assert "You are Bruno" in brunos
    assert "You are Ada" not in brunos
    shown = re.compile(r'<div class="tob" data-testid="tob-board">.*?</section>', re.S)
    assert shown.search(brunos)[0] == shown.search(adas)[0]
    advance(session, "tob.pass")  # a new version: its board is rendered again
    third = bruno.get(f"/j/{code}/live/", HTTP_HX_REQUEST="true")
    assert board in [template.name for template in third.templates]


@pytest.mark.django_db(transaction=True)
def test_members_fetching_a_new_version_at_once_wait_for_one_render(owner, member, session):
    """Issue 41, point 2: nothing is rendered ahead of the devices any more; those of a view that
    ask at once for a version nobody has rendered share the first one's render (in a process)."""
    started_tower(session)
    url = f"/s/{session.pk}/live/"
    screens = [client_for(owner), client_for(member)]
    renders: list[int] = []
    render_region = play.render_region

    def slow_render(*args: Any, **kwargs: Any) -> Any:
        renders.append(1)
        time.sleep(0.5)  # long enough for the second screen to ask while it is under way
        return render_region(*args, **kwargs)

    with mock.patch.object(play, "render_region", slow_render), ThreadPoolExecutor(max_workers=2) as fetches:
        answers = list(fetches.map(lambda screen: _region(screen, url), screens))
    assert len(renders) == 1
    assert all(f'data-version="{session.version}.' in answer for answer in answers)
    tokens = [re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', answer) for answer in answers]
    assert tokens[0]
    assert tokens[1]
    assert tokens[0][1] != tokens[1][1]  # each with its own CSRF token
