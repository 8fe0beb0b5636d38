"""babel (cube tower): the solver's figures for each geometry variant.

Run from the repository root: ``.venv/bin/python -m bench.babel_cubes``. For each variant it
prints who wins the opening position with perfect play, the states the cold opening solve
memoised and its time, the states of the whole game and the time to solve them all, and
the time of a hint (``best_moves``) on random positions, after the opening solve only and
once the whole game is solved (warm).
"""

from __future__ import annotations

import random
import statistics
import time
from itertools import product

from scoring.babel_cubes import solver
from scoring.babel_cubes.engine import state_of
from scoring.babel_cubes.geometry import load_geometry, options
from scoring.babel_cubes.moves import Position, legal_moves

POSITIONS = 2000
SEATS = ("light", "dark")
WINNER = {"win": "player 1 (who starts) wins", "loss": "player 2 wins", "draw": "a draw"}


def sample_positions(opening: Position, count: int, seed: int) -> list[Position]:
    """The positions still in progress along random games, until there are ``count``."""
    rng = random.Random(seed)
    positions: list[Position] = []
    while len(positions) < count:
        position = opening
        while len(positions) < count and (moves := legal_moves(position)):
            positions.append(position)
            position = position.play(rng.choice(moves))
    return positions


def hint_times(positions: list[Position]) -> tuple[float, float]:
    """(median, maximum) milliseconds of ``best_moves`` on each position's engine state (JSON)."""
    times = []
    for position in positions:
        state = state_of(position, SEATS)
        start = time.perf_counter()
        solver.best_moves(state)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), max(times)


def main() -> None:
    choices = options()
    for values in product(*choices.values()):
        variant = dict(zip(choices, values, strict=True))
        solver.forget()
        start = time.perf_counter()
        opening = Position(load_geometry(variant))
        value = solver.solve(opening)
        cold = (time.perf_counter() - start) * 1000
        engine = solver.solver_for(opening.geometry)
        cold_states = len(engine.memo)
        positions = sample_positions(opening, POSITIONS, seed=2026)
        partly = hint_times(positions)
        start = time.perf_counter()
        engine.warm(*solver.compact(opening))
        warm_up = (time.perf_counter() - start) * 1000
        warm = hint_times(positions)
        print(", ".join(f"{key} {name}" for key, name in variant.items()))
        print(f"  opening: {len(legal_moves(opening))} legal moves, {len(solver.best_moves(opening))} keep the value")
        print(f"  perfect play: {value} for the player to move: {WINNER[value]}")
        print(f"  cold opening solve: {cold:.1f} ms, {cold_states} states memoised")
        print(f"  whole game: {len(engine.memo)} states, solved in {warm_up:.1f} ms")
        print(
            f"  hint on {POSITIONS} positions of random games, after the opening solve only: "
            f"median {partly[0]:.2f} ms, max {partly[1]:.1f} ms"
        )
        print(f"  hint on the same positions once warm: median {warm[0]:.2f} ms, max {warm[1]:.2f} ms")


if __name__ == "__main__":
    main()
