"""Join codes belong to the game night, not to one session; phones are devices of the night.

Existing codes move to their session's night (a night with several working codes keeps
them all; "New code" replaces them one at a time as before).
"""

import django.db.models.deletion
import django.utils.timezone
from django.db import migrations, models


def codes_to_nights(apps, schema_editor):
    JoinCode = apps.get_model("babel", "JoinCode")
    for code in JoinCode.objects.select_related("session").iterator():
        code.night_id = code.session.night_id
        code.save(update_fields=["night"])


def codes_to_sessions(apps, schema_editor):
    """Back to the newest session of the night (a night without one loses its codes)."""
    JoinCode = apps.get_model("babel", "JoinCode")
    GameSession = apps.get_model("babel", "GameSession")
    for code in JoinCode.objects.iterator():
        newest = GameSession.objects.filter(night_id=code.night_id).order_by("-created_at", "-id").first()
        if newest is None:
            code.delete()
        else:
            code.session_id = newest.pk
            code.save(update_fields=["session"])


class Migration(migrations.Migration):
    dependencies = [
        ("babel", "0005_rating_history_per_player_and_year"),
    ]

    operations = [
        migrations.AddField(
            model_name="gamenight",
            name="live_revision",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="joincode",
            name="night",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="join_codes",
                to="babel.gamenight",
            ),
        ),
        migrations.AlterField(
            model_name="joincode",
            name="session",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="join_codes",
                to="babel.gamesession",
            ),
        ),
        migrations.RunPython(codes_to_nights, codes_to_sessions),
        migrations.RemoveField(model_name="joincode", name="session"),
        migrations.AlterField(
            model_name="joincode",
            name="night",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE, related_name="join_codes", to="babel.gamenight"
            ),
        ),
        migrations.CreateModel(
            name="GuestDevice",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                ("last_seen", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "join_code",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="devices", to="babel.joincode"
                    ),
                ),
                (
                    "night",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="devices", to="babel.gamenight"
                    ),
                ),
                (
                    "player",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to="babel.player",
                    ),
                ),
                (
                    "requested",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to="babel.player",
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(
                        condition=models.Q(("player__isnull", False)),
                        fields=("night", "player"),
                        name="one_device_per_player_and_night",
                    )
                ],
            },
        ),
    ]
