"""The push socket of a device: refused like the page it belongs to (a member of the session's
group on the host's page, a phone that joined the night by a working code), else joined to
its night's group, where ``sessions.push.announce`` says what changed."""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.http import Http404
from django.urls import path

from sessions import selectors
from sessions.push import night_group


class TableConsumer(AsyncJsonWebsocketConsumer):
    """One device's socket: refused like the page it belongs to, else joined to its night.

    Asynchronous: a synchronous consumer takes a trip through a thread for every message,
    and every write sends one message to each socket of the night."""

    async def connect(self) -> None:
        night_id = await database_sync_to_async(self.night_id)()
        if night_id is None:
            await self.close(code=4403)
            return
        self.group = night_group(night_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    def night_id(self) -> int | None:
        kwargs = self.scope["url_route"]["kwargs"]
        if "session_id" in kwargs:  # the host's page: a member of the session's group
            user = self.scope["user"]
            if not user.is_authenticated:
                return None
            try:
                session = selectors.session_of_member(user, int(kwargs["session_id"]))
            except Http404:
                return None
            return session.night_id
        phone = selectors.joined_device(selectors.device_ids(self.scope["session"]), kwargs["code"])
        if phone is None or selectors.device_code_state(phone) != selectors.WORKING:
            return None
        return phone.night_id

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def table_changed(self, event: dict[str, Any]) -> None:
        await self.send_json({"session": event["session"], "version": event["version"]})


websocket_urlpatterns = [
    path("ws/sessions/<int:session_id>/", TableConsumer.as_asgi()),
    path("ws/j/<str:code>/", TableConsumer.as_asgi()),
]
