"""Tile 22 on Great Project penalties: "les effets des tuiles 19 et 22 s'appliquent
également aux jetons Conflits des Grands Projets" (seed 002): a penalty's defeat tokens are
doubled while tile 22 is visible (SW-7, SW-10), from the card data and a group's corrections."""

import datetime

from scoring.seven_wonders import engine as sw
from scoring.seven_wonders.data import data, project
from scoring.seven_wonders.projects import Participant, resolve
from sessions import services
from tests.conftest import advance, play

AGE_ONE = [card["slug"] for card in data()["projects"]["value"] if card["age"] == 1]
# A group whose cards show a penalty of one defeat token (the fan data lists none).
ONE_DEFEAT = {"projects": {"cranes": {"penalty_defeat_tokens": 1}}}


def test_sw_10_tile_22_doubles_the_defeat_tokens_of_a_great_project_penalty():
    players = [Participant("a", 1), Participant("b", 0), Participant("c", 0, can_suffer_penalty=False)]
    _success, plain = resolve("cranes", players, markers_left=1, age=1, corrections=ONE_DEFEAT)
    _success, with_22 = resolve("cranes", players, markers_left=1, age=1, tiles=[3, 22], corrections=ONE_DEFEAT)
    assert [(o.outcome, o.defeat_tokens) for o in plain] == [("none", 0), ("penalty", 1), ("penalty_token", 0)]
    assert [(o.outcome, o.defeat_tokens) for o in with_22] == [("none", 0), ("penalty", 2), ("penalty_token", 0)]
    assert data()["tile_22_defeat_tokens"]["value"] == 2  # the tile's own effect, in the card data
    assert project("cranes")["penalty_defeat_tokens"] == 0  # the fan data: no defeat tokens


def test_sw_10_a_session_applies_tile_22_to_the_penalty_of_its_corrected_card(member_client, group, players):
    corrections = {"projects": {slug: {"penalty_defeat_tokens": 1} for slug in AGE_ONE}}
    services.set_edition_table(group=group, game="seven-wonders", overrides=corrections)
    night = services.create_night(group=group, date=datetime.date(2026, 11, 22))
    session = services.create_session(
        night=night, game="seven-wonders", players=players[:3], options={"great_projects": True}, secret="4"
    )
    advance(session, "session.start")
    seats = [seat.key for seat in session.seats.all()]
    held = {seats[0]: [1, 5, 22], seats[1]: [2, 19, 24], seats[2]: [3, 7, 11]}
    advance(session, sw.DRAFT_RECORD, tiles=held)
    advance(session, sw.BUILD_TILES, tiles={seats[0]: 22})
    advance(session, sw.PARTICIPATE, seat=seats[0])
    assert play(member_client, session, "end-age").status_code == 302
    session.refresh_from_db()
    outcomes = {o["seat"]: (o["outcome"], o["defeat_tokens"]) for o in session.state["game"]["resolved"][0]["outcomes"]}
    assert outcomes == {seats[0]: ("none", 0), seats[1]: ("penalty", 2), seats[2]: ("penalty", 2)}
    assert "Bruno penalty (2 defeat tokens)" in member_client.get(f"/s/{session.pk}/").content.decode()


def test_sw_10_the_owner_corrects_the_defeat_tokens_of_a_penalty(owner_client, group):
    url = f"/g/{group.pk}/tables/seven-wonders/"
    assert 'name="project.cranes.penalty_defeat_tokens"' in owner_client.get(url).content.decode()
    assert owner_client.post(url, {"project.cranes.penalty_defeat_tokens": "1"}).status_code == 302
    group.refresh_from_db()
    assert group.edition_tables["seven-wonders"] == ONE_DEFEAT
    response = owner_client.post(url, {"project.cranes.penalty_defeat_tokens": "11"})
    assert response.status_code == 400
    assert "SW-10" in response.content.decode()


def test_sw_10_tomyris_takes_no_defeat_token_from_a_great_project_penalty():
    """Seed 002: "Si Tomyris doit prendre des jetons Défaite suite aux pénalités des Grands
    Projets, elle n'en prend pas"."""
    players = [Participant("a", 1), Participant("b", 0), Participant("t", 0, takes_no_defeat_tokens=True)]
    _success, outcomes = resolve("cranes", players, markers_left=1, age=1, tiles=[22], corrections=ONE_DEFEAT)
    assert [(o.name, o.outcome, o.defeat_tokens) for o in outcomes] == [
        ("a", "none", 0),
        ("b", "penalty", 2),
        ("t", "penalty", 0),
    ]


def leaders_table(group, players, *, leaders: bool):
    corrections = {"projects": {slug: {"penalty_defeat_tokens": 1} for slug in AGE_ONE}}
    services.set_edition_table(group=group, game="seven-wonders", overrides=corrections)
    night = services.create_night(group=group, date=datetime.date(2026, 11, 23))
    options = {"great_projects": True, "leaders": leaders}
    session = services.create_session(
        night=night, game="seven-wonders", players=players[:3], options=options, secret="4"
    )
    advance(session, "session.start")
    seats = [seat.key for seat in session.seats.all()]
    advance(session, sw.PARTICIPATE, seat=seats[0])
    return session, seats


def test_sw_10_the_host_says_who_plays_tomyris_when_the_age_ends(member_client, group, players):
    session, seats = leaders_table(group, players, leaders=True)
    page = member_client.get(f"/s/{session.pk}/").content.decode()
    assert 'name="tomyris"' in page
    assert "Bérénice" in page
    assert play(member_client, session, "end-age", tomyris=seats[2]).status_code == 302
    session.refresh_from_db()
    outcomes = {o["seat"]: (o["outcome"], o["defeat_tokens"]) for o in session.state["game"]["resolved"][0]["outcomes"]}
    assert outcomes == {seats[0]: ("none", 0), seats[1]: ("penalty", 1), seats[2]: ("penalty", 0)}


def test_sw_10_tomyris_is_refused_in_a_game_without_leaders(member_client, group, players):
    session, seats = leaders_table(group, players, leaders=False)
    assert 'name="tomyris"' not in member_client.get(f"/s/{session.pk}/").content.decode()
    response = play(member_client, session, "end-age", tomyris=seats[2])
    assert response.status_code == 400
    assert "SW-10" in response.content.decode()
    session.refresh_from_db()
    assert session.state["game"]["age"] == 1
