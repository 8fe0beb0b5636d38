"""Two deployments on one Redis server hear nothing of each other's pushes (issue 41, point 5).

Redis's publish/subscribe ignores the database number in the URL, so the push channels of
each deployment are named with a prefix of its own (``settings.PUSH_PREFIX``; by default it
names the deployment's database). Two real Redis channel layers on the test's Redis, as two
deployments' processes make them, each with a device of its night 1 listening."""

from __future__ import annotations

import asyncio
import os
from concurrent.futures import ThreadPoolExecutor

import pytest
from channels_redis.pubsub import RedisPubSubChannelLayer

from babel_companion.settings import push_prefix
from sessions.table.push import night_group

pytestmark = pytest.mark.integration

HEARD_WITHIN = 1.0


def a_deployment(database: str) -> RedisPubSubChannelLayer:
    """The channel layer of a deployment whose database is ``database``, as its settings make it."""
    config = {"HOST": "127.0.0.1", "PORT": "5432", "NAME": database}
    return RedisPubSubChannelLayer(hosts=[os.environ["REDIS_URL"]], prefix=push_prefix(config))


async def heard(layer: RedisPubSubChannelLayer, channel: str) -> dict | None:
    try:
        return await asyncio.wait_for(layer.receive(channel), timeout=HEARD_WITHIN)
    except TimeoutError:
        return None


async def news_of_night_1_sent_by_the_first() -> tuple[dict | None, dict | None]:
    """(what a device of the first deployment's night 1 heard, what one of the second's did)."""
    first, second = a_deployment("babel_club"), a_deployment("babel_family")
    try:
        devices = [await layer.new_channel() for layer in (first, second)]
        for layer, device in zip((first, second), devices, strict=True):
            await layer.group_add(night_group(1), device)
        await asyncio.sleep(0.2)  # the subscriptions reach Redis before the news does
        await first.group_send(night_group(1), {"type": "table.changed", "session": 7, "version": 3})
        return await heard(first, devices[0]), await heard(second, devices[1])
    finally:
        await first.flush()
        await second.flush()


def test_a_push_reaches_its_own_deployments_night_and_not_another_deployments_same_night(redis_service):
    with ThreadPoolExecutor(max_workers=1) as pool:  # a loop of its own (the browser tests keep one here)
        own, other = pool.submit(lambda: asyncio.run(news_of_night_1_sent_by_the_first())).result()
    assert own == {"type": "table.changed", "session": 7, "version": 3}
    assert other is None


def test_each_deployments_default_prefix_names_its_own_database():
    club = push_prefix({"HOST": "db", "PORT": "5432", "NAME": "babel_club"})
    assert club == push_prefix({"HOST": "db", "PORT": "5432", "NAME": "babel_club"})  # every process of it
    assert club != push_prefix({"HOST": "db", "PORT": "5432", "NAME": "babel_family"})
    assert club != push_prefix({"HOST": "db2", "PORT": "5432", "NAME": "babel_club"})
    assert push_prefix({"NAME": "/srv/babel/db.sqlite3"}) != push_prefix({"NAME": "/srv/other/db.sqlite3"})
