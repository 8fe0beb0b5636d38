"""The cube game's hints in a new server process, with and without the solved game's table
on disk (issue 16, item 6): what a worker's first hint costs, and the memory it keeps.

Run from the repository root: ``.venv/bin/python -m bench.cube_tables``. For each layout,
in processes of their own (spawned: nothing solved yet): the first hint as the hint switch
gives it today without a table (solve the whole game, then the opening's best moves), the
table's build and size, then the first hint in a new process that reads the table, and the
median hint over 200 positions of random games there. Memory: the process's VmRSS growth.
The baseline is the process without a table, measured in the same run.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from itertools import product
from pathlib import Path

from bench import databases
from bench.babel_cubes import sample_positions


def rss_kb() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def first_hint(variant: dict[str, str], folder: str | None) -> tuple[float, int, float]:
    """In a new process: (ms of the first hint, KB of memory it kept, median ms of later hints)."""
    from scoring.babel_cubes import solver
    from scoring.babel_cubes.geometry import load_geometry
    from scoring.babel_cubes.moves import Position

    if folder is not None:
        solver.use_tables(Path(folder))
    opening = Position(load_geometry(variant))
    positions = sample_positions(opening, 200, seed=2026)
    before = rss_kb()
    began = time.perf_counter()
    engine = solver.solver_for(opening.geometry)
    engine.warm(*solver.compact(opening))  # the hint switch readies the game
    solver.best_moves(opening)
    took = (time.perf_counter() - began) * 1000
    kept = rss_kb() - before
    later = []
    for position in positions:
        began = time.perf_counter()
        solver.best_moves(position)
        later.append((time.perf_counter() - began) * 1000)
    return took, kept, statistics.median(later)


def main() -> None:
    from scoring.babel_cubes import solver
    from scoring.babel_cubes.geometry import load_geometry, options

    choices = options()
    print("layout | no table: first hint ms, KB kept | table: build ms, MB | with it: first hint ms, KB kept | ")
    print("       | later hints median ms (no table / table)")
    with tempfile.TemporaryDirectory(prefix="babel-bench-cube-tables-") as folder:
        for values in product(*choices.values()):
            variant = dict(zip(choices, values, strict=True))
            plain = databases.apart(first_hint, variant, None)
            began = time.perf_counter()
            databases.apart(first_hint, variant, folder)  # the machine's first use writes the table
            built = (time.perf_counter() - began) * 1000
            size = solver.table_path(Path(folder), load_geometry(variant)).stat().st_size / 1e6
            reading = databases.apart(first_hint, variant, folder)
            print(
                f"{', '.join(values)} | {plain[0]:.0f} ms, {plain[1]} KB | {built:.0f} ms (process included), "
                f"{size:.1f} MB | {reading[0]:.2f} ms, {reading[1]} KB | {plain[2]:.3f} / {reading[2]:.3f} ms; "
                f"first hint {plain[0] / reading[0]:.0f}x faster",
                flush=True,
            )


if __name__ == "__main__":
    main()
