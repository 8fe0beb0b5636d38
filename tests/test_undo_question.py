"""The host's "Undo last step" asks first, in words, which step it takes back ("Undo “Ada
passed”?"), and names a secret move without its secret; the answer is tied to the version it
was asked at, so a move made meanwhile on another device makes it stale rather than the undo
of another step."""

import re

import pytest

from scoring import session as core
from scoring.seven_wonders import engine as sw
from scoring.tower_of_babel import engine as tob
from sessions import services
from sessions.event_words import undo_question
from tests.conftest import advance, offers_in, started_tower
from tests.test_seven_wonders_ages import tiles_only  # noqa: F401 (a fixture)


def question_form(page: str) -> str:
    found = re.search(r'<form[^>]*id="undo-question".*?</form>', page, re.S)
    assert found, "the page asks its undo question"
    return found[0]


def asked_version(page: str) -> int:
    found = re.search(r'name="expected_version" value="(\d+)"', question_form(page))
    assert found
    return int(found[1])


def test_a_drafted_tile_is_named_as_a_pick_without_the_tile(night, players):
    session = services.create_session(
        night=night, game="seven-wonders", players=players[:3], options={"tower_tiles": True}, secret="3"
    )
    advance(session, core.START)
    first = session.seats.first()
    picked = min(session.state["game"]["hands"][first.key])
    advance(session, sw.DRAFT_PICK, seat=first.key, tile=picked)
    assert undo_question(session) == f"Undo “{first.player.name} picked a tile”?"
    assert not re.search(r"\d", undo_question(session))  # no tile's number


def test_a_tile_declared_to_build_is_named_without_the_tile(tiles_only):  # noqa: F811
    session = tiles_only
    seats = list(session.seats.select_related("player"))
    advance(session, sw.DECLARE_TILE, seat=seats[1].key, tile=19)
    assert undo_question(session) == f"Undo “{seats[1].player.name} chose a tile to build”?"
    assert not re.search(r"\d", undo_question(session))


def test_a_secret_offer_is_named_without_its_cards(session):  # TB-12
    session, seats, _code = started_tower(session)
    _wonder, kind, number = offers_in(session, seats)
    asked = undo_question(session)
    assert re.fullmatch(r"Undo “Chiara offered for the build on the [A-Z][\w ]+”\?", asked)
    assert str(number) not in asked
    assert kind not in asked


def test_undo_last_step_asks_which_step_before_anything_is_undone(member_client, session):
    session, _seats, _code = started_tower(session)
    advance(session, tob.PASS)
    shown = member_client.get(f"/s/{session.pk}/").content.decode()
    assert 'name="undo"' in shown
    assert 'id="undo-question"' not in shown
    asked = member_client.get(f"/s/{session.pk}/?undo=").content.decode()
    assert "Undo “Ada passed”?" in question_form(asked)
    assert "Undo it" in question_form(asked)
    assert "Keep it" in question_form(asked)
    assert asked_version(asked) == session.version
    session.refresh_from_db()
    assert session.state["game"]["active"] == session.state["game"]["seats"][1]  # nothing undone yet


def test_htmx_asks_the_question_in_the_sessions_region(member_client, session):
    session, _seats, _code = started_tower(session)
    region = member_client.get(f"/s/{session.pk}/?undo=", HTTP_HX_REQUEST="true").content.decode()
    assert region.startswith('<div id="session"')
    assert "Undo “Ada plays first”?" in question_form(region)


def test_confirming_undoes_the_step_the_question_named(member_client, session):
    session, seats, _code = started_tower(session)
    advance(session, tob.PASS)
    version = asked_version(member_client.get(f"/s/{session.pk}/?undo=").content.decode())
    answer = member_client.post(f"/s/{session.pk}/do/undo/", {"expected_version": version})
    assert answer.status_code == 302
    session.refresh_from_db()
    assert session.state["game"]["active"] == seats[0]
    assert list(session.events.values_list("type", flat=True))[-1] == core.UNDO


def test_keep_it_undoes_nothing(member_client, session):
    session, _seats, _code = started_tower(session)
    version = asked_version(member_client.get(f"/s/{session.pk}/?undo=").content.decode())
    answer = member_client.post(f"/s/{session.pk}/do/undo/", {"expected_version": version, "keep": "1"})
    assert answer.status_code == 302
    session.refresh_from_db()
    assert session.version == version
    assert 'id="undo-question"' not in member_client.get(answer["Location"]).content.decode()


@pytest.mark.parametrize("htmx", [False, True])
def test_a_confirmation_another_device_made_stale_is_refused_and_asked_again(member_client, session, htmx):
    session, seats, _code = started_tower(session)
    version = asked_version(member_client.get(f"/s/{session.pk}/?undo=").content.decode())
    advance(session, tob.PASS)  # Ada passes on her phone while the host reads the question
    extra = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    refused = member_client.post(f"/s/{session.pk}/do/undo/", {"expected_version": version}, **extra)
    assert refused.status_code == 409
    page = refused.content.decode()
    assert "Nothing was undone: the table moved on since you were asked." in page
    assert "Undo “Ada passed”?" in question_form(page)  # the step that is last now, asked again
    assert asked_version(page) == version + 1
    session.refresh_from_db()
    assert session.version == version + 1
    assert session.state["game"]["active"] == seats[1]  # Ada's pass stands


def test_a_session_with_nothing_recorded_offers_no_undo(member_client, session):
    page = member_client.get(f"/s/{session.pk}/?undo=").content.decode()
    assert 'id="undo-question"' not in page
    assert 'name="undo"' not in page
