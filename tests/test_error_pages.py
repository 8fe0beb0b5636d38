"""The error pages wear the app's look and say what to do next, in the player's language."""

import pytest
from django.test import Client, RequestFactory
from django.utils import translation
from django.views.defaults import server_error


@pytest.mark.django_db
def test_a_missing_page_says_so_and_leads_back(client):
    answer = client.get("/no-such-page/")
    assert answer.status_code == 404
    page = answer.content.decode()
    assert "This page is not on the table" in page
    assert 'href="/join/"' in page
    assert 'class="skip-link"' in page  # the app's own page, not Django's plain one


@pytest.mark.django_db
def test_a_missing_page_speaks_italian(client):
    page = client.get("/no-such-page/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert '<html lang="it">' in page
    assert "This page is not on the table" not in page


def test_a_server_error_page_stands_on_its_own():
    with translation.override("en"):
        answer = server_error(RequestFactory().get("/"))
    page = answer.content.decode()
    assert answer.status_code == 500
    assert "Something went wrong on our side" in page
    assert "/static/css/app.css" in page


@pytest.mark.django_db
def test_a_form_sent_without_its_token_gets_the_apps_page():
    answer = Client(enforce_csrf_checks=True).post("/theme/", {"theme": "dark"})
    assert answer.status_code == 403
    assert "This form was too old to send" in answer.content.decode()
