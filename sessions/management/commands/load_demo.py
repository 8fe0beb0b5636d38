"""Load a demo group with players and finished sessions of all four games.

Idempotent: a second run finds the demo group and changes nothing. Every session is
written through the services, so its event log replays to its state like any other.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from scoring import session as core
from scoring.babel_cubes.engine import PLACE
from sessions import services
from sessions.games import BABEL_CUBES, BABEL_ON, SEVEN_WONDERS, TOWER_OF_BABEL
from sessions.models import GameSession, Group, Player
from sessions.statistics import services as statistics

DEMO_USER, DEMO_PASSWORD, DEMO_GROUP = "demo", "demo-table-2026", "Demo table"
PLAYERS = ["Ada", "Bruno", "Chiara", "Dieter", "Élodie"]

# (game, players by index, options, final event type, payload by seat index)
SESSIONS: list[tuple[str, list[int], dict[str, Any], str, dict[int, Any]]] = [
    (TOWER_OF_BABEL, [0, 1, 2, 3], {}, "scores.record", {0: 87, 1: 92, 2: 92, 3: 64}),
    (BABEL_ON, [0, 2, 4], {}, "places.record", {0: 2, 1: 1, 2: 2}),
    (SEVEN_WONDERS, [1, 2, 3, 4], {}, "scores.record", {0: 61, 1: 58, 2: 61, 3: 49}),
    (BABEL_CUBES, [3, 4], {}, "places.record", {0: 1, 1: 2}),
]
TIEBREAKS = {SEVEN_WONDERS: {0: 4, 1: 9, 2: 7, 3: 2}}
# A babel game played on the tracker (the review shows where the first player lost the win).
CUBE_MOVES = [
    ("nw", 0, []),
    ("ne", 1, ["west"]),
    ("sw", 1, ["north"]),
    ("se", 3, ["up", "north", "west"]),
    ("nw", 2, ["down", "south"]),
    ("se", 1, ["north"]),
]


class Command(BaseCommand):
    help = "Load the demo group (user 'demo') with finished sessions of all four games."

    def handle(self, *args: Any, **options: Any) -> None:
        if Group.objects.filter(name=DEMO_GROUP).exists():
            self.stdout.write("The demo group is already there.")
            return
        with transaction.atomic():
            group = self._load()
            # Counted here, not left to the tasks the finished games queued: the demo shows its
            # statistics whether or not a worker is running (the tasks then find them counted).
            statistics.catch_up_group(group_id=group.pk)
        self.stdout.write(f"Loaded '{DEMO_GROUP}': log in as {DEMO_USER} / {DEMO_PASSWORD}")

    def _load(self) -> Group:
        user_model = get_user_model()
        user = user_model.objects.filter(username=DEMO_USER).first()
        if user is None:
            user = user_model.objects.create_user(username=DEMO_USER, password=DEMO_PASSWORD)
        group = services.create_group(owner=user, name=DEMO_GROUP)
        players = [services.create_player(group=group, name=name) for name in PLAYERS]
        night = services.create_night(
            group=group, date=datetime.date.today() - datetime.timedelta(days=7), place="Chiara's kitchen"
        )
        for game, indexes, options, event_type, values in SESSIONS:
            seated = [players[i] for i in indexes]
            session = services.create_session(night=night, game=game, players=seated, options=options)
            self._finish(session, user, seated, event_type, values, TIEBREAKS.get(game))
        tracked = services.create_session(night=night, game=BABEL_CUBES, players=[players[0], players[1]])
        moves = [(PLACE, {"cell": c, "type": t, "bulges": b}) for c, t, b in CUBE_MOVES]
        self._play(tracked, user, [(core.START, {}), *moves, (core.FINISH, {})])
        return group

    def _finish(
        self,
        session: GameSession,
        user: Any,
        seated: list[Player],
        event_type: str,
        values: dict[int, Any],
        tiebreaks: dict[int, int] | None,
    ) -> None:
        field = "scores" if event_type == "scores.record" else "places"
        payload: dict[str, Any] = {field: {str(p.pk): values[i] for i, p in enumerate(seated)}}
        if tiebreaks:
            payload["tiebreaks"] = {str(p.pk): tiebreaks[i] for i, p in enumerate(seated)}
        self._play(session, user, [(core.START, {}), (event_type, payload), (core.FINISH, {})])

    def _play(self, session: GameSession, user: Any, events: list[tuple[str, dict[str, Any]]]) -> None:
        for event, body in events:
            session.refresh_from_db()
            services.append_event(
                session_id=session.pk, expected_version=session.version, type=event, payload=body, author=user
            )
