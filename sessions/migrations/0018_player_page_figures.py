"""The player page's figures kept in the rating rows (scores per game, win streaks), filled in
from the Results the statistics have counted, in the order of play, as a rebuild would."""

from django.db import migrations, models
from django.db.models import Count, Max, Min, Sum
from django.db.models.functions import Coalesce

OVERALL = ""


def fill_in(apps, schema_editor):
    rating_rows = apps.get_model("babel", "PlayerRating").objects
    counted = apps.get_model("babel", "Result").objects.filter(session__status="finished", session__rated__isnull=False)
    figures: dict[tuple[int, str], dict[str, int]] = {}
    scored = counted.filter(score__isnull=False).values("player_id", "session__game")
    for pk, game, best, worst, total, n in scored.annotate(
        b=Max("score"), w=Min("score"), t=Sum("score"), n=Count("id")
    ).values_list("player_id", "session__game", "b", "w", "t", "n"):
        figures[(pk, game)] = {"best": best, "worst": worst, "score_sum": total, "scored": n}
    streaks: dict[tuple[int, str], list[int]] = {}  # [streak, longest]
    in_order = counted.annotate(played=Coalesce("session__finished_at", "session__updated_at")).order_by(
        "played", "session_id"
    )
    for pk, game, rank in in_order.values_list("player_id", "session__game", "rank").iterator(chunk_size=5000):
        for key in ((pk, game), (pk, OVERALL)):
            streak = streaks.setdefault(key, [0, 0])
            streak[0] = streak[0] + 1 if rank == 1 else 0
            streak[1] = max(streak[1], streak[0])
    changed = []
    for row in rating_rows.all().iterator(chunk_size=5000):
        key = (row.player_id, row.game)
        for name, value in figures.get(key, {}).items():
            setattr(row, name, value)
        row.streak, row.longest_streak = streaks.get(key, (0, 0))
        changed.append(row)
    fields = ["best", "worst", "score_sum", "scored", "streak", "longest_streak"]
    rating_rows.bulk_update(changed, fields, batch_size=1000)


class Migration(migrations.Migration):
    dependencies = [
        ("babel", "0017_derived_rows_without_foreign_keys"),
    ]

    operations = [
        migrations.AddField(
            model_name="playerrating",
            name="best",
            field=models.IntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="playerrating",
            name="longest_streak",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="playerrating",
            name="score_sum",
            field=models.BigIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="playerrating",
            name="scored",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="playerrating",
            name="streak",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="playerrating",
            name="worst",
            field=models.IntegerField(blank=True, null=True),
        ),
        migrations.RunPython(fill_in, migrations.RunPython.noop),
    ]
