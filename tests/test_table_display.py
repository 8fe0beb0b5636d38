"""The table display: a tablet or a TV in the middle of the table shows the night's game in big
type, read-only, as every player may see it, and follows the table by itself."""

import re

import pytest
from django.test import Client

from scoring.tower_of_babel import engine as tob
from sessions import selectors, services
from tests.conftest import advance, finish_with_scores, started_tower
from tests.test_phone_seats import ask_for_offers, phone


@pytest.fixture
def table(session):
    return started_tower(session)


def region_of(page: str) -> str:
    return page.split('<div id="table"')[1].split("data-wake-lock")[0]


def test_it_shows_the_game_whose_turn_and_the_standings_without_any_form(table):
    _session, _seats, code = table
    answer = Client().get(f"/j/{code}/table/")
    assert answer.status_code == 200
    page = answer.content.decode()
    region = region_of(page)
    assert "Tower of Babel" in region
    assert 'data-testid="tob-board"' in region
    assert 'data-testid="standings"' in region
    assert "to play" in region  # whose turn
    assert "<form" not in region
    assert "Which player are you?" not in page
    assert "data-wake-lock" in page


def test_a_phone_holding_a_seat_shows_none_of_its_secrets_on_the_display(member_client, table):
    session, seats, code = table
    disc, kind = ask_for_offers(member_client, session)
    bruno = phone(code, seats[1])
    assert bruno.post(f"/j/{code}/act/", {"move": "offer", "disc": disc, f"offer_{kind}": "2"}).status_code == 302
    assert "Your offer is in" in bruno.get(f"/j/{code}/").content.decode()
    region = region_of(bruno.get(f"/j/{code}/table/").content.decode())
    assert "has offered" in region
    assert f"{kind} 2" not in region.split('data-testid="tob-pending"')[1].split("</div>")[0]
    assert "Your offer" not in region
    assert "my-offer-form" not in region


def test_it_follows_the_table_and_answers_304_when_nothing_changed(table):
    session, _seats, code = table
    display = Client()
    display.get(f"/j/{code}/table/")
    first = display.get(f"/j/{code}/table/live/", headers={"HX-Request": "true"})
    assert first.status_code == 200
    etag = first["ETag"]
    assert display.get(f"/j/{code}/table/live/", headers={"If-None-Match": etag}).status_code == 304
    advance(session, "tob.pass")
    moved = display.get(f"/j/{code}/table/live/", headers={"HX-Request": "true", "If-None-Match": etag})
    assert moved.status_code == 200
    version = re.search(r'data-version="(\d+)\.', moved.content.decode())
    assert version is not None
    assert int(version[1]) == session.version


def test_it_waits_for_a_game_and_refuses_a_wrong_code(night):
    code = services.create_join_code(night=night).code
    page = Client().get(f"/j/{code}/table/").content.decode()
    assert 'data-testid="table-waiting"' in page
    assert Client().get("/j/NOSUCHCODE/table/").status_code == 404


def test_a_display_fetch_on_its_ticket_costs_no_query(table, django_assert_max_num_queries):
    _session, _seats, code = table
    display = Client()
    display.get(f"/j/{code}/table/")
    first = display.get(f"/j/{code}/table/live/", headers={"HX-Request": "true"})
    ticket = first["Babel-Live-Ticket"]
    with django_assert_max_num_queries(0):
        again = display.get(
            f"/j/{code}/table/live/", headers={"If-None-Match": first["ETag"], "Babel-Live-Ticket": ticket}
        )
    assert again.status_code == 304


# --- the night's current game: the one most recently started or finished ------------------------


@pytest.fixture
def finished_with_rematch(table):
    """A finished Tower of Babel game (Bruno won) and its rematch, opened but not yet played."""
    session, _seats, code = table
    finish_with_scores(session, [30, 42, 25])
    return session, services.rematch_session(session=session).session, code


def shown_on(page: str) -> str:
    found = re.search(r'data-session="(\d*)"', page)
    assert found is not None
    return found[1]


def test_a_finished_game_keeps_its_podium_on_the_display_and_the_phones_while_its_rematch_waits(
    finished_with_rematch,
):
    finished, rematch, code = finished_with_rematch
    assert rematch.status == "playing"  # opened started, with its first player named
    region = region_of(Client().get(f"/j/{code}/table/").content.decode())
    assert shown_on(region) == str(finished.pk)
    assert 'data-testid="podium"' in region
    assert "Next: Tower of Babel rematch, waiting to start" in region
    bruno = phone(code, str(finished.seats.all()[1].player_id))
    assert shown_on(bruno.get(f"/j/{code}/").content.decode()) == str(finished.pk)


def test_the_rematch_takes_the_display_at_its_first_move_without_waiting_for_a_ticket_to_expire(
    finished_with_rematch,
):
    finished, rematch, code = finished_with_rematch
    display = Client()
    display.get(f"/j/{code}/table/")
    first = display.get(f"/j/{code}/table/live/", headers={"HX-Request": "true"})
    assert shown_on(first.content.decode()) == str(finished.pk)
    kept = {"If-None-Match": first["ETag"], "Babel-Live-Ticket": first["Babel-Live-Ticket"]}
    assert display.get(f"/j/{code}/table/live/", headers=kept).status_code == 304
    advance(rematch, tob.PASS)
    moved = display.get(f"/j/{code}/table/live/", headers={"HX-Request": "true", **kept})
    assert moved.status_code == 200
    region = moved.content.decode()
    assert shown_on(region) == str(rematch.pk)
    assert 'data-testid="podium"' not in region
    assert 'data-testid="next-game"' not in region


def test_a_new_game_takes_the_display_when_it_starts_not_while_it_is_set_up(table, night, players):
    finished, _seats, code = table
    finish_with_scores(finished, [30, 42, 25])
    babel = services.create_session(night=night, game="babel-cubes", players=players[:2], secret="3")
    region = region_of(Client().get(f"/j/{code}/table/").content.decode())
    assert shown_on(region) == str(finished.pk)
    assert f"Next: {babel.game_name}, waiting to start" in region
    advance(babel, "session.start")
    assert shown_on(region_of(Client().get(f"/j/{code}/table/").content.decode())) == str(babel.pk)


def test_a_seated_phone_follows_its_own_game_under_way_when_another_table_finishes(table, night, players):
    tower, _seats, code = table
    babel = services.create_session(night=night, game="babel-cubes", players=[players[3], players[0]], secret="3")
    advance(babel, "session.start")
    dieter = phone(code, str(players[3].pk))
    finish_with_scores(tower, [30, 42, 25])  # after Babel started: the night's newest news
    assert shown_on(region_of(Client().get(f"/j/{code}/table/").content.decode())) == str(tower.pk)
    assert shown_on(dieter.get(f"/j/{code}/").content.decode()) == str(babel.pk)


def test_the_nights_game_is_chosen_in_one_query_however_many_games_it_had(
    finished_with_rematch, night, players, django_assert_num_queries
):
    _finished, _rematch, code = finished_with_rematch
    for game in ("babel-cubes", "babel-on"):
        services.create_session(night=night, game=game, players=players[:2], secret="3")
    display = Client()
    display.get(f"/j/{code}/table/")
    devices = selectors.device_ids(display.session)
    with django_assert_num_queries(1):
        device = selectors.joined_device(devices, code)
    assert device is not None
    assert device.shown_next == selectors.NextGame("Babel On!", rematch=False)


def test_the_display_shows_no_account_language_or_theme_chrome_and_draws_its_trophy(finished_with_rematch):
    _finished, _rematch, code = finished_with_rematch
    page = Client().get(f"/j/{code}/table/").content.decode()
    for chrome in ("Log in", "Sign up", 'name="language"', "data-theme-switch", 'name="theme"'):
        assert chrome not in page
    assert '<svg class="trophy" viewBox="0 0 24 24" role="img" focusable="false"><title>Winner</title>' in page
    assert "🏆" not in page
