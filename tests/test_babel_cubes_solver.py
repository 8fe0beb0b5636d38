"""The babel exact solver: values, best moves, and checks against a plain minimax."""

from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.babel_cubes import solver
from scoring.babel_cubes.engine import BabelCubes, state_of
from scoring.babel_cubes.geometry import load_geometry, mask_of
from scoring.babel_cubes.moves import Move, Position, legal_moves, replay
from tests.test_babel_cubes_engine import GEOMETRIES, TOWER

VALUE = {1: "win", 0: "draw", -1: "loss"}

# The 8 symmetries of the square, written out here (not taken from the solver): a quarter
# turn clockwise and a mirror across the east-west axis, as maps of cells and side faces.
TURN = {
    "nw": "ne",
    "ne": "se",
    "se": "sw",
    "sw": "nw",
    "north": "east",
    "east": "south",
    "south": "west",
    "west": "north",
}
MIRROR = {"nw": "sw", "sw": "nw", "ne": "se", "se": "ne", "north": "south", "south": "north"}


def compose(first, then):
    return {name: then.get(first[name], first[name]) for name in first}


def _symmetries():
    identity = {name: name for name in TURN}
    found = [identity]
    for element in found:  # the list grows while we walk it
        for generator in (TURN, MIRROR):
            if (product := compose(element, generator)) not in found:
                found.append(product)
    return found


SYMMETRIES = _symmetries()


def image(move, symmetry):
    bulges = {symmetry.get(face, face) for face in move["bulges"]}
    return {"cell": symmetry[move["cell"]], "type": move["type"], "bulges": sorted(bulges)}


def key(move):
    return move["cell"], move["type"], frozenset(move["bulges"])


def plain_minimax(position):
    """The value for the player to move, by full search: no memo, no symmetry, the engine's own moves."""
    if position.complete:
        return 0
    best = -1
    for move in legal_moves(position):
        best = max(best, -plain_minimax(position.play(move)))
        if best == 1:  # nothing beats a win
            break
    return best


def keeps_going(position, move):
    after = position.play(move)
    return after.complete or bool(legal_moves(after))


@st.composite
def positions(draw, *, low=0, high=24, in_progress=False):
    """A position of a random game that avoids ending early where it can, cut at a random depth.

    ``in_progress``: if the game ended on the way, the position before its last move.
    """
    geometry = draw(st.sampled_from(GEOMETRIES))
    position = Position(load_geometry(geometry))
    depth = draw(st.integers(low, high))
    while position.placed < depth and (moves := legal_moves(position)):
        going = [move for move in moves if keeps_going(position, move)]
        after = position.play(draw(st.sampled_from(going or moves)))
        if in_progress and not going:
            break
        position = after
    return position


def as_json(moves):
    return [move.as_json() for move in moves]


def test_the_first_player_wins_the_opening_under_every_geometry():
    for geometry in GEOMETRIES:
        assert solver.solve(Position(load_geometry(geometry))) == "win", geometry


def test_twenty_of_the_thirty_two_default_openings_keep_the_win():
    opening = Position(load_geometry())
    best = solver.best_moves(opening)
    assert len(best) == 20
    assert all(solver.solve(opening.play(move)) == "loss" for move in best)
    assert all(solver.solve(opening.play(move)) == "win" for move in legal_moves(opening) if move not in best)


def test_a_ground_level_that_no_cube_can_close_wins_for_who_makes_it():  # BC-9
    # Opposite type 2 and U type 3 cannot stand on the ground (both need a bulge under them), so
    # a ground cube holds at most one bulge. After nw grey and ne white pointing west, a white sw
    # pointing north leaves se needing two inner bulges: player 2 cannot move.
    position = replay([{"cell": "nw", "type": 0}, {"cell": "ne", "type": 1, "bulges": ["west"]}], GEOMETRIES[3])
    assert solver.solve(position) == "win"
    assert Move("sw", 1, mask_of(["north"])) in solver.best_moves(position)


def test_a_finished_game_is_lost_for_the_player_to_move_and_has_no_best_move():  # BC-9
    moves = [{"cell": "nw", "type": 0}, {"cell": "ne", "type": 1, "bulges": ["west"]}]
    position = replay([*moves, {"cell": "sw", "type": 1, "bulges": ["north"]}], GEOMETRIES[3])
    assert solver.solve(position) == "loss"
    assert solver.best_moves(position) == []


def test_a_complete_tower_is_a_draw():  # BC-9
    tower = replay([{"cell": c, "type": t, "bulges": b} for c, t, b in TOWER])
    assert solver.solve(tower) == "draw"
    assert solver.best_moves(tower) == []
    last = Position(tower.geometry, tower.moves[:23])
    assert solver.solve(last) == "draw"
    assert tower.moves[23] in solver.best_moves(last)


def test_the_solver_reads_the_engine_state():
    engine = BabelCubes()
    state = engine.initial_state(seats=["light", "dark"], options={"type2": "opposite"}, seed=1)
    assert solver.solve(state) == "win"
    assert solver.best_moves(state) == solver.best_moves(Position(load_geometry({"type2": "opposite"})))


def test_the_answers_are_the_same_from_cold():
    position = replay([{"cell": "nw", "type": 1, "bulges": ["east"]}, {"cell": "ne", "type": 0}])
    first = (solver.solve(position), solver.best_moves(position))
    solver.forget()
    assert (solver.solve(position), solver.best_moves(position)) == first


def test_the_eight_symmetries_are_distinct_and_map_neighbours_to_neighbours():
    assert len(SYMMETRIES) == 8
    for symmetry in SYMMETRIES:
        assert {symmetry["nw"], symmetry["se"]} in ({"nw", "se"}, {"ne", "sw"})  # diagonals stay diagonals


@settings(max_examples=60, deadline=None)
@given(positions())
def test_the_solver_moves_are_the_engine_legal_moves(position):
    engine = solver.solver_for(position.geometry)
    assert [move for _, _, move in engine.children(*solver.compact(position))] == legal_moves(position)


MIDDLE_GAME = positions(low=12, high=23, in_progress=True).filter(lambda position: position.placed >= 12)
"""Positions still in progress with at least three levels built (the plain minimax stays fast there)."""


@settings(max_examples=30, deadline=None)
@given(MIDDLE_GAME)
def test_the_solver_value_equals_a_plain_minimax_from_the_middle_game_on(position):
    assert solver.solve(position) == VALUE[plain_minimax(position)]


@settings(max_examples=20, deadline=None)
@given(MIDDLE_GAME)
def test_every_best_move_keeps_the_value_of_a_plain_minimax(position):
    value = plain_minimax(position)
    best = solver.best_moves(position)
    assert best
    for move in legal_moves(position):
        assert (-plain_minimax(position.play(move)) == value) == (move in best)


@settings(max_examples=60, deadline=None)
@given(positions(), st.sampled_from(SYMMETRIES))
def test_symmetric_positions_get_the_same_value_and_matching_best_moves(position, symmetry):
    mirrored = replay([image(move, symmetry) for move in as_json(position.moves)], position.geometry.as_json())
    assert solver.solve(mirrored) == solver.solve(position)
    best = {key(move) for move in as_json(solver.best_moves(mirrored))}
    assert best == {key(image(move, symmetry)) for move in as_json(solver.best_moves(position))}


@cache
def warmed_solver(geometry):
    warmed = solver.Solver(geometry)
    warmed.warm(*solver.compact(Position(geometry)))
    return warmed


@settings(max_examples=60, deadline=None)
@given(positions())
def test_a_warmed_solver_agrees_with_a_fresh_one(position):
    fresh = solver.Solver(position.geometry)
    compact = solver.compact(position)
    assert warmed_solver(position.geometry).value(*compact) == fresh.value(*compact)


def test_the_engine_state_round_trips_through_the_solver():
    position = replay([{"cell": "nw", "type": 0}, {"cell": "ne", "type": 1, "bulges": ["west"]}])
    assert solver.solve(state_of(position, ["light", "dark"])) == solver.solve(position)
