"""The public calculators (``shared/api/calculators.md``): stateless, no account needed.

They call the same rule engines as the pages. Anonymous calls are throttled at the rate in
``CALCULATOR_ANON_RATE`` (off when it is 0).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.decorators import api_view, authentication_classes, permission_classes, throttle_classes
from rest_framework.exceptions import APIException
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import AnonRateThrottle

from scoring.babel_cubes.engine import analyse
from scoring.errors import RuleError, gettext_noop
from scoring.seven_wonders.data import project
from scoring.seven_wonders.projects import Participant, resolve
from scoring.seven_wonders.sheet import rank_sheets, score_sheet
from scoring.tower_of_babel.discs import check_held_card_names, score_discs
from scoring.tower_of_babel.table import Table, check_row, load_table
from scoring.tower_of_babel.wonders import score_wonder
from sessions import caching
from sessions.api import schema
from sessions.api.authentication import TokenAuthentication
from sessions.api.fields import Flag, Text, Whole


class ThrottleUnavailable(APIException):
    """503: the anonymous throttle cannot count calls (its cache does not answer)."""

    status_code = status.HTTP_503_SERVICE_UNAVAILABLE
    default_detail = gettext_lazy(
        "The calculators cannot take anonymous calls for a moment: the server cannot count them "
        "(its cache does not answer). Try again in a minute, or send an API token."
    )
    default_code = "throttle_unavailable"
    wait = caching.RETRY_AFTER_SECONDS  # DRF sends it as Retry-After


class CalculatorThrottle(AnonRateThrottle):
    """The anonymous rate limit; while its cache does not answer, anonymous calls get a 503
    that says why (token calls are not throttled and go on)."""

    scope = "calculator"

    def allow_request(self, request: Any, view: Any) -> bool:
        try:
            return super().allow_request(request, view)
        except caching.CACHE_ERRORS as error:
            caching.logger.warning("calculator call refused: the throttle's cache does not answer (%s)", error)
            raise ThrottleUnavailable from error


def calculator(view: Any) -> Any:
    """A public POST endpoint: anyone may call it, tokens lift the anonymous throttle."""
    view = throttle_classes([CalculatorThrottle])(view)
    view = permission_classes([AllowAny])(view)
    view = authentication_classes([TokenAuthentication])(view)
    return api_view(["POST"])(view)


class PlayerKeyed(serializers.DictField):
    """A JSON object keyed by player: keys are 1 to 40 characters."""

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        value: dict[str, Any] = super().to_internal_value(data)
        for key in value:
            if not 1 <= len(key) <= 40:
                raise serializers.ValidationError({key: _("A player key is 1 to 40 characters.")})
        return value


class RowField(serializers.Field):
    def to_internal_value(self, data: Any) -> int | str:
        if data == "final" or (isinstance(data, int) and not isinstance(data, bool)):
            return data
        raise serializers.ValidationError(_('A row is a number from 1 to 7, or "final".'))

    def to_representation(self, value: Any) -> Any:
        return value


class WonderIn(serializers.Serializer):
    parts = PlayerKeyed(child=Whole(min_value=0, max_value=200), allow_empty=False)
    row = RowField()
    values = serializers.ListField(child=Whole(min_value=0, max_value=1000), min_length=2, max_length=2, required=False)


class ActionCardsIn(serializers.Serializer):
    building_disc_bonus = Whole(min_value=0, default=0)
    five_points = Whole(min_value=0, default=0)

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, dict):  # an unknown card is refused, not dropped (TB-20)
            check_held_card_names(data, field="action_cards")
        return super().to_internal_value(data)


class DiscsIn(serializers.Serializer):
    discs = serializers.ListField(child=serializers.ListField(child=Text(max_length=20)), max_length=24)
    action_cards = ActionCardsIn(required=False)
    bonus_table = serializers.DictField(child=Whole(min_value=0, max_value=1000), required=False)


def _count(**kwargs: Any) -> Whole:
    # A count the sheet may leave out or send as null (0): its range is the sheet's rule to check.
    return Whole(required=False, allow_null=True, **kwargs)


class SheetScienceIn(serializers.Serializer):
    tablet = _count()
    compass = _count()
    gear = _count()
    wild = _count()
    archives = _count()


class SheetPlayerIn(serializers.Serializer):
    """The JSON types of a sheet (``schema.SheetDoc``); the counts' ranges are the sheet's to
    check, naming their rules (``scoring.seven_wonders.sheet.score_sheet``)."""

    name = Text(min_length=1, max_length=40)
    coins = Whole()
    military = _count()
    wonder = _count()
    civilian = _count()
    commercial = _count()
    guilds = _count()
    leaders = _count()
    cities = _count()
    babel_tiles = _count()
    great_projects = _count()
    smelter = _count()
    wonder_stages = _count()
    menagerie = _count()
    guilds_around = _count()
    science = SheetScienceIn(required=False, allow_null=True)


class SevenWondersScoreIn(serializers.Serializer):
    players = serializers.ListField(child=serializers.DictField(), min_length=1, max_length=8)


class ParticipantIn(serializers.Serializer):
    name = Text(min_length=1, max_length=40)
    markers = Whole(min_value=0, max_value=20)
    can_suffer_penalty = Flag(default=True)


class GreatProjectIn(serializers.Serializer):
    project = Text(max_length=40)
    players = ParticipantIn(many=True, allow_empty=False)
    markers_left = Whole(min_value=0, max_value=20)
    age = Whole(min_value=1, max_value=3)
    tiles = serializers.ListField(child=Whole(min_value=1, max_value=24), required=False, default=list)


@extend_schema(
    operation_id="calculators_seven_wonders_score",
    summary="7 Wonders (with Babel): the end-of-game sheet (SW-12..SW-14)",
    request=schema.SevenWondersScoreDoc,
    responses={200: schema.SevenWondersScoreOut, **schema.BAD_INPUT},
    tags=["calculators"],
)
@calculator
def seven_wonders_score(request: Request) -> Response:
    incoming = SevenWondersScoreIn(data=request.data)
    incoming.is_valid(raise_exception=True)
    entries = incoming.validated_data["players"]
    for index, entry in enumerate(entries):
        checked = SheetPlayerIn(data=entry)
        if not checked.is_valid():
            # Keyed by index, as DRF reports list items, so the field reads "players[1].coins".
            raise serializers.ValidationError({"players": {index: checked.errors}})  # type: ignore[dict-item]
    _check_unique_names([entry["name"] for entry in entries], "players")
    sheets = [score_sheet(entry, field=f"players[{index}]") for index, entry in enumerate(entries)]
    ranks = rank_sheets(sheets)
    players = [
        {"name": s.name, "columns": s.columns, "total": s.total, "rank": ranks[s.name], "science_symbols": s.science}
        for s in sheets
    ]
    return Response({"players": players, "winners": [s.name for s in sheets if ranks[s.name] == 1]})


@extend_schema(
    operation_id="calculators_seven_wonders_great_project",
    summary="7 Wonders: Babel: a Great Project's end-of-age resolution (SW-10)",
    request=GreatProjectIn,
    responses={200: schema.GreatProjectOut, **schema.BAD_INPUT},
    tags=["calculators"],
)
@calculator
def seven_wonders_great_project(request: Request) -> Response:
    incoming = GreatProjectIn(data=request.data)
    incoming.is_valid(raise_exception=True)
    data = incoming.validated_data
    _check_unique_names([p["name"] for p in data["players"]], "players")
    success, outcomes = resolve(
        data["project"],
        [Participant(**player) for player in data["players"]],
        markers_left=data["markers_left"],
        age=data["age"],
        tiles=data["tiles"],
    )
    results = []
    for outcome in outcomes:
        row: dict[str, Any] = {"name": outcome.name, "outcome": outcome.outcome, "times": outcome.times}
        if outcome.vp is not None:
            row["vp"] = outcome.vp
        if outcome.defeat_tokens:  # a penalty's defeat tokens, after tile 22 (SW-10)
            row["defeat_tokens"] = outcome.defeat_tokens
        results.append(row)
    return Response({"success": success, "results": results, "project": project(data["project"])})


class BabelCubesPositionIn(serializers.Serializer):
    # Each move is checked by the engine, which names ``moves[i].field`` and the rule; it stops
    # at the first refused one, a move after the game's end (BC-9) at the latest, so no length
    # limit here (it would refuse a 25th cube with no rule).
    moves = serializers.ListField(child=serializers.JSONField())
    geometry = serializers.DictField(child=Text(max_length=20), required=False)
    solve = Flag(default=False)


@extend_schema(
    operation_id="calculators_babel_cubes_position",
    summary="babel (cube tower): replay a game, its legal moves and, with solve, its value (BC-1..9)",
    request=schema.CubePositionDoc,
    responses={200: schema.CubePositionOut, **schema.BAD_INPUT},
    tags=["calculators"],
)
@calculator
def babel_cubes_position(request: Request) -> Response:
    incoming = BabelCubesPositionIn(data=request.data)
    incoming.is_valid(raise_exception=True)
    data = incoming.validated_data
    return Response(analyse(data["moves"], data.get("geometry"), solve=data["solve"]))


def _check_unique_names(names: list[str], field: str) -> None:
    seen: set[str] = set()
    for index, name in enumerate(names):
        if name in seen:
            raise RuleError(gettext_noop("Each player key is used once."), field=f"{field}[{index}].name")
        seen.add(name)


@extend_schema(
    operation_id="calculators_tower_of_babel_wonder",
    summary="Tower of Babel: one wonder's scoring (TB-17, TB-18)",
    request=schema.WonderDoc,
    responses={200: schema.WonderOut, **schema.BAD_INPUT},
    tags=["calculators"],
)
@calculator
def tower_of_babel_wonder(request: Request) -> Response:
    incoming = WonderIn(data=request.data)
    incoming.is_valid(raise_exception=True)
    data = incoming.validated_data
    table = load_table()
    values = tuple(data["values"]) if "values" in data else table.row_values(data["row"])
    if "values" in data:
        table.row_values(data["row"])  # the row must still be a real one (TB-6)
        check_row(values, field="values")
    points = score_wonder(data["parts"], values, table.present_points)
    return Response({"points": points, "values": list(values), "present_points": table.present_points})


@extend_schema(
    operation_id="calculators_tower_of_babel_discs",
    summary="Tower of Babel: a player's disc-set bonus and action cards (TB-7, TB-20)",
    request=DiscsIn,
    responses={200: schema.DiscsOut, **schema.BAD_INPUT},
    tags=["calculators"],
)
@calculator
def tower_of_babel_discs(request: Request) -> Response:
    incoming = DiscsIn(data=request.data)
    incoming.is_valid(raise_exception=True)
    data = incoming.validated_data
    table = _with_bonus_table(load_table(), data.get("bonus_table"))
    cards = data.get("action_cards", {})
    _check_action_cards(table, cards)
    result = score_discs(
        table,
        data["discs"],
        building_disc_bonus=cards.get("building_disc_bonus", 0),
        five_points=cards.get("five_points", 0),
    )
    return Response(
        {
            "total": result.total,
            "sets": result.sets,
            "assignment": result.assignment,
            "action_card_points": result.action_card_points,
            "bonus_table": {str(count): points for count, points in enumerate(table.set_bonus)},
        }
    )


def _with_bonus_table(table: Table, overrides: dict[str, int] | None) -> Table:
    if not overrides:
        return table
    bonus = list(table.set_bonus)
    for key, points in overrides.items():
        if key not in {str(count) for count in range(len(bonus))}:
            raise RuleError(
                gettext_noop("The table has a row for 0 to {last} discs."),
                field=f"bonus_table.{key}",
                rule="TB-7",
                params={"last": len(bonus) - 1},
            )
        bonus[int(key)] = points
    return dataclasses.replace(table, set_bonus=tuple(bonus))


def _check_action_cards(table: Table, cards: dict[str, int]) -> None:
    for name, count in cards.items():
        table.check_deck(name, count, field=f"action_cards.{name}")
