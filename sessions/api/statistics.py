"""The statistics API: a player's statistics, a game's in a group, the group's leaderboard.

The same reads and the same isolation as the pages: another group's player or group
answers 404. Ratings are the conservative value (mu - 3 sigma), ``null`` until the player
has ``MIN_RATED_PLAYS`` rated plays, each with its band (``rating_band``: mu ± 2 sigma, where
the skill likely lies, ``sessions.statistics.bands``); win rates are fractions (0.5 = half the plays).
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.decorators import api_view
from rest_framework.request import Request
from rest_framework.response import Response

from sessions import selectors
from sessions.api.filters import query
from sessions.api.pagination import MAX_PAGE_SIZE
from sessions.api.statistics_from_moves import FromTheMovesOut
from sessions.games import GAMES
from sessions.statistics import from_moves
from sessions.statistics import selectors as statistics
from sessions.statistics.ratings import MIN_RATED_PLAYS, OVERALL
from sessions.statistics.selectors import HISTORY_SHOWN, OPPONENTS_SHOWN, ORDERS, PERIODS

# --- output serializers ------------------------------------------------------------------

BAND_HELP = (
    "Where the player's skill likely lies (mu ± 2 sigma, about 19 times out of 20); null while the "
    "rating is. The rating (mu - 3 sigma) sits below it: the skill is almost surely above the rating."
)


class RatingBandOut(serializers.Serializer):
    low = serializers.FloatField()
    high = serializers.FloatField()


class GameLineOut(serializers.Serializer):
    game = serializers.CharField()
    name = serializers.CharField()
    plays = serializers.IntegerField()
    wins = serializers.IntegerField()
    win_rate = serializers.FloatField(allow_null=True)
    best = serializers.IntegerField(allow_null=True)
    average = serializers.FloatField(allow_null=True)
    worst = serializers.IntegerField(allow_null=True)
    rating = serializers.FloatField(allow_null=True)
    rating_band = RatingBandOut(source="band", allow_null=True, help_text=BAND_HELP)
    rated_plays = serializers.IntegerField()


class OpponentOut(serializers.Serializer):
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField()
    shared = serializers.IntegerField(help_text="Finished sessions played together.")
    wins = serializers.IntegerField(help_text="Sessions where the player finished above (or shared first place).")
    losses = serializers.IntegerField()
    draws = serializers.IntegerField()


class HistoryPointOut(serializers.Serializer):
    played_at = serializers.DateTimeField()
    game = serializers.CharField()
    rating = serializers.FloatField(help_text="Conservative rating in the session's game after it.")
    overall = serializers.FloatField(help_text="Conservative rating over all games after it.")


@extend_schema_field(HistoryPointOut(many=True))
class HistoryOut(serializers.Field):
    """The rating history as ``HistoryPointOut(many=True)`` writes it, written out directly: a
    point a play, and through the nested serializer a player's few hundred points cost more
    than the rest of the answer (``bench/group_sizes.py``)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(read_only=True, **kwargs)
        self.moment = serializers.DateTimeField()

    def to_representation(self, points: Any) -> list[dict[str, Any]]:
        moment = self.moment.to_representation
        return [
            {"played_at": moment(p.played_at), "game": p.game, "rating": p.rating, "overall": p.overall} for p in points
        ]


class PlayerStatisticsOut(serializers.Serializer):
    player = serializers.IntegerField(source="player.pk")
    name = serializers.CharField(source="player.name")
    group = serializers.IntegerField(source="player.group_id")
    plays = serializers.IntegerField()
    wins = serializers.IntegerField()
    win_rate = serializers.FloatField(allow_null=True)
    rating = serializers.FloatField(allow_null=True)
    rating_band = RatingBandOut(source="band", allow_null=True, help_text=BAND_HELP)
    rated_plays = serializers.IntegerField()
    min_rated_plays = serializers.SerializerMethodField()
    current_streak = serializers.IntegerField()
    longest_streak = serializers.IntegerField()
    last_played = serializers.DateTimeField(allow_null=True)
    games = GameLineOut(many=True)
    regular_opponents = OpponentOut(many=True)
    head_to_head = OpponentOut(
        many=True, source="opponents", help_text=f"The opponents with the most shared plays, at most {OPPONENTS_SHOWN}."
    )
    opponents = serializers.IntegerField(source="opponent_count", help_text="How many opponents the player has met.")
    rival = OpponentOut(allow_null=True)
    nemesis = OpponentOut(allow_null=True)
    history = HistoryOut(
        help_text=f"The latest {HISTORY_SHOWN} points of the rating history, oldest first: a point a rated play, "
        "rated_plays in all. The whole history is read a year at a time (history_years)."
    )
    history_years = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="The years with points in the rating history, oldest first: see player_rating_history.",
    )

    @extend_schema_field(OpenApiTypes.INT)
    def get_min_rated_plays(self, _stats: Any) -> int:
        return MIN_RATED_PLAYS


class RatingHistoryOut(serializers.Serializer):
    player = serializers.IntegerField()
    year = serializers.IntegerField()
    points = HistoryOut(help_text="Every point of the year, oldest first: a point a rated play.")
    years = serializers.ListField(child=serializers.IntegerField(), help_text="The years with points, oldest first.")


class SeatOut(serializers.Serializer):
    seat = serializers.IntegerField(help_text="Place in playing order, 0 = the first player.")
    plays = serializers.IntegerField()
    wins = serializers.IntegerField()
    win_rate = serializers.FloatField(allow_null=True)


class ScoreCountOut(serializers.Serializer):
    score = serializers.IntegerField()
    count = serializers.IntegerField()


class BreakdownOut(serializers.Serializer):
    key = serializers.CharField(help_text="A key of the results' breakdown (the engine's point source).")
    average = serializers.FloatField()


class TopPlayerOut(serializers.Serializer):
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField()
    rating = serializers.FloatField(allow_null=True)
    rating_band = RatingBandOut(source="band", allow_null=True, help_text=BAND_HELP)
    plays = serializers.IntegerField()


class GameStatisticsOut(serializers.Serializer):
    group = serializers.IntegerField(source="group.pk")
    game = serializers.CharField()
    name = serializers.CharField()
    plays = serializers.IntegerField()
    average_winning_score = serializers.FloatField(allow_null=True)
    best_winning_score = serializers.IntegerField(allow_null=True)
    scores = serializers.SerializerMethodField()
    seats = SeatOut(many=True)
    breakdown = serializers.SerializerMethodField()
    top = TopPlayerOut(many=True)
    from_the_moves = serializers.SerializerMethodField()

    @extend_schema_field(FromTheMovesOut(help_text="What the sessions' logs say beyond their scores."))
    def get_from_the_moves(self, view: statistics.GameStatisticsView) -> dict[str, Any]:
        return dict(FromTheMovesOut(from_moves.moves_of_game(view.group, view.game)).data)

    @extend_schema_field(ScoreCountOut(many=True))
    def get_scores(self, view: statistics.GameStatisticsView) -> list[dict[str, int]]:
        return [{"score": score, "count": count} for score, count in view.scores]

    @extend_schema_field(BreakdownOut(many=True))
    def get_breakdown(self, view: statistics.GameStatisticsView) -> list[dict[str, Any]]:
        return [{"key": key, "average": average} for key, average in view.breakdown]


class LeaderboardRowOut(serializers.Serializer):
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField()
    rating = serializers.FloatField(allow_null=True)
    rating_band = RatingBandOut(source="band", allow_null=True, help_text=BAND_HELP)
    plays = serializers.IntegerField()
    wins = serializers.IntegerField()
    win_rate = serializers.FloatField(allow_null=True)


class LeaderboardOut(serializers.Serializer):
    group = serializers.IntegerField()
    game = serializers.CharField(help_text='The game, or "" for all games.')
    period = serializers.ChoiceField(choices=PERIODS)
    order = serializers.ChoiceField(choices=ORDERS)
    min_plays = serializers.IntegerField()
    limit = serializers.IntegerField()
    players = serializers.IntegerField(help_text="How many players the leaderboard has; rows holds the first `limit`.")
    rows = LeaderboardRowOut(many=True)


class LeaderboardIn(serializers.Serializer):
    game = serializers.ChoiceField(choices=[OVERALL, *GAMES], required=False, default=OVERALL, allow_blank=True)
    period = serializers.ChoiceField(choices=PERIODS, required=False, default="all")
    order = serializers.ChoiceField(choices=ORDERS, required=False, default="rating")
    min_plays = serializers.IntegerField(min_value=0, max_value=100_000, required=False, default=0)
    # The first rows only, as the page shows them: a group's thousand players are not sent
    # on every read.
    limit = serializers.IntegerField(min_value=1, max_value=MAX_PAGE_SIZE, required=False, default=50)


# --- views -------------------------------------------------------------------------------


@extend_schema(
    operation_id="player_statistics",
    summary="A player's statistics: plays, wins, scores per game, streaks, opponents, rating history",
    responses={200: PlayerStatisticsOut},
    tags=["statistics"],
)
@api_view(["GET"])
def player_statistics(request: Request, player_id: int) -> Response:
    player = selectors.player_of_member(request.user, player_id)
    return Response(PlayerStatisticsOut(statistics.player_statistics(player, history=HISTORY_SHOWN)).data)


@extend_schema(
    operation_id="player_rating_history",
    summary="A player's rating history in one year (the years are in the player's statistics)",
    responses={200: RatingHistoryOut},
    tags=["statistics"],
)
@api_view(["GET"])
def player_rating_history(request: Request, player_id: int, year: int) -> Response:
    player = selectors.player_of_member(request.user, player_id)
    points = statistics.rating_history_of_year(player, year)
    if points is None:
        raise Http404
    years = statistics.rating_history_years(player)
    return Response(RatingHistoryOut({"player": player.pk, "year": year, "points": points, "years": years}).data)


@extend_schema(
    operation_id="game_statistics",
    summary="A game's statistics in a group: plays, winning scores, distribution, seats, points by source",
    responses={200: GameStatisticsOut},
    tags=["statistics"],
)
@api_view(["GET"])
def game_statistics(request: Request, group_id: int, game: str) -> Response:
    group = selectors.membership(request.user, group_id).group
    if game not in GAMES:
        raise Http404
    return Response(GameStatisticsOut(statistics.game_statistics(group, game)).data)


@extend_schema(
    operation_id="leaderboard",
    summary="The group's leaderboard by rating or win rate, for a period and a minimum of plays",
    parameters=[
        OpenApiParameter("game", OpenApiTypes.STR, enum=[OVERALL, *GAMES], description='"" (default): all games'),
        OpenApiParameter("period", OpenApiTypes.STR, enum=list(PERIODS)),
        OpenApiParameter("order", OpenApiTypes.STR, enum=list(ORDERS)),
        OpenApiParameter("min_plays", {"type": "integer", "minimum": 0, "maximum": 100_000}),
        OpenApiParameter(
            "limit",
            {"type": "integer", "minimum": 1, "maximum": MAX_PAGE_SIZE},
            description=f"the first rows only: 1 to {MAX_PAGE_SIZE}, 50 by default",
        ),
    ],
    responses={200: LeaderboardOut},
    tags=["statistics"],
)
@api_view(["GET"])
def leaderboard(request: Request, group_id: int) -> Response:
    group = selectors.membership(request.user, group_id).group
    incoming = LeaderboardIn(data=query(request))
    incoming.is_valid(raise_exception=True)
    filters = dict(incoming.validated_data)
    limit = filters.pop("limit")
    rows = statistics.leaderboard(group, **filters)
    shown = {"group": group.pk, **filters, "limit": limit, "players": len(rows), "rows": rows[:limit]}
    return Response(LeaderboardOut(shown).data)
