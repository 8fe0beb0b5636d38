"""A session scored by hand (final scores typed in, the board never used) shows its ranks and
scores only, not a board nobody played on."""

from sessions import services
from tests.conftest import advance, finish_with_scores, seated_phones


def test_a_finished_session_scored_by_hand_shows_no_untouched_board(member_client, session):
    advance(session, "session.start")
    finish_with_scores(session, [30, 20, 10])
    page = member_client.get(f"/s/{session.pk}/").content.decode()
    assert 'data-testid="standings"' in page
    assert ">30<" in page
    assert 'data-testid="tob-board"' not in page
    assert "Choose the first player" not in page
    assert "Points so far" not in page


def test_phones_of_a_session_scored_by_hand_show_no_board_either(session):
    advance(session, "session.start")
    code = services.create_join_code(session=session).code
    phone = next(iter(seated_phones(session, code).values()))
    finish_with_scores(session, [30, 20, 10])
    page = phone.get(f"/j/{code}/").content.decode()
    assert 'data-testid="tob-board"' not in page
    assert "Choose the first player" not in page


def test_scores_typed_in_before_finish_hide_the_board_and_its_controls(member_client, session):
    advance(session, "session.start")
    keys = [seat.key for seat in session.seats.all()]
    advance(session, "scores.record", scores=dict(zip(keys, [30, 20, 10], strict=True)))
    page = member_client.get(f"/s/{session.pk}/").content.decode()
    assert 'data-testid="tob-board"' not in page
    assert "Choose the first player" not in page
    assert "Finish and record results" in page


def test_a_session_played_on_the_board_still_shows_its_board(member_client, session):
    advance(session, "session.start")
    assert 'data-testid="tob-board"' in member_client.get(f"/s/{session.pk}/").content.decode()
