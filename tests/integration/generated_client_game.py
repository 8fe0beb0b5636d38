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
    GameEnum,
    GroupIn,
    NightIn,
    PlayerIn,
    ResultsListGame,
    ScoresRecordEvent,
    ScoresRecordEventType,
    ScoresRecordPayload,
    ScoresRecordPayloadScores,
    SessionFinishEvent,
    SessionFinishEventType,
    SessionIn,
    SessionStartEvent,
    SessionStartEventType,
    TobFirstPlayerEvent,
    TobFirstPlayerEventType,
    TobFirstPlayerPayload,
    TobPassEvent,
    TobPassEventType,
    TowerOfBabelOptionsIn,
    TowerOfBabelState,
)


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
    options = TowerOfBabelOptionsIn(action_cards=False)
    body = SessionIn(game=GameEnum.TOWER_OF_BABEL, players=[p.id for p in players], options=options)
    session = nights_sessions_create.sync(night.id, client=client, body=body)
    seen: dict[str, Any] = {"session": session.id, "status": session.status.value}
    seen["options"] = session.options.to_dict()

    def send(event: Any) -> Any:
        event.idempotency_key = uuid.uuid4().hex
        return sessions_events_create.sync(session.id, client=client, body=event)

    started = send(SessionStartEvent(type_=SessionStartEventType.SESSION_START, expected_version=0))
    assert isinstance(started, EventCreatedOut), started
    seen["state"] = started.session.state.status.value
    refused = send(TobPassEvent(type_=TobPassEventType.TOB_PASS, expected_version=1))  # no first player yet
    assert isinstance(refused, ErrorsOut), refused
    seen["refused"] = [(error.field, error.rule, error.code) for error in refused.errors]
    stale = send(SessionStartEvent(type_=SessionStartEventType.SESSION_START, expected_version=0))
    assert isinstance(stale, ConflictOut), stale
    seen["stale"] = {"version": stale.version, "codes": [error.code for error in stale.errors]}
    first = str(players[1].id)
    chosen = send(
        TobFirstPlayerEvent(
            type_=TobFirstPlayerEventType.TOB_FIRST_PLAYER,
            expected_version=1,
            payload=TobFirstPlayerPayload(seat=first),
        )
    )
    assert isinstance(chosen, EventCreatedOut), chosen
    game = chosen.session.state.game
    assert isinstance(game, TowerOfBabelState), type(game)  # the union parsed as the session's game
    seen["active_is_the_first_player"] = game.active == first
    seen["event"] = [chosen.event.type_.value, chosen.event.payload.seat]
    scores = ScoresRecordPayloadScores.from_dict(
        {str(player.id): score for player, score in zip(players, (31, 47, 12), strict=True)}
    )
    recorded = send(
        ScoresRecordEvent(
            type_=ScoresRecordEventType.SCORES_RECORD,
            expected_version=2,
            payload=ScoresRecordPayload(scores=scores),
        )
    )
    assert isinstance(recorded, EventCreatedOut), recorded
    finished = send(SessionFinishEvent(type_=SessionFinishEventType.SESSION_FINISH, expected_version=3))
    assert isinstance(finished, EventCreatedOut), finished
    rows = results_list.sync(client=client, game=ResultsListGame.TOWER_OF_BABEL, session=session.id).results
    seen["results"] = sorted([row.name, row.score, row.rank, row.breakdown.to_dict()] for row in rows)
    print(json.dumps(seen))


if __name__ == "__main__":
    main()
