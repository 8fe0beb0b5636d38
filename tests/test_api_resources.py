"""The group resources of the API: groups, players, nights, sessions, results.

Every endpoint answers the group's owner and members, and a 404 to an outsider (as the
pages do, so ids do not leak) or a 401 to a caller without credentials.
"""

import datetime

import pytest
from rest_framework.test import APIClient

from sessions import services
from sessions.api.tokens import create_api_token
from sessions.models import GameNight, GameSession, Player, WriteReceipt


def api_for(user):
    client = APIClient()
    if user is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Token {create_api_token(user=user, name='tests')[1]}")
    return client


def finish(session, scores):
    payload = {"scores": {seat.key: score for seat, score in zip(session.seats.all(), scores, strict=True)}}
    services.append_event(
        session_id=session.pk, expected_version=session.version, type="scores.record", payload=payload
    )
    services.append_event(session_id=session.pk, expected_version=session.version + 1, type="session.finish")
    session.refresh_from_db()
    return session


@pytest.fixture
def finished(session):
    return finish(session, [30, 25, 30])


READS = [
    "/api/v1/groups/{group}/",
    "/api/v1/groups/{group}/players/",
    "/api/v1/groups/{group}/nights/",
    "/api/v1/players/{player}/",
    "/api/v1/nights/{night}/",
    "/api/v1/sessions/{session}/",
    "/api/v1/sessions/{session}/events/",
]
WRITES = [
    ("/api/v1/groups/{group}/players/", {"name": "Eve"}),
    ("/api/v1/groups/{group}/nights/", {"date": "2026-11-20", "place": "Bruno's"}),
    ("/api/v1/nights/{night}/sessions/", {"game": "babel-on", "players": ["{player}", "{player2}"]}),
]
LISTS = ["/api/v1/groups/", "/api/v1/sessions/", "/api/v1/results/"]


def urls(template, finished, players):
    ids = {
        "group": finished.group_id,
        "night": finished.night_id,
        "session": finished.pk,
        "player": players[0].pk,
        "player2": players[1].pk,
    }
    return template.format(**ids)


def body_for(body, finished, players):
    if "players" not in body:
        return body
    return {**body, "players": [int(urls(p, finished, players)) for p in body["players"]]}


@pytest.mark.parametrize("template", READS)
@pytest.mark.parametrize(("who", "status"), [("owner", 200), ("member", 200), ("outsider", 404), ("nobody", 401)])
def test_every_resource_is_readable_by_its_group_only(request, finished, players, template, who, status):
    user = None if who == "nobody" else request.getfixturevalue(who)
    assert api_for(user).get(urls(template, finished, players)).status_code == status


@pytest.mark.parametrize(("template", "body"), WRITES)
@pytest.mark.parametrize(("who", "status"), [("owner", 201), ("member", 201), ("outsider", 404), ("nobody", 401)])
def test_every_write_is_open_to_the_group_only(request, finished, players, template, body, who, status):
    user = None if who == "nobody" else request.getfixturevalue(who)
    counts = (Player.objects.count(), GameNight.objects.count(), GameSession.objects.count())
    response = api_for(user).post(urls(template, finished, players), body_for(body, finished, players), format="json")
    assert response.status_code == status
    after = (Player.objects.count(), GameNight.objects.count(), GameSession.objects.count())
    assert (after != counts) is (status == 201)


@pytest.mark.parametrize(("who", "status"), [("owner", 200), ("member", 200), ("outsider", 404), ("nobody", 401)])
def test_renaming_a_player_is_open_to_the_group_only(request, players, who, status):
    user = None if who == "nobody" else request.getfixturevalue(who)
    response = api_for(user).patch(f"/api/v1/players/{players[0].pk}/", {"name": "Adele"}, format="json")
    assert response.status_code == status
    players[0].refresh_from_db()
    assert (players[0].name == "Adele") is (status == 200)


@pytest.mark.parametrize("template", LISTS)
@pytest.mark.parametrize(("who", "count"), [("owner", 1), ("member", 1), ("outsider", 0)])
def test_the_lists_hold_only_the_callers_groups(request, finished, template, who, count):
    response = api_for(request.getfixturevalue(who)).get(template)
    assert response.status_code == 200
    rows = response.json()["results"]
    groups = {row["id"] if template == "/api/v1/groups/" else row["group"] for row in rows}
    assert groups == ({finished.group_id} if count else set())


@pytest.mark.parametrize("template", LISTS)
def test_the_lists_need_credentials(template):
    assert api_for(None).get(template).status_code == 401


def test_filtering_by_another_groups_id_finds_nothing(outsider, finished):
    services.create_group(owner=outsider, name="Elsewhere")
    client = api_for(outsider)
    assert client.get("/api/v1/sessions/", {"group": finished.group_id}).json()["results"] == []
    assert client.get("/api/v1/results/", {"group": finished.group_id}).json()["results"] == []


def test_the_group_says_the_callers_role(owner, member, group):
    assert api_for(owner).get(f"/api/v1/groups/{group.pk}/").json()["role"] == "owner"
    assert api_for(member).get(f"/api/v1/groups/{group.pk}/").json() == {
        "id": group.pk,
        "name": "Thursday table",
        "created_at": group.created_at.isoformat().replace("+00:00", "Z"),
        "role": "member",
    }


def test_a_group_created_through_the_api_is_owned_by_the_caller(outsider):
    response = api_for(outsider).post("/api/v1/groups/", {"name": "Sunday table"}, format="json")
    assert response.status_code == 201
    assert response.json()["role"] == "owner"
    assert api_for(outsider).get(f"/api/v1/groups/{response.json()['id']}/").status_code == 200


def test_creating_a_player_goes_through_the_service_rules(member, group, players):
    response = api_for(member).post(f"/api/v1/groups/{group.pk}/players/", {"name": " ada "}, format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "name"
    assert Player.objects.filter(group=group).count() == 4


def test_a_repeated_idempotency_key_creates_one_player(member, group):
    client = api_for(member)
    url = f"/api/v1/groups/{group.pk}/players/"
    first = client.post(url, {"name": "Eve"}, format="json", HTTP_IDEMPOTENCY_KEY="k1")
    second = client.post(url, {"name": "Eve"}, format="json", HTTP_IDEMPOTENCY_KEY="k1")
    assert (first.status_code, second.status_code) == (201, 201)
    assert first.json() == second.json()
    assert Player.objects.filter(name="Eve").count() == 1
    assert WriteReceipt.objects.count() == 1


def test_a_night_defaults_to_today(member, group):
    response = api_for(member).post(f"/api/v1/groups/{group.pk}/nights/", {}, format="json")
    assert response.status_code == 201
    assert response.json()["date"] == datetime.date.today().isoformat()


def test_a_session_is_created_with_the_games_player_count_checked(member, night, players):
    client = api_for(member)
    url = f"/api/v1/nights/{night.pk}/sessions/"
    ok = client.post(
        url, {"game": "tower-of-babel", "players": [p.pk for p in players[:3]], "colours": ["red"]}, format="json"
    )
    assert ok.status_code == 201
    assert ok.json()["status"] == "setup"
    assert [seat["name"] for seat in ok.json()["seats"]] == ["Ada", "Bruno", "Chiara"]
    assert ok.json()["seats"][0]["colour"] == "red"
    too_few = client.post(url, {"game": "tower-of-babel", "players": [players[0].pk]}, format="json")
    assert too_few.status_code == 400
    assert too_few.json()["errors"][0] == {
        "field": "seats",
        "rule": "TB-1",
        "code": "rule",
        "message": "Tower of Babel is played by 3 to 5 players. (rule TB-1)",
    }


def test_a_session_cannot_seat_another_groups_player(member, outsider, night, players):
    stranger_group = services.create_group(owner=outsider, name="Elsewhere")
    stranger = services.create_player(group=stranger_group, name="Zed")
    response = api_for(member).post(
        f"/api/v1/nights/{night.pk}/sessions/",
        {"game": "babel-on", "players": [players[0].pk, stranger.pk]},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "players[1]"
    assert not GameSession.objects.exists()


def test_an_unknown_game_answers_400_naming_the_field(member, night, players):
    response = api_for(member).post(
        f"/api/v1/nights/{night.pk}/sessions/", {"game": "chess", "players": [players[0].pk]}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "game"


@pytest.fixture
def history(group, players, finished):
    """Three more sessions: one later night with a finished 7 Wonders and an open Babel On!."""
    later = services.create_night(group=group, date=datetime.date(2026, 12, 3), place="Bruno's")
    wonders = services.create_session(night=later, game="seven-wonders", players=players[1:4], secret="1")
    finish(wonders, [50, 61, 47])
    services.create_session(night=later, game="babel-on", players=players[:2], secret="2")
    return later


def ids(response):
    assert response.status_code == 200, response.json()
    return [row["id"] for row in response.json()["results"]]


def test_sessions_filter_by_game_player_night_status_and_dates(member, history, finished, players):
    client = api_for(member)
    everything = ids(client.get("/api/v1/sessions/"))
    assert len(everything) == 3
    wonders = GameSession.objects.get(game="seven-wonders").pk
    open_one = GameSession.objects.get(game="babel-on").pk
    assert ids(client.get("/api/v1/sessions/", {"game": "seven-wonders"})) == [wonders]
    assert set(ids(client.get("/api/v1/sessions/", {"player": players[0].pk}))) == {finished.pk, open_one}
    assert set(ids(client.get("/api/v1/sessions/", {"night": history.pk}))) == {wonders, open_one}
    assert ids(client.get("/api/v1/sessions/", {"status": "setup"})) == [open_one]
    assert ids(client.get("/api/v1/sessions/", {"date_to": "2026-11-30"})) == [finished.pk]
    assert set(ids(client.get("/api/v1/sessions/", {"date_from": "2026-12-01"}))) == {wonders, open_one}


def test_results_filter_by_game_player_rank_and_dates(member, history, finished, players):
    client = api_for(member)
    response = client.get("/api/v1/results/", {"player": players[2].pk})
    rows = response.json()["results"]
    assert [(row["game"], row["score"], row["rank"], row["name"]) for row in rows] == [
        ("seven-wonders", 61, 1, "Chiara"),
        ("tower-of-babel", 30, 1, "Chiara"),
    ]
    wins = client.get("/api/v1/results/", {"rank": 1, "game": "tower-of-babel"}).json()["results"]
    assert sorted(row["name"] for row in wins) == ["Ada", "Chiara"]
    assert len(client.get("/api/v1/results/", {"date_from": "2026-12-01"}).json()["results"]) == 3
    assert len(client.get("/api/v1/results/", {"session": finished.pk}).json()["results"]) == 3


def test_a_malformed_filter_answers_400_naming_it(member, finished):
    client = api_for(member)
    response = client.get("/api/v1/sessions/", {"date_from": "yesterday"})
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "date_from"
    backwards = client.get("/api/v1/results/", {"date_from": "2026-12-01", "date_to": "2026-11-01"})
    assert backwards.status_code == 400
    assert backwards.json()["errors"][0]["field"] == "date_to"
    assert client.get("/api/v1/sessions/", {"status": "won"}).json()["errors"][0]["field"] == "status"


def test_nights_filter_by_date(member, group, history, night):
    client = api_for(member)
    assert ids(client.get(f"/api/v1/groups/{group.pk}/nights/")) == [history.pk, night.pk]
    assert ids(client.get(f"/api/v1/groups/{group.pk}/nights/", {"date_to": "2026-11-30"})) == [night.pk]


def test_lists_are_paginated(member, group):
    for index in range(7):
        services.create_player(group=group, name=f"P{index}")
    client = api_for(member)
    first = client.get(f"/api/v1/groups/{group.pk}/players/", {"page_size": 5}).json()
    assert first["count"] == 7
    assert len(first["results"]) == 5
    assert first["next"] is not None
    assert first["previous"] is None
    second = client.get(first["next"]).json()
    assert [row["name"] for row in second["results"]] == ["P5", "P6"]
    assert second["next"] is None


def test_a_page_past_the_end_answers_404(member, group):
    assert api_for(member).get(f"/api/v1/groups/{group.pk}/players/", {"page": 9}).status_code == 404


def add_finished_sessions(group, players, count):
    night = services.create_night(group=group, date=datetime.date(2026, 10, 1))
    for index in range(count):
        finish(
            services.create_session(night=night, game="babel-on", players=players[:2], secret=f"{index:x}"), [index, 5]
        )


@pytest.mark.parametrize("url", ["/api/v1/sessions/", "/api/v1/results/", "/api/v1/groups/{group}/nights/"])
def test_the_lists_read_in_the_same_few_queries_at_two_sizes(
    member, group, players, url, django_assert_max_num_queries
):
    client = api_for(member)
    url = url.format(group=group.pk)
    add_finished_sessions(group, players, 3)
    with django_assert_max_num_queries(7):
        small = client.get(url).json()
    add_finished_sessions(group, players, 40)
    with django_assert_max_num_queries(7):
        large = client.get(url).json()
    assert len(large["results"]) > len(small["results"])


def test_the_session_list_keeps_the_state_out(member, history, finished):
    rows = api_for(member).get("/api/v1/sessions/").json()["results"]
    assert "state" not in rows[0]
    assert {row["id"]: len(row["results"]) for row in rows}[finished.pk] == 3


def test_the_browser_session_works_for_the_api(member_client, finished):
    assert member_client.get("/api/v1/sessions/").status_code == 200
    assert member_client.get(f"/api/v1/sessions/{finished.pk}/").status_code == 200


def test_a_browser_write_through_the_api_needs_the_csrf_token(member, group):
    from django.test import Client

    browser = Client(enforce_csrf_checks=True)
    browser.force_login(member)
    url = f"/api/v1/groups/{group.pk}/players/"
    refused = browser.post(url, {"name": "Eve"}, content_type="application/json")
    assert refused.status_code == 403
    assert not Player.objects.filter(name="Eve").exists()
    browser.get(f"/g/{group.pk}/")  # any page sets the CSRF cookie
    token = browser.cookies["csrftoken"].value
    accepted = browser.post(url, {"name": "Eve"}, content_type="application/json", HTTP_X_CSRFTOKEN=token)
    assert accepted.status_code == 201


@pytest.mark.parametrize(
    ("url", "field"),
    [
        ("/api/v1/sessions/?player=118593275759", "player"),
        ("/api/v1/results/?group=8332073194125856073580544", "group"),
    ],
)
def test_an_id_too_large_for_the_database_is_a_400_not_a_crash(member, url, field):
    response = api_for(member).get(url)
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == field


def test_seating_an_id_too_large_for_the_database_is_a_400(member, night):
    body = {"game": "babel-cubes", "players": [118593275759, 72]}
    response = api_for(member).post(f"/api/v1/nights/{night.pk}/sessions/", body, format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"].startswith("players")
