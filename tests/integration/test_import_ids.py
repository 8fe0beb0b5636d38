"""On PostgreSQL, where ids come from sequences: importing a file whose player has the largest
id the API takes moves no sequence, so every player created afterwards, in any group, keeps an
id the API accepts (issue 15, item 1)."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import User
from django.db import connection
from rest_framework.test import APIClient

from sessions import services
from sessions.api.filters import MAX_ID
from sessions.importexport.export import group_document
from sessions.importexport.importer import import_group
from sessions.models import Player

pytestmark = pytest.mark.integration


def player_sequence() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_get_serial_sequence(%s, 'id')", [Player._meta.db_table])
        name = cursor.fetchone()[0]
        cursor.execute(f"SELECT last_value FROM {name}")  # a name PostgreSQL gave
        return int(cursor.fetchone()[0])


def test_an_import_leaves_the_player_sequence_alone(postgres_service: None, db: None) -> None:
    owner = User.objects.create_user("ines")
    group = services.create_group(owner=owner, name="Mine")
    night = services.create_night(group=group, date=datetime.date(2026, 11, 5))
    people = [services.create_player(group=group, name=name) for name in ["Ada", "Bruno", "Chiara"]]
    session = services.create_session(night=night, game="tower-of-babel", players=people, secret="1")
    keys = [str(p.pk) for p in people]
    services.append_event(
        session_id=session.pk, expected_version=0, type="scores.record", payload={"scores": dict.fromkeys(keys, 5)}
    )
    services.append_event(session_id=session.pk, expected_version=1, type="session.finish")
    document = group_document(group)
    # As another instance wrote it: none of its ids is taken here, the largest is the API's limit.
    new = {p["id"]: MAX_ID - index for index, p in enumerate(document["players"])}
    for player in document["players"]:
        player["id"] = new[player["id"]]
    for row in document["sessions"][0]["seats"] + document["sessions"][0]["results"]:
        row["player"] = new[row["player"]]
    for event in document["sessions"][0]["events"]:
        if "scores" in event["payload"]:
            event["payload"]["scores"] = {str(new[int(k)]): v for k, v in event["payload"]["scores"].items()}
    before = player_sequence()
    imported = import_group(owner=User.objects.create_user("otto"), document=document)
    assert MAX_ID not in set(imported.players.values_list("pk", flat=True))
    assert player_sequence() == before + 3  # three new players, nothing more
    later = services.create_player(group=group, name="Later")
    assert later.pk < MAX_ID
    client = APIClient()
    client.force_authenticate(user=owner)
    assert client.get(f"/api/v1/sessions/?player={later.pk}").status_code == 200
    mine = imported.sessions.get()
    assert [r.score for r in mine.results.order_by("score")] == [5, 5, 5]
