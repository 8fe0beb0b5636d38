"""Explicit input and output serializers for the session API."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from scoring.errors import RuleError
from sessions import names
from sessions.api.fields import Flag, Text, Whole
from sessions.api.filters import MAX_ID
from sessions.boards import public_state
from sessions.games import GAMES
from sessions.models import GameNight, GameSession, Group, Player, Result, Seat, SessionEvent
from sessions.rule_messages import describe


class NameField(Text):
    """A name as ``sessions.names`` keeps it, its control and invisible characters refused
    (the services then check that it can be told apart from the others)."""

    def __init__(self, *, place: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.place = place

    def to_internal_value(self, data: Any) -> str:
        text = super().to_internal_value(data)
        try:
            return names.clean_name(text, field=self.field_name or "name", limit=self.max_length or 0, place=self.place)
        except RuleError as refused:
            raise serializers.ValidationError(describe(refused), code="invalid") from None


@extend_schema_serializer(component_name="SessionSeat")
class SeatOut(serializers.ModelSerializer):
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField(source="player.name")

    class Meta:
        model = Seat
        fields = ["order", "player", "name", "colour"]


@extend_schema_serializer(component_name="SessionResult")
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
    secret = serializers.CharField(
        source="published_secret",
        allow_null=True,
        help_text=(
            "What the deal and the app's dice were drawn from (hex; the engines' seed is its value)."
            " Null until the session is finished (an abandoned one can be taken up again); published then,"
            " so the table can check the deal."
        ),
    )

    class Meta:
        model = GameSession
        fields = ["id", "group", "night", "game", "options", "status", "secret", "version", "state", "seats", "results"]

    def get_state(self, session: GameSession) -> dict[str, Any]:
        return public_state(session)


class EventOut(serializers.ModelSerializer):
    # null for a move made without an account (a phone): author_label says who.
    author = serializers.CharField(source="author.get_username", default=None, allow_null=True)

    class Meta:
        model = SessionEvent
        fields = ["seq", "type", "payload", "author", "author_label", "created_at"]


class EventsSince(serializers.Serializer):
    since = serializers.IntegerField(
        min_value=0, required=False, default=0, help_text="Only the events after this sequence number."
    )


class EventIn(serializers.Serializer):
    type = Text(max_length=40)
    payload = serializers.DictField(required=False, default=dict)
    expected_version = Whole(min_value=0, max_value=MAX_ID)
    idempotency_key = Text(max_length=64, required=False, allow_blank=True)


class RematchIn(serializers.Serializer):
    idempotency_key = Text(
        max_length=64,
        required=False,
        allow_blank=True,
        help_text="As the Idempotency-Key header: send it again to get the first rematch, not a second.",
    )


class ErrorOut(serializers.Serializer):
    field = serializers.CharField(help_text="The field, with list indexes: discs[1], scores.12.")
    rule = serializers.CharField(allow_null=True, help_text="The rule id (TB-2 ...), null for malformed input.")
    code = serializers.CharField(
        help_text=(
            "What went wrong, for programs: stable, never translated (the message is). "
            "`rule`: a rule of the game refuses it (its id is in `rule`); "
            "`invalid`, `required`, `null`, `blank`, `invalid_choice`, `max_length`, `min_length`, "
            "`max_value`, `min_value`, `not_a_list`, `not_a_dict`, `empty`: the field's value; "
            "`parse_error`: the body is not JSON (or nested too deep); "
            "`not_authenticated`, `authentication_failed`: no credentials, or wrong or expired ones (401); "
            "`permission_denied` (403); `not_found` (404); `method_not_allowed` (405); "
            "`not_acceptable` (406); `stale`: the session moved on (409); "
            "`too_many_tokens`: the account holds API_TOKENS_PER_ACCOUNT tokens (409); "
            "`unsupported_media_type` (415); `idempotency_key_reused`: the key came with another "
            "request (422); `throttled` (429); `throttle_unavailable` (503)."
        )
    )
    message = serializers.CharField(help_text="The same, for people: in the request's language.")


class ErrorsOut(serializers.Serializer):
    """Every 400 (see sessions/api/errors.py)."""

    def get_fields(self) -> dict[str, serializers.Field]:
        # Declared here: a class attribute called ``errors`` would hide Serializer.errors.
        return {**super().get_fields(), "errors": ErrorOut(many=True)}


class ConflictOut(ErrorsOut):
    """Small on purpose: under many writers most answers are 409s (issue 15, item 11)."""

    version = serializers.IntegerField(help_text="The session's version now.")
    session = serializers.URLField(help_text="The session, to read it whole.")
    events = serializers.URLField(help_text="Only the events you missed: those after your expected_version.")


class EventsOut(serializers.Serializer):
    version = serializers.IntegerField()
    events = EventOut(many=True)


class EventCreatedOut(serializers.Serializer):
    event = EventOut()
    session = SessionOut()
    created = serializers.BooleanField(help_text="False when the Idempotency-Key was seen before.")


class GroupOut(serializers.ModelSerializer):
    role = serializers.CharField(help_text="Your role in the group: owner or member.")

    class Meta:
        model = Group
        fields = ["id", "name", "created_at", "role"]


class GroupIn(serializers.Serializer):
    name = NameField(max_length=80)


class PlayerOut(serializers.ModelSerializer):
    group = serializers.IntegerField(source="group_id")
    archived = serializers.BooleanField(
        read_only=True, help_text="Removed with history kept: their results stay, new sessions cannot seat them."
    )

    class Meta:
        model = Player
        fields = [
            "id",
            "group",
            "name",
            "created_at",
            "archived",
            "archived_at",
            "hidden_from_leaderboards",
            "anonymised_at",
        ]
        read_only_fields = ["archived_at", "hidden_from_leaderboards", "anonymised_at"]
        extra_kwargs = {
            "hidden_from_leaderboards": {
                "help_text": "Left out of the leaderboards and of other players' rival and nemesis; "
                "their results and statistics stay."
            },
            "anonymised_at": {"help_text": "When the name became an anonymous label (it cannot be undone)."},
        }


class PlayerIn(serializers.Serializer):
    name = NameField(max_length=40)


class PlayerChangeIn(serializers.Serializer):
    """A PATCH of a player: a new name, the privacy switch, both, or neither (no change)."""

    name = NameField(max_length=40, required=False)
    hidden_from_leaderboards = Flag(
        required=False,
        help_text="Hide the player from the leaderboards (true) or show them again (false): "
        "the group's owner or the player's own account only (403 for another member).",
    )


class NightOut(serializers.ModelSerializer):
    group = serializers.IntegerField(source="group_id")

    class Meta:
        model = GameNight
        fields = ["id", "group", "date", "place", "notes", "created_at"]


class NightIn(serializers.Serializer):
    date = serializers.DateField(required=False)
    place = NameField(max_length=80, required=False, allow_blank=True, default="", place=True)
    notes = Text(max_length=2000, required=False, allow_blank=True, default="")


class SessionSummaryOut(serializers.ModelSerializer):
    """A session in a list: its seats and results, without the (large) game state."""

    seats = SeatOut(many=True)
    results = ResultOut(many=True)
    night = serializers.IntegerField(source="night_id")
    group = serializers.IntegerField(source="group_id")
    date = serializers.DateField(source="night.date")

    class Meta:
        model = GameSession
        fields = [
            "id",
            "group",
            "night",
            "date",
            "game",
            "options",
            "status",
            "version",
            "created_at",
            "finished_at",
            "seats",
            "results",
        ]


class SessionIn(serializers.Serializer):
    game = serializers.ChoiceField(choices=sorted(GAMES))
    players = serializers.ListField(
        child=Whole(min_value=1, max_value=MAX_ID),
        min_length=1,
        max_length=8,
        help_text="Player ids in seat order.",
    )
    colours = serializers.ListField(
        child=Text(max_length=20, allow_blank=True),
        required=False,
        default=list,
        max_length=8,
        help_text=(
            "Colours in seat order. A seat left out (the list omitted, or shorter than players) defaults to"
            " the remembered one: the colour its player had in their latest session of this game in the group,"
            " unless another seat has it, else the first colour of the game nobody has. An empty string is no"
            " colour."
        ),
    )
    options = serializers.DictField(required=False, default=dict)


class ResultRowOut(serializers.ModelSerializer):
    """A result with its session's context, for lists across sessions."""

    session = serializers.IntegerField(source="session_id")
    group = serializers.IntegerField(source="session.group_id")
    night = serializers.IntegerField(source="session.night_id")
    date = serializers.DateField(source="session.night.date")
    game = serializers.CharField(source="session.game")
    finished_at = serializers.DateTimeField(source="session.finished_at")
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField(source="player.name")

    class Meta:
        model = Result
        fields = [
            "id",
            "session",
            "group",
            "night",
            "date",
            "game",
            "finished_at",
            "player",
            "name",
            "score",
            "rank",
            "breakdown",
        ]
