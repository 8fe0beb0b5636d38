"""Staff use the Django admin; the event log stays append-only there."""

import pytest
from django.contrib.auth.models import User
from django.test import Client

PAGES = [
    "group",
    "player",
    "gamenight",
    "gamesession",
    "sessionevent",
    "playerrating",
    "gamestatistics",
    "plainresult",
    "joincode",
]


@pytest.fixture
def staff(db):
    client = Client()
    client.force_login(User.objects.create_superuser("staff", password="staff-pass-123"))
    return client


@pytest.mark.parametrize("model", PAGES)
def test_staff_can_open_every_list(staff, session, model):
    assert staff.get(f"/admin/babel/{model}/").status_code == 200


def test_members_are_sent_to_the_admin_login(member_client):
    response = member_client.get("/admin/babel/group/")
    assert response.status_code == 302
    assert "/admin/login/" in response["Location"]


def test_staff_cannot_change_or_delete_an_event(staff, session):
    from sessions import services

    services.append_event(session_id=session.pk, expected_version=0, type="session.start")
    event = session.events.get()
    assert staff.get(f"/admin/babel/sessionevent/{event.pk}/delete/").status_code == 403
    assert staff.post(f"/admin/babel/sessionevent/{event.pk}/change/", {"type": "x"}).status_code == 403
