"""Django's Redis cache, with one Redis client per connection pool instead of one per call.

Django's ``RedisCacheClient`` builds a new ``redis.Redis`` for every cache operation, and
building one fills its table of response callbacks: on the fetch every device makes every
second (``sessions.live``), that cost more than the Redis round trips themselves
(``bench/moves.py``). A ``redis.Redis`` over a connection pool may be shared by threads:
each command takes a connection of its own from the pool.
"""

from __future__ import annotations

from typing import Any

from django.core.cache.backends import redis as django_redis


class RedisCacheClient(django_redis.RedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)  # type: ignore[attr-defined]  # not in the stubs
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients.setdefault(id(pool), self._client(connection_pool=pool))  # type: ignore[attr-defined]
        return client


class RedisCache(django_redis.RedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = RedisCacheClient
