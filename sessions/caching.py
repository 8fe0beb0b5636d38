"""The cache (Redis in production) when it does not answer: no page depends on it.

A cached value is only a shortcut: a read that fails is recomputed from the database and a
delete that fails is logged (the value expires by itself). A rate limit cannot count without
it, so the callers refuse what they would have counted with a 503 that says why
(``sessions.views.join``, ``sessions.api.calculators``), never a 500 and never a pass.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from django.core.cache import cache
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

# What a cache that does not answer raises: redis-py's errors (refused, timed out, reset),
# and a socket's own for a backend that lets them through.
CACHE_ERRORS: tuple[type[Exception], ...] = (RedisError, OSError)

# How long a refused client is told to wait before trying again (Retry-After, seconds).
RETRY_AFTER_SECONDS = 30


def get(key: str) -> Any:
    """The cached value, or None when there is none or the cache does not answer."""
    try:
        return cache.get(key)
    except CACHE_ERRORS as error:
        logger.warning("cache read of %s failed (%s): recomputing", key, error)
        return None


def get_many(keys: list[str]) -> dict[str, Any]:
    """The cached values found (one round trip), none when the cache does not answer."""
    try:
        return cache.get_many(keys)
    except CACHE_ERRORS as error:
        logger.warning("cache read of %s failed (%s): recomputing", keys, error)
        return {}


def set_value(key: str, value: Any, *, timeout: int) -> None:
    """Cache the value; a cache that does not answer keeps its old value until it expires."""
    try:
        cache.set(key, value, timeout=timeout)
    except CACHE_ERRORS as error:
        logger.warning("cache write of %s failed (%s)", key, error)


def add(key: str, value: Any, *, timeout: int) -> None:
    """Cache the value unless the key is there; a cache that does not answer keeps nothing."""
    try:
        cache.add(key, value, timeout=timeout)
    except CACHE_ERRORS as error:
        logger.warning("cache write of %s failed (%s)", key, error)


def delete_many(keys: Iterable[str]) -> None:
    """Drop the keys; a cache that does not answer keeps them until they expire."""
    keys = list(keys)
    try:
        cache.delete_many(keys)
    except CACHE_ERRORS as error:
        logger.warning("cache delete of %d keys failed (%s): they expire by themselves", len(keys), error)


def write_each(entries: dict[str, tuple[Any, int]]) -> None:
    """Each ``key: (value, seconds)``, in one round trip to Redis; a cache that does not answer
    keeps the old values until they expire."""
    try:
        if hasattr(cache, "write_each"):  # babel_companion.redis_cache.RedisCache
            cache.write_each(entries)
            return
        for key, (value, seconds) in entries.items():  # the local memory of development
            cache.set(key, value, timeout=seconds)
    except CACHE_ERRORS as error:
        logger.warning("cache write of %s failed (%s)", list(entries), error)
