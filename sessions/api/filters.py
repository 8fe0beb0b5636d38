"""Query-string filters of the API lists, checked like any other input.

Each list names its filters with a serializer, so a malformed value answers the uniform 400
(``{"errors": [{"field": "date_from", ...}]}``) and the OpenAPI schema lists them.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from sessions.models import GameNight, GameSession, Result


def _from_to(attrs: dict[str, Any]) -> dict[str, Any]:
    low, high = attrs.get("date_from"), attrs.get("date_to")
    if low is not None and high is not None and low > high:
        raise serializers.ValidationError({"date_to": _("The end date is before the start date.")})
    return attrs


class NightFilter(serializers.Serializer):
    date_from = serializers.DateField(required=False, help_text=_("Nights on or after this date."))
    date_to = serializers.DateField(required=False, help_text=_("Nights on or before this date."))

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        return _from_to(attrs)


def filter_nights(nights: QuerySet[GameNight], filters: dict[str, Any]) -> QuerySet[GameNight]:
    if "date_from" in filters:
        nights = nights.filter(date__gte=filters["date_from"])
    if "date_to" in filters:
        nights = nights.filter(date__lte=filters["date_to"])
    return nights


class SessionFilter(serializers.Serializer):
    group = serializers.IntegerField(required=False, min_value=1, help_text=_("Only this group's sessions."))
    night = serializers.IntegerField(required=False, min_value=1, help_text=_("Only this game night's sessions."))
    game = serializers.CharField(required=False, max_length=30, help_text=_("A game's slug, e.g. tower-of-babel."))
    player = serializers.IntegerField(required=False, min_value=1, help_text=_("Sessions this player has a seat in."))
    status = serializers.ChoiceField(
        required=False, choices=[value for value, _label in GameSession.STATUSES], help_text=_("The session's status.")
    )
    date_from = serializers.DateField(required=False, help_text=_("Sessions of nights on or after this date."))
    date_to = serializers.DateField(required=False, help_text=_("Sessions of nights on or before this date."))

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        return _from_to(attrs)


def filter_sessions(sessions: QuerySet[GameSession], filters: dict[str, Any]) -> QuerySet[GameSession]:
    if "group" in filters:
        sessions = sessions.filter(group_id=filters["group"])
    if "night" in filters:
        sessions = sessions.filter(night_id=filters["night"])
    if "game" in filters:
        sessions = sessions.filter(game=filters["game"])
    if "player" in filters:
        sessions = sessions.filter(seats__player_id=filters["player"])
    if "status" in filters:
        sessions = sessions.filter(status=filters["status"])
    if "date_from" in filters:
        sessions = sessions.filter(night__date__gte=filters["date_from"])
    if "date_to" in filters:
        sessions = sessions.filter(night__date__lte=filters["date_to"])
    return sessions


class ResultFilter(serializers.Serializer):
    group = serializers.IntegerField(required=False, min_value=1, help_text=_("Only this group's results."))
    night = serializers.IntegerField(required=False, min_value=1, help_text=_("Only this game night's results."))
    session = serializers.IntegerField(required=False, min_value=1, help_text=_("Only this session's results."))
    game = serializers.CharField(required=False, max_length=30, help_text=_("A game's slug, e.g. seven-wonders."))
    player = serializers.IntegerField(required=False, min_value=1, help_text=_("Only this player's results."))
    rank = serializers.IntegerField(required=False, min_value=1, help_text=_("Only this place (1: the wins)."))
    date_from = serializers.DateField(required=False, help_text=_("Results of nights on or after this date."))
    date_to = serializers.DateField(required=False, help_text=_("Results of nights on or before this date."))

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        return _from_to(attrs)


def filter_results(results: QuerySet[Result], filters: dict[str, Any]) -> QuerySet[Result]:
    if "group" in filters:
        results = results.filter(session__group_id=filters["group"])
    if "night" in filters:
        results = results.filter(session__night_id=filters["night"])
    if "session" in filters:
        results = results.filter(session_id=filters["session"])
    if "game" in filters:
        results = results.filter(session__game=filters["game"])
    if "player" in filters:
        results = results.filter(player_id=filters["player"])
    if "rank" in filters:
        results = results.filter(rank=filters["rank"])
    if "date_from" in filters:
        results = results.filter(session__night__date__gte=filters["date_from"])
    if "date_to" in filters:
        results = results.filter(session__night__date__lte=filters["date_to"])
    return results
