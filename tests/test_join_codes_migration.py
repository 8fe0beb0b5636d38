"""Join codes moved from the session to its night (migration 0006)."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tests.conftest import migrate_to

BEFORE = [("babel", "0005_rating_history_per_player_and_year")]
AFTER = [("babel", "0006_join_codes_per_night")]


@pytest.mark.django_db(transaction=True)
def test_each_existing_code_moves_to_its_sessions_night_and_keeps_working():
    try:
        apps = migrate_to(BEFORE)
        group = apps.get_model("babel", "Group").objects.create(name="Thursday table")
        night = apps.get_model("babel", "GameNight").objects.create(group=group)
        game = apps.get_model("babel", "GameSession").objects.create(
            night=night, group=group, game="babel-cubes", seed=1, state={}
        )
        apps.get_model("babel", "JoinCode").objects.create(session=game, code="ABCDEFGH")

        apps = migrate_to(AFTER)

        moved = apps.get_model("babel", "JoinCode").objects.get(code="ABCDEFGH")
        assert moved.night_id == night.pk
        assert moved.revoked_at is None
        assert apps.get_model("babel", "GameNight").objects.get().live_revision == 0
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
