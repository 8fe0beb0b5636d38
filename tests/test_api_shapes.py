"""The JSON inside the API's JSON is typed in the published schema (issue 42, point 6): every
event type a variant of EventIn and EventOut with its payload, the session's state, options
and breakdowns, the group export; and what the API answers fits it. Each game's own shapes
are checked against games played whole in ``test_api_shapes_<game>.py``."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command

from scoring import session as core
from scoring.errors import RuleError
from sessions import services
from sessions.api.shapes import all_event_payloads, component_name
from sessions.games import GAMES
from sessions.importexport.export import group_document
from sessions.models import GameSession, Group
from tests.conftest import advance
from tests.shapes import problems, published
from tests.test_api_sessions import api_for


def schemas() -> dict:
    return published()["components"]["schemas"]


@pytest.fixture
def demo_group(db) -> Group:
    call_command("load_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    return Group.objects.get()


def test_every_event_type_of_every_game_is_a_variant_of_event_in_and_event_out():
    for component, suffix in (("EventIn", "Event"), ("EventOut", "EventOut")):
        mapping = schemas()[component]["discriminator"]["mapping"]
        for slug, game in GAMES.items():
            assert game.rules.event_types() <= set(mapping), slug
        assert set(mapping) == set(all_event_payloads())
        for kind, target in mapping.items():
            variant = schemas()[target.rsplit("/", 1)[-1]]
            assert variant["properties"]["type"]["enum"] == [kind]
            assert target.endswith(f"/{component_name(kind)}{suffix}")


def test_every_payload_says_what_its_event_does():
    for kind in all_event_payloads():
        assert len(schemas()[f"{component_name(kind)}Payload"].get("description", "")) > 20, kind


def test_an_event_of_a_type_no_game_has_or_with_a_payload_of_another_shape_does_not_fit():
    assert problems({"type": "tob.fly", "payload": {}, "expected_version": 0}, "EventIn")
    assert problems({"type": "scores.record", "payload": {}, "expected_version": 0}, "EventIn")
    assert problems({"type": "scores.record", "payload": {"scores": {"1": "7"}}, "expected_version": 0}, "EventIn")
    assert not problems({"type": "scores.record", "payload": {"scores": {"1": 7}}, "expected_version": 0}, "EventIn")


def test_what_the_api_answers_of_every_demo_session_fits_its_published_shapes(demo_group, owner):
    client = api_for(demo_group.memberships.get().user)
    for session in GameSession.objects.all():
        answer = client.get(f"/api/v1/sessions/{session.pk}/").json()
        assert problems(answer, "SessionOut") == [], session.game
        listed = client.get(f"/api/v1/sessions/{session.pk}/events/").json()
        assert listed["events"]
        assert problems(listed, "EventsOut") == [], session.game
    results = client.get(f"/api/v1/results/?group={demo_group.pk}").json()
    assert results["results"]
    assert problems(results, "PaginatedResultRowOutList") == []
    sessions = client.get("/api/v1/sessions/").json()
    assert problems(sessions, "PaginatedSessionSummaryOutList") == []


def test_a_move_answered_fits_event_created_out(owner, session):
    advance(session, core.START)
    session.refresh_from_db()
    seats = [str(seat.player_id) for seat in session.seats.all()]
    body = {"type": "scores.record", "payload": {"scores": dict.fromkeys(seats, 9)}, "expected_version": 1}
    assert problems(body, "EventIn") == []
    answer = api_for(owner).post(f"/api/v1/sessions/{session.pk}/events/", body, format="json")
    assert answer.status_code == 201
    assert problems(answer.json(), "EventCreatedOut") == []


def test_the_group_export_fits_its_published_shape_finished_and_sealed_sessions_alike(demo_group, night, players):
    open_session = services.create_session(night=night, game="tower-of-babel", players=players[:3])
    advance(open_session, core.START)
    document = json.loads(json.dumps(group_document(demo_group)))
    assert problems(document, "GroupExport") == []
    sealed = json.loads(json.dumps(group_document(night.group)))
    assert [s for s in sealed["sessions"] if "sealed" in s]
    assert problems(sealed, "GroupExport") == []
    assert problems({**document, "format": "bgstats"}, "GroupExport")
    assert problems(document, "GroupExportImport") == []
    assert problems(sealed, "GroupExportImport") == []


def test_the_export_answers_a_group_export_and_the_import_takes_one_back():
    paths = published()["paths"]
    export = paths["/api/v1/groups/{group_id}/export/"]["get"]["responses"]["200"]["content"]["application/json"]
    assert export["schema"] == {"$ref": "#/components/schemas/GroupExport"}
    body = paths["/api/v1/groups/import/"]["post"]["requestBody"]["content"]["application/json"]
    assert body["schema"] == {"$ref": "#/components/schemas/GroupExportImport"}


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_a_new_sessions_options_fit_its_games_options_and_an_option_of_no_game_is_refused_by_both(
    slug, owner, night, players
):
    game = GAMES[slug]
    count = max(game.min_players, 2)
    body = {"game": slug, "players": [p.pk for p in players[:count]], "options": {}}
    assert problems(body, "SessionIn") == []
    answer = api_for(owner).post(f"/api/v1/nights/{night.pk}/sessions/", body, format="json")
    assert answer.status_code == 201, answer.json()
    assert problems(answer.json()["options"], f"{component_name(slug)}Options") == []
    strange = {**body, "options": {"fly": True}}
    assert problems(strange, "SessionIn")
    assert api_for(owner).post(f"/api/v1/nights/{night.pk}/sessions/", strange, format="json").status_code == 400


@pytest.mark.parametrize("value", [{}, [], ["adjacent"], True, 1, None])
def test_an_option_given_a_value_of_another_json_type_is_refused_naming_it(value, owner, night, players):
    body = {"game": "babel-cubes", "players": [p.pk for p in players[:2]], "options": {"type3": value}}
    answer = api_for(owner).post(f"/api/v1/nights/{night.pk}/sessions/", body, format="json")
    if value is None:  # null: the option's default, as if left out
        assert problems(body, "SessionIn") == []
        assert answer.status_code == 201
        return
    assert problems(body, "SessionIn")
    assert answer.status_code == 400
    assert answer.json()["errors"][0]["field"] == "options.type3"


@pytest.mark.parametrize(
    ("path", "value"),
    [(("group", "name"), 0), (("players", 0, "name"), 7), (("version",), "2"), (("players", 0, "id"), "1")],
)
def test_an_import_refuses_a_value_of_another_type_than_its_schema_names(demo_group, path, value):
    from sessions.importexport.importer import checked_document

    document = json.loads(json.dumps(group_document(demo_group)))
    holder = document
    for step in path[:-1]:
        holder = holder[step]
    holder[path[-1]] = value
    assert problems(document, "GroupExportImport")
    with pytest.raises(RuleError):
        checked_document(document)
