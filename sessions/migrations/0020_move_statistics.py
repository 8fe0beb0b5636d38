"""The figures only the sessions' logs know, per group and game (issue 44, point 6): first
player, offers, perfect towers, records. Empty at first: a group's next statistics update
counts all its sessions already counted (``statistics.services``), as does the nightly rebuild."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("babel", "0019_player_privacy"),
    ]

    operations = [
        migrations.CreateModel(
            name="MoveStatistics",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("game", models.CharField(max_length=30)),
                ("figures", models.JSONField(default=dict)),
                (
                    "group",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="move_statistics", to="babel.group"
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(fields=("group", "game"), name="one_move_statistics_row_per_game")
                ],
            },
        ),
    ]
