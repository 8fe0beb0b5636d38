"""7 Wonders at the table: the tile draft on each phone, tile builds, Great Projects."""

import pytest
from django.utils.html import escape
from rest_framework.test import APIClient

from scoring.seven_wonders import engine as sw
from scoring.seven_wonders.data import data
from sessions import services
from tests.conftest import advance, ruled, seated_phones

# As the pages show them (escaped: "neighbour's" is written "neighbour&#x27;s").
EFFECTS = {tile: escape(text) for tile, text in data()["tiles"]["value"].items()}


@pytest.fixture
def table(night, players):
    session = services.create_session(
        night=night, game="seven-wonders", players=players[:3], options={"tower_tiles": True, "great_projects": True},
        secret="8",
    )  # fmt: skip
    services.append_event(session_id=session.pk, expected_version=0, type="session.start")
    session.refresh_from_db()
    code = services.create_join_code(session=session).code
    phones = seated_phones(session, code)
    return session, code, phones


def draft_section(page):
    return page.split('data-testid="my-draft"')[1].split("</section>")[0]


def test_each_phone_shows_its_own_hand_and_never_another(table):  # SW-2
    session, code, phones = table
    hands = session.state["game"]["hands"]
    for seat, phone in phones.items():
        page = phone.get(f"/j/{code}/").content.decode()
        mine = draft_section(page)
        for tile in hands[seat]:
            assert EFFECTS[str(tile)] in mine
        for other, hand in hands.items():
            if other != seat:
                for tile in hand:
                    assert EFFECTS[str(tile)] not in page


def test_the_host_page_and_the_api_show_who_picked_but_no_tile(member, member_client, table):  # SW-2
    session, code, phones = table
    first = next(iter(phones))
    phones[first].post(f"/j/{code}/act/", {"move": "pick", "tile": session.state["game"]["hands"][first][0]})
    page = member_client.get(f"/s/{session.pk}/").content.decode()
    assert "has picked" in page
    for hand in session.state["game"]["hands"].values():
        for tile in hand:
            assert EFFECTS[str(tile)] not in page
    api = APIClient()
    api.force_authenticate(member)
    state = api.get(f"/api/v1/sessions/{session.pk}/").json()["state"]["game"]
    assert state["hands"] == dict.fromkeys(phones, 3)
    events = api.get(f"/api/v1/sessions/{session.pk}/events/").json()["events"]
    assert events[-1]["payload"] == {"seat": first}


def test_the_whole_draft_runs_on_the_phones(table):  # SW-2
    session, code, phones = table
    for _step in (1, 2):
        session.refresh_from_db()
        for seat, phone in phones.items():
            response = phone.post(f"/j/{code}/act/", {"move": "pick", "tile": session.state["game"]["hands"][seat][0]})
            assert response.status_code == 302
    session.refresh_from_db()
    tiles = session.state["game"]["tiles"]
    assert all(len(held) == 3 for held in tiles.values())
    seat, phone = next(iter(phones.items()))
    mine = phone.get(f"/j/{code}/").content.decode().split('data-testid="my-tiles"')[1].split("</section>")[0]
    assert all(EFFECTS[str(t)] in mine for t in tiles[seat])


def test_a_pick_outside_the_hand_is_refused_on_the_phone(table):  # SW-2
    session, code, phones = table
    seat, phone = next(iter(phones.items()))
    outside = next(t for t in range(1, 25) if t not in session.state["game"]["hands"][seat])
    response = phone.post(f"/j/{code}/act/", {"move": "pick", "tile": outside})
    assert response.status_code == 400
    assert ruled("(rule SW-2)") in response.content.decode()


def play(client, session, move, **data):
    session.refresh_from_db()
    return client.post(f"/s/{session.pk}/play/{move}/", {"expected_version": session.version, **data})


def test_the_host_records_a_physical_draft_builds_and_sees_the_board(member_client, table):  # SW-2, SW-5, SW-6, SW-7
    session, _code, _phones = table
    seats = [s.key for s in session.seats.all()]
    held = {seats[0]: [1, 5, 9], seats[1]: [2, 19, 24], seats[2]: [3, 7, 11]}
    data_in = {f"tile_{s}_{i}": t for s, tiles in held.items() for i, t in enumerate(tiles)}
    assert play(member_client, session, "draft", **data_in).status_code == 302
    assert (
        play(member_client, session, "build", **{f"built_{seats[0]}": "5", f"built_{seats[1]}": "2"}).status_code == 302
    )
    board = (
        member_client.get(f"/s/{session.pk}/").content.decode().split('data-testid="sw-tiles"')[1].split("</div>")[0]
    )
    assert f"1. tile 2</strong>: {EFFECTS['2']}" in board
    assert f"2. tile 5</strong>: {EFFECTS['5']} (1 now)" in board  # SW-7: a bonus of the current age


def test_participations_and_the_end_of_an_age_on_the_host_page(member_client, table):  # SW-9, SW-10
    session, _code, _phones = table
    seats = [s.key for s in session.seats.all()]
    play(member_client, session, "participate", seat=seats[0])
    assert "1 marker left" in member_client.get(f"/s/{session.pk}/").content.decode()
    play(member_client, session, "end-age", **{f"cannot_suffer_{seats[2]}": "on"})
    session.refresh_from_db()
    game = session.state["game"]
    assert game["age"] == 2
    outcomes = {o["seat"]: o["outcome"] for o in game["resolved"][0]["outcomes"]}
    assert outcomes == {seats[0]: "none", seats[1]: "penalty", seats[2]: "penalty_token"}
    sheet_form = member_client.get(f"/s/{session.pk}/").content.decode()
    assert 'name="great_projects" value="-1"' in sheet_form  # the token is already on the sheet


def markers_section(phone, code):
    page = phone.get(f"/j/{code}/").content.decode()
    if 'data-testid="my-markers"' not in page:
        return None
    return page.split('data-testid="my-markers"')[1].split("</section>")[0]


def test_a_player_takes_a_participation_marker_on_their_phone_once_per_tap(table):  # SW-9
    session, code, phones = table
    seats = [s.key for s in session.seats.all()]
    ada = phones[seats[0]]
    section = markers_section(ada, code)
    assert "You have 0 participation markers." in section
    key = section.split('name="idempotency_key" value="')[1].split('"')[0]
    tap = {"move": "participate", "idempotency_key": key}
    assert ada.post(f"/j/{code}/act/", tap).status_code == 302
    assert ada.post(f"/j/{code}/act/", tap).status_code == 302  # a double tap: one marker
    session.refresh_from_db()
    assert (session.state["game"]["markers"], session.state["game"]["markers_left"]) == ({seats[0]: 1}, 1)
    assert "You have 1 participation marker." in markers_section(ada, code)

    bruno = phones[seats[1]]
    bruno.post(f"/j/{code}/act/", {"move": "participate"})
    assert "I take a marker" not in markers_section(bruno, code)  # none left this age
    response = phones[seats[2]].post(f"/j/{code}/act/", {"move": "participate"})
    assert response.status_code == 400
    assert ruled("No participation marker is left this age. (rule SW-9)") in response.content.decode()
    session.refresh_from_db()
    assert session.state["game"]["markers"] == {seats[0]: 1, seats[1]: 1}


def test_a_marker_taken_on_a_phone_for_a_turn_that_is_over_is_refused_not_taken_later(table):  # SW-9
    session, code, phones = table
    seats = [s.key for s in session.seats.all()]
    ada = phones[seats[0]]
    section = markers_section(ada, code)
    shown = section.split('name="for_turn" value="')[1].split('"')[0]
    assert shown == "1.1"  # age I, turn 1
    tap = {"move": "participate", "idempotency_key": hidden_key(section), "for_turn": shown}
    advance(session, sw.NEXT_TURN, turn=1)  # meanwhile (Ada's phone offline), the turn ended
    response = ada.post(f"/j/{code}/act/", tap)
    assert response.status_code == 400
    assert ruled("Turn 1 of age 1 is already over: look at the table again. (rule SW-9)") in response.content.decode()
    session.refresh_from_db()
    assert session.state["game"]["markers"] == {}
    assert ada.post(f"/j/{code}/act/", {**tap, "for_turn": "1.2"}).status_code == 302  # this turn's


def build_section(phone, code):
    page = phone.get(f"/j/{code}/").content.decode()
    return page.split('data-testid="my-build"')[1].split("</section>")[0]


def hidden_key(section):
    return section.split('name="idempotency_key" value="')[1].split('"')[0]


def test_players_declare_their_tile_builds_in_secret_and_any_phone_places_them_by_number(
    member, member_client, table
):  # SW-5, SW-6
    session, code, phones = table
    seats = [s.key for s in session.seats.all()]
    held = {seats[0]: [1, 5, 9], seats[1]: [2, 19, 24], seats[2]: [3, 7, 11]}
    services.append_event(session_id=session.pk, expected_version=1, type="sw.draft_record", payload={"tiles": held})
    ada, bruno, chiara = (phones[seat] for seat in seats)
    declare = {"move": "declare", "idempotency_key": hidden_key(build_section(ada, code)), "tile": "9"}
    assert ada.post(f"/j/{code}/act/", declare).status_code == 302
    assert "You build tile 9 this turn." in build_section(ada, code)
    bruno.post(f"/j/{code}/act/", {"move": "declare", "tile": "2"})

    # The others see who builds, never which: on the phones, the host's page and the API.
    for page in (chiara.get(f"/j/{code}/").content.decode(), member_client.get(f"/s/{session.pk}/").content.decode()):
        assert "Building a tile this turn: Ada, Bruno" in page
        assert "tile 9" not in page
        assert "tile 2" not in page
    api = APIClient()
    api.force_authenticate(member)
    assert api.get(f"/api/v1/sessions/{session.pk}/").json()["state"]["game"]["declared"] == {
        seats[0]: True,
        seats[1]: True,
    }
    events = api.get(f"/api/v1/sessions/{session.pk}/events/").json()["events"]
    assert events[-1]["payload"] == {"seat": seats[1]}

    place = {"move": "place", "idempotency_key": hidden_key(build_section(chiara, code))}
    assert chiara.post(f"/j/{code}/act/", place).status_code == 302
    assert chiara.post(f"/j/{code}/act/", place).status_code == 302  # a double tap places once
    session.refresh_from_db()
    game = session.state["game"]
    assert game["built"] == [[seats[1], 2], [seats[0], 9]]
    assert game["declared"] == {}
    assert "Building a tile this turn" not in chiara.get(f"/j/{code}/").content.decode()


def test_a_tile_declared_that_is_not_yours_is_refused_with_the_rule(table):  # SW-5
    session, code, phones = table
    seats = [s.key for s in session.seats.all()]
    held = {seats[0]: [1, 5, 9], seats[1]: [2, 19, 24], seats[2]: [3, 7, 11]}
    services.append_event(session_id=session.pk, expected_version=1, type="sw.draft_record", payload={"tiles": held})
    response = phones[seats[0]].post(f"/j/{code}/act/", {"move": "declare", "tile": "2"})
    assert response.status_code == 400
    assert ruled("Build one of your own tiles that is not built yet. (rule SW-5)") in response.content.decode()
    session.refresh_from_db()
    assert session.state["game"].get("declared", {}) == {}
