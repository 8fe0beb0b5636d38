"""Explicit input and output serializers for the session API."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from sessions.boards import public_state
from sessions.models import GameSession, Result, Seat, SessionEvent


class SeatOut(serializers.ModelSerializer):
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField(source="player.name")

    class Meta:
        model = Seat
        fields = ["order", "player", "name", "colour"]


class ResultOut(serializers.ModelSerializer):
    player = serializers.IntegerField(source="player_id")

    class Meta:
        model = Result
        fields = ["player", "score", "rank", "breakdown"]


class SessionOut(serializers.ModelSerializer):
    seats = SeatOut(many=True)
    state = serializers.SerializerMethodField()
    results = ResultOut(many=True)
    night = serializers.IntegerField(source="night_id")
    group = serializers.IntegerField(source="group_id")

    class Meta:
        model = GameSession
        fields = ["id", "group", "night", "game", "options", "status", "seed", "version", "state", "seats", "results"]

    def get_state(self, session: GameSession) -> dict[str, Any]:
        return public_state(session)


class EventOut(serializers.ModelSerializer):
    author = serializers.CharField(source="author.get_username", default=None)

    class Meta:
        model = SessionEvent
        fields = ["seq", "type", "payload", "author", "author_label", "created_at"]


class EventIn(serializers.Serializer):
    type = serializers.CharField(max_length=40)
    payload = serializers.DictField(required=False, default=dict)
    expected_version = serializers.IntegerField(min_value=0)
    idempotency_key = serializers.CharField(max_length=64, required=False, allow_blank=True)
