"""What search engines may list (issue 39, point 3's Lighthouse audit): the public pages (the
home page, joining, the rules) have a description and may be listed; a group's pages, its
games, its phones and its table display are marked noindex."""

import pytest
from django.test import Client

from tests.conftest import started_tower

DESCRIBED = '<meta name="description" content="Babel Companion guides the set-up'
NOINDEX = '<meta name="robots" content="noindex">'


@pytest.mark.parametrize("path", ["/", "/join/", "/rules/tower-of-babel/"])
def test_a_public_page_is_described_and_may_be_listed(client, db, path):
    page = client.get(path).content.decode()
    assert DESCRIBED in page
    assert NOINDEX not in page


def test_a_groups_pages_and_its_phones_are_not_listed(owner_client, session):
    session, _seats, code = started_tower(session)
    phone = Client()
    pages = [
        owner_client.get(f"/g/{session.group_id}/"),
        owner_client.get(f"/s/{session.pk}/"),
        phone.get(f"/j/{code}/"),
        phone.get(f"/j/{code}/table/"),
        Client().get("/join/", {"code": "WRONGCODE"}),
    ]
    for response in pages:
        page = response.content.decode()
        assert NOINDEX in page, response.request["PATH_INFO"]
        assert DESCRIBED in page
