"""The rating history moved from a row per result into a row per player and year (migration 0005),
then from ``jsonb`` into JSON text (0015); the derived rows lost their foreign keys (0017); the
rating rows keep the player page's figures (0018)."""

import datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from sessions import tasks
from sessions.models import PlayerRating, RatingHistory
from sessions.statistics.services import KEPT_FIGURES
from tests.conftest import migrate_to
from tests.test_statistics import play


@pytest.fixture(autouse=True)
def _latest_schema_afterwards():
    """Each test leaves the database as the other tests' files need it: migrated to the end."""
    yield
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


BEFORE = [("babel", "0004_plain_results")]
AFTER = [("babel", "0005_rating_history_per_player_and_year")]


@pytest.mark.django_db(transaction=True)
def test_the_rating_points_move_into_a_history_row_per_player_and_year_oldest_first():
    apps = migrate_to(BEFORE)
    group = apps.get_model("babel", "Group").objects.create(name="Thursday table")
    night = apps.get_model("babel", "GameNight").objects.create(group=group, date=datetime.date(2025, 12, 31))
    ada, bruno = (apps.get_model("babel", "Player").objects.create(group=group, name=n) for n in ("Ada", "Bruno"))
    new_year = datetime.datetime(2026, 1, 1, 1, 0, tzinfo=datetime.UTC)
    moments = [new_year + datetime.timedelta(days=d) for d in (2, -3, 0)]  # out of order on purpose
    point = apps.get_model("babel", "RatingPoint").objects
    for index, played_at in enumerate(moments):
        session = apps.get_model("babel", "GameSession").objects.create(
            night=night, group=group, game="babel-cubes", status="finished", seed=index, state={}
        )
        for player, mu in ((ada, 20 + index), (bruno, 30 + index)):
            point.create(
                player=player, session=session, game="babel-cubes", played_at=played_at,
                mu=mu, sigma=7.0, overall_mu=mu + 0.5, overall_sigma=6.5,
            )  # fmt: skip

    migrate_to(AFTER)

    rows = {(h.player_id, h.year): h.points for h in RatingHistory.objects.all()}
    assert set(rows) == {(ada.pk, 2025), (ada.pk, 2026), (bruno.pk, 2025), (bruno.pk, 2026)}
    assert [p[3] for p in rows[(ada.pk, 2026)]] == [22, 20]  # 1 January before 3 January
    first = rows[(bruno.pk, 2025)][0]
    assert first[0] == "2025-12-29T01:00:00+00:00"
    assert first[2:] == ["babel-cubes", 31, 7.0, 31.5, 6.5]


@pytest.mark.django_db(transaction=True)
def test_the_rating_history_keeps_its_points_when_it_becomes_text_and_back():
    apps = migrate_to([("babel", "0014_session_rematch_of")])
    group = apps.get_model("babel", "Group").objects.create(name="Thursday table")
    ada = apps.get_model("babel", "Player").objects.create(group=group, name="Ada")
    points = [["2026-01-03T01:00:00+00:00", 7, "babel-on", 26.1234, 7.5, 25.5, 7.25], ["2026-02-01", 9, "x", 1, 2, 3]]
    apps.get_model("babel", "RatingHistory").objects.create(player=ada, year=2026, points=points)

    migrate_to([("babel", "0015_rating_history_as_text")])
    assert RatingHistory.objects.get(player_id=ada.pk).points == points
    assert RatingHistory.objects.filter(player_id=ada.pk).values_list("points", flat=True).get() == points

    apps = migrate_to([("babel", "0014_session_rematch_of")])
    assert apps.get_model("babel", "RatingHistory").objects.get(player_id=ada.pk).points == points
    migrate_to([("babel", "0015_rating_history_as_text")])


@pytest.mark.django_db(transaction=True)
def test_the_tallies_and_counted_sessions_keep_their_rows_when_their_foreign_keys_go_and_come_back():
    """0017 drops the database's foreign keys of the derived rows (SQLite copies the tables)."""
    before, after = [("babel", "0016_session_played_order")], [("babel", "0017_derived_rows_without_foreign_keys")]
    apps = migrate_to(before)
    group = apps.get_model("babel", "Group").objects.create(name="Thursday table")
    night = apps.get_model("babel", "GameNight").objects.create(group=group, date=datetime.date(2026, 3, 2))
    ada = apps.get_model("babel", "Player").objects.create(group=group, name="Ada")
    session = apps.get_model("babel", "GameSession").objects.create(
        night=night, group=group, game="babel-cubes", status="finished", state={}
    )
    finished = datetime.datetime(2026, 3, 2, 22, 0, tzinfo=datetime.UTC)
    apps.get_model("babel", "RatedSession").objects.create(session=session, group=group, finished_at=finished)
    month = datetime.date(2026, 3, 1)
    apps.get_model("babel", "PlayerMonth").objects.create(
        group=group, player=ada, game="babel-cubes", month=month, plays=1, wins=1
    )
    rows = [("RatedSession", "session_id", "group_id"), ("PlayerMonth", "player_id", "group_id", "plays")]

    def kept(apps):
        return [list(apps.get_model("babel", model).objects.values_list(*fields)) for model, *fields in rows]

    was = kept(apps)
    assert was == [[(session.pk, group.pk)], [(ada.pk, group.pk, 1)]]
    assert kept(migrate_to(after)) == was
    assert kept(migrate_to(before)) == was
    assert kept(migrate_to(after)) == was


@pytest.mark.django_db(transaction=True)
def test_the_rating_rows_get_the_figures_and_streaks_the_statistics_would_have_kept(night, players):
    """0018 fills in what the tasks keep from now on, from the Results they counted."""
    ada, bruno, chiara, dieter = players
    plays = [
        ([ada, bruno, chiara], [30, 20, 10]),
        ([ada, bruno, dieter], [25, 5, 0]),
        ([ada, bruno, chiara], [1, 2, 3]),
    ]
    plays += [([bruno, chiara, dieter], [9, 9, 1]), ([ada, chiara, dieter], [40, 0, 0])]
    for day, (seated, scores) in enumerate(plays):
        tasks.update_statistics(play(night, seated, scores, days=day).pk)
    tasks.update_statistics(play(night, [ada, bruno], [2, 1], game="babel-on", days=9, places=True).pk)
    play(night, [chiara, bruno, dieter], [50, 0, 0], days=10)  # finished but not counted yet: left to its task

    def figures():
        return {(r.player_id, r.game): [getattr(r, name) for name in KEPT_FIGURES] for r in PlayerRating.objects.all()}

    kept = figures()
    assert kept[(ada.pk, "tower-of-babel")] == [40, 1, 96, 4, 1, 2]  # best, worst, sum, scored, streak, longest
    assert kept[(ada.pk, "")][4:] == [0, 2]  # the places of Babel On! end the streak over all games
    assert kept[(bruno.pk, "babel-on")] == [None, None, 0, 0, 1, 1]

    migrate_to([("babel", "0017_derived_rows_without_foreign_keys")])
    migrate_to([("babel", "0018_player_page_figures")])

    assert figures() == kept
