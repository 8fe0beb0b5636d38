"""Stored sessions keep their deal when the seed becomes the secret (migration 0009)."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from scoring import session as core
from sessions.games import get_game
from tests.conftest import migrate_to

BEFORE = [("babel", "0008_group_statistics_behind")]
AFTER = [("babel", "0009_session_secret")]
OLD_SEED = 2**47 + 4242  # seeds had 48 bits


@pytest.mark.django_db(transaction=True)
def test_a_stored_session_replays_the_same_deal_from_its_secret():
    rules = get_game("tower-of-babel").rules
    seats = ["1", "2", "3"]
    dealt = core.initial_state(rules, seats=seats, options={}, seed=OLD_SEED)
    try:
        apps = migrate_to(BEFORE)
        group = apps.get_model("babel", "Group").objects.create(name="Thursday table")
        night = apps.get_model("babel", "GameNight").objects.create(group=group)
        apps.get_model("babel", "GameSession").objects.create(
            night=night, group=group, game="tower-of-babel", seed=OLD_SEED, state=dealt
        )

        apps = migrate_to(AFTER)

        stored = apps.get_model("babel", "GameSession").objects.get()
        assert stored.secret == f"{OLD_SEED:x}"
        assert core.initial_state(rules, seats=seats, options={}, seed=int(stored.secret, 16)) == stored.state
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
