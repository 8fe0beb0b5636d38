"""The release (issue 43, point 3): pyproject.toml's version, named in every page's footer, by
the API (/api/v1/about/ and its schema) and in CHANGELOG.md."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from django.conf import settings

REPO = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.django_db


def test_the_release_is_pyprojects_version_and_the_changelog_names_it():
    version = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["version"]
    assert version == settings.VERSION
    changelog = (REPO / "CHANGELOG.md").read_text()
    assert f"## [{version}]" in changelog


def test_every_page_names_the_release_in_its_footer(client):
    page = client.get("/login/").content.decode()
    footer = page[page.index('<footer class="footer">') :]
    assert f"Babel Companion {settings.VERSION}" in footer


def test_the_api_says_which_release_it_is_to_anyone(client):
    answer = client.get("/api/v1/about/")
    assert answer.status_code == 200
    assert json.loads(answer.content) == {"name": "Babel Companion", "version": settings.VERSION}
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json")
    assert json.loads(schema.content)["info"]["version"] == settings.VERSION
