"""The session's random seed becomes a 256-bit secret that is never sent while it is open.

A stored session keeps its deal: its secret is its old seed written in hex, which the model
reads back as the same number (``GameSession.seed``), so every replay stays what it was.
"""

from django.db import migrations, models

BATCH = 1000


def seed_to_secret(apps, schema_editor):
    GameSession = apps.get_model("babel", "GameSession")
    rows = list(GameSession.objects.only("pk", "seed").order_by("pk"))
    for row in rows:
        row.secret = format(row.seed, "x")
    GameSession.objects.bulk_update(rows, ["secret"], batch_size=BATCH)


def secret_to_seed(apps, schema_editor):
    GameSession = apps.get_model("babel", "GameSession")
    rows = list(GameSession.objects.only("pk", "secret").order_by("pk"))
    for row in rows:
        # A secret made after this migration does not fit the old column: its low 62 bits
        # keep the column valid, but such a session's deal would not replay the same.
        row.seed = int(row.secret, 16) & (2**62 - 1)
    GameSession.objects.bulk_update(rows, ["seed"], batch_size=BATCH)


class Migration(migrations.Migration):
    dependencies = [
        ("babel", "0008_group_statistics_behind"),
    ]

    operations = [
        migrations.AddField(
            model_name="gamesession",
            name="secret",
            field=models.CharField(default="", max_length=64),
            preserve_default=False,
        ),
        migrations.AlterField(
            model_name="gamesession",
            name="seed",
            field=models.BigIntegerField(default=0),
        ),
        migrations.RunPython(seed_to_secret, secret_to_seed),
        migrations.RemoveField(
            model_name="gamesession",
            name="seed",
        ),
    ]
