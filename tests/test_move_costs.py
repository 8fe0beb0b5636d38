"""What a move and each device's fetch after it cost in queries (issue 16, items 2 and 3),
the same however long the game: a move writes and answers 204 (the region then fetches
itself), and every page finds a member's row in one query."""

import pytest

from scoring.tower_of_babel import engine as tob
from tests.conftest import advance, seated_phones, started_tower

HTMX = {"HX-Request": "true", "HX-Target": "session"}


@pytest.fixture(params=[0, 60], ids=["a new game", "60 moves in"])
def table(request, session):
    session, seats, code = started_tower(session)
    for _ in range(request.param):
        advance(session, tob.PASS)
    return session, seats, code


def test_a_pass_from_the_host_costs_at_most_8_queries(member_client, table, django_assert_max_num_queries):
    session, _seats, _code = table
    # login (2: the Django session and the account), the session (1: a move does not read its
    # seats), the write (5 with its savepoint). The answer renders nothing: the region fetches
    # itself, one render a version for every member's screen (which the move renders once
    # committed: tests/test_kept_ahead.py counts it). It was 13 with the region rendered in the
    # answer, and 19 before that.
    with django_assert_max_num_queries(8):
        answer = member_client.post(f"/s/{session.pk}/play/pass/", {"expected_version": session.version}, headers=HTMX)
    assert answer.status_code == 204
    session.refresh_from_db()
    assert answer["Babel-Version"] == str(session.version)  # the page's other forms stand on it
    region = member_client.get(f"/s/{session.pk}/live/", headers=HTMX).content.decode()
    assert f'data-version="{session.version}.' in region


def test_a_score_entry_from_the_host_costs_at_most_8_queries(member_client, table, django_assert_max_num_queries):
    session, seats, _code = table
    scores = {f"score_{key}": str(10 + index) for index, key in enumerate(seats)}
    # as a pass: the form checks the seats by their keys, from the session's state
    with django_assert_max_num_queries(8):
        answer = member_client.post(
            f"/s/{session.pk}/scores/", {"expected_version": session.version, **scores}, headers=HTMX
        )
    assert answer.status_code == 204
    session.refresh_from_db()
    assert session.events.last().payload == {"scores": {key: 10 + index for index, key in enumerate(seats)}}


def test_a_move_without_htmx_is_answered_with_the_page_it_leads_to(member_client, table):
    session, _seats, _code = table
    answer = member_client.post(f"/s/{session.pk}/play/pass/", {"expected_version": session.version})
    assert answer.status_code == 302
    assert answer["Location"] == f"/s/{session.pk}/"


def test_the_hosts_fetch_after_a_change_costs_at_most_10_queries(member_client, table, django_assert_max_num_queries):
    session, _seats, _code = table
    with django_assert_max_num_queries(10):
        assert member_client.get(f"/s/{session.pk}/live/", headers=HTMX).status_code == 200


def test_a_phones_fetch_after_a_change_costs_at_most_7_queries(table, django_assert_max_num_queries):
    session, seats, code = table
    phone = seated_phones(session, code)[seats[1]]
    with django_assert_max_num_queries(7):
        assert phone.get(f"/j/{code}/live/", headers={"HX-Request": "true"}).status_code == 200


def test_a_move_that_finishes_the_game_shows_the_results_it_wrote(member_client, session):
    session, seats, _code = started_tower(session)
    advance(session, "scores.record", scores=dict(zip(seats, [30, 20, 10], strict=True)))
    answer = member_client.post(f"/s/{session.pk}/do/finish/", {"expected_version": session.version}, headers=HTMX)
    assert answer.status_code == 200
    assert "finished" in answer.content.decode()
    session.refresh_from_db()
    assert session.results.count() == 3
