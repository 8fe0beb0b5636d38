"""Playing Tower of Babel on the session page: the board, a first player, builds and passes."""

import pytest

from scoring.tower_of_babel import engine as tob
from sessions import selectors, services
from tests.conftest import play, ruled


@pytest.fixture
def started(session):
    services.append_event(session_id=session.pk, expected_version=0, type="session.start")
    session.refresh_from_db()
    return session


def first_disc(session):
    state = session.state["game"]
    disc = state["wonders"]["pyramids"]["discs"][0]
    return disc, state["discs"][disc]["demand"]


def test_the_board_shows_the_eight_wonders_and_their_discs_to_every_phone(member_client, started):  # TB-3, TB-8
    page = member_client.get(f"/s/{started.pk}/").content.decode()
    for name in ["Pyramids of Giza", "Colossus of Rhodes", "Tower of Babel", "Temple of Artemis"]:
        assert name in page
    assert page.count('class="disc"') == 24
    code = services.create_join_code(session=started).code
    from django.test import Client

    assert Client().get(f"/j/{code}/").content.decode().count('class="disc"') == 24


def test_the_table_picks_a_first_player_then_records_a_pass(member_client, started):  # TB-9, TB-11
    seats = [seat.key for seat in started.seats.all()]
    assert "Who starts?" in member_client.get(f"/s/{started.pk}/").content.decode()
    assert play(member_client, started, "first", seat=seats[1]).status_code == 302
    started.refresh_from_db()
    assert started.state["game"]["active"] == seats[1]
    play(member_client, started, "pass")
    started.refresh_from_db()
    assert started.state["game"]["active"] == seats[2]


def test_tapping_a_disc_opens_its_build_form_and_a_build_is_recorded(member_client, started):  # TB-12, TB-13
    seats = [seat.key for seat in started.seats.all()]
    play(member_client, started, "first", seat=seats[0])
    disc, demand = first_disc(started)
    kind, number = next(iter(demand.items()))
    page = member_client.get(f"/s/{started.pk}/?disc={disc}").content.decode()
    assert "Build on Pyramids of Giza" in page
    data = {
        "wonder": "pyramids",
        "disc": disc,
        f"offer_{seats[1]}_{kind}": "1",
        f"accept_{seats[1]}": "on",
        f"offer_{seats[2]}_{kind}": "2",
        f"own_{kind}": str(number - 1),
    }
    assert play(member_client, started, "build", **data).status_code == 302
    started.refresh_from_db()
    game = started.state["game"]
    assert game["wonders"]["pyramids"]["parts"] == {seats[0]: number - 1, seats[1]: 1}
    assert game["discs"][disc]["owner"] == seats[0]
    assert game["points"][seats[2]]["rejected"] == 2  # TB-14


def test_a_build_that_breaks_a_rule_is_refused_with_the_rule(member_client, started):  # TB-13
    seats = [seat.key for seat in started.seats.all()]
    play(member_client, started, "first", seat=seats[0])
    disc, demand = first_disc(started)
    kind, number = next(iter(demand.items()))
    response = play(member_client, started, "build", wonder="pyramids", disc=disc, **{f"own_{kind}": str(number - 1)})
    assert response.status_code == 400
    assert ruled("(rule TB-13)") in response.content.decode()
    started.refresh_from_db()
    assert started.state["game"]["discs"][disc]["owner"] is None


def test_a_count_that_is_not_a_number_is_refused_naming_the_field(member_client, started):
    seats = [seat.key for seat in started.seats.all()]
    play(member_client, started, "first", seat=seats[0])
    disc, demand = first_disc(started)
    kind = next(iter(demand))
    response = play(member_client, started, "build", wonder="pyramids", disc=disc, **{f"own_{kind}": "lots"})
    assert response.status_code == 400
    assert "Enter a number from 0 to 6." in response.content.decode()


def test_an_unknown_move_is_a_404_and_outsiders_cannot_play(member_client, outsider_client, started):
    assert play(member_client, started, "teleport").status_code == 404
    assert play(outsider_client, started, "pass").status_code == 404


def test_a_move_can_be_undone(member_client, started):
    seats = [seat.key for seat in started.seats.all()]
    play(member_client, started, "first", seat=seats[0])
    play(member_client, started, "pass")
    started.refresh_from_db()
    member_client.post(f"/s/{started.pk}/do/undo/", {"expected_version": started.version})
    started.refresh_from_db()
    assert started.state["game"]["active"] == seats[0]


def play_to_the_end(session):
    """Every turn the active player builds the first disc left, alone, until a kind runs out."""
    services.append_event(
        session_id=session.pk,
        expected_version=session.version,
        type=tob.FIRST_PLAYER,
        payload={"seat": session.seats.first().key},
    )
    session.refresh_from_db()
    while not session.state["game"]["over"]:
        game = session.state["game"]
        wonder = next(w for w, v in game["wonders"].items() if v["discs"])
        disc = game["wonders"][wonder]["discs"][0]
        payload = {"wonder": wonder, "disc": disc, "own": game["discs"][disc]["demand"]}
        services.append_event(session_id=session.pk, expected_version=session.version, type=tob.BUILD, payload=payload)
        session.refresh_from_db()


def test_the_game_over_page_offers_final_scoring_and_finishing_writes_the_breakdown(member_client, started):  # TB-20
    play_to_the_end(started)
    assert started.status == "scoring"
    page = member_client.get(f"/s/{started.pk}/").content.decode()
    assert "Final scoring" in page
    assert "Game over: final scoring" in page
    seat = started.seats.first().key
    assert play(member_client, started, "cards", seat=seat, building_disc_bonus="0", five_points="0").status_code == 302
    started.refresh_from_db()
    member_client.post(f"/s/{started.pk}/do/finish/", {"expected_version": started.version})
    results = {str(r.player_id): r for r in started.results.all()}
    assert len(results) == 3
    assert set(results[seat].breakdown) == set(tob.SOURCES)
    expected = {s.seat: s.score for s in tob.TowerOfBabel().standings(started.state["game"])}
    assert {key: r.score for key, r in results.items()} == expected
    started.refresh_from_db()
    assert selectors.replayed_state(started) == started.state


def test_the_board_page_keeps_a_flat_query_count(member_client, started, django_assert_max_num_queries):
    with django_assert_max_num_queries(15):
        member_client.get(f"/s/{started.pk}/")
