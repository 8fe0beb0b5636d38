"""Push: each device connected to a night hears "session N is at version V" (or "the night's
seats or codes changed") the moment a change is committed, and fetches its own view.

A push never carries what a device shows: every device gets its own view from its live URL
(with its ETag), so a secret offer or a private hand stays private by construction. Django
Channels carries the messages; its Redis layer reaches every server process and machine.
When the socket is down, the page falls back to fetching every second (static/js/app.js).
"""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

log = logging.getLogger(__name__)


def night_group(night_id: int) -> str:
    return f"night-{night_id}"


def announce(*, night_id: int, session_id: int | None = None, version: int | None = None) -> None:
    """Tells the night's devices what changed. Call it once the change is committed; a push
    that cannot be sent is logged, never raised: the devices' fallback fetch catches up."""
    message = {"type": "table.changed", "session": session_id, "version": version}
    try:
        async_to_sync(get_channel_layer().group_send)(night_group(night_id), message)
    except Exception:  # the layer's store is down: the write stands, the devices poll
        log.warning("push to night %s failed", night_id, exc_info=True)
