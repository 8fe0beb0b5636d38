# The rating history as JSON text, kept uncompressed on PostgreSQL (see sessions.models.JSONText).

from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

import sessions.models


def keep_uncompressed(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    """EXTERNAL: out of line but not compressed. pglz took most of the 0.7 s that writing a
    100,000-session group's history took as text (0.18 s without it, for twice the disk:
    40 MB). lz4 would be as fast and smaller, but not every PostgreSQL is built with it."""
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute('ALTER TABLE "babel_ratinghistory" ALTER COLUMN "points" SET STORAGE EXTERNAL')


class Migration(migrations.Migration):
    dependencies = [
        ("babel", "0014_session_rematch_of"),
    ]

    operations = [
        migrations.AlterField(
            model_name="ratinghistory",
            name="points",
            field=sessions.models.JSONText(default=list),
        ),
        migrations.RunPython(keep_uncompressed, migrations.RunPython.noop, elidable=True),
    ]
