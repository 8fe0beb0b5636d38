"""Staff who correct or delete a finished session in the admin see the statistics follow."""

import re
from html import unescape
from unittest import mock

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from sessions.models import PlayerRating
from tests.test_statistics_selectors import counted

pytestmark = pytest.mark.usefixtures("eager")

FIELD = re.compile(r"<(input)\b([^>]*)>()|<(select|textarea)\b([^>]*)>(.*?)</\4>", re.S)


@pytest.fixture
def staff(db):
    client = Client()
    client.force_login(User.objects.create_superuser("root", password="root-pass-123"))
    return client


def change_form(html):
    """The values the admin's change form would send, as a browser reads them."""
    data = {}
    for found in FIELD.findall(html):
        tag, attributes, inner = found[:3] if found[0] else found[3:]
        name = re.search(r'name="([^"]+)"', attributes)
        if name is None or 'type="submit"' in attributes:
            continue
        if tag == "select":
            chosen = re.search(r'<option value="([^"]*)"[^>]*selected', inner)
            data[name[1]] = unescape(chosen[1]) if chosen else ""
        elif tag == "textarea":
            data[name[1]] = unescape(inner)
        elif 'type="checkbox"' not in attributes or "checked" in attributes:
            value = re.search(r'value="([^"]*)"', attributes)
            data[name[1]] = unescape(value[1]) if value else ""
    return data


def best(player):
    return PlayerRating.objects.get(player=player, game="tower-of-babel").best


def test_a_result_corrected_in_the_admin_is_counted_once_committed(
    staff, night, players, django_capture_on_commit_callbacks
):
    ada = players[0]
    session = counted(night, players[:3], [30, 20, 10])
    assert best(ada) == 30
    url = reverse("admin:babel_gamesession_change", args=[session.pk])
    data = change_form(staff.get(url).content.decode())
    [score] = [key for key, value in data.items() if key.endswith("-score") and value == "30"]
    data[score] = "45"
    with django_capture_on_commit_callbacks(execute=True):
        assert staff.post(url, data).status_code == 302
    assert best(ada) == 45


def test_a_finished_session_cannot_be_deleted_in_the_admin_so_the_statistics_keep_it(staff, night, players):
    session = counted(night, players[:3], [30, 20, 10])
    url = reverse("admin:babel_gamesession_delete", args=[session.pk])
    assert staff.post(url, {"post": "yes"}).status_code == 403  # its log is append-only
    assert best(players[0]) == 30


def test_a_session_still_open_changed_in_the_admin_queues_no_rebuild(
    staff, session, django_capture_on_commit_callbacks
):
    url = reverse("admin:babel_gamesession_change", args=[session.pk])
    data = change_form(staff.get(url).content.decode())
    with (
        mock.patch("sessions.admin.enqueue_statistics_rebuild") as enqueue,
        django_capture_on_commit_callbacks(execute=True),
    ):
        assert staff.post(url, data).status_code == 302
    enqueue.assert_not_called()
