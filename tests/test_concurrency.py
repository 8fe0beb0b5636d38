"""Two phones at once: stale writes are refused, double taps record once."""

import pytest

from scoring.errors import RuleError
from sessions import selectors, services
from sessions.models import JoinCode, SessionEvent


def test_a_stale_write_is_refused_with_the_fresh_state(session):
    services.append_event(session_id=session.pk, expected_version=0, type="session.start")
    with pytest.raises(services.StaleWrite) as stale:
        services.append_event(session_id=session.pk, expected_version=0, type="session.abandon")
    assert stale.value.session.version == 1
    assert stale.value.session.status == "playing"
    assert SessionEvent.objects.count() == 1


def test_a_stale_form_answers_409_keeps_what_was_typed_and_offers_the_fresh_version(member_client, session):
    services.append_event(session_id=session.pk, expected_version=0, type="session.start")
    seats = list(session.seats.all())
    data = {"expected_version": 0, "idempotency_key": "late", **{f"score_{s.key}": 17 for s in seats}}
    response = member_client.post(f"/s/{session.pk}/scores/", data)
    assert response.status_code == 409
    body = response.content.decode()
    assert "Someone else changed this session a moment ago" in body
    assert 'value="17"' in body
    assert response.context["scores_form"]["expected_version"].value() == "1"
    assert SessionEvent.objects.count() == 1


def test_a_double_tap_records_one_event(member_client, session):
    for _ in range(2):
        response = member_client.post(f"/s/{session.pk}/do/start/", {"expected_version": 0, "idempotency_key": "tap"})
        assert response.status_code == 302
    # Once: the start, and the first player the app drew for this Tower of Babel game (TB-9).
    assert list(SessionEvent.objects.values_list("type", flat=True)) == ["session.start", "tob.first_player"]


def test_a_repeated_key_returns_the_first_event_even_after_the_session_moved_on(session):
    first = services.append_event(session_id=session.pk, expected_version=0, type="session.start", idempotency_key="k")
    again = services.append_event(session_id=session.pk, expected_version=0, type="session.start", idempotency_key="k")
    assert first.created
    assert not again.created
    assert again.event.pk == first.event.pk


def test_two_undos_from_two_phones_revert_only_one_step(session):
    services.append_event(session_id=session.pk, expected_version=0, type="session.start")
    services.append_event(
        session_id=session.pk, expected_version=1, type="places.record", payload={"places": _places(session)}
    )
    services.append_event(session_id=session.pk, expected_version=2, type="undo")
    with pytest.raises(services.StaleWrite):
        services.append_event(session_id=session.pk, expected_version=2, type="undo")
    session.refresh_from_db()
    assert session.status == "playing"


def test_a_refused_event_leaves_nothing_behind(session):
    with pytest.raises(RuleError):
        services.append_event(session_id=session.pk, expected_version=0, type="scores.record", payload={"scores": {}})
    session.refresh_from_db()
    assert (session.version, SessionEvent.objects.count()) == (0, 0)


def test_finishing_writes_every_result_in_the_same_step(session):
    services.append_event(
        session_id=session.pk, expected_version=0, type="places.record", payload={"places": _places(session)}
    )
    services.append_event(session_id=session.pk, expected_version=1, type="session.finish")
    assert session.results.count() == 3


def _places(session):
    return {seat.key: index + 1 for index, seat in enumerate(session.seats.all())}


def test_a_double_tap_on_new_join_code_keeps_the_code_on_screen_working(member_client, session):
    for _ in range(2):
        member_client.post(f"/s/{session.pk}/code/", {"idempotency_key": "code-tap"})
    codes = JoinCode.objects.filter(night=session.night)
    assert codes.count() == 1
    assert selectors.join_code_state(codes.get()) == selectors.WORKING


def test_a_double_tap_on_remove_member_is_harmless(owner_client, group, member):
    membership = group.memberships.get(user=member)
    for _ in range(2):
        response = owner_client.post(f"/g/{group.pk}/members/{membership.pk}/remove/")
        assert response.status_code == 302
    assert not group.memberships.filter(user=member).exists()
