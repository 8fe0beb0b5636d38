"""7 Wonders: Babel's JSON in the published schema (``sessions/api/shapes/seven_wonders.py``):
whole games, every module and option, fit the shapes the schema gives their events, state and
results, and the engine refuses what those shapes refuse."""

from typing import Any

import pytest

from scoring import session as core
from scoring.seven_wonders import engine as sw
from scoring.seven_wonders.data import markers_for
from scoring.seven_wonders.sheet import COLUMNS, REWARD_COUNTS, SCIENCE, TYPED
from sessions import services
from sessions.api.shapes import seven_wonders as shapes
from sessions.boards.seven_wonders import public_state
from sessions.games import GAMES, SEVEN_WONDERS
from sessions.models import GameSession
from tests.conftest import advance, finish_with_scores, play
from tests.shapes import check_the_shapes_of, problems
from tests.test_seven_wonders_engine import COUNTED, apply, new, recorded, refused_at

ENGINE = GAMES[SEVEN_WONDERS].engine
# Every module, and the group's corrections of the cards: every penalty gives a defeat token
# (tile 22 doubles it), a tile's effect and a reward worded as their cards say (SW-7, SW-11).
CORRECTIONS = {
    "tiles": {"9": "neighbours' grey goods cost 1 coin less"},
    "projects": {slug: {"penalty_defeat_tokens": 1} for slug in shapes.PROJECTS}
    | {"rampart-road": {"penalty_defeat_tokens": 1, "reward": "4 coins from the bank"}},
}


def keys(session: GameSession) -> list[str]:
    return [seat.key for seat in session.seats.all()]


def seven_wonders(night, players, options, secret="5") -> GameSession:
    session = services.create_session(night=night, game=SEVEN_WONDERS, players=players, options=options, secret=secret)
    advance(session, core.START)
    return session


def game(session: GameSession) -> dict[str, Any]:
    return session.state["game"]


def sheet(index: int, *, tiles: int = 0, projects: bool = False) -> dict[str, Any]:
    """A whole score sheet, a little different for each seat (SW-12, SW-13)."""
    entry: dict[str, Any] = {
        "coins": 3 + index,
        "military": 6 - 2 * index,
        "wonder": 7,
        "civilian": 12 + index,
        "commercial": 4,
        "guilds": 5,
        "leaders": None,
        "science": {"tablet": 2, "compass": 1 + index % 2, "gear": 0, "wild": 1, "archives": None},
        "babel_tiles": tiles,
    }
    if projects:
        entry |= {"great_projects": -1, "smelter": 1, "wonder_stages": 2, "menagerie": 0, "guilds_around": None}
        entry["science"]["archives"] = index % 2
    return entry


def play_the_age(session: GameSession, age: int) -> None:
    """Participations as the host's and the phones' forms send them (SW-9): the first seats take
    the card's markers, one a turn; in age 1 the next one joins in the same turn as the last from
    the reserve; in the others a marker is left and the project fails."""
    seats = keys(session)
    wanted = markers_for(len(seats)) if age == 1 else 1
    for index in range(wanted):
        advance(session, sw.PARTICIPATE, seat=seats[index], same_turn_reserve=False)
        if index < wanted - 1:
            advance(session, sw.NEXT_TURN, turn=index + 1)
    if age == 1:
        advance(session, sw.PARTICIPATE, seat=seats[wanted], same_turn_reserve=True)
    advance(session, sw.NEXT_TURN)


# --- the sessions ----------------------------------------------------------------------------


@pytest.fixture
def every_module(group, night, players) -> GameSession:
    """Four players with every module, Leaders and the group's corrected cards: the tile draft
    as the phones send it (a pick undone, a seat given as a number), tiles declared, taken back
    and placed, three ages of Great Projects (a success with the reserve, failures with
    penalties, tokens and Tomyris), and the sheets the engine counts."""
    services.set_edition_table(group=group, game=SEVEN_WONDERS, overrides=CORRECTIONS)
    options = {"tower_tiles": True, "great_projects": True, "leaders": True}
    session = seven_wonders(night, players, options)
    seats = keys(session)
    for step in (1, 2):
        for index, seat in enumerate(seats):
            advance(session, sw.DRAFT_PICK, seat=seat, tile=max(game(session)["hands"][seat]))
            if step == 1 and index == 0:
                advance(session, core.UNDO)  # they change their mind
                advance(session, sw.DRAFT_PICK, seat=int(seat), tile=min(game(session)["hands"][seat]))
    held = game(session)["tiles"]
    advance(session, sw.DECLARE_TILE, seat=seats[0], tile=held[seats[0]][0])
    advance(session, sw.DECLARE_TILE, seat=seats[0], tile=None)  # taken back
    advance(session, sw.DECLARE_TILE, seat=seats[0], tile=held[seats[0]][1])
    advance(session, sw.DECLARE_TILE, seat=seats[1], tile=held[seats[1]][0])
    advance(session, sw.BUILD_TILES)  # a phone places the declared tiles
    advance(session, sw.BUILD_TILES, tiles={seats[2]: held[seats[2]][0], seats[3]: held[seats[3]][2]})
    play_the_age(session, 1)
    advance(session, sw.END_AGE, cannot_suffer=[], tomyris="")
    advance(session, sw.DECLARE_TILE, seat=seats[3], tile=held[seats[3]][0])
    advance(session, sw.BUILD_TILES, tiles={})
    play_the_age(session, 2)
    advance(session, sw.END_AGE, cannot_suffer=[seats[3]], tomyris=seats[1])
    play_the_age(session, 3)
    advance(session, sw.END_AGE, cannot_suffer=seats[2:], tomyris=None)
    for index, seat in enumerate(seats):
        built = sw.tiles_built(game(session), seat)
        advance(session, sw.SHEET, seat=seat, sheet=sheet(index, tiles=built, projects=True))
    advance(session, sw.SHEET, seat=int(seats[0]), sheet={**sheet(0, projects=True), "note": "corrected"})
    advance(session, core.FINISH)
    return session


@pytest.fixture
def tiles_by_hand(member_client, night, players) -> GameSession:
    """Three players with the tiles only, everything from the host's page: a draft done with the
    physical tiles, tiles built, the three ages ended (SW-4, SW-7), the sheets typed in."""
    session = seven_wonders(night, players[:3], {"tower_tiles": True, "great_projects": False})
    seats = keys(session)
    hands = [[1, 5, 9], [2, 19, 24], [3, 7, 22]]
    drafted = {
        f"tile_{seat}_{i}": str(tile) for seat, hand in zip(seats, hands, strict=True) for i, tile in enumerate(hand)
    }
    assert play(member_client, session, "draft", **drafted).status_code == 302
    for age, built in enumerate(({seats[0]: 9, seats[1]: 2}, {seats[2]: 22}, {seats[0]: 1}), start=1):
        posted = {f"built_{seat}": str(tile) for seat, tile in built.items()}
        assert play(member_client, session, "build", **posted).status_code == 302
        if age == 2:
            advance(session, core.UNDO)  # a tile built by mistake
            assert play(member_client, session, "build", **{f"built_{seats[2]}": "7"}).status_code == 302
        assert play(member_client, session, "end-age").status_code == 302
    for index, seat in enumerate(seats):
        typed = {"seat": seat, "coins": str(4 + index), "military": "3+1", "civilian": "9", "babel_tiles": str(index)}
        typed |= {"science_tablet": "2", "science_compass": "2", "science_gear": "1", "science_wild": "1"}
        assert play(member_client, session, "sheet", **typed).status_code == 302
    advance(session, core.FINISH)
    return session


@pytest.fixture
def eight_before_turns(group, night, players) -> GameSession:
    """Eight players with Cities and the Great Projects only (SW-1, SW-3), a session stored
    before turns were counted (no turns_counted option): a player joins twice in a turn, anyone
    takes from the reserve, the table starts counting turns later; the scores are typed in."""
    more = [services.create_player(group=group, name=name) for name in ["Emil", "Frida", "Gus", "Hana"]]
    session = services.create_session(
        night=night, game=SEVEN_WONDERS, players=[*players, *more], options={"great_projects": True,
        "tower_tiles": False, "cities": True}, secret="9",
    )  # fmt: skip
    legacy = {name: value for name, value in session.options.items() if name != "turns_counted"}
    rules = GAMES[SEVEN_WONDERS].rules
    stored = core.initial_state(rules, seats=keys(session), options=legacy, seed=session.seed)
    GameSession.objects.filter(pk=session.pk).update(options=legacy, state=stored)
    advance(session, core.START)
    seats = keys(session)
    assert game(session)["turn"] is None
    for seat in seats[:5]:
        advance(session, sw.PARTICIPATE, seat=seat)
    advance(session, sw.PARTICIPATE, seat=seats[0])  # again in the same turn: turns are not counted
    advance(session, sw.PARTICIPATE, seat=seats[7], same_turn_reserve=True)
    advance(session, sw.END_AGE, cannot_suffer=[])
    advance(session, sw.NEXT_TURN, turn=None)  # the table counts turns from now on
    advance(session, sw.PARTICIPATE, seat=seats[6])
    advance(session, sw.NEXT_TURN, turn=2)
    advance(session, sw.END_AGE, cannot_suffer=seats[:2])
    advance(session, sw.END_AGE)
    session.refresh_from_db()
    finish_with_scores(session, [40 + n for n in range(8)], tiebreaks=[n % 3 for n in range(8)])
    return session


@pytest.fixture
def no_modules(night, players) -> GameSession:
    """Two players without the Babel modules: the sheets only, an age ended, the session left
    and taken up again by an undo."""
    session = seven_wonders(night, players[:2], {"tower_tiles": False, "great_projects": False}, secret="2")
    seats = keys(session)
    advance(session, sw.END_AGE)
    advance(session, sw.SHEET, seat=seats[0], sheet={"coins": 0})
    advance(session, core.ABANDON)
    advance(session, core.UNDO)
    advance(session, sw.SHEET, seat=seats[1], sheet={"coins": 2, "civilian": 1, "cities": -3, "science": None})
    advance(session, core.FINISH)
    return session


SESSIONS = ["every_module", "tiles_by_hand", "eight_before_turns", "no_modules"]


# --- the tests -------------------------------------------------------------------------------


def test_every_seven_wonders_event_type_has_a_typed_payload():
    assert set(shapes.EVENTS) == ENGINE.event_types()
    assert set(shapes.PUBLIC_EVENTS) == {sw.DRAFT_PICK, sw.DECLARE_TILE, sw.DRAFT_RECORD}
    assert all(payload.get("description") for payload in shapes.EVENTS.values())


def test_the_sheet_shape_names_every_count_the_engine_reads_and_the_breakdown_every_column():  # SW-12, SW-13
    assert set(shapes.SHEET["properties"]) == {"coins", *TYPED, "science", "babel_tiles", *REWARD_COUNTS}
    assert shapes.SHEET["required"] == ["coins"]
    assert set(shapes.SCIENCE["properties"]) == set(SCIENCE)
    assert list(shapes.BREAKDOWN["properties"]) == [*COLUMNS, "coins"]


@pytest.mark.django_db
@pytest.mark.parametrize("played", SESSIONS)
def test_a_seven_wonders_game_played_whole_fits_its_published_shapes(request, played):
    session = request.getfixturevalue(played)
    assert session.status == core.FINISHED
    assert session.results.count() == session.seats.count()
    found = check_the_shapes_of(session)
    assert found == [], "\n".join(found)


@pytest.mark.django_db
def test_the_games_played_take_every_event_type_the_engine_has_an_undo_and_every_option(request):
    sessions = [request.getfixturevalue(name) for name in SESSIONS]
    played = {event.type for session in sessions for event in session.events.all()}
    assert ENGINE.event_types() | {core.UNDO, core.ABANDON} <= played
    options = [session.options for session in sessions]
    for name in ("tower_tiles", "great_projects", "leaders", "cities"):
        assert {bool(chosen.get(name)) for chosen in options} == {True, False}, name
    assert {chosen.get("turns_counted") for chosen in options} == {True, None}
    assert any(chosen.get("table") for chosen in options)
    breakdowns = [set(result.breakdown) for session in sessions for result in session.results.all()]
    assert set(shapes.BREAKDOWN["properties"]) in breakdowns  # counted by the engine from the sheets
    assert {"points", "coins"} in breakdowns  # typed in


def test_a_state_with_a_field_of_another_type_does_not_fit(no_modules, every_module):
    shown = public_state(every_module.state)["game"]
    assert problems(shown, "SevenWondersState") == []
    assert problems({**shown, "age": "3"}, "SevenWondersState") != []
    assert problems({**shown, "hands": {"1": [4, 7, 9]}}, "SevenWondersState") != []  # the tiles are secret
    assert problems({**shown, "dealt": 24}, "SevenWondersState") != []
    plain = public_state(no_modules.state)
    assert problems(plain, "SessionState") == []
    assert problems(plain["game"], "SevenWondersState") == []
    assert problems({**plain["game"], "sheets": {"1": {"military": 3}}}, "SevenWondersState") != []  # no coins


# --- what the engine took though its shapes refuse it, now refused (scoring/seven_wonders/engine.py)


def test_an_age_ends_refusing_a_wrong_list_of_players_or_tomyris_whatever_the_modules():  # SW-4, SW-10
    for options in ({}, {"tower_tiles": True}, COUNTED):
        state = new(3, options=options)
        for wrong in ("x", ["3"], [0], [["0"]], None):
            refused_at(state, sw.END_AGE, None, "cannot_suffer", cannot_suffer=wrong)
        refused_at(state, sw.END_AGE, "SW-10", "tomyris", tomyris=7)  # a game without Leaders
        assert apply(state, sw.END_AGE, cannot_suffer=["1"], tomyris="")["age"] == 2
    leaders = new(3, options={"leaders": True})
    refused_at(leaders, sw.END_AGE, None, "tomyris", tomyris=1)
    assert apply(leaders, sw.END_AGE, tomyris="1")["age"] == 2


def test_a_tile_is_a_whole_number_never_true_or_a_decimal():  # SW-2, SW-5
    state = new(3)
    hand = state["hands"]["0"]
    refused_at(state, sw.DRAFT_PICK, "SW-2", "tile", seat="0", tile=float(hand[0]))
    holding_one = {**state, "hands": {**state["hands"], "0": [1, *hand[1:]]}}
    refused_at(holding_one, sw.DRAFT_PICK, "SW-2", "tile", seat="0", tile=True)
    drafted = recorded(3)  # seat 0 holds 1, 5, 9
    refused_at(drafted, sw.DECLARE_TILE, "SW-5", "tile", seat="0", tile=True)
    refused_at(drafted, sw.BUILD_TILES, "SW-5", "tiles.0", tiles={"0": 5.0})
    assert apply(drafted, sw.BUILD_TILES, tiles={"0": 5})["built"] == [["0", 5]]
