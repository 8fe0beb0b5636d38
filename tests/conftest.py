"""Shared fixtures: an owner, a member and an outsider around one group."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.contrib.auth.models import User
from django.core.cache import cache, caches
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django.utils import translation

from babel_companion import celery_app
from scoring.babel_cubes import solver
from scoring.babel_on import engine as bo
from scoring.seven_wonders import engine as sw
from scoring.tower_of_babel import engine as tob
from sessions import selectors, services
from sessions.models import GameNight, GameSession, Group, Player
from sessions.rules_reference import RULE_ID, rule_link


@pytest.fixture(autouse=True)
def _plain_static_files(settings: Any) -> None:
    # The manifest storage needs `collectstatic`; tests render templates without it.
    settings.STORAGES = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


@pytest.fixture(autouse=True, scope="session")
def _cube_tables(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The solved cube game is written to a folder of this run, not the machine's."""
    solver.use_tables(tmp_path_factory.mktemp("cube-tables"))


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    """Each test starts with an empty cache: ids repeat from one test's database to the next,
    so a render or a revision kept by one test would be another's."""
    cache.clear()
    caches["fragments"].clear()
    caches["here"].clear()
    selectors.forget_shown_sessions()


@pytest.fixture(autouse=True)
def _default_language() -> Any:
    """Each test starts in the site's language: the test client runs a request in this thread,
    and the locale middleware leaves that request's language active after it (a test that
    read a report in English after an Italian page got it in Italian)."""
    translation.activate(django_settings.LANGUAGE_CODE)
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _fast_passwords(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def owner(db: None) -> User:
    return User.objects.create_user("olga", password="owner-pass-123")


@pytest.fixture
def member(db: None) -> User:
    return User.objects.create_user("milo", password="member-pass-123")


@pytest.fixture
def outsider(db: None) -> User:
    return User.objects.create_user("otto", password="outsider-pass-123")


@pytest.fixture
def group(owner: User, member: User) -> Group:
    group = services.create_group(owner=owner, name="Thursday table")
    services.add_member(group=group, user=member)
    return group


@pytest.fixture
def players(group: Group) -> list[Player]:
    return [services.create_player(group=group, name=name) for name in ["Ada", "Bruno", "Chiara", "Dieter"]]


@pytest.fixture
def night(group: Group) -> GameNight:
    return services.create_night(group=group, date=datetime.date(2026, 11, 19), place="Ada's")


@pytest.fixture
def session(night: GameNight, players: list[Player]) -> GameSession:
    return services.create_session(night=night, game="tower-of-babel", players=players[:3], secret="7")


def client_for(user: User | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture
def owner_client(owner: User) -> Client:
    return client_for(owner)


@pytest.fixture
def member_client(member: User) -> Client:
    return client_for(member)


@pytest.fixture
def outsider_client(outsider: User) -> Client:
    return client_for(outsider)


def play(client: Client, session: GameSession, event: str, **data: Any) -> Any:
    """A move from the session page's own controls, sent against the current version."""
    session.refresh_from_db()
    return client.post(f"/s/{session.pk}/play/{event}/", {"expected_version": session.version, **data})


def migrate_to(targets: list[tuple[str, str]]) -> Any:
    """Migrates the test database to ``targets`` and gives the app registry as it was there."""
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def advance(session: GameSession, event: str, **payload: Any) -> None:
    """Another device's move, recorded against the current version."""
    session.refresh_from_db()
    services.append_event(session_id=session.pk, expected_version=session.version, type=event, payload=payload)
    session.refresh_from_db()


def to_the_first_turn(session: GameSession) -> None:
    """A started session moved on to its first seat's first turn, the widest panel each game
    shows a phone: Tower of Babel's first player named, Babel On!'s set-up and roll-off won by
    the first seat, 7 Wonders' tiles drafted by hand (babel's first seat plays at once)."""
    keys = [seat.key for seat in session.seats.all()]
    if session.game == "tower-of-babel":
        advance(session, tob.FIRST_PLAYER, seat=keys[0])
    elif session.game == "babel-on":
        advance(session, bo.SETUP, colours={keys[0]: "blue", keys[1]: "red"}, extra="green")
        advance(session, bo.ROLLOFF, rolls={keys[0]: 5, keys[1]: 2})
    elif session.game == "seven-wonders":
        advance(session, sw.DRAFT_RECORD, tiles=dict(zip(keys, [[5, 9, 13], [2, 7, 21], [3, 4, 22]], strict=True)))


def seated_phones(session: GameSession, code: str) -> dict[str, Client]:
    """A phone per seat of ``session``, each joined by ``code`` and holding its seat."""
    phones = {}
    for seat in session.seats.all():
        phone = Client()
        phone.post(f"/j/{code}/seat/", {"seat": seat.key})
        phones[seat.key] = phone
    return phones


def started_tower(session: GameSession) -> tuple[GameSession, list[str], str]:
    """A Tower of Babel session started with its first seat to play, and a join code."""
    seats = [seat.key for seat in session.seats.all()]
    advance(session, "session.start")
    advance(session, tob.FIRST_PLAYER, seat=seats[0])
    return session, seats, services.create_join_code(session=session).code


def offers_in(session: GameSession, seats: list[str]) -> tuple[str, str, int]:
    """The first seat chooses a single-kind disc and every other seat offers its whole demand:
    the disc's wonder, its kind and the number of cards it demands."""
    game = session.state["game"]
    disc, spec = next((d, v) for d, v in game["discs"].items() if len(v["demand"]) == 1)
    kind, number = next(iter(spec["demand"].items()))
    advance(session, tob.CHOOSE, wonder=spec["wonder"], disc=disc)
    for seat in seats[1:]:
        advance(session, tob.OFFER, seat=seat, cards={kind: number}, trading=False, triple=False)
    return spec["wonder"], kind, number


def finish_with_scores(session: GameSession, scores: list[int], tiebreaks: list[int] | None = None) -> None:
    """Final scores in seat order, then Finish: the session writes its Results."""
    keys = [seat.key for seat in session.seats.all()]
    payload: dict[str, Any] = {"scores": dict(zip(keys, scores, strict=True))}
    if tiebreaks:
        payload["tiebreaks"] = dict(zip(keys, tiebreaks, strict=True))
    services.append_event(
        session_id=session.pk, expected_version=session.version, type="scores.record", payload=payload
    )
    services.append_event(session_id=session.pk, expected_version=session.version + 1, type="session.finish")
    session.refresh_from_db()


@pytest.fixture
def eager() -> Any:
    """Celery tasks run in the test's own process even when REDIS_URL names a real broker:
    for tests of what a task does (the integration suite tests the worker itself)."""
    previous = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = previous


def ruled(message: str) -> str:
    """``message`` as a page shows it: each rule id in it a link to the rule's text."""
    return RULE_ID.sub(lambda found: rule_link(found.group(0)) or found.group(0), message)
