"""The API's reads stay cheap however long the log (issue 16, item 5): a 304 is the token and
one access check that reads the version; ``?since=N`` reads only the events after N and hides
exactly what the whole log would."""

import pytest

from scoring.tower_of_babel import engine as tob
from sessions.api.tokens import create_api_token
from tests.conftest import advance, started_tower
from tests.test_api_sessions import api_for


@pytest.fixture
def open_build(session):
    """A Tower of Babel build under way with one offer in (still secret), after a few passes."""
    session, seats, _code = started_tower(session)
    for _ in range(6):
        advance(session, tob.PASS)
    game = session.state["game"]
    disc = next(d for d, row in game["discs"].items() if max(row["demand"].values()) < 7)
    advance(session, tob.CHOOSE, wonder=game["discs"][disc]["wonder"], disc=disc)
    kind = next(iter(game["discs"][disc]["demand"]))
    active = session.state["game"]["active"]
    offering = next(seat for seat in seats if seat != active)
    advance(session, tob.OFFER, seat=offering, cards={kind: 1})
    return session


def test_a_304_of_the_session_costs_the_token_and_one_query(member, session, django_assert_max_num_queries):
    client = api_for(member)
    etag = client.get(f"/api/v1/sessions/{session.pk}/")["ETag"]
    with django_assert_max_num_queries(2):
        assert client.get(f"/api/v1/sessions/{session.pk}/", HTTP_IF_NONE_MATCH=etag).status_code == 304


def test_a_304_of_the_events_costs_the_token_and_one_query(member, open_build, django_assert_max_num_queries):
    client = api_for(member)
    url = f"/api/v1/sessions/{open_build.pk}/events/?since=3"
    etag = client.get(url)["ETag"]
    with django_assert_max_num_queries(2):
        assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304


def test_events_since_n_are_the_tail_of_the_whole_log_secrets_hidden_alike(member, open_build):
    client = api_for(member)
    whole = client.get(f"/api/v1/sessions/{open_build.pk}/events/").json()["events"]
    assert whole[-1]["type"] == tob.OFFER
    assert set(whole[-1]["payload"]) == {"seat"}  # still secret
    for since in range(len(whole) + 1):
        tail = client.get(f"/api/v1/sessions/{open_build.pk}/events/?since={since}").json()["events"]
        assert tail == whole[since:]


@pytest.mark.parametrize("passes", [2, 40])
def test_reading_the_last_events_costs_the_same_queries_at_any_length(
    member, session, passes, django_assert_max_num_queries
):
    session, _seats, _code = started_tower(session)
    for _ in range(passes):
        advance(session, tob.PASS)
    client = api_for(member)
    with django_assert_max_num_queries(4):  # token, access and version, the session, the events asked
        answer = client.get(f"/api/v1/sessions/{session.pk}/events/?since={session.version - 1}")
    assert [event["seq"] for event in answer.json()["events"]] == [session.version]


def test_an_expired_token_is_refused_and_the_others_are_not_swept_on_every_request(member, session):
    from datetime import timedelta

    from django.utils import timezone

    from sessions.models import ApiToken

    old, _ = create_api_token(user=member, name="old")
    ApiToken.objects.filter(pk=old.pk).update(expiry=timezone.now() - timedelta(days=1))
    client = api_for(member)
    assert client.get(f"/api/v1/sessions/{session.pk}/").status_code == 200
    assert ApiToken.objects.filter(pk=old.pk).exists()  # left to the tokens page, or its own next try
