"""babel's JSON in the published schema (``sessions/api/shapes/babel_cubes.py``): the placement
payload, the state and the breakdown fit games played whole, in every layout, to a win, a draw
and a hand-entered result, and a payload the schema refuses is one the engine refuses."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from scoring import session as core
from scoring.babel_cubes import solver
from scoring.babel_cubes.engine import PLACE
from scoring.babel_cubes.moves import position_of
from sessions import services
from sessions.api.shapes import babel_cubes, event_payloads
from sessions.boards import BOARDS
from sessions.games import BABEL_CUBES, GAMES
from sessions.management.commands.load_demo import CUBE_MOVES
from sessions.models import GameNight, GameSession, Player
from tests.conftest import advance
from tests.shapes import check_the_shapes_of, problems
from tests.test_babel_cubes_engine import LOST, TOWER, VARIANTS, move

LAYOUTS = {"type2": ("adjacent", "opposite"), "type3": ("corner", "u")}


def cube_session(night: GameNight, players: list[Player], **layout: str) -> GameSession:
    """A babel session of the first two players in ``layout``, started."""
    session = services.create_session(night=night, game=BABEL_CUBES, players=players[:2], options=layout)
    advance(session, core.START)
    return session


def place(session: GameSession, played: tuple[str, int, list[str]]) -> None:
    advance(session, PLACE, **move(*played))


def play_best_to_the_end(session: GameSession) -> None:
    """The player to move places the solver's first best move, until the game is over."""
    while session.state["game"]["status"] == "in_progress":
        best = solver.best_moves(position_of(session.state["game"]))[0]
        advance(session, PLACE, **best.as_json())


def drawn(night: GameNight, players: list[Player]) -> GameSession:
    """The complete tower (a draw, BC-9) in the default layouts, named, with a type 0 cube sent
    without its empty bulge list, a placement taken back and an abandon taken back."""
    session = cube_session(night, players, type2="adjacent", type3="corner")
    cell, cube_type, _none = TOWER[0]
    advance(session, PLACE, cell=cell, type=cube_type)
    place(session, TOWER[1])
    place(session, ("sw", 2, ["north", "east"]))
    advance(session, core.UNDO)
    for played in TOWER[2:12]:
        place(session, played)
    advance(session, core.ABANDON)
    advance(session, core.UNDO)
    for played in TOWER[12:]:
        place(session, played)
    advance(session, core.FINISH)
    return session


def won_at_once(night: GameNight, players: list[Player]) -> GameSession:
    """Opposite type 2, U type 3: after three cubes player 2 cannot place one and loses (BC-9)."""
    session = cube_session(night, players, **VARIANTS)
    for played in LOST:
        place(session, played)
    advance(session, core.FINISH)
    return session


def the_demo_game(night: GameNight, players: list[Player]) -> GameSession:
    """The demo's game, in the layouts a session gets by default: player 2 wins on level 2."""
    session = cube_session(night, players)
    for played in CUBE_MOVES:
        place(session, played)
    advance(session, core.FINISH)
    return session


def played_best(night: GameNight, players: list[Player], **layout: str) -> GameSession:
    """A game the solver plays for both players, to the end the engine finds."""
    session = cube_session(night, players, **layout)
    play_best_to_the_end(session)
    advance(session, core.FINISH)
    return session


def entered_by_hand(night: GameNight, players: list[Player]) -> GameSession:
    """A game stopped after a few cubes, its result typed in: scores, then places instead."""
    session = cube_session(night, players, type2="opposite", type3="corner")
    for played in CUBE_MOVES[:3]:
        place(session, played)
    keys = [seat.key for seat in session.seats.all()]
    advance(session, "scores.record", scores={keys[0]: 1, keys[1]: 0})
    advance(session, "places.record", places={keys[0]: 2, keys[1]: 1})
    advance(session, core.FINISH)
    return session


@pytest.fixture
def games(night: GameNight, players: list[Player]) -> list[GameSession]:
    return [
        drawn(night, players),
        won_at_once(night, players),
        the_demo_game(night, players),
        played_best(night, players, type2="adjacent", type3="u"),
        played_best(night, players, type2="opposite", type3="corner"),
        entered_by_hand(night, players),
    ]


def public_games(session: GameSession) -> list[dict[str, Any]]:
    """``state.game`` as the API showed it at each moment of ``session``: set-up, then after
    each event of its log."""
    game = GAMES[session.game]
    seats = [str(pk) for pk in session.seats.order_by("order").values_list("player_id", flat=True)]
    events = [event.as_core_event() for event in session.events.order_by("seq")]
    given: dict[str, Any] = {"seats": seats, "options": session.options, "seed": session.seed}
    return [
        BOARDS[session.game].public_state(core.replay(game.rules, events=events[:done], **given))["game"]
        for done in range(len(events) + 1)
    ]


def test_every_babel_cubes_event_type_has_a_typed_payload() -> None:
    engine = GAMES[BABEL_CUBES].engine
    assert engine is not None
    assert set(babel_cubes.EVENTS) == set(engine.event_types())
    for kind, shape in babel_cubes.EVENTS.items():
        assert shape["description"], kind
        assert all(prop.get("description") for prop in shape["properties"].values()), kind
    assert babel_cubes.PUBLIC_EVENTS == {}  # nothing in babel is secret


def test_babel_cubes_games_played_whole_fit_their_published_shapes(games: list[GameSession]) -> None:
    for session in games:
        found = check_the_shapes_of(session)
        assert found == [], f"session {session.pk} ({session.options}):\n" + "\n".join(found)


def test_the_babel_cubes_games_take_every_event_type_in_every_layout_to_every_end(games: list[GameSession]) -> None:
    stored = {event.type for session in games for event in session.events.all()}
    assert stored >= set(event_payloads(BABEL_CUBES)), set(event_payloads(BABEL_CUBES)) - stored
    for key, names in LAYOUTS.items():
        assert {session.state["game"]["geometry"][key] for session in games} == set(names), key
    ends = {(s.state["game"]["status"], s.state["game"]["winner"]) for s in games}
    assert ends >= {("drawn", None), ("won", 1), ("won", 2), ("in_progress", None)}
    assert all(session.status == core.FINISHED for session in games)
    counted = [s for s in games if s.state["entry"]["scores"] is None and s.state["entry"]["places"] is None]
    assert len(counted) == 5  # the engine decided these results, not the table


def test_every_moment_of_the_babel_cubes_games_fits_the_babel_cubes_state(games: list[GameSession]) -> None:
    # SessionState's `game` is any one of the games' states: checked here against babel's own.
    moments = [game for session in games for game in public_games(session)]
    for game in moments:
        assert problems(game, "BabelCubesState") == [], game
    assert {game["status"] for game in moments} == {"in_progress", "won", "drawn"}
    assert {game["level"] for game in moments} == set(range(1, 7))
    assert {len(game["moves"]) for game in moments} == set(range(25))


def test_a_babel_cubes_state_or_breakdown_with_a_field_broken_does_not_fit(games: list[GameSession]) -> None:
    state = games[0].state["game"]
    assert problems(state, "BabelCubesState") == []
    broken: list[dict[str, Any]] = []
    for change in (
        lambda s: s.update(level="6"),
        lambda s: s.update(winner=3),
        lambda s: s.update(colour="light"),
        lambda s: s["hands"].pop("2"),
        lambda s: s["hands"]["1"].append(0),
        lambda s: s["geometry"].update(type3="spiral"),
        lambda s: s["moves"][0].update(bulges=["inside"]),
        lambda s: s.pop("to_move"),
    ):
        copied = copy.deepcopy(state)
        change(copied)
        broken.append(copied)
    for copied in broken:
        assert problems(copied, "BabelCubesState"), copied
    assert problems({"cubes_placed": 12, "level": 6}, "BabelCubesBreakdown") == []
    assert problems({"cubes_placed": 12, "level": 7}, "BabelCubesBreakdown")
    assert problems({"cubes_placed": 12, "level": 6, "points": 0}, "BabelCubesBreakdown")
    sent = {"type": PLACE, "payload": {"cell": "middle", "type": 0}, "expected_version": 1}
    assert problems(sent, "EventIn")
    assert problems({**sent, "payload": {"type": 0}}, "EventIn")
