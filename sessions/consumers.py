"""The push socket of a device: refused like the page it belongs to (a member of the session's
group on the host's page, a phone that joined the night by a working code), else joined to
its night's group, where ``sessions.push.announce`` says what changed."""

from __future__ import annotations

from typing import Any

from asgiref.sync import async_to_sync
from channels.generic.websocket import JsonWebsocketConsumer
from django.http import Http404
from django.urls import path

from sessions import selectors
from sessions.push import night_group


class TableConsumer(JsonWebsocketConsumer):
    """One device's socket: refused like the page it belongs to, else joined to its night."""

    def connect(self) -> None:
        night_id = self.night_id()
        if night_id is None:
            self.close(code=4403)
            return
        self.group = night_group(night_id)
        async_to_sync(self.channel_layer.group_add)(self.group, self.channel_name)
        self.accept()

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

    def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            async_to_sync(self.channel_layer.group_discard)(self.group, self.channel_name)

    def table_changed(self, event: dict[str, Any]) -> None:
        self.send_json({"session": event["session"], "version": event["version"]})


websocket_urlpatterns = [
    path("ws/sessions/<int:session_id>/", TableConsumer.as_asgi()),
    path("ws/j/<str:code>/", TableConsumer.as_asgi()),
]
