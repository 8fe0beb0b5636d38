"""The Redis cache keeps one client and connection pool per process (issue 16, item 3): Django
makes its cache objects per request context, so under ASGI each request had new pools and
connected to Redis anew; and Django's client built a ``redis.Redis`` for every call."""

from __future__ import annotations

from babel_companion.redis_cache import RedisCache


def test_every_cache_object_of_a_process_shares_one_client_and_its_pool() -> None:
    # Two cache objects, as two requests under ASGI get them; making clients connects nothing.
    first = RedisCache("redis://127.0.0.1:6379/5", {})._cache
    second = RedisCache("redis://127.0.0.1:6379/5", {})._cache
    assert first is not second
    client = first.get_client(write=True)
    assert second.get_client() is client
    assert second.get_client(write=True).connection_pool is client.connection_pool


def test_another_server_or_other_options_get_a_client_of_their_own() -> None:
    client = RedisCache("redis://127.0.0.1:6379/5", {})._cache.get_client()
    assert RedisCache("redis://127.0.0.1:6379/6", {})._cache.get_client() is not client
    other_options = RedisCache("redis://127.0.0.1:6379/5", {"OPTIONS": {"socket_timeout": 3}})._cache
    assert other_options.get_client() is not client
