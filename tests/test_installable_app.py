"""The installable app: its manifest, its service worker's script and its offline page, and a
log-out that leaves nothing of the account on the device."""

from __future__ import annotations

import json

import pytest
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.templatetags.static import static
from django.test import Client

from sessions.views import pwa


def test_the_manifest_names_the_app_and_gives_installable_icons(client: Client) -> None:
    answer = client.get("/manifest.webmanifest")
    assert answer.status_code == 200
    assert answer["Content-Type"] == "application/manifest+json"
    manifest = json.loads(answer.content)
    assert manifest["name"] == "Babel Companion"
    assert manifest["start_url"] == "/"
    assert manifest["scope"] == "/"
    assert manifest["display"] == "standalone"
    sizes = {icon["sizes"] for icon in manifest["icons"] if icon["type"] == "image/png"}
    assert {"192x192", "512x512"} <= sizes  # what browsers ask of an installable app
    assert any(icon.get("purpose") == "maskable" for icon in manifest["icons"])
    for icon in manifest["icons"]:
        assert finders.find(icon["src"].removeprefix("/static/")), icon["src"]


def test_a_guests_manifest_starts_at_their_seats_page(client: Client) -> None:
    manifest = json.loads(client.get("/j/BRICK7/manifest.webmanifest").content)
    assert manifest["start_url"] == "/j/BRICK7/"
    assert manifest["scope"] == "/"


def test_the_manifest_speaks_the_readers_language(client: Client) -> None:
    client.cookies["django_language"] = "it"
    manifest = json.loads(client.get("/manifest.webmanifest").content)
    assert manifest["description"].startswith("Preparazione")


@pytest.mark.django_db
def test_every_page_links_the_manifest_and_registers_the_worker(client: Client) -> None:
    page = client.get("/join/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert 'data-service-worker="/sw.js"' in page
    assert 'id="offline-panel" hidden' in page


def test_the_worker_is_served_from_the_root_and_always_asked_again(client: Client) -> None:
    answer = client.get("/sw.js")
    assert answer.status_code == 200
    assert answer["Content-Type"] == "text/javascript"
    assert "no-cache" in answer["Cache-Control"]  # a new release is found at the next visit
    script = answer.content.decode()
    assert f'var RELEASE = "{pwa.release()}", OFFLINE_PAGE = "/offline/"' in script
    assert "{ url: OFFLINE_PAGE, revision: RELEASE }" in script
    for path in pwa.SHELL + pwa.WORKBOX:
        assert f'"/static/{path}"' in script
    assert "&quot;" not in script  # a script, not escaped HTML
    assert "&#x27;" not in script


def test_the_worker_is_served_with_the_hashed_static_names_of_production(settings, tmp_path) -> None:
    """Production serves static files under hashed names from collectstatic's manifest (the
    tests' storage does not hash them)."""
    settings.STATIC_ROOT = tmp_path
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.ManifestStaticFilesStorage"},
    }
    call_command("collectstatic", interactive=False, verbosity=0)
    answer = Client().get("/sw.js")
    assert answer.status_code == 200
    script = answer.content.decode()
    assert 'STATIC = "/static/"' in script
    hashed = static(pwa.SHELL[0])
    assert hashed != f"/static/{pwa.SHELL[0]}"  # a hashed name
    assert f'"{hashed}"' in script


def test_a_new_release_names_another_worker(settings, tmp_path) -> None:
    before = pwa.release()
    changed = tmp_path / "css"
    changed.mkdir()
    (changed / "app.css").write_text("body { color: red }")
    settings.STATICFILES_DIRS = [tmp_path, *settings.STATICFILES_DIRS]  # the first found wins
    assert pwa.release() != before


@pytest.mark.django_db
def test_the_offline_page_says_what_works_without_a_connection(client: Client) -> None:
    page = client.get("/offline/").content.decode()
    assert "<h1>Offline</h1>" in page
    assert "wait on this device and are sent when the connection is back" in page


@pytest.mark.django_db
def test_logging_out_empties_the_devices_copies(owner_client: Client) -> None:
    answer = owner_client.post("/logout/")
    assert answer.status_code == 302
    assert answer["Clear-Site-Data"] == '"cache", "storage"'
