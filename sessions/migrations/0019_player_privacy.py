"""A player's privacy (issue 44, point 8): hidden from the leaderboards, and when the name
became an anonymous label. Two columns with constant defaults: PostgreSQL adds them without
rewriting the table."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("babel", "0018_player_page_figures"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="hidden_from_leaderboards",
            field=models.BooleanField(default=False, verbose_name="hidden from the leaderboards"),
        ),
        migrations.AddField(
            model_name="player",
            name="anonymised_at",
            field=models.DateTimeField(blank=True, null=True, verbose_name="anonymised at"),
        ),
    ]
