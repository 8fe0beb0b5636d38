"""The public Babel On! calculator (``shared/api/calculators.md``): is a tower complete and
perfect (BO-13)? Stateless, no account needed; the same checks as the session pages."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from scoring.babel_on.tower import cells, check_built, failures, floors, is_complete, tower_from_floors, value
from scoring.errors import RuleError, gettext_noop
from sessions.api import schema
from sessions.api.calculators import calculator
from sessions.api.fields import Text, Whole


class TowerIn(serializers.Serializer):
    players = Whole()
    color = Text(min_length=1, max_length=40)
    floors = serializers.ListField(child=serializers.ListField(child=Text(allow_null=True)))


@extend_schema(
    operation_id="calculators_babel_on_tower",
    summary="Babel On!: is a tower complete and perfect (BO-13)?",
    request=schema.TowerDoc,
    responses={200: schema.TowerOut, **schema.BAD_INPUT},
    tags=["calculators"],
)
@calculator
def babel_on_tower(request: Request) -> Response:
    incoming = TowerIn(data=request.data)
    incoming.is_valid(raise_exception=True)
    data: dict[str, Any] = incoming.validated_data
    low, high = value("players")
    if not low <= data["players"] <= high:
        raise RuleError(
            gettext_noop("Babel On! is played by {low} to {high} players."),
            field="players",
            rule="BO-1",
            params={"low": low, "high": high},
        )
    if len(data["floors"]) > floors():
        raise RuleError(
            gettext_noop("A tower has floors 1 to {floors}."), field="floors", rule="BO-7", params={"floors": floors()}
        )
    for index, floor in enumerate(data["floors"]):
        if len(floor) != len(cells()):
            raise RuleError(
                gettext_noop("A floor has 4 cells: north-west, north-east, south-west, south-east."),
                field=f"floors[{index}]",
                rule="BO-7",
            )
    tower = tower_from_floors(data["floors"])
    check_built(tower, field="floors")
    found = failures(tower, data["color"], data["players"])
    return Response(
        {
            "complete": is_complete(tower),
            "perfect": not found,
            "failures": [
                {
                    "rule": "BO-13",
                    "floor": failure.floor,
                    "reason": gettext(failure.template).format(**failure.params),
                    "condition": failure.condition,
                }
                for failure in found
            ],
        }
    )
