"""Owner, member, outsider and visitor on every group-scoped page and action."""

import pytest

from sessions import services
from sessions.models import Membership


@pytest.fixture
def urls(group, night, session, players, member):
    code = services.create_join_code(session=session)
    member_ship = Membership.objects.get(group=group, user=member)
    return [
        ("get", f"/g/{group.pk}/"),
        ("get", f"/g/{group.pk}/log/"),
        ("get", f"/g/{group.pk}/members/"),
        ("post", f"/g/{group.pk}/players/"),
        ("post", f"/g/{group.pk}/nights/"),
        ("post", f"/g/{group.pk}/members/{member_ship.pk}/remove/"),
        ("get", f"/p/{players[0].pk}/rename/"),
        ("get", f"/n/{night.pk}/"),
        ("get", f"/n/{night.pk}/sessions/new/"),
        ("get", f"/s/{session.pk}/"),
        ("get", f"/s/{session.pk}/live/"),
        ("post", f"/s/{session.pk}/scores/"),
        ("post", f"/s/{session.pk}/places/"),
        ("post", f"/s/{session.pk}/do/start/"),
        ("post", f"/s/{session.pk}/code/"),
        ("post", f"/s/{session.pk}/code/{code.pk}/revoke/"),
        ("get", f"/s/{session.pk}/code/qr.svg"),
    ]


def test_an_outsider_gets_not_found_everywhere_and_changes_nothing(outsider_client, urls, session):
    for method, url in urls:
        assert getattr(outsider_client, method)(url).status_code == 404, url
    session.refresh_from_db()
    assert session.version == 0


def test_a_visitor_is_sent_to_log_in_everywhere(client, urls):
    for method, url in urls:
        response = getattr(client, method)(url)
        assert response.status_code == 302, url
        assert response["Location"].startswith("/login/"), url


@pytest.mark.parametrize("who", ["owner", "member"])
def test_owner_and_member_reach_every_page(request, who, urls):
    client = request.getfixturevalue(f"{who}_client")
    for method, url in urls:
        if method == "get":
            assert client.get(url).status_code == 200, url
