"""Push: each device connected to a night hears "session N is at version V" (or "the night's
seats or codes changed") the moment a change is committed, and fetches its own view.

A push never carries what a device shows: every device gets its own view from its live URL
(with its ETag), so a secret offer or a private hand stays private by construction. Django
Channels carries the messages; its Redis layer reaches every server process and machine.
When the socket is down, the page falls back to fetching every second (static/js/app.js).
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

# What a push layer whose Redis does not answer raises: redis-py's errors (refused, timed out,
# reset), and a socket's own.
PUSH_ERRORS: tuple[type[Exception], ...] = (RedisError, OSError)


def night_group(night_id: int) -> str:
    return f"night-{night_id}"


def announce(*, night_id: int, session_id: int | None = None, version: int | None = None) -> None:
    """Tells the night's devices what changed. Call it once the change is committed; a push
    that cannot be sent is logged, never raised: the write stands, and the devices catch up
    with the next news or when their socket reconnects."""
    message: dict[str, object] = {"type": "table.changed", "session": session_id, "version": version}
    try:
        layer = get_channel_layer()
        if not isinstance(layer, InMemoryChannelLayer):  # Redis: sent from this process's own loop
            sending = asyncio.run_coroutine_threadsafe(layer.group_send(night_group(night_id), message), _sender())
            sending.add_done_callback(lambda sent: _log_failure(night_id, sent.exception()))
        elif running_loop():  # async_to_sync refuses such a thread: send from one of its own
            with ThreadPoolExecutor(max_workers=1) as sender:
                sender.submit(send, night_group(night_id), message).result()
        else:
            send(night_group(night_id), message)
    except Exception as error:  # whatever the layer raises, the write stands
        _log_failure(night_id, error)


def _log_failure(night_id: int, error: BaseException | None) -> None:
    if error is not None:
        log.warning("push to night %s failed", night_id, exc_info=error)


_loop: tuple[int, asyncio.AbstractEventLoop] | None = None
_loop_lock = threading.Lock()


def _sender() -> asyncio.AbstractEventLoop:
    """This process's sending loop, running in a thread of its own. The Redis layer keeps its
    connection on the loop it was used from: ``async_to_sync`` makes a loop a call, so every
    move connected to Redis anew (10 ms of a move, bench/moves.py). Sends keep their order."""
    global _loop
    with _loop_lock:
        if _loop is None or _loop[0] != os.getpid():  # none yet, or inherited by a fork
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="push-sender", daemon=True).start()
            _loop = (os.getpid(), loop)
        return _loop[1]


def send(group: str, message: dict[str, object]) -> None:
    async_to_sync(get_channel_layer().group_send)(group, message)


def running_loop() -> bool:
    """Whether this thread runs an event loop (a sync write made from async code, such as a
    script or a test driving a browser through Playwright's sync API)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True
