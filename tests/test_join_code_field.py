"""The join-code field takes the code as the host's screen shows it, whatever the phone's keyboard does."""

import re

from django.conf import settings
from django.test import Client

from sessions import services


def code_input(page: str) -> str:
    found = re.search(r'<input[^>]*name="code"[^>]*>', page)
    assert found, "no join-code field on the page"
    return found.group(0)


def test_the_join_code_field_keeps_the_keyboard_from_changing_the_code(db):
    field = code_input(Client().get("/join/").content.decode())
    for attribute in [
        'autocapitalize="characters"',
        'autocomplete="off"',
        'autocorrect="off"',
        'spellcheck="false"',
        'inputmode="text"',
        'class="join-code"',
    ]:
        assert attribute in field


def test_the_home_page_join_field_is_the_same_field(member_client):
    field = code_input(member_client.get("/").content.decode())
    assert 'autocapitalize="characters"' in field
    assert 'spellcheck="false"' in field


def test_the_join_code_shows_in_capitals_as_it_is_typed():
    css = (settings.BASE_DIR / "static" / "css" / "app.css").read_text()
    assert re.search(r"\.join-code\s*\{[^}]*text-transform:\s*uppercase", css)


def test_a_code_typed_in_lower_case_with_spaces_around_it_joins(session):
    code = services.create_join_code(session=session).code
    response = Client().post("/join/", {"code": f"  {code.lower()}  "})
    assert response.status_code == 302
    assert response["Location"] == f"/j/{code}/"


def test_a_code_in_lower_case_in_the_address_joins(session):
    code = services.create_join_code(session=session).code
    response = Client().get("/join/", {"code": f" {code.lower()} "})
    assert response["Location"] == f"/j/{code}/"


def test_a_wrong_code_in_lower_case_is_still_refused(session):
    services.create_join_code(session=session)
    response = Client().post("/join/", {"code": "zzzzzzzz"})
    assert response.status_code == 404
    assert "This code does not work" in response.content.decode()
