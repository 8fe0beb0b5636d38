"""Numbers typed into the pages' forms: ``²``, ``٣`` and a 5,000-digit number are refused
naming the field (400), never a 500, on the host's page, its score sheets and the phones."""

import pytest
from django.test import Client

from sessions import numbers, selectors
from sessions.boards import BOARDS
from sessions.models import SessionEvent
from tests.test_play_forms_never_crash import FIELDS, tables  # noqa: F401 (a fixture)

BAD = ["²", "٣", "9" * 5000, "3+²", "1+" + "9" * 5000, "\uff11\uff12"]


@pytest.mark.parametrize("raw", BAD)
def test_the_shared_helpers_take_none_of_them(raw):
    assert numbers.whole(raw) is None
    assert numbers.parse_sum(raw) is None
    assert numbers.whole_or_text(raw) == raw.strip()


def test_the_shared_helpers_take_ascii_numbers_and_small_sums():
    assert numbers.whole(" 12 ") == 12
    assert numbers.parse_sum("3+4+2") == 9
    assert numbers.parse_sum(" - 2 ") == -2
    assert numbers.parse_sum("10 - 3") == 7


@pytest.mark.parametrize("raw", BAD)
def test_a_bad_number_on_the_score_sheet_is_refused_naming_the_field(member_client, session, raw):
    member_client.post(f"/s/{session.pk}/do/start/", {"expected_version": 0})
    session.refresh_from_db()
    seats = list(session.seats.all())
    data = {"expected_version": session.version, f"score_{seats[0].key}": raw}
    data.update({f"score_{seat.key}": "3" for seat in seats[1:]})
    before = SessionEvent.objects.count()
    response = member_client.post(f"/s/{session.pk}/scores/", data)
    assert response.status_code == 400
    assert f"score_{seats[0].key}" in response.context["scores_form"].errors
    assert SessionEvent.objects.count() == before


@pytest.mark.parametrize("raw", BAD)
def test_a_bad_number_in_any_field_of_any_move_is_a_move_or_a_refusal(member_client, tables, raw):  # noqa: F811
    sessions, _code = tables
    for game, session in sessions.items():
        keys = [seat.key for seat in session.seats.all()]
        data = {name + (keys[0] if name.endswith("_") else ""): raw for name in FIELDS}
        data["placement"] = f"nw:{raw}:up"
        for event in sorted(BOARDS[game].EVENTS):
            session.refresh_from_db()
            response = member_client.post(
                f"/s/{session.pk}/play/{event}/", {**data, "expected_version": session.version}
            )
            assert response.status_code in (200, 302, 400, 409), (game, event, response.status_code)
        session.refresh_from_db()
        assert selectors.replayed_state(session) == session.state


@pytest.mark.parametrize("raw", BAD)
def test_a_bad_number_from_a_phone_is_refused(tables, raw):  # noqa: F811
    sessions, code = tables
    session = sessions["babel-cubes"]
    phone = Client()
    phone.post(f"/j/{code}/seat/", {"seat": session.seats.first().key})
    session.refresh_from_db()
    placed = {"move": "place", "placement": f"nw:{raw}:up", "expected_version": session.version}  # shown now
    response = phone.post(f"/j/{code}/act/", placed)
    assert response.status_code in (200, 400), response.status_code
