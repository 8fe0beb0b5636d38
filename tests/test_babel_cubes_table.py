"""The solved cube game on disk (issue 16, item 6): written once per machine, then every
process looks its hints up in the memory-mapped file and solves nothing itself."""

import pytest
from hypothesis import given, settings

from scoring.babel_cubes import solver
from scoring.babel_cubes.geometry import load_geometry
from scoring.babel_cubes.moves import Position
from scoring.babel_cubes.table import SolvedTable, write_table
from tests.test_babel_cubes_solver import positions

DEFAULT = load_geometry({})


@pytest.fixture
def tables(tmp_path):
    """A machine whose table folder is empty; every solver forgotten before and after."""
    solver.forget()
    solver.use_tables(tmp_path)
    yield tmp_path
    solver.forget()


def test_a_table_answers_each_key_it_was_written_with_and_nothing_else(tmp_path):
    memo = {3: 1, 2**52 - 1: -1, 17: 0, 2**40: 1}
    write_table(tmp_path / "t.bct", memo)
    table = SolvedTable(tmp_path / "t.bct")
    assert {key: table.get(key) for key in memo} == memo
    assert [table.get(key) for key in (0, 4, 18, 2**52)] == [None] * 4
    assert table.count == 4


def test_the_first_process_solves_and_writes_the_table_and_the_next_only_reads_it(tables):
    first = solver.solver_for(DEFAULT)
    assert first.table is None
    assert len(first.memo) >= 100_000
    path = solver.table_path(tables, DEFAULT)
    assert SolvedTable(path).count == len(first.memo)

    solver.forget()  # a new server process on the same machine
    second = solver.solver_for(DEFAULT)
    assert second.table is not None
    assert solver.solve(Position(DEFAULT)) == "win"
    second.warm(*solver.compact(Position(DEFAULT)))  # switching hints on: nothing to solve
    assert second.memo == {}


@settings(max_examples=40, deadline=None)
@given(positions(high=23, in_progress=True))
def test_hints_read_from_the_table_are_the_solvers_own(position):
    cold = solver.Solver(position.geometry)
    mover, other, board = solver.compact(position)
    expected = [-cold.value(other, after, child) for after, child, _move in cold.children(mover, other, board)]
    reading = solver.solver_for(position.geometry)  # the run's table folder (tests/conftest.py)
    if reading.table is None:  # this run's first use of the geometry wrote the table: read it now
        solver.forget()
        reading = solver.solver_for(position.geometry)
    assert reading.table is not None
    got = [-reading.value(other, after, child) for after, child, _move in reading.children(mover, other, board)]
    assert got == expected
    assert reading.memo == {}


def test_a_half_written_or_foreign_file_is_solved_and_written_again(tables):
    path = solver.table_path(tables, DEFAULT)
    path.write_bytes(b"BCT1 not a table")
    assert solver.solver_for(DEFAULT).table is None  # solved here, since the file could not be read
    assert SolvedTable(path).count >= 100_000


def test_new_component_data_or_key_encoding_names_a_new_table(tables, monkeypatch):
    before = solver.table_path(tables, DEFAULT)
    monkeypatch.setattr(solver, "KEY_ENCODING", solver.KEY_ENCODING + 1)
    assert solver.table_path(tables, DEFAULT) != before
