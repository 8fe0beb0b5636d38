"""The game statistics' figures from the moves (``sessions.statistics.from_moves``), as the API
writes them: explicit output fields, part of ``GameStatisticsOut`` (``from_the_moves``)."""

from __future__ import annotations

from rest_framework import serializers

from sessions.statistics.from_moves import LISTED


class PlayerFigureOut(serializers.Serializer):
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField()
    count = serializers.IntegerField()


class OffersOut(serializers.Serializer):
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField()
    made = serializers.IntegerField(source="count", help_text="Offers of at least one card.")
    accepted = serializers.IntegerField(help_text="Taken into a build that succeeded.")


class FirstPlayerOut(serializers.Serializer):
    games = serializers.IntegerField(help_text="Games whose log says who moved first.")
    wins = serializers.IntegerField(help_text="Of those, the games the first player won (or shared first place).")
    win_rate = serializers.FloatField()
    expected = serializers.FloatField(help_text="The wins if the seat did not matter: 1/n of each game of n players.")
    expected_rate = serializers.FloatField()


class HolderOut(serializers.Serializer):
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField(allow_null=True, help_text="null for a player hidden from the leaderboards.")


class RecordOut(serializers.Serializer):
    figure = serializers.FloatField(help_text="Points, wins in a row, or seconds (the fastest win).")
    holders = HolderOut(many=True)
    played_at = serializers.DateTimeField(allow_null=True)


class SourceOut(serializers.Serializer):
    key = serializers.CharField(help_text="A column of the score sheet.")
    points = serializers.IntegerField()
    share = serializers.FloatField(help_text="Per cent of all the points the sheets counted.")


class AgeOut(serializers.Serializer):
    age = serializers.IntegerField()
    projects = serializers.IntegerField(help_text="Great Projects resolved at the end of this age.")
    succeeded = serializers.IntegerField()
    reward_points = serializers.IntegerField(help_text="Points of the military reward tokens they gave.")
    penalty_points = serializers.IntegerField(help_text="Points of the penalty tokens they gave (negative).")


class FromTheMovesOut(serializers.Serializer):
    sessions = serializers.IntegerField(help_text="Finished sessions counted.")
    first_player = FirstPlayerOut(allow_null=True, help_text="null for 7 Wonders (everyone plays at once).")
    solved_first_player_wins = serializers.BooleanField(
        allow_null=True, help_text="babel only: the exact solver's answer, with perfect play."
    )
    highest_score = RecordOut(allow_null=True)
    longest_streak = RecordOut(allow_null=True, help_text="Wins in a row in the game.")
    fastest_win = RecordOut(allow_null=True, help_text="Seconds from the start to the last move.")
    timed_games = serializers.IntegerField(help_text="Games played on the app from the start to the last move.")
    perfect_towers = PlayerFigureOut(many=True, help_text=f"Babel On!: at most {LISTED} players.")
    perfect_wins = serializers.IntegerField(help_text="Babel On!: games won by a perfect tower.")
    sources = SourceOut(many=True, help_text="7 Wonders: points by column of the score sheets.")
    sheets = serializers.IntegerField()
    ages = AgeOut(many=True, help_text="7 Wonders: the Great Projects of each age.")
    wonders_won = PlayerFigureOut(many=True, help_text=f"Tower of Babel: at most {LISTED} players.")
    wonders_completed = serializers.IntegerField()
    offers = OffersOut(many=True, help_text=f"Tower of Babel: at most {LISTED} players.")
