"""Undo and replay on a long Babel On! game (issue 16, item 1): linear, not quadratic.

Run from the repository root: ``.venv/bin/python -m bench.replay`` (``--events 500,2000``,
``--database postgres,sqlite``). The log is a 2-player game after its opening: wrong calls
of the die (each ends a turn, so the round checks pile up in the state) and a note every
tenth move, as long games grow; "with undos" adds an undo after every 20 moves. Printed:

- the pure replay (``scoring.session.replay``, no database) of 500 and 2,000 events, with and
  without undos: the median of 5 runs, per event, and against a bare loop over the same
  events that copies each payload (the baseline, same process);
- on PostgreSQL (``BENCH_DATABASE_URL``, default postgres://postgres@127.0.0.1:5432/babel_bench_replay,
  dropped and created) and SQLite (a new file): a session played to 2,000 events through
  ``services.append_event``, then the median time of a plain move and of an undo there (each
  undo followed by a move, 20 of each), their ratio (target: an undo at most 3x a move), and a
  one-row query as the baseline.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from bench import databases
from scoring import session as core
from scoring.babel_on import engine as bo

DATABASE_URL = "postgres://postgres@127.0.0.1:5432/babel_bench_replay"
SEATS = ["1", "2"]
OPENING: list[tuple[str, dict[str, Any]]] = [
    (core.START, {}),
    (bo.SETUP, {"colours": {"1": "red", "2": "blue"}}),
    (bo.ROLLOFF, {"rolls": {"1": 6, "2": 1}}),
]
UNDO_EVERY = 20
REPEATS = 20


def move(index: int) -> tuple[str, dict[str, Any]]:
    if index % 10 == 9:
        return bo.ADJUST, {"note": "The cat walked on the table."}
    return bo.ROLL, {"call": "even", "roll": 1} if index % 2 else {"call": "odd", "roll": 4}


def game_log(length: int, *, undos: bool) -> list[core.Event]:
    kinds: list[tuple[str, dict[str, Any]]] = [*OPENING]
    index = 0
    while len(kinds) < length:
        kinds.append(move(index))
        index += 1
        if undos and index % UNDO_EVERY == 0 and len(kinds) < length:
            kinds.append((core.UNDO, {}))
    return [core.Event(seq=seq, type=kind, payload=payload) for seq, (kind, payload) in enumerate(kinds, start=1)]


def median_ms(run: Callable[[], object], repeats: int = 5) -> float:
    times = []
    for _ in range(repeats):
        began = time.perf_counter()
        run()
        times.append((time.perf_counter() - began) * 1000)
    return statistics.median(times)


def copy_payloads(log: list[core.Event]) -> list[dict[str, Any]]:
    return [dict(event.payload) for event in log]


def pure_replay(lengths: list[int]) -> None:
    from sessions.games import get_game

    rules = get_game("babel-on").rules
    print("pure replay (no database): events | with undos | replay ms | per event us | bare loop ms | ratio")
    for length in lengths:
        for undos in (False, True):
            log = game_log(length, undos=undos)
            took = median_ms(partial(core.replay, rules, seats=SEATS, options={}, seed=1, events=log))
            bare = median_ms(partial(copy_payloads, log))
            print(
                f"{length:>6} | {'yes' if undos else 'no':>3} | {took:8.1f} | {took * 1000 / length:7.1f} | "
                f"{bare:8.2f} | {took / bare:6.0f}x",
                flush=True,
            )


def on_database(database: str, length: int) -> str:
    """In a process of its own: a session played to ``length`` events, then moves and undos."""
    with tempfile.TemporaryDirectory(prefix="babel-bench-replay-") as folder:
        env, setup = databases.environment(database, Path(folder), postgres_url=DATABASE_URL, redis_url=None)
        databases.set_up_django(env)
        import datetime

        from django.contrib.auth.models import User
        from django.db import connection

        from sessions import services
        from sessions.models import GameSession, StateSnapshot

        owner = User.objects.create_user("bench")
        group = services.create_group(owner=owner, name="Bench table")
        players = [services.create_player(group=group, name=name) for name in ("Ada", "Bruno")]
        night = services.create_night(group=group, date=datetime.date.today())
        session = services.create_session(night=night, game="babel-on", players=players)
        keys = {"1": str(players[0].pk), "2": str(players[1].pk)}
        version = 0

        def send(kind: str, payload: dict[str, Any]) -> None:
            nonlocal version
            if kind == bo.SETUP:
                payload = {"colours": {keys["1"]: "red", keys["2"]: "blue"}}
            if kind == bo.ROLLOFF:
                payload = {"rolls": {keys["1"]: 6, keys["2"]: 1}}
            services.append_event(session_id=session.pk, expected_version=version, type=kind, payload=payload)
            version += 1

        began = time.perf_counter()
        for event in game_log(length, undos=True):
            send(event.type, dict(event.payload))
        played = time.perf_counter() - began
        moves, undos, hello = [], [], []
        for index in range(REPEATS):
            kind, payload = move(index)
            moves.append(median_ms(partial(send, kind, payload), repeats=1))
            undos.append(median_ms(partial(send, core.UNDO, {}), repeats=1))
            send(kind, payload)  # back to the same depth

            def one_row() -> None:
                with connection.cursor() as cursor:
                    cursor.execute("SELECT 1")
                    cursor.fetchone()

            hello.append(median_ms(one_row, repeats=1))
        stored = GameSession.objects.get(pk=session.pk)
        snapshots = StateSnapshot.objects.filter(session=session).count()
        move_ms, undo_ms, hello_ms = (statistics.median(times) for times in (moves, undos, hello))
        return (
            f"{database}: {setup}\n"
            f"  a session played to {stored.version} events ({len(stored.state['in_effect'])} in effect, "
            f"{snapshots} snapshots) through append_event in {played:.1f} s\n"
            f"  median of {REPEATS}: a move {move_ms:.1f} ms, an undo {undo_ms:.1f} ms: "
            f"undo / move {undo_ms / move_ms:.2f}x (target at most 3x); a one-row query {hello_ms:.2f} ms, "
            f"a move {move_ms / hello_ms:.0f}x it, an undo {undo_ms / hello_ms:.0f}x"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", default="500,2000", help="log lengths, comma-separated (the last: on a database)")
    parser.add_argument("--database", default="postgres,sqlite", help="postgres, sqlite or both, comma-separated")
    args = parser.parse_args()
    lengths = [int(length) for length in args.events.split(",")]
    import os

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "babel_companion.settings")
    import django

    django.setup()  # the game registry, for the rules
    pure_replay(lengths)
    for database in args.database.split(","):
        print(databases.apart(on_database, database, lengths[-1]), flush=True)


if __name__ == "__main__":
    main()
