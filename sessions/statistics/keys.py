"""Every key the statistics keep in the cache, and the named operations on them: the writes
of the statistics call ``statistics_changed``; the reads go through ``kept_calibration`` and
``keep_calibration``, never the cache itself (``sessions.caching``: a cache that does not
answer costs a recomputation, never a wrong page).
"""

from __future__ import annotations

from typing import Any

from sessions import caching

# The calibration replays a group's whole history (``calibration``): kept until the group's
# statistics change. The lifetime bounds one race only: a page that read the history just
# before a write committed, and keeps its figures just after the write forgot them.
CALIBRATION_SECONDS = 3600


def calibration(group_id: int) -> str:
    return f"ratings-calibration:v1:{group_id}"


def kept_calibration(group_id: int) -> Any:
    return caching.get(calibration(group_id))


def keep_calibration(group_id: int, value: Any) -> None:
    caching.set_value(calibration(group_id), value, timeout=CALIBRATION_SECONDS)


def statistics_changed(group_id: int) -> None:
    """The group's ratings were written (an update, a rebuild): forget what was computed from them."""
    caching.delete_many([calibration(group_id)])
