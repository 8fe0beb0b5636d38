"""A faster first night (issue 39, point 9): players added several at once, a name over the
limit refused naming the limit (never cut), names given twice or already in the group refused
naming them; one "Start a game night" button; empty states that are no list items; a group's
first game seats its players at once, and Tower of Babel opens with the first player the app
drew (TB-9), changed in one tap until someone moves."""

import re

import pytest
from rest_framework.test import APIClient

from scoring import session as core
from scoring.errors import RuleError
from scoring.tower_of_babel import engine as tob
from sessions import services
from sessions.models import GameSession, Player
from tests.conftest import advance

LONG_NAME = "Maximilianne Alexandra von Hohenzollern-Sigmaringen"  # 51 characters


def names_of(group):
    return list(Player.objects.filter(group=group).values_list("name", flat=True))


@pytest.mark.parametrize("typed", ["Ada, Bruno,Chiara", "Ada\nBruno\r\n\nChiara\n", " Ada ,\n Bruno , Chiara "])
def test_several_players_are_added_at_once_one_per_line_or_separated_by_commas(member_client, group, typed):
    response = member_client.post(f"/g/{group.pk}/players/", {"name": typed, "idempotency_key": "k"})
    assert response.status_code == 302
    assert response["Location"].endswith(f"/g/{group.pk}/#players")
    assert names_of(group) == ["Ada", "Bruno", "Chiara"]
    page = member_client.get(response["Location"]).content.decode()
    assert "Added: Ada, Bruno, Chiara." in page


def test_htmx_gets_the_players_panel_back_with_its_field_focused_for_more(member_client, group):
    response = member_client.post(f"/g/{group.pk}/players/", {"name": "Ada, Bruno"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    panel = response.content.decode()
    assert re.match(r'\s*<section class="panel" id="players"', re.sub(r"\{%.*?%\}|<!--.*?-->", "", panel))
    assert "<html" not in panel
    assert re.search(r"<textarea[^>]*autofocus", panel)
    assert re.search(r"<textarea[^>]*>\s*</textarea>", panel)  # empty for the next names
    assert 'data-testid="players-added"' in panel
    assert panel.count('class="player-name"') == 2


def test_a_name_over_the_limit_is_refused_naming_the_limit_and_nothing_is_cut(member_client, group):
    assert len(LONG_NAME) == 51
    response = member_client.post(f"/g/{group.pk}/players/", {"name": f"Ada\n{LONG_NAME}"})
    assert response.status_code == 400
    page = response.content.decode()
    assert f"A player&#x27;s name has at most 40 characters: “{LONG_NAME}” has 51." in page
    assert f"Ada\n{LONG_NAME}</textarea>" in page  # what was typed, kept to be corrected
    assert names_of(group) == []  # all or none


def test_no_name_field_lets_the_browser_cut_at_the_limit(member_client, group, players):
    group_page = member_client.get(f"/g/{group.pk}/").content.decode()
    rename = member_client.get(f"/p/{players[0].pk}/rename/").content.decode()
    new_group = member_client.get("/g/new/").content.decode()
    for page in (group_page, rename, new_group):
        fields = re.findall(r"<(?:input|textarea)[^>]*>", page)
        cut = [field for field in fields if "maxlength" in field and 'type="search"' not in field]
        assert not cut


def test_a_rename_over_the_limit_is_refused_naming_the_field_and_the_limit(member_client, players):
    response = member_client.post(f"/p/{players[0].pk}/rename/", {"name": LONG_NAME})
    assert response.status_code == 200
    assert "A player&#x27;s name has at most 40 characters: this one has 51." in response.content.decode()
    players[0].refresh_from_db()
    assert players[0].name == "Ada"


def test_the_api_refuses_a_name_over_the_limit_and_does_not_cut_it(member, group):
    api = APIClient()
    api.force_authenticate(member)
    response = api.post(f"/api/v1/groups/{group.pk}/players/", {"name": LONG_NAME}, format="json")
    assert response.status_code == 400
    assert "40" in str(response.json())
    assert names_of(group) == []


def test_names_given_twice_in_one_list_are_refused_naming_them(member_client, group):
    response = member_client.post(f"/g/{group.pk}/players/", {"name": "Ada, Bruno, ada, Chiara, Bruno"})
    assert response.status_code == 400
    assert "These names are given twice: Ada, Bruno." in response.content.decode()
    assert names_of(group) == []


def test_names_the_group_has_already_are_refused_naming_them_all(member_client, group, players):
    response = member_client.post(f"/g/{group.pk}/players/", {"name": "Zoe, ada, BRUNO"})
    assert response.status_code == 400
    assert "This group already has players called Ada, Bruno." in response.content.decode()
    assert "Zoe" not in names_of(group)


def test_an_archived_name_is_refused_pointing_to_the_archived_players(group, players):
    Player.objects.filter(pk=players[1].pk).update(archived_at="2026-11-01T20:00:00Z")
    with pytest.raises(RuleError) as refused:
        services.create_players(group=group, names=["Zoe", "bruno"])
    assert refused.value.params == {"name": "Bruno"}  # as they are brought back
    assert "archived" in refused.value.template


def test_the_group_page_has_one_start_a_game_night_button_and_no_empty_list_items(member_client, group):
    page = member_client.get(f"/g/{group.pk}/").content.decode()
    assert page.count("Start a game night") == 1
    assert re.search(r'<button type="submit" class="primary wide">Start a game night</button>', page)
    assert "Start the night" not in page
    assert '<li class="muted">' not in page
    assert "No game nights yet." in page
    assert "Add the people you play with." in page


def test_one_tap_starts_tonights_game_night(member_client, group):
    page = member_client.get(f"/g/{group.pk}/").content.decode()
    date = re.search(r'name="date" value="([\d-]+)"', page)[1]
    response = member_client.post(f"/g/{group.pk}/nights/", {"date": date, "place": "", "notes": ""})
    assert response.status_code == 302
    assert group.nights.get().date.isoformat() == date


def test_a_night_without_sessions_says_so_outside_its_numbered_list(member_client, night):
    page = member_client.get(f"/n/{night.pk}/").content.decode()
    assert '<p class="muted">No sessions yet tonight.</p>' in page
    assert '<ol class="log">' not in page


def seat_choices(page: str) -> list[str]:
    """The player chosen in each seat list of a new session's form, in order ('' when none)."""
    selects = re.findall(r'<select name="seat_\d+".*?</select>', page, re.S)
    chosen = [re.search(r'<option value="(\d*)" selected', select) for select in selects]
    return [found[1] if found else "" for found in chosen]


@pytest.fixture
def first_three(group):
    return services.create_players(group=group, names=["Ada", "Bruno", "Chiara"])


@pytest.fixture
def first_night(group, first_three):
    return services.create_night(group=group, date="2026-11-26")


@pytest.mark.parametrize(("game", "seated"), [("tower-of-babel", 3), ("babel-on", 3), ("babel-cubes", 2)])
def test_a_groups_first_game_seats_its_players_as_the_game_allows(
    member_client, first_night, first_three, game, seated
):
    page = member_client.get(f"/n/{first_night.pk}/sessions/new/?game={game}").content.decode()
    chosen = seat_choices(page)
    assert chosen[:seated] == [str(player.pk) for player in first_three[:seated]]
    assert not any(chosen[seated:])


def test_the_seats_past_the_table_wait_behind_more_seats(member_client, first_night):
    page = member_client.get(f"/n/{first_night.pk}/sessions/new/?game=tower-of-babel").content.decode()
    shown, more = page.split('<details class="more-seats">')
    assert shown.count('<select name="seat_') == 3
    assert more.count('<select name="seat_') == 2


def test_too_few_players_for_the_game_are_not_seated(member_client, group, first_three, first_night):
    page = member_client.get(f"/n/{first_night.pk}/sessions/new/?game=tower-of-babel").content.decode()
    assert len([c for c in seat_choices(page) if c]) == 3
    Player.objects.filter(pk=first_three[2].pk).delete()
    page = member_client.get(f"/n/{first_night.pk}/sessions/new/?game=tower-of-babel").content.decode()
    assert not any(seat_choices(page))  # two of the three Tower of Babel needs: the host chooses


def start_from_the_night(client, night, game):
    page = client.get(f"/n/{night.pk}/sessions/new/?game={game}").content.decode()
    data = dict(re.findall(r'<select name="(\w+)".*?<option value="(\w*)" selected', page, re.S))
    data["idempotency_key"] = re.search(r'name="idempotency_key" value="(\w+)"', page)[1]
    response = client.post(f"/n/{night.pk}/sessions/new/?game={game}", {**data, "start": "1"})
    assert response.status_code == 302
    return GameSession.objects.get(pk=response["Location"].rstrip("/").split("/")[-1])


def test_a_tower_of_babel_game_starts_with_the_first_player_the_app_drew(member_client, first_night):  # TB-9
    session = start_from_the_night(member_client, first_night, "tower-of-babel")
    game = session.state["game"]
    assert game["active"] == game["suggested_first"]
    assert list(session.events.values_list("type", flat=True)) == [core.START, tob.FIRST_PLAYER]
    page = member_client.get(f"/s/{session.pk}/").content.decode()
    assert "Who starts?" in page
    assert re.search(rf'name="seat" value="{game["active"]}" aria-pressed="true"', page)
    assert 'id="tob-pass"' in page  # the turn is playable at once


def test_the_start_on_the_session_page_draws_the_first_player_too(member_client, session):  # TB-9
    member_client.post(f"/s/{session.pk}/do/start/", {"expected_version": 0, "idempotency_key": "s"})
    member_client.post(f"/s/{session.pk}/do/start/", {"expected_version": 0, "idempotency_key": "s"})  # a double tap
    session.refresh_from_db()
    assert session.state["game"]["active"] == session.state["game"]["suggested_first"]
    assert session.version == 2


def test_one_tap_on_another_name_starts_with_them_until_someone_moves(member_client, first_night):  # TB-9
    session = start_from_the_night(member_client, first_night, "tower-of-babel")
    seats = session.state["game"]["seats"]
    other = next(seat for seat in seats if seat != session.state["game"]["active"])
    answer = member_client.post(f"/s/{session.pk}/play/first/", {"expected_version": 2, "seat": other})
    assert answer.status_code == 302
    session.refresh_from_db()
    assert session.state["game"]["active"] == other
    assert list(session.events.values_list("type", flat=True))[2:] == [core.UNDO, tob.FIRST_PLAYER]
    advance(session, tob.PASS)
    page = member_client.get(f"/s/{session.pk}/").content.decode()
    assert "Who starts?" not in page  # someone has played
    refused = member_client.post(f"/s/{session.pk}/play/first/", {"expected_version": session.version, "seat": other})
    assert refused.status_code == 400
    assert "to change who starts, undo back to the start" in refused.content.decode()


def test_tapping_the_player_already_starting_records_nothing(member_client, first_night):
    session = start_from_the_night(member_client, first_night, "tower-of-babel")
    active = session.state["game"]["active"]
    member_client.post(f"/s/{session.pk}/play/first/", {"expected_version": 2, "seat": active})
    session.refresh_from_db()
    assert session.version == 2
