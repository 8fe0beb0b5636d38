"""Issue 41, point 3: a move and every device's fetch of it take at most 8 round trips to the
cache's Redis, counted by ``bench/redis_round_trips.py`` (a command or a pipeline is one): the
host's pass, then the host's screen and three seated phones fetching the new version, as the
push makes them, with the ticket and the ETag of their last answer."""

from __future__ import annotations

from collections import Counter

import pytest
from django.conf import settings

from bench.redis_round_trips import counted_round_trips
from tests.integration.conftest import unavailable

pytestmark = pytest.mark.integration


def _trips(counted: list[tuple[str, Counter[str]]]) -> dict[str, int]:
    return {name: sum(trips.values()) for name, trips in counted}


@pytest.mark.parametrize("apart", [False, True], ids=["one server process", "a process for each device"])
def test_a_move_and_its_four_devices_fetches_take_at_most_eight_round_trips(transactional_db, redis_service, apart):
    if settings.CACHES["default"]["BACKEND"] != "babel_companion.redis_cache.RedisCache":
        unavailable("REDIS_CACHE_URL is not set: the cache is not Redis")
    trips = _trips(counted_round_trips(apart=apart))
    assert sum(trips.values()) <= 8, trips
    assert trips["the move (the host's pass)"] <= 2, trips
    # Each device reads what it needs in one round trip; the first of a view keeps its render.
    assert all(count <= 2 for name, count in trips.items() if name.endswith("fetch")), trips
