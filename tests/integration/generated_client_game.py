"""A whole game through a client generated from the API's schema (openapi-python-client): run by
``test_a_generated_client.py`` with the generator's own Python, the generated package
``babel_client`` on its path, against BASE_URL with the token TOKEN. Prints what it saw, as JSON.

Only the generated client's typed calls and models are used: no URL, header or JSON of our own.
"""

from __future__ import annotations

import json
import os
import uuid
from typing import Any

from babel_client import AuthenticatedClient  # type: ignore[import-not-found]
from babel_client.api.groups import groups_create  # type: ignore[import-not-found]
from babel_client.api.nights import groups_nights_create  # type: ignore[import-not-found]
from babel_client.api.players import groups_players_create  # type: ignore[import-not-found]
from babel_client.api.results import results_list  # type: ignore[import-not-found]
from babel_client.api.sessions import nights_sessions_create, sessions_events_create  # type: ignore[import-not-found]
from babel_client.models import (  # type: ignore[import-not-found]
    ConflictOut,
    ErrorsOut,
    EventCreatedOut,
    EventIn,
    EventInPayload,
    GameEnum,
    GroupIn,
    NightIn,
    PlayerIn,
    ResultsListGame,
    SessionIn,
)


def payload(**fields: Any) -> Any:
    return EventInPayload.from_dict(fields)


def main() -> None:
    client = AuthenticatedClient(
        base_url=os.environ["BASE_URL"], token=os.environ["TOKEN"], raise_on_unexpected_status=True
    )
    group = groups_create.sync(client=client, body=GroupIn(name="Thursday table"))
    players = [
        groups_players_create.sync(group.id, client=client, body=PlayerIn(name=name))
        for name in ("Ada", "Bruno", "Chiara")
    ]
    night = groups_nights_create.sync(group.id, client=client, body=NightIn(place="Bruno's"))
    session = nights_sessions_create.sync(
        night.id, client=client, body=SessionIn(game=GameEnum.TOWER_OF_BABEL, players=[p.id for p in players])
    )
    seen: dict[str, Any] = {"session": session.id, "status": session.status.value}

    def move(kind: str, version: int, **fields: Any) -> Any:
        body = EventIn(
            type_=kind, expected_version=version, payload=payload(**fields), idempotency_key=uuid.uuid4().hex
        )
        return sessions_events_create.sync(session.id, client=client, body=body)

    started = move("session.start", 0)
    assert isinstance(started, EventCreatedOut), started
    refused = move("tob.pass", 1)  # before a first player is named
    assert isinstance(refused, ErrorsOut), refused
    seen["refused"] = [(error.field, error.rule, error.code) for error in refused.errors]
    stale = move("session.start", 0)
    assert isinstance(stale, ConflictOut), stale
    seen["stale"] = {"version": stale.version, "codes": [error.code for error in stale.errors]}
    scores = {str(player.id): score for player, score in zip(players, (31, 47, 12), strict=True)}
    recorded = move("scores.record", 1, scores=scores)
    assert isinstance(recorded, EventCreatedOut), recorded
    finished = move("session.finish", 2)
    assert isinstance(finished, EventCreatedOut), finished
    rows = results_list.sync(client=client, game=ResultsListGame.TOWER_OF_BABEL, session=session.id).results
    seen["results"] = sorted([row.name, row.score, row.rank] for row in rows)
    print(json.dumps(seen))


if __name__ == "__main__":
    main()
