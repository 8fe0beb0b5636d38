"""The cache (Redis) does not answer: every page keeps working, a cached value is read from the
database again, and what the rate limits cannot count is refused with a 503 that says why,
never a 500."""

import pytest
from django.core.cache import cache
from django.test import Client
from rest_framework.test import APIClient

from sessions import selectors, services
from tests.conftest import finish_with_scores

# Nothing listens there: every cache call is refused, as when Redis is down.
DEAD_REDIS = "redis://127.0.0.1:6390/0"
WONDER = "/api/v1/calculators/tower-of-babel/wonder"
UNAVAILABLE = "Joining by code is unavailable for a moment"


@pytest.fixture
def cache_down(settings):
    """Switch the cache to a Redis server that does not answer (for the rest of the test)."""

    def down():
        settings.CACHES = {
            **settings.CACHES,
            "default": {
                "BACKEND": "django.core.cache.backends.redis.RedisCache",
                "LOCATION": DEAD_REDIS,
                "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
            },
        }
        with pytest.raises(Exception, match=r"[Cc]onnect"):
            cache.get("anything")  # really down

    return down


def test_a_new_phone_is_refused_with_a_503_that_names_the_cache_on_every_join_route(session, cache_down):
    code = services.create_join_code(session=session).code
    cache_down()
    phone = Client()
    responses = {
        "page": phone.get(f"/j/{code}/"),
        "join form": phone.get("/join/", {"code": code}),
        "join form (post)": phone.post("/join/", {"code": code}),
        "live": phone.get(f"/j/{code}/live/"),
        "seat": phone.post(f"/j/{code}/seat/", {"seat": session.seats.first().player_id}),
        "act": phone.post(f"/j/{code}/act/", {"move": "offer"}),
        "preview": phone.post(f"/j/{code}/preview/"),
        "hints": phone.post(f"/j/{code}/hints/"),
    }
    for route, response in responses.items():
        assert response.status_code == 503, route
        assert UNAVAILABLE in response.content.decode(), route
        assert "cache does not answer" in response.content.decode(), route
        assert response["Retry-After"] == "30", route
    assert not session.night.devices.exists()  # no code was looked up, nobody joined


def test_a_wrong_code_is_not_let_through_while_the_limit_cannot_count(db, cache_down):
    cache_down()
    for _guess in range(20):
        assert Client().get("/j/AAAAAAAA/").status_code == 503  # neither 404 (looked up) nor 500


def test_a_phone_that_joined_keeps_its_page_and_takes_a_seat_while_the_cache_is_down(session, cache_down):
    code = services.create_join_code(session=session).code
    phone = Client()
    assert phone.get(f"/j/{code}/").status_code == 200  # joined while the cache worked
    cache_down()

    assert phone.get(f"/j/{code}/").status_code == 200
    assert phone.get(f"/j/{code}/live/").status_code == 200
    ada = session.seats.first().player
    assert phone.post(f"/j/{code}/seat/", {"seat": ada.pk}).status_code == 302
    assert session.night.devices.get().player == ada
    assert f"You are {ada.name}" in phone.get(f"/j/{code}/").content.decode()


def test_the_host_page_its_live_region_and_finishing_work_while_the_cache_is_down(member_client, session, cache_down):
    code = services.create_join_code(session=session).code
    phone = Client()
    phone.get(f"/j/{code}/")
    cache_down()

    assert member_client.get(f"/s/{session.pk}/").status_code == 200
    live = member_client.get(f"/s/{session.pk}/live/")
    assert live.status_code == 200
    assert member_client.get(f"/s/{session.pk}/live/", HTTP_IF_NONE_MATCH=live["ETag"]).status_code == 304
    # A seat change bumps the night: the region's version follows it, read from the database.
    phone.post(f"/j/{code}/seat/", {"seat": session.seats.first().player_id})
    assert member_client.get(f"/s/{session.pk}/live/", HTTP_IF_NONE_MATCH=live["ETag"]).status_code == 200
    assert selectors.night_revision(session) == session.night.__class__.objects.get().live_revision

    session.refresh_from_db()
    finish_with_scores(session, [30, 20, 10])
    assert session.status == "finished"
    assert member_client.get(f"/s/{session.pk}/").status_code == 200


def test_a_code_replaced_while_the_cache_is_down_reaches_the_phones(member_client, session, cache_down):
    old = services.create_join_code(session=session).code
    phone = Client()
    phone.get(f"/j/{old}/")
    cache_down()
    assert member_client.post(f"/s/{session.pk}/code/").status_code in (200, 302)
    assert phone.get(f"/j/{old}/live/").status_code == 410  # told at once, not a 500


def test_the_anonymous_calculators_answer_503_naming_the_cache_and_never_500(db, cache_down):
    api = APIClient()
    assert api.post(WONDER, {"parts": {"a": 1}, "row": 1}, format="json").status_code == 200
    cache_down()
    response = api.post(WONDER, {"parts": {"a": 1}, "row": 1}, format="json")
    assert response.status_code == 503
    assert "cache does not answer" in response.content.decode()
    assert response["Retry-After"] == "30"


def test_the_calculators_answer_as_usual_with_the_throttle_off_while_the_cache_is_down(db, cache_down, monkeypatch):
    from sessions.api.calculators import CalculatorThrottle

    monkeypatch.setattr(CalculatorThrottle, "THROTTLE_RATES", {"calculator": None})
    cache_down()
    assert APIClient().post(WONDER, {"parts": {"a": 1}, "row": 1}, format="json").status_code == 200
