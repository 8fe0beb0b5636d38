"""The winner moment: a finished game shows its podium, where the points came from, and the
result as text a phone can share, on the host's page, the phones and the table display."""

import pytest
from django.test import Client

from sessions import services
from tests.conftest import finish_with_scores
from tests.test_seven_wonders_pages import ADA, sheet


def podium_of(page: str) -> str:
    return page.split('data-testid="podium"')[1].split("</ol>")[0]


def test_the_podium_puts_the_winner_on_the_first_step_and_the_text_lists_everyone(member_client, session):
    services.append_event(session_id=session.pk, expected_version=0, type="session.start")
    session.refresh_from_db()
    finish_with_scores(session, [41, 37, 52])
    page = member_client.get(f"/s/{session.pk}/").content.decode()
    podium = podium_of(page)
    names = [seat.player.name for seat in session.seats.all()]
    first = podium.split('class="step step-1"')[1].split("</li>")[0]
    assert names[2] in first
    assert "52" in first
    card = page.split('data-testid="result-card">')[1].split("</pre>")[0]
    assert card.splitlines()[1:4] == [f"1. {names[2]} 52", f"2. {names[0]} 41", f"3. {names[1]} 37"]
    assert card.startswith("Tower of Babel, ")
    assert 'data-share="' in page
    assert "points-by-source" not in page  # totals typed in: nothing to split


def test_players_who_tie_share_a_step(member_client, session):  # TB-21: tied players share the place
    services.append_event(session_id=session.pk, expected_version=0, type="session.start")
    session.refresh_from_db()
    finish_with_scores(session, [50, 50, 30])
    podium = podium_of(member_client.get(f"/s/{session.pk}/").content.decode())
    first = podium.split('class="step step-1"')[1].split("</li>")[0]
    names = [seat.player.name for seat in session.seats.all()]
    assert names[0] in first
    assert names[1] in first
    assert 'class="step step-2"' not in podium  # no second place: the next is third
    assert names[2] in podium.split('class="step step-3"')[1]


def test_sheets_give_the_points_by_source_chart_with_its_table(member_client, night, players):
    session = services.create_session(
        night=night, game="seven-wonders", players=players[:3], options={"leaders": False, "cities": True}
    )
    services.append_event(session_id=session.pk, expected_version=0, type="session.start")
    seats = [seat.key for seat in session.seats.all()]
    sheet(member_client, session, seats[0], ADA)
    sheet(member_client, session, seats[1], {"coins": "13", "civilian": "73"})
    sheet(member_client, session, seats[2], {"coins": "1", "civilian": "78"})
    session.refresh_from_db()
    member_client.post(f"/s/{session.pk}/do/finish/", {"expected_version": session.version})
    page = member_client.get(f"/s/{session.pk}/").content.decode()
    chart = page.split(f'id="points-by-source-{session.pk}-data"')[1].split("</figure>")[0]
    assert "Science" in chart
    assert "Civilian" in chart
    assert "78" in chart  # a total in the table


def test_the_phones_and_the_table_display_show_the_podium_too(member_client, session):
    services.append_event(session_id=session.pk, expected_version=0, type="session.start")
    session.refresh_from_db()
    code = services.create_join_code(session=session).code
    finish_with_scores(session, [41, 37, 52])
    for path in (f"/j/{code}/", f"/j/{code}/table/"):
        page = Client().get(path).content.decode()
        assert 'data-testid="podium"' in page, path


def test_a_game_under_way_has_no_podium(member_client, session):
    services.append_event(session_id=session.pk, expected_version=0, type="session.start")
    assert 'data-testid="podium"' not in member_client.get(f"/s/{session.pk}/").content.decode()


@pytest.mark.parametrize(("language", "date"), [("it", "19 novembre 2026"), ("de", "19. November 2026")])
def test_the_result_text_dates_the_game_in_the_players_language(member_client, session, language, date):
    services.append_event(session_id=session.pk, expected_version=0, type="session.start")
    session.refresh_from_db()
    finish_with_scores(session, [41, 37, 52])
    page = member_client.get(f"/s/{session.pk}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    card = page.split('data-testid="result-card">')[1].split("</pre>")[0]
    assert card.splitlines()[0].endswith(date)
