"""Django's Redis cache, with one Redis client and connection pool per process instead of one
per call and per request.

Django's ``RedisCacheClient`` builds a new ``redis.Redis`` for every cache operation, and
building one fills its table of response callbacks: on the fetch every device makes every
second (``sessions.table.live``), that cost more than the Redis round trips themselves
(``bench/moves.py``). And Django keeps its cache objects per request context: under ASGI every
request gets a new one, with new connection pools, so every request connected to Redis anew
(about a millisecond, and a connection's set-up on the Redis server; ``bench/table_load.py``).
A ``redis.Redis`` over a connection pool may be shared by threads (each command takes a
connection of its own from the pool), and redis-py's pools start afresh in a forked process.
"""

from __future__ import annotations

import threading
from typing import Any

from django.core.cache.backends import redis as django_redis

# (server URL, pool options) -> the process's client for it
_clients: dict[tuple[str, str], Any] = {}
_clients_lock = threading.Lock()


class RedisCacheClient(django_redis.RedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        options = repr(sorted(self._pool_options.items()))  # type: ignore[attr-defined]  # not in the stubs
        self._shared = [(server, options) for server in self._servers]  # type: ignore[attr-defined]

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        shared = self._shared[self._get_connection_pool_index(write)]  # type: ignore[attr-defined]
        client = _clients.get(shared)
        if client is None:
            with _clients_lock:
                client = _clients.get(shared)
                if client is None:
                    pool = self._pool_class.from_url(shared[0], **self._pool_options)  # type: ignore[attr-defined]
                    client = _clients[shared] = self._client(connection_pool=pool)  # type: ignore[attr-defined]
        return client


class RedisCache(django_redis.RedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = RedisCacheClient

    def write_each(self, entries: dict[str, tuple[Any, int]]) -> None:
        """Each ``key: (value, seconds)`` set in one round trip (``sessions.caching.write_each``)."""
        dumps = self._cache._serializer.dumps  # type: ignore[attr-defined]  # not in the stubs
        pipeline = self._cache.get_client(write=True).pipeline(transaction=False)
        for key, (value, seconds) in entries.items():
            pipeline.set(self.make_and_validate_key(key), dumps(value), ex=seconds)
        pipeline.execute()
