"""Upgrading from the last release (issue 43, point 6): a database made by v0.1.0 (commit
89b52fe), with rows in every table of the app, migrated by the current code, as
docs/backup-and-upgrades.md tells an operator to upgrade. Its sessions replay through the
current rules to the states v0.1.0 stored, and its pages render.

The old release runs from its own tree (``git archive`` of the commit: a clean clone in CI may
not carry the tag) with this checkout's Python; its database is one of this test's own."""

from __future__ import annotations

import copy
import io
import shutil
import subprocess
import tarfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.db.migrations.loader import MigrationLoader

from tests.integration.conftest import unavailable
from tests.integration.database_digest import REPO, CommandFailed, Server, checked, digest_of, run

pytestmark = pytest.mark.integration

OLD_RELEASE = "89b52fe"  # v0.1.0
DATABASE = "babel_upgrade_from_0_1_0"
# What the current rules' replay adds to a state that v0.1.0 stored without it, with no value
# (the code reads it with .get()): per game, the path of the key. Anything else that differs
# fails the replay test. Babel On!'s house rule for a wrong call came after v0.1.0.
ADDED_SINCE_THE_OLD_RELEASE = {"babel-on": [("game", "wrong_call")]}

# Run in the old release's tree after its migrate and load_demo: rows in the tables the demo
# leaves empty, through v0.1.0's own services.
SEED = '''"""Rows in every table of the app, through v0.1.0's own services (run in its tree, after
its migrate and load_demo): the demo's owner plays on, a second night with phones joined by
a code, a long Babel On! game with undos (snapshots), Tower of Babel and 7 Wonders played
move by move, a rematch, an abandoned game, a BG Stats import (a play of another game too),
an API token, a write receipt, an archived player."""

import datetime
import os
import random

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "babel_companion.settings")
django.setup()

from django.contrib.auth.models import User  # noqa: E402

from scoring import session as core  # noqa: E402
from scoring.babel_on import engine as bo  # noqa: E402
from scoring.errors import RuleError  # noqa: E402
from scoring.seven_wonders import engine as sw  # noqa: E402
from scoring.seven_wonders.data import markers_for  # noqa: E402
from scoring.tower_of_babel import engine as tob  # noqa: E402
from sessions import services  # noqa: E402
from sessions.api.tokens import create_api_token  # noqa: E402
from sessions.importexport.bgstats import import_plays  # noqa: E402
from sessions.models import GameSession, Group  # noqa: E402
from sessions.statistics import services as statistics  # noqa: E402

owner = User.objects.get(username="demo")
group = Group.objects.get(name="Demo table")
ada, bruno, chiara, dieter, elodie = group.players.order_by("pk")
milo = User.objects.create_user("milo", password="member-pass-123")
services.add_member(group=group, user=milo)
night = services.create_night(group=group, date=datetime.date.today() - datetime.timedelta(days=1), place="Ada's")


def send(session, kind, payload=None):
    session.refresh_from_db()
    return services.append_event(
        session_id=session.pk, expected_version=session.version, type=kind, payload=payload or {}, author=owner
    )


def tried(session, kind, payload=None):
    try:
        send(session, kind, payload)
    except RuleError:
        return False
    return True


# Babel On!, long enough for snapshots (every 32 events in effect), with undos in its log, left open.
babel_on = services.create_session(night=night, game="babel-on", players=[ada, bruno])
keys = [str(ada.pk), str(bruno.pk)]
send(babel_on, core.START)
send(babel_on, bo.SETUP, {"colours": {keys[0]: "red", keys[1]: "blue"}})
send(babel_on, bo.ROLLOFF, {"rolls": {keys[0]: 6, keys[1]: 1}})
for index in range(75):
    if index % 10 == 9:
        send(babel_on, bo.ADJUST, {"note": "The cat walked on the table."})
    else:
        send(babel_on, bo.ROLL, {"call": "even", "roll": 1} if index % 2 else {"call": "odd", "roll": 4})
    if index % 20 == 19:
        send(babel_on, core.UNDO)

# Tower of Babel move by move (plausible turns, the refused ones dropped), to its end and its scoring.
tower = services.create_session(night=night, game="tower-of-babel", players=[ada, chiara, dieter])
send(tower, core.START)
tower.refresh_from_db()
send(tower, tob.FIRST_PLAYER, {"seat": tower.state["game"]["suggested_first"]})
rnd = random.Random(43)
for _ in range(150):
    tower.refresh_from_db()
    game = tower.state["game"]
    if game["over"]:
        break
    if rnd.random() < 0.1:
        tried(tower, tob.PASS)
        continue
    wonder = rnd.choice([w for w, v in game["wonders"].items() if v["discs"]])
    disc = rnd.choice(game["wonders"][wonder]["discs"])
    demand = game["discs"][disc]["demand"]
    offers = {}
    for seat in game["seats"]:
        if seat != game["active"] and rnd.random() < 0.6:
            kind = rnd.choice(list(demand))
            offers[seat] = {"cards": {kind: rnd.randint(1, demand[kind])}, "trading": False}
    accepted = [seat for seat in offers if rnd.random() < 0.5]
    own = dict(demand)
    for seat in accepted:
        for kind, count in offers[seat]["cards"].items():
            own[kind] -= count
    payload = {"wonder": wonder, "disc": disc, "offers": offers, "accepted": accepted, "own": own, "fulfilled": True}
    tried(tower, tob.BUILD, payload)
tower.refresh_from_db()
if tower.state["game"]["over"]:
    for seat in tower.state["game"]["seats"]:
        tried(tower, tob.ASSIGN, {"seat": seat, "assignment": tob.best_assignment(tower.state["game"], seat)})
    tried(tower, core.FINISH)

# 7 Wonders with the group's own tile names (an edition table), the draft, three ages, the sheets.
services.set_edition_table(group=group, game="seven-wonders", overrides={"tiles": {"9": "our tile nine"}})
wonders = services.create_session(night=night, game="seven-wonders", players=[bruno, chiara, elodie])
send(wonders, core.START)
for _step in (1, 2):
    for seat in [str(p.pk) for p in (bruno, chiara, elodie)]:
        wonders.refresh_from_db()
        send(wonders, sw.DRAFT_PICK, {"seat": seat, "tile": min(wonders.state["game"]["hands"][seat])})
seats = [str(p.pk) for p in (bruno, chiara, elodie)]
for age in (1, 2, 3):
    wonders.refresh_from_db()
    game = wonders.state["game"]
    builder = seats[age % 3]
    unbuilt = [t for t in game["tiles"][builder] if t not in {tile for _s, tile in game["built"]}]
    send(wonders, sw.BUILD_TILES, {"tiles": {builder: unbuilt[0]}})
    for seat in seats[: markers_for(3)]:
        send(wonders, sw.PARTICIPATE, {"seat": seat})
    send(wonders, sw.END_AGE)
for index, seat in enumerate(seats):
    send(wonders, sw.SHEET, {"seat": seat, "sheet": {"coins": index, "civilian": 10 + index}})
send(wonders, core.FINISH)

# A rematch of the demo's first game (started), and a game abandoned.
first = GameSession.objects.filter(group=group, status=core.FINISHED).order_by("pk").first()
services.rematch_session(session=first, author=owner)
abandoned = services.create_session(night=night, game="tower-of-babel", players=[bruno, elodie, dieter])
send(abandoned, core.START)
send(abandoned, core.ABANDON)

# Phones at the second night: one holds Ada, another asks for her.
code = services.create_join_code(night=night)
phone = services.join_night(join_code=code)
services.claim_seat(device=phone, player_id=ada.pk)
other = services.join_night(join_code=code)
services.claim_seat(device=other, player_id=ada.pk)



# BG Stats: a Tower of Babel play (a session, its event keyed) and a play of another game (plain results).
def score(ref, points, seat, rank, winner=False):
    return {"playerRefId": ref, "score": points, "winner": winner, "rank": rank, "seatOrder": seat, "newPlayer": False}


def play(uuid, game, date, *scores):
    played = {"uuid": uuid, "gameRefId": game, "playDate": date, "locationRefId": 1, "ignored": False}
    return {**played, "playerScores": list(scores)}


names = {1: "Ada", 2: "Zoe", 3: "Bruno"}
evening, later = "2026-10-02 21:15:00", "2026-10-02 22:30:00"
document = {
    "userInfo": {"meRefId": 1},
    "players": [{"id": ref, "name": name, "uuid": f"P-{ref}", "isAnonymous": False} for ref, name in names.items()],
    "locations": [{"id": 1, "name": "The club", "uuid": "L-1"}],
    "games": [
        {"id": 10, "name": "Tower of Babel", "uuid": "G-10", "bggId": 0},
        {"id": 11, "name": "Carcassonne", "uuid": "G-11", "bggId": 822},
    ],
    "plays": [
        play("PLAY-1", 10, evening, score(1, "80", 1, 1, True), score(2, "75", 2, 2), score(3, "62", 3, 3)),
        play("PLAY-2", 11, later, score(1, "31", 1, 0, True), score(2, "27", 2, 0)),
    ],
}
imported = import_plays(group=group, user=owner, document=document)
assert imported.sessions and imported.other_games and not imported.refused, imported
# Zoe, who came once, leaves: archived, her results kept.
services.remove_player(player=group.players.get(name="Zoe"))

create_api_token(user=owner, name="Scoreboard")
services.run_once(user=owner, key="seed-receipt", action=lambda: {"ok": True})
statistics.catch_up_group(group_id=group.pk)
print("seeded", GameSession.objects.count(), "sessions")
'''


@dataclass
class Upgrade:
    rows_before: dict[str, int]  # per table of the app, as v0.1.0 left it
    states_before: dict[str, Any]  # per session id, the state v0.1.0 stored
    games: dict[str, str]  # per session id, its game
    applied_before: set[tuple[str, str]]  # the migrations v0.1.0 applied
    applied_after: set[tuple[str, str]]  # and after the current code's migrate
    check: subprocess.CompletedProcess[str]  # `migrate --check` after the upgrade
    # tests.integration.database_digest's after the upgrade, or why it could not be read (a test
    # of the migrations then still says what they lack).
    read: dict[str, Any] | CommandFailed

    @property
    def digest(self) -> dict[str, Any]:
        if isinstance(self.read, CommandFailed):
            raise AssertionError(f"the upgraded database cannot be read: {self.read}")
        return self.read


def old_release_tree(directory: Path) -> Path:
    """The old release's files (its tree, not a checkout: nothing to remove from git after)."""
    archive = subprocess.run(
        ["git", "-C", str(REPO), "archive", "--format=tar", OLD_RELEASE], capture_output=True, check=False
    )
    if archive.returncode != 0:
        unavailable(
            f"git cannot read the commit {OLD_RELEASE} (v0.1.0): {archive.stderr.decode().strip()} "
            "(a shallow clone? fetch the whole history)"
        )
    tree = directory / "v0.1.0"
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as files:
        files.extractall(tree, filter="data")
    return tree


@pytest.fixture(scope="module")
def upgrade(postgres_service: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Upgrade]:
    directory = tmp_path_factory.mktemp("upgrade")
    tree, state_dir = old_release_tree(directory), directory / "state"
    server = Server.of_the_tests()
    url = server.url(DATABASE)
    try:
        server.create(DATABASE)
        for command in (["manage.py", "migrate", "--noinput"], ["manage.py", "load_demo"]):
            checked(run(command, database_url=url, state_dir=state_dir, cwd=tree))
        (tree / "seed_every_table.py").write_text(SEED)
        checked(run(["seed_every_table.py"], database_url=url, state_dir=state_dir, cwd=tree))

        app_tables = "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename LIKE 'babel\\_%'"
        tables = [name for (name,) in server.rows(DATABASE, app_tables)]
        rows_before = {name: server.rows(DATABASE, f'SELECT count(*) FROM "{name}"')[0][0] for name in tables}
        sessions = server.rows(DATABASE, "SELECT id, game, state FROM babel_gamesession")
        migrations = "SELECT app, name FROM django_migrations"
        applied_before = set(server.rows(DATABASE, migrations))

        # The upgrade: this checkout's migrate on the old release's database.
        checked(run(["manage.py", "migrate", "--noinput"], database_url=url, state_dir=state_dir))
        yield Upgrade(
            rows_before=rows_before,
            states_before={str(pk): state for pk, _game, state in sessions},
            games={str(pk): game for pk, game, _state in sessions},
            applied_before=applied_before,
            applied_after=set(server.rows(DATABASE, migrations)),
            check=run(["manage.py", "migrate", "--check"], database_url=url, state_dir=state_dir),
            read=read_digest(url, state_dir),
        )
    finally:
        server.drop(DATABASE)
        shutil.rmtree(tree, ignore_errors=True)


def read_digest(url: str, state_dir: Path) -> dict[str, Any] | CommandFailed:
    try:
        return digest_of(url, state_dir)
    except CommandFailed as failed:
        return failed


def without_added_keys(state: Any, game: str) -> Any:
    """A copy of ``state`` without the keys the current rules add with no value (ADDED_SINCE_THE_OLD_RELEASE)."""
    state = copy.deepcopy(state)
    for *path, key in ADDED_SINCE_THE_OLD_RELEASE.get(game, []):
        holder = state
        for step in path:
            holder = holder.get(step) if isinstance(holder, dict) else None
        if isinstance(holder, dict) and key in holder and holder[key] is None:
            holder.pop(key)
    return state


def test_the_old_release_leaves_rows_in_every_table_of_the_app(upgrade):
    assert len(upgrade.rows_before) == 20
    assert [table for table, rows in upgrade.rows_before.items() if not rows] == []


def test_the_current_code_applies_every_one_of_its_migrations_to_the_old_database(upgrade):
    assert upgrade.check.returncode == 0, upgrade.check.stdout + upgrade.check.stderr
    current = set(MigrationLoader(None, ignore_no_migrations=True).graph.nodes)
    assert current - upgrade.applied_after == set()
    assert upgrade.applied_before <= upgrade.applied_after


def test_every_session_replays_through_the_current_rules_to_the_state_the_old_release_stored(upgrade):
    replays = upgrade.digest["replays"]
    # The demo's 5, Babel On! with undos, Tower of Babel and 7 Wonders move by move, a rematch,
    # an abandoned game, a BG Stats play.
    assert sorted(replays, key=int) == sorted(upgrade.states_before, key=int)
    assert len(replays) == 11
    for session, replay in replays.items():
        replayed = without_added_keys(replay["replayed"], upgrade.games[session])
        assert replayed == upgrade.states_before[session], f"session {session} replays to another state"


def test_after_the_upgrade_a_stored_state_differs_from_its_replay_only_by_keys_added_empty(upgrade):
    """A state v0.1.0 stored lacks the keys today's rules add with no value (Babel On!'s
    ``wrong_call``): the rules read them with a default, and a merge of players compares two
    replays, not the stored state (``tests/test_player_merge.py``). Any other difference fails."""
    replays = upgrade.digest["replays"]
    stale = {session for session, replay in replays.items() if replay["replayed"] != replay["stored"]}
    known = {
        session
        for session in stale
        if without_added_keys(replays[session]["replayed"], upgrade.games[session]) == replays[session]["stored"]
    }
    assert stale - known == set(), "sessions whose stored state is not their replay"


def test_every_page_of_the_old_data_renders_with_the_current_code(upgrade):
    pages = upgrade.digest["pages"]
    failed = {path: page["status"] for path, page in pages.items() if page["status"] != 200}
    assert failed == {}
    paths = {path.split(":", 1)[1] for path in pages}
    assert {f"/s/{session}/" for session in upgrade.states_before} <= paths
    assert {f"/s/{session}/live/" for session in upgrade.states_before} <= paths
    assert len([path for path in paths if path.startswith("/p/")]) == 6  # Zoe's page too, archived
    assert len([path for path in paths if path.startswith("/n/")]) == 3  # the demo's, the seed's, BG Stats's
