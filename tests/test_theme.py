"""The theme switch: light or dark as chosen, else as the device; it works without JavaScript."""

import pytest


@pytest.mark.django_db
def test_a_page_follows_the_device_until_a_theme_is_chosen(client):
    page = client.get("/").content.decode()
    assert '<html lang="en">' in page
    assert '<meta name="color-scheme" content="light dark">' in page
    assert 'role="switch" name="theme" value="dark"' in page


@pytest.mark.django_db
def test_it_remembers_the_dark_theme_and_goes_back_to_the_page(client):
    answer = client.post("/theme/", {"theme": "dark", "next": "/join/"})
    assert answer.status_code == 302
    assert answer["Location"] == "/join/"
    assert answer.cookies["theme"].value == "dark"
    page = client.get("/join/").content.decode()
    assert 'data-theme="dark"' in page
    assert '<meta name="color-scheme" content="dark">' in page
    assert 'name="theme" value="light"' in page  # the switch now turns it off
    assert 'aria-checked="true"' in page


@pytest.mark.django_db
def test_it_goes_back_to_following_the_device(client):
    client.post("/theme/", {"theme": "light", "next": "/"})
    answer = client.post("/theme/", {"theme": "", "next": "/"})
    assert answer.cookies["theme"].value == ""  # deleted
    assert '<html lang="en">' in client.get("/").content.decode()


@pytest.mark.django_db
def test_it_ignores_an_unknown_theme_and_a_next_page_on_another_site(client):
    answer = client.post("/theme/", {"theme": "neon", "next": "https://example.com/"})
    assert answer["Location"] == "/"
    client.cookies["theme"] = "neon"
    assert '<html lang="en">' in client.get("/").content.decode()


@pytest.mark.django_db
def test_the_switch_needs_the_csrf_token(client):
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    assert strict.post("/theme/", {"theme": "dark"}).status_code == 403
