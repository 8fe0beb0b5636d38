"""The push socket of a device: refused like the page it belongs to (a member of the session's
group on the host's page, a phone that joined the night by a working code), else joined to
its night's group, where ``sessions.table.push.announce`` says what changed.

Its first message says what the device's region shows now, ``{"now": {"session": N,
"region": "V.R"}}`` (``sessions.table.shown.region_version``): a page that shows it already fetches
nothing when its socket (re)connects; one that missed news meanwhile fetches itself once."""

from __future__ import annotations

import logging
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.http import Http404
from django.urls import path

from sessions import selectors
from sessions.table.push import PUSH_ERRORS, night_group
from sessions.table.tickets import shown_in_database

log = logging.getLogger(__name__)


class TableConsumer(AsyncJsonWebsocketConsumer):
    """One device's socket: refused like the page it belongs to, else joined to its night.

    Asynchronous: a synchronous consumer takes a trip through a thread for every message,
    and every write sends one message to each socket of the night."""

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """Serves the socket; when the push layer's Redis does not answer (its channel is
        made before ``connect``), the socket is refused as one that may not follow (HTTP 403
        before it opened, a close after): its page then fetches by itself until a new socket
        opens (static/js/app.js), never a 500."""
        try:
            await super().__call__(scope, receive, send)
        except PUSH_ERRORS as error:
            log.warning("push layer unavailable, socket refused: %s", error)
            await send({"type": "websocket.close", "code": 1011})

    async def connect(self) -> None:
        follows = await database_sync_to_async(self.follows)()
        if follows is None:
            await self.close(code=4403)
            return
        session_id, night_id = follows
        self.group = night_group(night_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        # Read once joined: a change committed after this read is announced to this socket too.
        now = await database_sync_to_async(shown_in_database)(session_id, night_id)
        if now is not None:
            await self.send_json({"now": {"session": now.session_id, "region": now.version}})

    def follows(self) -> tuple[int | None, int] | None:
        """(the session the device's region shows, or None for a phone waiting for a game; its
        night), or None when the device may not follow the night."""
        kwargs = self.scope["url_route"]["kwargs"]
        if "session_id" in kwargs:  # the host's page: a member of the session's group
            user = self.scope["user"]
            if not user.is_authenticated:
                return None
            try:
                session = selectors.session_of_member(user, int(kwargs["session_id"]))
            except Http404:
                return None
            return session.pk, session.night_id
        phone = selectors.joined_device(selectors.device_ids(self.scope["session"]), kwargs["code"])
        if phone is None or selectors.device_code_state(phone) != selectors.WORKING:
            return None
        return getattr(phone, "shown_id", None), phone.night_id

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def table_changed(self, event: dict[str, Any]) -> None:
        await self.send_json({"session": event["session"], "version": event["version"]})


websocket_urlpatterns = [
    path("ws/sessions/<int:session_id>/", TableConsumer.as_asgi()),
    path("ws/j/<str:code>/", TableConsumer.as_asgi()),
]
