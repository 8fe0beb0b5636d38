"""The export links on the group page, the import pages, and the same through the API, with
the group's isolation: the owner exports everything, members the results, outsiders nothing."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from sessions.api.tokens import create_api_token
from sessions.importexport.export import group_document
from sessions.models import GameSession, Group, Membership
from tests.conftest import finish_with_scores


def api_for(user):
    client = APIClient()
    if user is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Token {create_api_token(user=user, name='tests')[1]}")
    return client


@pytest.fixture
def finished(session):
    finish_with_scores(session, [30, 25, 12])
    return session


@pytest.mark.parametrize(("who", "status"), [("owner_client", 200), ("member_client", 403), ("outsider_client", 404)])
def test_only_the_owner_downloads_the_whole_group(request, finished, who, status):
    response = request.getfixturevalue(who).get(f"/g/{finished.group_id}/export.json")
    assert response.status_code == status
    if status == 200:
        assert response["Content-Disposition"].startswith('attachment; filename="thursday-table-')
        downloaded = json.loads(b"".join(response.streaming_content))
        assert downloaded == json.loads(json.dumps(group_document(finished.group)))


@pytest.mark.parametrize(("who", "status"), [("owner_client", 200), ("member_client", 200), ("outsider_client", 404)])
def test_every_member_downloads_the_results(request, finished, who, status):
    response = request.getfixturevalue(who).get(f"/g/{finished.group_id}/results.csv")
    assert response.status_code == status
    if status == 200:
        assert response["Content-Type"] == "text/csv; charset=utf-8"
        lines = response.content.decode().splitlines()
        assert lines[0] == "date,place,session,game,finished_at,player,rank,score"
        assert len(lines) == 4


def test_the_group_page_links_the_downloads_by_role(owner_client, member_client, group):
    owner_page = owner_client.get(f"/g/{group.pk}/").content.decode()
    member_page = member_client.get(f"/g/{group.pk}/").content.decode()
    assert f"/g/{group.pk}/results.csv" in owner_page
    assert f"/g/{group.pk}/results.csv" in member_page
    assert f"/g/{group.pk}/export.json" in owner_page
    assert f"/g/{group.pk}/export.json" not in member_page
    assert f"/g/{group.pk}/import/bgstats/" not in member_page


def test_the_import_page_creates_a_group_owned_by_the_importer(finished, owner, outsider_client, outsider):
    exported = json.dumps(group_document(finished.group)).encode()
    upload = SimpleUploadedFile("group.json", exported, content_type="application/json")
    response = outsider_client.post("/groups/import/", {"file": upload})
    imported = Group.objects.get(memberships__user=outsider)
    assert response.status_code == 302
    assert response["Location"] == f"/g/{imported.pk}/"
    assert imported.sessions.get().results.count() == 3
    assert not Membership.objects.filter(group=imported, user=owner).exists()


def test_the_import_page_shows_what_is_wrong_with_the_file(outsider_client):
    upload = SimpleUploadedFile("group.json", b'{"format": "babel-companion/group", "version": 1}')
    response = outsider_client.post("/groups/import/", {"file": upload})
    assert response.status_code == 400
    assert "group: This field is required." in response.content.decode()
    not_json = outsider_client.post("/groups/import/", {"file": SimpleUploadedFile("x.json", b"\x00not json")})
    assert "This is not a JSON file." in not_json.content.decode()


def test_the_import_page_needs_an_account(client, db):
    assert client.get("/groups/import/").status_code == 302


@pytest.mark.parametrize(("who", "status"), [("owner", 200), ("member", 403), ("outsider", 404), (None, 401)])
def test_the_api_exports_the_group_to_its_owner_only(request, finished, who, status):
    user = request.getfixturevalue(who) if who else None
    response = api_for(user).get(f"/api/v1/groups/{finished.group_id}/export/")
    assert response.status_code == status
    if status == 200:
        assert response.json() == json.loads(json.dumps(group_document(finished.group)))


@pytest.mark.parametrize(("who", "status"), [("owner", 200), ("member", 200), ("outsider", 404), (None, 401)])
def test_the_api_gives_the_results_csv_to_members(request, finished, who, status):
    user = request.getfixturevalue(who) if who else None
    response = api_for(user).get(f"/api/v1/groups/{finished.group_id}/results.csv", HTTP_ACCEPT="text/csv")
    assert response.status_code == status
    if status == 200:
        assert response.content.decode().count("\r\n") == 4


def test_the_api_imports_an_export_into_a_new_group(finished, outsider):
    client = api_for(outsider)
    response = client.post("/api/v1/groups/import/", group_document(finished.group), format="json")
    assert response.status_code == 201
    assert response.json()["role"] == "owner"
    assert GameSession.objects.get(group_id=response.json()["id"]).status == "finished"


def test_the_api_refuses_a_broken_export_with_the_uniform_400(finished, outsider):
    document = group_document(finished.group)
    document["sessions"][0]["results"][0]["rank"] = 3
    response = api_for(outsider).post("/api/v1/groups/import/", document, format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "sessions[0].results"
    assert not Group.objects.filter(memberships__user__username="otto").exists()


def test_the_api_import_needs_credentials(db):
    assert api_for(None).post("/api/v1/groups/import/", {}, format="json").status_code == 401


def test_the_api_takes_a_large_export_as_a_file_upload(finished, outsider, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000  # the body limit a large group's JSON would pass
    document = group_document(finished.group)
    client = api_for(outsider)
    client.raise_request_exception = False
    assert client.post("/api/v1/groups/import/", document, format="json").status_code == 400
    upload = SimpleUploadedFile("group.json", json.dumps(document).encode(), content_type="application/json")
    response = client.post("/api/v1/groups/import/", {"file": upload}, format="multipart")
    assert response.status_code == 201
    assert GameSession.objects.filter(group_id=response.json()["id"]).count() == 1


def test_a_file_upload_that_is_not_json_answers_the_uniform_400(outsider, db):
    upload = SimpleUploadedFile("group.json", b"not json")
    response = api_for(outsider).post("/api/v1/groups/import/", {"file": upload}, format="multipart")
    assert response.status_code == 400
    assert response.json()["errors"] == [
        {"field": "file", "rule": None, "code": "invalid", "message": "This is not a JSON file."}
    ]
