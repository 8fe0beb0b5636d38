"""Query-string filters of the API lists, checked like any other input.

Each list names its filters with a serializer, so a malformed value answers the uniform 400
(``{"errors": [{"field": "date_from", ...}]}``) and the OpenAPI schema lists them. An empty
value (``?date_to=``) is a value to check, not a filter left out (``query``); a game nobody
plays here is a 400 naming the games, not an empty list.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers
from rest_framework.request import Request

from sessions.games import GAMES
from sessions.models import GameNight, GameSession, Result

# Ids above this are refused as input (400) before a query could overflow the database's integer.
MAX_ID = 2**31 - 1


def query(request: Request) -> dict[str, str]:
    """The query string, one value per name (the last, as ``QueryDict.get`` reads it). Given
    the QueryDict itself, DRF reads an empty value as the field left out: ``?date_to=`` or
    ``?status=`` would quietly filter nothing."""
    return request.query_params.dict()


class GameFilter(serializers.ChoiceField):
    """A game's slug; another is a 400 naming the games there are."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(choices=sorted(GAMES), required=False, **kwargs)

    def to_internal_value(self, data: Any) -> Any:
        try:
            return super().to_internal_value(data)
        except serializers.ValidationError:
            message = gettext("There is no such game: the games are %(games)s.") % {"games": ", ".join(sorted(GAMES))}
            raise serializers.ValidationError(message, code="invalid_choice") from None


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
    group = serializers.IntegerField(
        required=False, min_value=1, max_value=MAX_ID, help_text=_("Only this group's sessions.")
    )
    night = serializers.IntegerField(
        required=False, min_value=1, max_value=MAX_ID, help_text=_("Only this game night's sessions.")
    )
    game = GameFilter(help_text=_("A game's slug, e.g. tower-of-babel."))
    player = serializers.IntegerField(
        required=False, min_value=1, max_value=MAX_ID, help_text=_("Sessions this player has a seat in.")
    )
    status = serializers.ChoiceField(
        required=False, choices=[value for value, _label in GameSession.STATUSES], help_text=_("The session's status.")
    )
    date_from = serializers.DateField(required=False, help_text=_("Sessions of nights on or after this date."))
    date_to = serializers.DateField(required=False, help_text=_("Sessions of nights on or before this date."))

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        return _from_to(attrs)


# Each filter's field lookup; ``player`` on sessions follows the seats.
SESSION_LOOKUPS = {
    "group": "group_id",
    "night": "night_id",
    "game": "game",
    "player": "seats__player_id",
    "status": "status",
    "date_from": "night__date__gte",
    "date_to": "night__date__lte",
}
RESULT_LOOKUPS = {
    "group": "session__group_id",
    "night": "session__night_id",
    "session": "session_id",
    "game": "session__game",
    "player": "player_id",
    "rank": "rank",
    "date_from": "session__night__date__gte",
    "date_to": "session__night__date__lte",
}


def _filtered(rows: QuerySet[Any], filters: dict[str, Any], lookups: dict[str, str]) -> QuerySet[Any]:
    return rows.filter(**{lookups[name]: value for name, value in filters.items() if name in lookups})


def filter_sessions(sessions: QuerySet[GameSession], filters: dict[str, Any]) -> QuerySet[GameSession]:
    return _filtered(sessions, filters, SESSION_LOOKUPS)


class ResultFilter(serializers.Serializer):
    group = serializers.IntegerField(
        required=False, min_value=1, max_value=MAX_ID, help_text=_("Only this group's results.")
    )
    night = serializers.IntegerField(
        required=False, min_value=1, max_value=MAX_ID, help_text=_("Only this game night's results.")
    )
    session = serializers.IntegerField(
        required=False, min_value=1, max_value=MAX_ID, help_text=_("Only this session's results.")
    )
    game = GameFilter(help_text=_("A game's slug, e.g. seven-wonders."))
    player = serializers.IntegerField(
        required=False, min_value=1, max_value=MAX_ID, help_text=_("Only this player's results.")
    )
    rank = serializers.IntegerField(
        required=False, min_value=1, max_value=MAX_ID, help_text=_("Only this place (1: the wins).")
    )
    date_from = serializers.DateField(required=False, help_text=_("Results of nights on or after this date."))
    date_to = serializers.DateField(required=False, help_text=_("Results of nights on or before this date."))

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        return _from_to(attrs)


def filter_results(results: QuerySet[Result], filters: dict[str, Any]) -> QuerySet[Result]:
    return _filtered(results, filters, RESULT_LOOKUPS)
