"""A move that ends something (an age; a player's game when a tower is knocked over) is
offered back at once: the host's page says what happened, with an Undo beside it."""

from scoring.tower_of_babel import engine as tob
from tests.conftest import advance, play, started_tower
from tests.test_seven_wonders_ages import tiles_only  # noqa: F401 (a fixture)


def banner_of(page: str) -> str:
    return page.split('data-testid="undo-banner"')[1].split("</div>")[0]


def test_ending_an_age_offers_to_undo_it_and_the_undo_brings_the_age_back(member_client, tiles_only):  # noqa: F811
    session = tiles_only
    assert play(member_client, session, "end-age").status_code == 302
    banner = banner_of(member_client.get(f"/s/{session.pk}/").content.decode())
    assert "Age 1 is over" in banner
    assert "Undo it" in banner
    session.refresh_from_db()
    undone = member_client.post(f"/s/{session.pk}/do/undo/", {"expected_version": session.version})
    assert undone.status_code == 302
    session.refresh_from_db()
    assert session.state["game"]["age"] == 1
    assert 'data-testid="undo-banner"' not in member_client.get(f"/s/{session.pk}/").content.decode()


def test_an_ordinary_move_brings_no_banner(member_client, session):
    session, _seats, _code = started_tower(session)
    advance(session, tob.PASS)
    assert 'data-testid="undo-banner"' not in member_client.get(f"/s/{session.pk}/").content.decode()
