"""Response (and richer request) shapes of the public calculators, for the OpenAPI schema only.

The calculators (``sessions/api/calculators.py``) validate their input with their own
serializers and build their answers by hand; these describe the same JSON for the docs
(``shared/api/calculators.md`` is the contract).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular import openapi
from drf_spectacular.utils import OpenApiResponse, extend_schema_field
from rest_framework import serializers

from sessions.api.serializers import ErrorsOut

BAD_INPUT = {400: ErrorsOut}

# The refusals any operation may answer, all in the shape of sessions/api/errors.py.
REFUSALS = {
    "400": "Malformed input (a body that is not JSON or nested too deep, a bad query parameter).",
    "401": "No login or token, or a token that is wrong or expired.",
    "403": "Not allowed (or the CSRF token is missing for a login session's write).",
    "404": "No such object among yours, or no such page.",
    "406": "None of the media types in Accept can be sent.",
    "429": "Too many calls: wait the seconds Retry-After says.",
}
BODY_REFUSALS = {"415": "The body is not JSON (Content-Type)."}
CALCULATOR_REFUSALS = {"503": "The anonymous throttle cannot count calls for a moment: retry, or send a token."}


class AutoSchema(openapi.AutoSchema):
    """drf-spectacular's, with every refusal the API can answer documented on every operation
    (an operation's own description of a status wins)."""

    def _get_response_bodies(self, direction: Any = "response") -> dict[str, Any]:
        responses: dict[str, Any] = super()._get_response_bodies(direction)
        refusals = dict(REFUSALS)
        if self.method in ("POST", "PUT", "PATCH"):
            refusals.update(BODY_REFUSALS)
        if "/calculators/" in self.path:
            refusals.update(CALCULATOR_REFUSALS)
        for code, description in refusals.items():
            if code not in responses:
                answer = OpenApiResponse(response=ErrorsOut, description=description)
                responses[code] = self._get_response_for_code(answer, code, direction=direction)
        return responses


CUBE_STATUSES = ["in_progress", "won", "drawn"]


ROW = {"oneOf": [{"type": "integer", "minimum": 1, "maximum": 7}, {"type": "string", "enum": ["final"]}]}


@extend_schema_field(ROW)
class RowDoc(serializers.Field):
    def to_representation(self, value: Any) -> Any:
        return value


class WonderDoc(serializers.Serializer):
    parts = serializers.DictField(
        child=serializers.IntegerField(min_value=0, max_value=200), help_text="Parts on the wonder per player key."
    )
    row = RowDoc(help_text='The row 1 to 7, or "final" (the light row, TB-20).')
    values = serializers.ListField(
        child=serializers.IntegerField(min_value=0, max_value=1000),
        min_length=2,
        max_length=2,
        required=False,
        help_text="Overrides the row's [first, second] values.",
    )


class WonderOut(serializers.Serializer):
    points = serializers.DictField(child=serializers.IntegerField(), help_text="Points per player key (TB-17, TB-18).")
    values = serializers.ListField(child=serializers.IntegerField(), help_text="The row's first and second values.")
    present_points = serializers.IntegerField(help_text="What a player with parts on the wonder gets at least.")


class DiscsOut(serializers.Serializer):
    total = serializers.IntegerField()
    sets = serializers.DictField(child=serializers.IntegerField(), help_text="Bonus points per disc kind (TB-7).")
    assignment = serializers.ListField(
        child=serializers.CharField(), help_text="The kind each disc scores for, in input order."
    )
    action_card_points = serializers.IntegerField()
    bonus_table = serializers.DictField(child=serializers.IntegerField(), help_text="Points by number of discs.")


class ScienceDoc(serializers.Serializer):
    tablet = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=999)
    compass = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=999)
    gear = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=999)
    wild = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=999)
    archives = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=999)


class SheetDoc(serializers.Serializer):
    """A sheet: every count but name and coins may be left out or null (0)."""

    name = serializers.CharField(min_length=1, max_length=40)
    coins = serializers.IntegerField(min_value=0, max_value=999)
    military = serializers.IntegerField(required=False, allow_null=True, min_value=-200, max_value=999)
    wonder = serializers.IntegerField(required=False, allow_null=True, min_value=-200, max_value=999)
    civilian = serializers.IntegerField(required=False, allow_null=True, min_value=-200, max_value=999)
    science = ScienceDoc(required=False, allow_null=True)
    commercial = serializers.IntegerField(required=False, allow_null=True, min_value=-200, max_value=999)
    guilds = serializers.IntegerField(required=False, allow_null=True, min_value=-200, max_value=999)
    leaders = serializers.IntegerField(required=False, allow_null=True, min_value=-200, max_value=999)
    cities = serializers.IntegerField(required=False, allow_null=True, min_value=-200, max_value=999)
    babel_tiles = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=3)
    great_projects = serializers.IntegerField(required=False, allow_null=True, min_value=-200, max_value=999)
    smelter = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=999)
    wonder_stages = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=999)
    menagerie = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=999)
    guilds_around = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=999)


class SevenWondersScoreDoc(serializers.Serializer):
    players = SheetDoc(many=True, help_text="1 to 8 sheets; every column but name and coins defaults to 0.")


class SheetOut(serializers.Serializer):
    name = serializers.CharField()
    columns = serializers.DictField(child=serializers.IntegerField())
    total = serializers.IntegerField()
    rank = serializers.IntegerField(help_text="Competition ranking after the coin tie-break (SW-14).")
    science_symbols = serializers.DictField(child=serializers.IntegerField())


class SevenWondersScoreOut(serializers.Serializer):
    players = SheetOut(many=True)
    winners = serializers.ListField(child=serializers.CharField())


class ProjectOutcomeOut(serializers.Serializer):
    name = serializers.CharField()
    outcome = serializers.ChoiceField(choices=["reward", "penalty", "penalty_token", "none"])
    times = serializers.IntegerField()
    vp = serializers.IntegerField(required=False, help_text="With penalty_token: -1, -2 or -3 by age.")


class GreatProjectOut(serializers.Serializer):
    success = serializers.BooleanField()
    results = ProjectOutcomeOut(many=True)
    project = serializers.DictField(help_text="The Great Project card.")


class CubeMoveDoc(serializers.Serializer):
    cell = serializers.ChoiceField(choices=["nw", "ne", "sw", "se"])
    type = serializers.IntegerField(min_value=0, max_value=4)
    bulges = serializers.ListField(
        child=serializers.ChoiceField(choices=["up", "down", "north", "south", "east", "west"]),
        required=False,
        help_text="The bulging faces, each once; left out: none (a type 0 cube).",
    )


class CubeGeometryDoc(serializers.Serializer):
    type2 = serializers.ChoiceField(choices=["adjacent", "opposite"], required=False)
    type3 = serializers.ChoiceField(choices=["corner", "u"], required=False)


class CubePositionDoc(serializers.Serializer):
    moves = CubeMoveDoc(many=True)
    geometry = CubeGeometryDoc(required=False)
    solve = serializers.BooleanField(required=False, default=False)


class CubePositionOut(serializers.Serializer):
    status = serializers.ChoiceField(choices=CUBE_STATUSES)
    to_move = serializers.IntegerField(allow_null=True)
    winner = serializers.IntegerField(allow_null=True)
    level = serializers.IntegerField()
    legal_moves = CubeMoveDoc(many=True)
    value = serializers.ChoiceField(choices=["win", "loss", "draw"], required=False)
    best_moves = CubeMoveDoc(many=True, required=False)


class TowerDoc(serializers.Serializer):
    players = serializers.IntegerField(help_text="How many play (BO-1).")
    color = serializers.CharField(help_text="The colour whose tower this is.")
    floors = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField(allow_null=True), min_length=4, max_length=4),
        help_text="Floors from the bottom; cells north-west, north-east, south-west, south-east; null is empty.",
    )


class TowerFailureOut(serializers.Serializer):
    rule = serializers.CharField()
    floor = serializers.IntegerField()
    reason = serializers.CharField()
    condition = serializers.CharField(required=False)


class TowerOut(serializers.Serializer):
    complete = serializers.BooleanField()
    perfect = serializers.BooleanField()
    failures = TowerFailureOut(many=True)
